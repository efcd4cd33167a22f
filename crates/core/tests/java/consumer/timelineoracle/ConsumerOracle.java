package timelineoracle;

import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.message.ConsumerGroupHeartbeatRequestData;
import org.apache.kafka.common.message.ConsumerGroupHeartbeatResponseData;
import org.apache.kafka.common.metadata.PartitionRecord;
import org.apache.kafka.common.metadata.TopicRecord;
import org.apache.kafka.common.network.ClientInformation;
import org.apache.kafka.common.network.ListenerName;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.requests.RequestContext;
import org.apache.kafka.common.requests.RequestHeader;
import org.apache.kafka.common.security.auth.KafkaPrincipal;
import org.apache.kafka.common.security.auth.SecurityProtocol;
import org.apache.kafka.common.utils.LogContext;
import org.apache.kafka.common.utils.MockTime;
import org.apache.kafka.common.utils.Utils;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.coordinator.common.runtime.CoordinatorOperationExceptionHelper;
import org.apache.kafka.coordinator.common.runtime.CoordinatorRecord;
import org.apache.kafka.coordinator.common.runtime.CoordinatorResult;
import org.apache.kafka.coordinator.group.GroupConfig;
import org.apache.kafka.coordinator.group.GroupConfigManager;
import org.apache.kafka.coordinator.group.GroupCoordinatorConfig;
import org.apache.kafka.coordinator.group.GroupMetadataManager;
import org.apache.kafka.coordinator.group.TimelineGlue;
import org.apache.kafka.coordinator.group.metrics.GroupCoordinatorMetricsShard;
import org.apache.kafka.coordinator.group.modern.Assignment;
import org.apache.kafka.coordinator.group.modern.consumer.ConsumerGroup;
import org.apache.kafka.coordinator.group.modern.consumer.ConsumerGroupMember;
import org.apache.kafka.coordinator.group.modern.share.ShareGroupConfig;
import org.apache.kafka.image.MetadataDelta;
import org.apache.kafka.image.MetadataImage;
import org.apache.kafka.image.MetadataProvenance;
import org.apache.kafka.timeline.SnapshotRegistry;

import org.slf4j.helpers.NOPLogger;

import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The consumer protocol's coordinator (KIP-848) on a virtual clock: Kafka's REAL
 * GroupMetadataManager answers a script of ConsumerGroupHeartbeat requests, each sent at its time
 * exactly as written (an open loop: the script is what the lab's simulator sent), and this prints,
 * as JSON lines, every response, every coordinator timer that fires, and the group after each step
 * that changed it (group epoch, assignment epoch, each member's epoch, state, assigned partitions,
 * partitions pending revocation, and target).
 *
 * usage: java -cp CLASSPATH:THIS timelineoracle.ConsumerOracle SCENARIO.json
 *
 * Built on oracle-timeline's harness (../shared/tools/oracle-timeline): its TimelineGlue wires the
 * GroupMetadataManager as GroupCoordinatorShard does and replays records, its VirtualTimer has
 * MockCoordinatorTimer's semantics. This file only adds the topics to the metadata image (as
 * Kafka's tests' MetadataImageBuilder does, through MetadataDelta) and the heartbeat requests.
 *
 * Scenario:
 * {"group_id": "g", "broker": {GroupCoordinatorConfig keys},
 *  "topics": [{"name": "orders", "msb": 1, "lsb": 2, "partitions": 6}],
 *  "requests": [{"t_ms": 0, "client": "c1", "member_id": "c1-1", "member_epoch": 0,
 *                "instance_id": null, "rebalance_timeout_ms": 300000,
 *                "subscribed_topic_names": ["orders"], "owned": {"orders": [0, 1]}}],
 *  "end_ms": 60000}
 * "owned" and "subscribed_topic_names" may be null (the field not sent), "rebalance_timeout_ms" -1.
 *
 * Ordering on the clock, as oracle-timeline's: at equal times due timers fire before requests;
 * timers with equal deadlines fire in the order they were set; requests at equal times go in the
 * script's order.
 */
public final class ConsumerOracle {

    private String groupId;
    private MockTime time;
    private VirtualTimer<Void, CoordinatorRecord> timer;
    private SnapshotRegistry snapshotRegistry;
    private GroupMetadataManager gmm;
    private long lastWrittenOffset = 0;
    private final Map<Uuid, String> topicNames = new HashMap<>();
    private final Map<String, Uuid> topicIds = new HashMap<>();
    private String lastGroup = null;

