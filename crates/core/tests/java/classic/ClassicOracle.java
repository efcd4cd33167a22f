import org.apache.kafka.common.message.JoinGroupRequestData.JoinGroupRequestProtocol;
import org.apache.kafka.common.message.JoinGroupRequestData.JoinGroupRequestProtocolCollection;
import org.apache.kafka.common.message.JoinGroupResponseData;
import org.apache.kafka.common.utils.LogContext;
import org.apache.kafka.common.utils.Time;
import org.apache.kafka.coordinator.group.classic.ClassicGroup;
import org.apache.kafka.coordinator.group.classic.ClassicGroupMember;
import org.apache.kafka.coordinator.group.classic.ClassicGroupState;

import java.io.BufferedWriter;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;

/**
 * Differential-testing oracle: runs Kafka's real (unmodified) ClassicGroup / ClassicGroupMember on
 * random join/leave sequences and prints one JSON document on stdout.
 *
 *   java ClassicOracle SEED CASES
 *
 * Per join (in order), as the broker does in GroupMetadataManager (classicGroupJoinNewMember /
 * classicGroupJoinExistingMember, then addMemberThenRebalanceOrCompleteJoin):
 *   group.supportsProtocols("consumer", protocolCollection)  -> false: refused (INCONSISTENT_GROUP_PROTOCOL)
 *   else: new ClassicGroupMember(..., "consumer", protocolCollection); setIsNew(true);
 *         group.add(member, new CompletableFuture<>());
 *         if (group.canRebalance()) group.transitionTo(PREPARING_REBALANCE)   (= prepareRebalance)
 * The group starts in EMPTY (as getOrMaybeCreateClassicGroup creates it), so the first member is only
 * checked for a non-empty protocol type and a non-empty protocol list; every later member needs a
 * protocol that all current members support.
 * Then candidateProtocols() (private; called by reflection), each member's vote(candidates) in
 * allMembers() order, selectProtocol(), leaderOrNull(); then for each leave group.remove(id) and
 * leaderOrNull() / allMemberIds().
 */
public class ClassicOracle {
    /** Each join's and leave's supportedProtocols counts too (-Dclassic.detail=true): the
     *  committed file leaves them out for size. */
    static final boolean DETAIL = Boolean.getBoolean("classic.detail");
    static final String PROTOCOL_TYPE = "consumer";
    static final String[] STANDARD = {"range", "roundrobin", "sticky", "cooperative-sticky"};
    static final String[] SHORT_PROTOCOLS = {"p", "q", "r", "s", "x", "y", "z", "Aa", "BB", "C#", "range"};
    static final String[] SHORT_IDS = {"a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k", "l", "m", "n", "o", "p", "z", "A", "B", "Z"};

    static Method candidateProtocols;

    public static void main(String[] args) throws Exception {
        long seed = args.length > 0 ? Long.parseLong(args[0]) : 42L;
        int cases = args.length > 1 ? Integer.parseInt(args[1]) : 2000;
        candidateProtocols = ClassicGroup.class.getDeclaredMethod("candidateProtocols");
        candidateProtocols.setAccessible(true);

        Random rnd = new Random(seed);
        PrintWriter out = new PrintWriter(new BufferedWriter(new OutputStreamWriter(System.out, StandardCharsets.UTF_8)));
        out.print("{\"kafka_commit\":\"1eb7644349cb07139d6a3c1ad1986979647cac99\",\"seed\":" + seed
            + ",\"protocol_type\":\"consumer\",\"cases\":[\n");
        for (int c = 0; c < cases; c++) {
            if (c > 0) out.print(",\n");
            out.print(runCase(c, rnd));
        }
        out.print("\n]}\n");
        out.flush();
    }

    // ---------------------------------------------------------------- random case generation

