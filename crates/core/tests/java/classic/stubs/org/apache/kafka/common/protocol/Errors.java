package org.apache.kafka.common.protocol;
import org.apache.kafka.common.errors.ApiException;
import org.apache.kafka.common.errors.CoordinatorNotAvailableException;
import org.apache.kafka.common.errors.FencedInstanceIdException;
import org.apache.kafka.common.errors.IllegalGenerationException;
import org.apache.kafka.common.errors.UnknownMemberIdException;
import java.util.function.Function;
// STUB: the real enum pulls in every exception class. Only the constants ClassicGroup names, with
// their real codes and default messages; the ones without an extracted exception class throw ApiException.
public enum Errors {
    COORDINATOR_NOT_AVAILABLE(15, "The coordinator is not available.", CoordinatorNotAvailableException::new),
    ILLEGAL_GENERATION(22, "Specified group generation id is not valid.", IllegalGenerationException::new),
    UNKNOWN_MEMBER_ID(25, "The coordinator is not aware of this member.", UnknownMemberIdException::new),
    REBALANCE_IN_PROGRESS(27, "The group is rebalancing, so a rejoin is needed.", ApiException::new),
    INCONSISTENT_GROUP_PROTOCOL(23, "The group member's supported protocols are incompatible with those of existing members or first group member tried to join with empty protocol type or empty protocol list.", ApiException::new),
    NON_EMPTY_GROUP(68, "The group is not empty.", ApiException::new),
    FENCED_INSTANCE_ID(82, "The broker rejected this static consumer since another consumer with the same group.instance.id has registered with a different member.id.", FencedInstanceIdException::new);

    private final short code; private final String message; private final Function<String, ApiException> builder;
    Errors(int code, String message, Function<String, ApiException> builder) {
        this.code = (short) code; this.message = message; this.builder = builder;
    }
    public short code() { return code; }
    public String message() { return message; }
    public ApiException exception() { return builder.apply(message); }
    public ApiException exception(String m) { return builder.apply(m == null ? message : m); }
}