    public static void main(String[] args) throws Exception {
        if (args.length != 1) {
            System.err.println("usage: ConsumerOracle SCENARIO.json");
            System.exit(2);
        }
        String text = new String(Files.readAllBytes(Paths.get(args[0])), StandardCharsets.UTF_8);
        @SuppressWarnings("unchecked")
        Map<String, Object> scenario = (Map<String, Object>) Json.parse(text);
        new ConsumerOracle().run(scenario);
    }

    @SuppressWarnings("unchecked")
    void run(Map<String, Object> sc) {
        groupId = (String) sc.getOrDefault("group_id", "group");
        Map<String, Object> broker = (Map<String, Object>) sc.getOrDefault("broker", Collections.emptyMap());
        Map<String, Object> props = new HashMap<>();
        for (Map.Entry<String, Object> e : broker.entrySet()) props.put(e.getKey(), String.valueOf(e.getValue()));
        GroupCoordinatorConfig config = new GroupCoordinatorConfig(new AbstractConfig(Utils.mergeConfigs(List.of(
            GroupCoordinatorConfig.GROUP_COORDINATOR_CONFIG_DEF,
            GroupCoordinatorConfig.NEW_GROUP_CONFIG_DEF,
            GroupCoordinatorConfig.OFFSET_MANAGEMENT_CONFIG_DEF,
            GroupCoordinatorConfig.CONSUMER_GROUP_CONFIG_DEF,
            GroupCoordinatorConfig.SHARE_GROUP_CONFIG_DEF)), props, false));

        // The topics, in a metadata image built the way Kafka's own MetadataImageBuilder does.
        MetadataDelta delta = new MetadataDelta(MetadataImage.EMPTY);
        for (Object o : (List<Object>) sc.get("topics")) {
            Map<String, Object> t = (Map<String, Object>) o;
            String name = (String) t.get("name");
            Uuid id = new Uuid(((Number) t.get("msb")).longValue(), ((Number) t.get("lsb")).longValue());
            topicNames.put(id, name);
            topicIds.put(name, id);
            delta.replay(new TopicRecord().setName(name).setTopicId(id));
            int partitions = ((Number) t.get("partitions")).intValue();
            for (int p = 0; p < partitions; p++) {
                delta.replay(new PartitionRecord().setTopicId(id).setPartitionId(p)
                    .setReplicas(List.of(0)).setIsr(List.of(0)).setLeader(0).setLeaderEpoch(0).setPartitionEpoch(0));
            }
        }
        MetadataImage image = delta.apply(MetadataProvenance.EMPTY);

        time = new MockTime(0L, 0L, 0L);
        timer = new VirtualTimer<>(time);
        LogContext logContext = new LogContext();
        snapshotRegistry = new SnapshotRegistry(logContext);
        GroupCoordinatorMetricsShard metricsShard = new GroupCoordinatorMetricsShard(
            snapshotRegistry, Collections.emptyMap(), new TopicPartition("__consumer_offsets", 0));
        Map<String, String> groupDefaults = new HashMap<>();
        groupDefaults.put(GroupConfig.CONSUMER_SESSION_TIMEOUT_MS_CONFIG, String.valueOf(config.consumerGroupSessionTimeoutMs()));
        groupDefaults.put(GroupConfig.CONSUMER_HEARTBEAT_INTERVAL_MS_CONFIG, String.valueOf(config.consumerGroupHeartbeatIntervalMs()));
        groupDefaults.put(GroupConfig.SHARE_RECORD_LOCK_DURATION_MS_CONFIG, String.valueOf(ShareGroupConfig.SHARE_GROUP_RECORD_LOCK_DURATION_MS_DEFAULT));
        gmm = TimelineGlue.build(config, snapshotRegistry, logContext, time, timer, metricsShard,
            new GroupConfigManager(groupDefaults), image);
        snapshotRegistry.idempotentCreateSnapshot(lastWrittenOffset);

        emit(line("config")
            .put("group_id", groupId)
            .put("group.consumer.session.timeout.ms", config.consumerGroupSessionTimeoutMs())
            .put("group.consumer.heartbeat.interval.ms", config.consumerGroupHeartbeatIntervalMs())
            .put("group.consumer.assignors", String.valueOf(config.consumerGroupAssignors().get(0).name()))
            .map);

        PriorityQueue<long[]> queue = new PriorityQueue<>((a, b) -> a[0] != b[0] ? Long.compare(a[0], b[0]) : Long.compare(a[1], b[1]));
        List<Map<String, Object>> requests = new ArrayList<>();
        for (Object o : (List<Object>) sc.get("requests")) {
            Map<String, Object> r = (Map<String, Object>) o;
            queue.add(new long[] {((Number) r.get("t_ms")).longValue(), requests.size()});
            requests.add(r);
        }
        long endMs = ((Number) sc.get("end_ms")).longValue();

        while (true) {
            long nextTimer = timer.nextDeadline();
            long nextRequest = queue.isEmpty() ? Long.MAX_VALUE : queue.peek()[0];
            long next = Math.min(nextTimer, nextRequest);
            if (next == Long.MAX_VALUE || next > endMs) break;
            if (next > time.milliseconds()) time.sleep(next - time.milliseconds());
            if (nextTimer <= nextRequest) {
                VirtualTimer.Scheduled<Void, CoordinatorRecord> s = timer.pollOne(time.milliseconds());
                emit(line("timer_fired").put("key", s.key).put("deadline", s.deadlineMs).map);
                runOp(() -> s.operation.generateRecords(), e -> emit(line("timer_error")
                    .put("key", s.key).put("error", String.valueOf(e)).map));
            } else {
                send(requests.get((int) queue.poll()[1]));
            }
            reportGroup();
        }
        emit(line("end").put("pending_timers", new TreeMap<>(timer.pending())).map);
    }