    static List<String> memberIds(Random rnd, int n) {
        int style = rnd.nextInt(7);
        // style 6: every id has the SAME String.hashCode (words of one length over {"Aa","BB","C#"});
        // 9+ equal hashes make java.util.HashMap resize to 64 buckets and, from 11, treeify the bin.
        int blocks = n <= 3 ? 1 : n <= 9 ? 2 + rnd.nextInt(2) : 3;
        LinkedHashSet<String> ids = new LinkedHashSet<>();
        while (ids.size() < n) {
            if (style == 6) { ids.add(collidingWord(rnd, blocks)); continue; }
            int s = style == 5 ? rnd.nextInt(5) : style;
            switch (s) {
                case 0: // short ids, random order
                    ids.add(SHORT_IDS[rnd.nextInt(SHORT_IDS.length)]);
                    break;
                case 1: // realistic ids as the broker generates them: clientId + "-" + UUID
                    ids.add("consumer-my-group-" + (1 + rnd.nextInt(12)) + "-" + new UUID(rnd.nextLong(), rnd.nextLong()));
                    break;
                case 2: // equal String.hashCode: words over {"Aa","BB","C#"} of length 1..3 blocks
                    ids.add(collidingWord(rnd, 1 + rnd.nextInt(3)));
                    break;
                case 3: // same HashMap bucket (low 4 bits of the spread hash) but different hashes
                    ids.add(sameBucket(rnd, 4));
                    break;
                default: // a mix of the above
                    int m = rnd.nextInt(3);
                    ids.add(m == 0 ? SHORT_IDS[rnd.nextInt(SHORT_IDS.length)]
                        : m == 1 ? collidingWord(rnd, 1 + rnd.nextInt(2))
                        : "consumer-g-" + rnd.nextInt(4) + "-" + new UUID(rnd.nextLong(), rnd.nextLong()));
            }
        }
        return new ArrayList<>(ids);
    }

    static String collidingWord(Random rnd, int blocks) {
        String[] b = {"Aa", "BB", "C#"};
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < blocks; i++) sb.append(b[rnd.nextInt(3)]);
        return sb.toString();
    }

    static int bucketTarget = -1;

    static String sameBucket(Random rnd, int bits) {
        if (bucketTarget < 0 || rnd.nextInt(8) == 0) bucketTarget = rnd.nextInt(1 << bits);
        while (true) {
            int len = 1 + rnd.nextInt(3);
            StringBuilder sb = new StringBuilder("m");
            for (int i = 0; i < len; i++) sb.append((char) ('a' + rnd.nextInt(26)));
            int h = sb.toString().hashCode();
            h = h ^ (h >>> 16);
            if ((h & ((1 << bits) - 1)) == bucketTarget) return sb.toString();
        }
    }

    static List<String> protocolList(Random rnd, int mode, int memberIndex) {
        List<String> l = new ArrayList<>();
        switch (mode) {
            case 0: { // standard assignors, random subset (mostly 2..4 of them) and order
                int k = rnd.nextInt(4) == 0 ? 1 : 2 + rnd.nextInt(3);
                List<String> pool = new ArrayList<>(List.of(STANDARD));
                java.util.Collections.shuffle(pool, rnd);
                l.addAll(pool.subList(0, k));
                break;
            }
            case 1: { // ties: two camps with opposite preferences over the same two protocols
                String a = STANDARD[rnd.nextInt(4)], b;
                do { b = STANDARD[rnd.nextInt(4)]; } while (b.equals(a));
                if (rnd.nextBoolean()) { String t = a; a = b; b = t; }
                if (memberIndex % 2 == 0) { l.add(a); l.add(b); } else { l.add(b); l.add(a); }
                if (rnd.nextInt(4) == 0) {
                    String extra = STANDARD[rnd.nextInt(4)];
                    if (!l.contains(extra)) l.add(extra);
                }
                break;
            }
            case 2: { // short random names, often sharing nothing
                int k = 1 + rnd.nextInt(3);
                List<String> pool = new ArrayList<>(List.of(SHORT_PROTOCOLS));
                java.util.Collections.shuffle(pool, rnd);
                l.addAll(pool.subList(0, k));
                break;
            }
            case 3: { // realistic client: [range, cooperative-sticky] (the Java consumer default) or a prefix
                if (rnd.nextInt(3) == 0) { l.add("cooperative-sticky"); l.add("range"); }
                else { l.add("range"); l.add("cooperative-sticky"); }
                if (rnd.nextInt(3) == 0) l.remove(rnd.nextInt(2));
                break;
            }
            default: { // colliding protocol names (same String.hashCode) in random order
                int k = 1 + rnd.nextInt(3);
                while (l.size() < k) {
                    String w = collidingWord(rnd, 1 + rnd.nextInt(2));
                    if (!l.contains(w)) l.add(w);
                }
            }
        }
        // duplicated names within one list
        if (!l.isEmpty() && rnd.nextInt(20) == 0) {
            l.add(rnd.nextInt(l.size() + 1), l.get(rnd.nextInt(l.size())));
        }
        // rarely: an empty protocol list
        if (rnd.nextInt(60) == 0) l.clear();
        return l;
    }

    /** 0 standard 30%, 1 ties 25%, 2 short names 15%, 3 realistic 15%, 4 colliding names 15%. */
    static int pickMode(Random rnd) {
        int r = rnd.nextInt(20);
        return r < 6 ? 0 : r < 11 ? 1 : r < 14 ? 2 : r < 17 ? 3 : 4;
    }

    // ---------------------------------------------------------------- running one case

    static String runCase(int index, Random rnd) throws Exception {
        int n = rnd.nextInt(7) == 0 ? 1 + rnd.nextInt(3) : 1 + rnd.nextInt(12);
        List<String> ids;
        int mode;
        if (rnd.nextInt(12) == 0) {
            // 9..12 members whose ids all have the same String.hashCode (3-block words over
            // {"Aa","BB","C#"}), with compatible protocols so most are accepted: java.util.HashMap
            // resizes to 64 buckets and treeifies the bin from the 11th such key, which changes the
            // members map's iteration order on later removals.
            n = 9 + rnd.nextInt(4);
            LinkedHashSet<String> same = new LinkedHashSet<>();
            while (same.size() < n) same.add(collidingWord(rnd, 3));
            ids = new ArrayList<>(same);
            mode = rnd.nextBoolean() ? 1 : 3;
        } else {
            ids = memberIds(rnd, n);
            mode = pickMode(rnd);
        }

        ClassicGroup group = new ClassicGroup(new LogContext(), "my-group", ClassicGroupState.EMPTY, Time.SYSTEM);

        StringBuilder events = new StringBuilder();
        List<String> accepted = new ArrayList<>(), refused = new ArrayList<>();
        List<String> joinRecords = new ArrayList<>();
        for (int i = 0; i < ids.size(); i++) {
            String id = ids.get(i);
            // Occasionally a member uses a different mode than the rest of the group.
            int m = rnd.nextInt(10) == 0 ? pickMode(rnd) : mode;
            List<String> protocols = protocolList(rnd, m, i);
            JoinGroupRequestProtocolCollection coll = new JoinGroupRequestProtocolCollection();
            for (String p : protocols) {
                coll.add(new JoinGroupRequestProtocol().setName(p).setMetadata(new byte[0]));
            }
            if (events.length() > 0) events.append(',');
            events.append("{\"join\":").append(q(id)).append(",\"protocols\":").append(arr(protocols)).append('}');

            boolean ok = group.supportsProtocols(PROTOCOL_TYPE, coll);
            if (ok) {
                ClassicGroupMember member = new ClassicGroupMember(
                    id, Optional.empty(), "consumer-my-group-1", "/127.0.0.1", 300000, 45000, PROTOCOL_TYPE, coll);
                member.setIsNew(true);
                if (group.isInState(ClassicGroupState.PREPARING_REBALANCE) && group.previousState() == ClassicGroupState.EMPTY) {
                    group.setNewMemberAdded(true);
                }
                group.add(member, new CompletableFuture<JoinGroupResponseData>());
                if (group.canRebalance()) {
                    group.transitionTo(ClassicGroupState.PREPARING_REBALANCE);
                }
                accepted.add(id);
            } else {
                refused.add(id);
            }
            joinRecords.add("{\"id\":" + q(id) + ",\"accepted\":" + ok + ",\"leader\":" + q(group.leaderOrNull())
                + ",\"supported_protocols\":" + counts(group.supportedProtocols()) + "}");
        }

        StringBuilder sb = new StringBuilder();
        sb.append("{\"case\":").append(index);

        // After all joins.
        String candidatesJson;
        Set<String> candidates = null;
        try {
            @SuppressWarnings("unchecked")
            Set<String> cs = (Set<String>) candidateProtocols.invoke(group);
            candidates = cs;
            candidatesJson = arr(cs);
        } catch (InvocationTargetException e) {
            candidatesJson = "null";
        }
        StringBuilder votes = new StringBuilder("[");
        for (ClassicGroupMember member : group.allMembers()) {
            if (votes.length() > 1) votes.append(',');
            String vote = null, ex = null;
            try {
                vote = member.vote(candidates);
            } catch (RuntimeException e) {
                ex = e.toString();
            }
            votes.append("{\"id\":").append(q(member.memberId())).append(",\"vote\":").append(q(vote))
                .append(",\"exception\":").append(q(ex)).append('}');
        }
        votes.append(']');
        String selected = null, selectEx = null;
        try {
            selected = group.selectProtocol();
        } catch (RuntimeException e) {
            selectEx = e.toString();
        }
        String leaderAfterJoins = group.leaderOrNull();
        String membersAfterJoins = arr(group.allMemberIds());
        String stateAfterJoins = group.currentState().toString();

        // Leaves.
        List<String> leaveIds = leaves(rnd, group, ids, accepted, refused);
        StringBuilder afterLeaves = new StringBuilder("[");
        for (String leave : leaveIds) {
            if (leave == null) { // "remove the current leader" directive, resolved now
                leave = group.leaderOrNull();
                if (leave == null) break;
            }
            events.append(",{\"leave\":").append(q(leave)).append('}');
            group.remove(leave);
            if (afterLeaves.length() > 1) afterLeaves.append(',');
            afterLeaves.append("{\"leave\":").append(q(leave)).append(",\"leader\":").append(q(group.leaderOrNull()))
                .append(",\"members\":").append(arr(group.allMemberIds()));
            if (DETAIL) afterLeaves.append(",\"supported_protocols\":").append(counts(group.supportedProtocols()));
            afterLeaves.append('}');
        }
        afterLeaves.append(']');

        sb.append(",\"events\":[").append(events).append(']');
        sb.append(",\"accepted\":").append(arr(accepted));
        sb.append(",\"refused\":").append(arr(refused));
        if (DETAIL) sb.append(",\"joins\":[").append(String.join(",", joinRecords)).append(']');
        sb.append(",\"state_after_joins\":").append(q(stateAfterJoins));
        sb.append(",\"members_after_joins\":").append(membersAfterJoins);
        sb.append(",\"candidates\":").append(candidatesJson);
        sb.append(",\"votes\":").append(votes);
        sb.append(",\"selected\":").append(q(selected));
        sb.append(",\"exception\":").append(q(selectEx));
        sb.append(",\"leader_after_joins\":").append(q(leaderAfterJoins));
        sb.append(",\"after_leaves\":").append(afterLeaves);
        sb.append('}');
        return sb.toString();
    }

    /** Leave ids; null means "whoever is the leader at that point". */
    static List<String> leaves(Random rnd, ClassicGroup group, List<String> ids, List<String> accepted, List<String> refused) {
        List<String> out = new ArrayList<>();
        int kind = rnd.nextInt(6);
        int size = accepted.size();
        switch (kind) {
            case 0: // no leaves
                break;
            case 1: { // remove the leader repeatedly, until the group is empty (or fewer times)
                int k = rnd.nextBoolean() ? size : 1 + rnd.nextInt(Math.max(1, size));
                for (int i = 0; i < k; i++) out.add(null);
                break;
            }
            case 2: { // random accepted members, each once
                List<String> pool = new ArrayList<>(accepted);
                java.util.Collections.shuffle(pool, rnd);
                out.addAll(pool.subList(0, rnd.nextInt(pool.size() + 1)));
                break;
            }
            case 3: { // leader and non-leaders interleaved
                List<String> pool = new ArrayList<>(accepted);
                java.util.Collections.shuffle(pool, rnd);
                int k = rnd.nextInt(size + 2);
                for (int i = 0; i < k; i++) {
                    if (rnd.nextBoolean() || pool.isEmpty()) out.add(null);
                    else out.add(pool.remove(0));
                }
                break;
            }
            case 4: { // anything: refused ids, unknown ids, repeats
                int k = 1 + rnd.nextInt(size + 3);
                for (int i = 0; i < k; i++) {
                    int r = rnd.nextInt(5);
                    if (r == 0 && !refused.isEmpty()) out.add(refused.get(rnd.nextInt(refused.size())));
                    else if (r == 1) out.add(rnd.nextBoolean() ? "unknown-member" : "Aa");
                    else if (r == 2) out.add(null);
                    else out.add(ids.get(rnd.nextInt(ids.size())));
                }
                break;
            }
            default: { // every accepted member leaves, in join order
                out.addAll(accepted);
            }
        }
        return out;
    }

    // ---------------------------------------------------------------- JSON helpers

    static String counts(Map<String, Integer> m) {
        StringBuilder sb = new StringBuilder("[");
        for (Map.Entry<String, Integer> e : m.entrySet()) {
            if (sb.length() > 1) sb.append(',');
            sb.append('[').append(q(e.getKey())).append(',').append(e.getValue()).append(']');
        }
        return sb.append(']').toString();
    }

    static String arr(Collection<String> c) {
        StringBuilder sb = new StringBuilder("[");
        for (String s : c) {
            if (sb.length() > 1) sb.append(',');
            sb.append(q(s));
        }
        return sb.append(']').toString();
    }

    static String q(String s) {
        if (s == null) return "null";
        StringBuilder sb = new StringBuilder("\"");
        for (int i = 0; i < s.length(); i++) {
            char ch = s.charAt(i);
            switch (ch) {
                case '"': sb.append("\\\""); break;
                case '\\': sb.append("\\\\"); break;
                case '\n': sb.append("\\n"); break;
                case '\r': sb.append("\\r"); break;
                case '\t': sb.append("\\t"); break;
                default:
                    if (ch < 0x20 || ch > 0x7e) sb.append(String.format("\\u%04x", (int) ch));
                    else sb.append(ch);
            }
        }
        return sb.append('"').toString();
    }
}