    // ------------------------------------------------------------------ requests

    @SuppressWarnings("unchecked")
    private void send(Map<String, Object> r) {
        String client = (String) r.get("client");
        ConsumerGroupHeartbeatRequestData req = new ConsumerGroupHeartbeatRequestData()
            .setGroupId(groupId)
            .setMemberId((String) r.get("member_id"))
            .setMemberEpoch(((Number) r.get("member_epoch")).intValue())
            .setInstanceId((String) r.get("instance_id"))
            .setRebalanceTimeoutMs(((Number) r.getOrDefault("rebalance_timeout_ms", -1)).intValue())
            .setSubscribedTopicNames((List<String>) r.get("subscribed_topic_names"));
        Map<String, Object> owned = (Map<String, Object>) r.get("owned");
        if (owned == null) {
            req.setTopicPartitions(null);
        } else {
            List<ConsumerGroupHeartbeatRequestData.TopicPartitions> tps = new ArrayList<>();
            for (Map.Entry<String, Object> e : owned.entrySet()) {
                List<Integer> ps = new ArrayList<>();
                for (Object p : (List<Object>) e.getValue()) ps.add(((Number) p).intValue());
                tps.add(new ConsumerGroupHeartbeatRequestData.TopicPartitions()
                    .setTopicId(topicIds.get(e.getKey())).setPartitions(ps));
            }
            req.setTopicPartitions(tps);
        }
        emit(line("request").put("client", client).put("member_id", req.memberId())
            .put("member_epoch", req.memberEpoch()).map);
        RequestContext ctx = new RequestContext(
            new RequestHeader(ApiKeys.CONSUMER_GROUP_HEARTBEAT, ApiKeys.CONSUMER_GROUP_HEARTBEAT.latestVersion(), client, 0),
            "1", InetAddress.getLoopbackAddress(), KafkaPrincipal.ANONYMOUS,
            ListenerName.forSecurityProtocol(SecurityProtocol.PLAINTEXT), SecurityProtocol.PLAINTEXT,
            ClientInformation.EMPTY, false);
        ConsumerGroupHeartbeatResponseData[] response = new ConsumerGroupHeartbeatResponseData[1];
        runOp(() -> {
            CoordinatorResult<ConsumerGroupHeartbeatResponseData, CoordinatorRecord> result = gmm.consumerGroupHeartbeat(ctx, req);
            response[0] = result.response();
            return result;
        }, e -> response[0] = CoordinatorOperationExceptionHelper.handleOperationException(
            "consumer-group-heartbeat", req, e,
            (error, msg) -> new ConsumerGroupHeartbeatResponseData().setErrorCode(error.code()).setErrorMessage(msg),
            NOPLogger.NOP_LOGGER));
        ConsumerGroupHeartbeatResponseData resp = response[0];
        Line l = line("response").put("client", client)
            .put("error", org.apache.kafka.common.protocol.Errors.forCode(resp.errorCode()).name())
            .put("member_id", resp.memberId())
            .put("member_epoch", resp.memberEpoch())
            .put("heartbeat_interval_ms", resp.heartbeatIntervalMs());
        if (resp.assignment() == null) {
            l.put("assignment", null);
        } else {
            Map<Uuid, Set<Integer>> a = new HashMap<>();
            for (ConsumerGroupHeartbeatResponseData.TopicPartitions tp : resp.assignment().topicPartitions()) {
                a.computeIfAbsent(tp.topicId(), k -> new TreeSet<>()).addAll(tp.partitions());
            }
            l.put("assignment", byName(a));
        }
        emit(l.map);
    }

    /**
     * One coordinator write, as the runtime runs it: on an exception the state reverts to the last
     * snapshot; the records are replayed iff replayRecords(); everything counts as committed at once.
     */
    private void runOp(java.util.function.Supplier<CoordinatorResult<?, CoordinatorRecord>> op,
                       java.util.function.Consumer<Throwable> onError) {
        snapshotRegistry.idempotentCreateSnapshot(lastWrittenOffset);
        CoordinatorResult<?, CoordinatorRecord> result;
        try {
            result = op.get();
        } catch (Throwable e) {
            snapshotRegistry.revertToSnapshot(lastWrittenOffset);
            onError.accept(e);
            return;
        }
        if (result.replayRecords()) {
            for (CoordinatorRecord record : result.records()) {
                TimelineGlue.replay(gmm, record);
                lastWrittenOffset++;
                snapshotRegistry.idempotentCreateSnapshot(lastWrittenOffset);
            }
        } else {
            lastWrittenOffset += result.records().size();
            snapshotRegistry.idempotentCreateSnapshot(lastWrittenOffset);
        }
        if (result.appendFuture() != null && !result.appendFuture().isDone()) result.appendFuture().complete(null);
        snapshotRegistry.deleteSnapshotsUpTo(lastWrittenOffset);
    }

    // ------------------------------------------------------------------ the group

    private void reportGroup() {
        ConsumerGroup g;
        try {
            g = gmm.consumerGroup(groupId, Long.MAX_VALUE);
        } catch (Exception e) {
            return;
        }
        Map<String, Object> members = new TreeMap<>();
        for (ConsumerGroupMember m : g.members().values()) {
            Map<String, Object> mm = new LinkedHashMap<>();
            mm.put("epoch", m.memberEpoch());
            mm.put("state", m.state().toString());
            mm.put("instance_id", m.instanceId());
            mm.put("assigned", byName(m.assignedPartitions()));
            mm.put("revoking", byName(m.partitionsPendingRevocation()));
            members.put(m.memberId(), mm);
        }
        Map<String, Object> target = new TreeMap<>();
        for (Map.Entry<String, Assignment> e : g.targetAssignment().entrySet()) {
            target.put(e.getKey(), byName(e.getValue().partitions()));
        }
        Line l = line("group").put("state", g.state().toString()).put("group_epoch", g.groupEpoch())
            .put("assignment_epoch", g.assignmentEpoch()).put("members", members).put("target", target);
        Map<String, Object> key = new LinkedHashMap<>(l.map);
        key.remove("t");
        String k = Json.write(key);
        if (!k.equals(lastGroup)) {
            lastGroup = k;
            emit(l.map);
        }
    }

    /** Partitions by topic name, sorted, topics with none left out. */
    private Map<String, Object> byName(Map<Uuid, Set<Integer>> byId) {
        Map<String, Object> out = new TreeMap<>();
        for (Map.Entry<Uuid, Set<Integer>> e : byId.entrySet()) {
            if (e.getValue().isEmpty()) continue;
            String name = topicNames.getOrDefault(e.getKey(), e.getKey().toString());
            out.put(name, new ArrayList<>(new TreeSet<>(e.getValue())));
        }
        return out;
    }

    // ------------------------------------------------------------------ output

    static final class Line {
        final Map<String, Object> map = new LinkedHashMap<>();

        Line put(String k, Object v) {
            map.put(k, v);
            return this;
        }
    }

    private Line line(String event) {
        return new Line().put("t", time.milliseconds()).put("event", event);
    }

    private void emit(Map<String, Object> m) {
        System.out.println(Json.write(m));
    }
}
