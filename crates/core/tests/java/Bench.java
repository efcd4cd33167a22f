// Times Kafka's own assignors (apache/kafka 1eb7644, compiled from the mirror by
// tests/java/kafka.sh; scripts/bench-vs-java.sh runs this) on the group `rebalance-lab bench`
// times, so that the two can be compared side by side in one run:
//
//   java -cp <classes> Bench ASSIGNOR REBALANCE SUBSCRIPTIONS MEMBERS TOPICS PARTITIONS RUNS
//
// ASSIGNOR is one of the CLI's names (range, roundrobin, sticky, cooperative-sticky, uniform,
// server-range), REBALANCE fresh or one-leaves, SUBSCRIPTIONS homogeneous or heterogeneous.
// Prints one JSON line with the median of RUNS timed assignments, in microseconds.
//
// The group is src/assignor/mod.rs `server_benchmark_input`: members consumer-0.. and topics
// topic-0.. of PARTITIONS partitions each, no racks; every member subscribes to every topic,
// or (heterogeneous) member m to the TOPICS/2 topics from topic m (mod TOPICS) on.
// one-leaves is src/cli/bench.rs's: assign the fresh group with the same assignor, give every
// member what it got, remove the last member, and time assigning that group:
// - range, roundrobin: the owned partitions in the subscription, no generation (these
//   assignors never read them; `one_leaves_target`);
// - sticky: StickyAssignor user data with the owned partitions and generation 0, the
//   subscription's generation id 0 (`sticky::follow_up_input` gives max(no generation) + 1);
// - cooperative-sticky: the subscription's owned partitions and generation id 0;
// - uniform, server-range: the owned partitions as the member's target assignment and the
//   inverted target assignment (`one_leaves_target`).
// Owned partitions are listed topic by topic in topic-0.. order, each topic's ascending, as
// the Rust side's GroupInput holds them.
//
// Inputs reach Kafka's classes as tests/java/Oracle.java feeds them (subscriptions in a
// HashMap filled in member order; on the broker, as TargetAssignmentBuilder.build does, with
// topic ids from src/assignor/coordinator.rs `derived_topic_id`, as the Rust side uses). The
// timed call is the assignor's assign() alone, with the inputs built beforehand; on the broker
// the topic resolver's cache is cleared first, as Kafka's ServerSideAssignorBenchmark does, so
// that each run resolves the subscribed names again (the Rust side resolves them in each run).
//
// Steady state: before timing, the same call runs until -Dbench.warmup.invocations (3000)
// calls or -Dbench.warmup.seconds (10) have passed, whichever comes first.
import org.apache.kafka.clients.consumer.ConsumerPartitionAssignor;
import org.apache.kafka.clients.consumer.ConsumerPartitionAssignor.GroupSubscription;
import org.apache.kafka.clients.consumer.ConsumerPartitionAssignor.Subscription;
import org.apache.kafka.clients.consumer.CooperativeStickyAssignor;
import org.apache.kafka.clients.consumer.RoundRobinAssignor;
import org.apache.kafka.clients.consumer.StickyAssignor;
import org.apache.kafka.common.Cluster;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.coordinator.group.api.assignor.ConsumerGroupPartitionAssignor;
import org.apache.kafka.coordinator.group.api.assignor.GroupAssignment;
import org.apache.kafka.coordinator.group.api.assignor.MemberAssignment;
import org.apache.kafka.coordinator.group.api.assignor.SubscriptionType;
import org.apache.kafka.coordinator.group.assignor.UniformAssignor;
import org.apache.kafka.coordinator.group.modern.Assignment;
import org.apache.kafka.coordinator.group.modern.GroupSpecImpl;
import org.apache.kafka.coordinator.group.modern.MemberSubscriptionAndAssignmentImpl;
import org.apache.kafka.coordinator.group.modern.SubscribedTopicDescriberImpl;
import org.apache.kafka.coordinator.group.modern.TopicIds;
import org.apache.kafka.coordinator.group.modern.TopicMetadata;
import org.apache.kafka.image.TopicImage;
import org.apache.kafka.image.TopicsImage;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;

public class Bench {
    static final int WARMUP_INVOCATIONS = Integer.getInteger("bench.warmup.invocations", 3000);
    static final double WARMUP_SECONDS = Double.parseDouble(System.getProperty("bench.warmup.seconds", "10"));

    /** Keeps each result reachable, so that no run can be optimised away. */
    static volatile Object sink;
    /** Run before each call, untimed: what a call needs put back as it was (a buffer it read). */
    static Runnable before = () -> {};

    /** The group of `server_benchmark_input`: per member (consumer-0..), its topic names. */
    static List<List<String>> subscriptions(List<String> topics, int members, boolean heterogeneous) {
        List<List<String>> out = new ArrayList<>();
        int half = Math.max(topics.size() / 2, 1);
        for (int m = 0; m < members; m++) {
            if (!heterogeneous) {
                out.add(topics);
                continue;
            }
            List<String> mine = new ArrayList<>();
            for (int k = 0; k < half; k++) mine.add(topics.get((m + k) % topics.size()));
            out.add(mine);
        }
        return out;
    }

    static String memberId(int m) {
        return "consumer-" + m;
    }

    // ---- client side ---------------------------------------------------------------------

    /** Owned partitions per member id: topic by topic in topic-0.. order, ascending. */
    static Map<String, List<TopicPartition>> ownedByMember(
            Map<String, ConsumerPartitionAssignor.Assignment> got, Map<String, Integer> topicIndex) {
        Map<String, List<TopicPartition>> out = new HashMap<>();
        got.forEach((id, a) -> {
            List<TopicPartition> ps = new ArrayList<>(a.partitions());
            ps.sort((x, y) -> {
                int c = Integer.compare(topicIndex.get(x.topic()), topicIndex.get(y.topic()));
                return c != 0 ? c : Integer.compare(x.partition(), y.partition());
            });
            out.put(id, ps);
        });
        return out;
    }

    static Supplier<Object> client(String kind, boolean oneLeaves, List<String> topics,
                                   int members, int partitions, boolean heterogeneous, long[] total) {
        List<PartitionInfo> parts = new ArrayList<>();
        Node node = new Node(0, "n0", 9092);
        Node[] replicas = {node};
        Map<String, Integer> topicIndex = new HashMap<>();
        for (int t = 0; t < topics.size(); t++) {
            topicIndex.put(topics.get(t), t);
            for (int p = 0; p < partitions; p++) parts.add(new PartitionInfo(topics.get(t), p, node, replicas, replicas));
        }
        Cluster cluster = new Cluster("bench", List.of(node), parts, Set.of(), Set.of());
        ConsumerPartitionAssignor assignor;
        switch (kind) {
            case "range": assignor = new org.apache.kafka.clients.consumer.RangeAssignor(); break;
            case "roundrobin": assignor = new RoundRobinAssignor(); break;
            case "sticky": assignor = new StickyAssignor(); break;
            default: assignor = new CooperativeStickyAssignor(); break;
        }
        List<List<String>> subscribed = subscriptions(topics, members, heterogeneous);
        Map<String, Subscription> subs = new HashMap<>();
        for (int m = 0; m < members; m++) {
            subs.put(memberId(m), new Subscription(subscribed.get(m), null, List.of(), -1, Optional.empty()));
        }
        if (oneLeaves) {
            Map<String, List<TopicPartition>> owned = ownedByMember(
                assignor.assign(cluster, new GroupSubscription(subs)).groupAssignment(), topicIndex);
            subs = new HashMap<>();
            for (int m = 0; m < members - 1; m++) {
                List<TopicPartition> mine = owned.get(memberId(m));
                Subscription s;
                switch (kind) {
                    case "sticky":
                        s = new Subscription(subscribed.get(m), Oracle.StickyUserData.serialize(mine, 0), List.of(), 0, Optional.empty());
                        break;
                    case "cooperative-sticky":
                        s = new Subscription(subscribed.get(m), null, mine, 0, Optional.empty());
                        break;
                    default:
                        s = new Subscription(subscribed.get(m), null, mine, -1, Optional.empty());
                        break;
                }
                subs.put(memberId(m), s);
            }
        }
        Set<String> subscribedTopics = new HashSet<>();
        for (Subscription s : subs.values()) subscribedTopics.addAll(s.topics());
        total[0] = (long) subscribedTopics.size() * partitions;
        GroupSubscription group = new GroupSubscription(subs);
        if (kind.equals("sticky")) {
            // StickyAssignor reads its user data from the subscription's own buffer and leaves
            // it read (deserializeTopicPartitionAssignment reads `buffer`, not a duplicate):
            // without a rewind, every call after the first would see no user data, no owned
            // partitions, and time a fresh assignment instead of this one.
            before = () -> {
                for (Subscription s : group.groupSubscription().values()) {
                    if (s.userData() != null) s.userData().rewind();
                }
            };
        }
        return () -> assignor.assign(cluster, group);
    }

    static long clientTotal(Object result) {
        long n = 0;
        for (ConsumerPartitionAssignor.Assignment a : ((ConsumerPartitionAssignor.GroupAssignment) result).groupAssignment().values()) {
            n += a.partitions().size();
        }
        return n;
    }

    // ---- broker side ---------------------------------------------------------------------

    /** src/assignor/coordinator.rs `derived_topic_id`: the id a topic gets from its name. */
    static Uuid derivedTopicId(String name) {
        long msb = fnv("rebalance-lab topic msb\0", name);
        long lsb = fnv("rebalance-lab topic lsb\0", name);
        if (msb == 0 && (lsb == 0 || lsb == 1)) lsb |= 2;
        return new Uuid(msb, lsb);
    }

    static long fnv(String prefix, String name) {
        long h = 0xcbf29ce484222325L;
        for (byte b : (prefix + name).getBytes(StandardCharsets.UTF_8)) {
            h ^= b & 0xff;
            h *= 0x00000100000001b3L;
        }
        h = (h ^ (h >>> 30)) * 0xbf58476d1ce4e5b9L;
        h = (h ^ (h >>> 27)) * 0x94d049bb133111ebL;
        return h ^ (h >>> 31);
    }

    static Supplier<Object> broker(String kind, boolean oneLeaves, List<String> topics,
                                   int members, int partitions, boolean heterogeneous, long[] total) {
        List<TopicImage> image = new ArrayList<>();
        List<Uuid> ids = new ArrayList<>();
        for (String t : topics) {
            Uuid id = derivedTopicId(t);
            ids.add(id);
            image.add(new TopicImage(t, id));
        }
        TopicIds.TopicResolver resolver = new TopicIds.CachedTopicResolver(new TopicsImage(image));
        ConsumerGroupPartitionAssignor assignor = kind.equals("uniform")
            ? new UniformAssignor() : new org.apache.kafka.coordinator.group.assignor.RangeAssignor();
        List<List<String>> subscribed = subscriptions(topics, members, heterogeneous);

        Map<String, Map<Uuid, Set<Integer>>> owned = new HashMap<>();
        int count = members;
        if (oneLeaves) {
            GroupAssignment first = assignor.assign(
                spec(topics, ids, subscribed, members, Map.of(), resolver), describer(topics, ids, subscribed, members, partitions));
            first.members().forEach((id, ma) -> owned.put(id, ma.partitions()));
            count = members - 1;
        }
        total[0] = (long) subscribedTopics(subscribed, count).size() * partitions;
        GroupSpecImpl spec = spec(topics, ids, subscribed, count, owned, resolver);
        SubscribedTopicDescriberImpl describer = describer(topics, ids, subscribed, count, partitions);
        return () -> {
            resolver.clear();
            return assignor.assign(spec, describer);
        };
    }

    static Set<String> subscribedTopics(List<List<String>> subscribed, int members) {
        Set<String> out = new HashSet<>();
        for (int m = 0; m < members; m++) out.addAll(subscribed.get(m));
        return out;
    }

    static SubscribedTopicDescriberImpl describer(List<String> topics, List<Uuid> ids,
                                                  List<List<String>> subscribed, int members, int partitions) {
        Set<String> names = subscribedTopics(subscribed, members);
        Map<Uuid, TopicMetadata> metadata = new HashMap<>();
        for (int t = 0; t < topics.size(); t++) {
            if (names.contains(topics.get(t))) metadata.put(ids.get(t), new TopicMetadata(ids.get(t), topics.get(t), partitions));
        }
        return new SubscribedTopicDescriberImpl(metadata);
    }

    /** The first `members` members, each owning its partitions of `owned` as its target. */
    static GroupSpecImpl spec(List<String> topics, List<Uuid> ids, List<List<String>> subscribed, int members,
                              Map<String, Map<Uuid, Set<Integer>>> owned, TopicIds.TopicResolver resolver) {
        Map<String, MemberSubscriptionAndAssignmentImpl> memberSpecs = new HashMap<>();
        Map<Uuid, Map<Integer, String>> inverted = new HashMap<>();
        Map<String, Integer> subscribedTopicNames = new HashMap<>();
        for (int m = 0; m < members; m++) {
            String id = memberId(m);
            Set<String> names = new HashSet<>(subscribed.get(m));
            names.forEach(n -> subscribedTopicNames.merge(n, 1, Integer::sum));
            Map<Uuid, Set<Integer>> mine = owned.getOrDefault(id, Map.of());
            Map<Uuid, Set<Integer>> target = new HashMap<>();
            for (Uuid topic : ids) {
                Set<Integer> ps = mine.get(topic);
                if (ps == null || ps.isEmpty()) continue;
                List<Integer> sorted = new ArrayList<>(ps);
                Collections.sort(sorted);
                target.put(topic, new HashSet<>(sorted));
                for (int p : sorted) inverted.computeIfAbsent(topic, __ -> new HashMap<>()).put(p, id);
            }
            memberSpecs.put(id, new MemberSubscriptionAndAssignmentImpl(
                Optional.empty(), Optional.empty(), new TopicIds(names, resolver), new Assignment(target)));
        }
        SubscriptionType type = Oracle.subscriptionType(subscribedTopicNames, memberSpecs.size());
        return new GroupSpecImpl(Collections.unmodifiableMap(memberSpecs), type, inverted);
    }

    static long brokerTotal(Object result) {
        long n = 0;
        for (MemberAssignment ma : ((GroupAssignment) result).members().values()) {
            for (Set<Integer> ps : ma.partitions().values()) n += ps.size();
        }
        return n;
    }

    // ---- timing --------------------------------------------------------------------------

    public static void main(String[] args) {
        if (args.length != 7) {
            System.err.println("usage: Bench ASSIGNOR fresh|one-leaves homogeneous|heterogeneous MEMBERS TOPICS PARTITIONS RUNS");
            System.exit(2);
        }
        String kind = args[0];
        boolean oneLeaves = args[1].equals("one-leaves");
        boolean heterogeneous = args[2].equals("heterogeneous");
        int members = Integer.parseInt(args[3]);
        int topicCount = Integer.parseInt(args[4]);
        int partitions = Integer.parseInt(args[5]);
        int runs = Integer.parseInt(args[6]);
        if (!Arrays.asList("fresh", "one-leaves").contains(args[1])
                || !Arrays.asList("homogeneous", "heterogeneous").contains(args[2])) {
            throw new IllegalArgumentException("rebalance: fresh|one-leaves; subscriptions: homogeneous|heterogeneous");
        }
        List<String> topics = new ArrayList<>();
        for (int t = 0; t < topicCount; t++) topics.add("topic-" + t);

        boolean broker = kind.equals("uniform") || kind.equals("server-range");
        if (!broker && !Arrays.asList("range", "roundrobin", "sticky", "cooperative-sticky").contains(kind)) {
            throw new IllegalArgumentException("unknown assignor " + kind);
        }
        long[] expected = new long[1];
        Supplier<Object> call = broker
            ? broker(kind, oneLeaves, topics, members, partitions, heterogeneous, expected)
            : client(kind, oneLeaves, topics, members, partitions, heterogeneous, expected);

        long warmStart = System.nanoTime();
        long deadline = warmStart + (long) (WARMUP_SECONDS * 1e9);
        int warm = 0;
        while (warm < WARMUP_INVOCATIONS && System.nanoTime() < deadline) {
            before.run();
            sink = call.get();
            warm++;
        }
        double warmSeconds = (System.nanoTime() - warmStart) / 1e9;

        double[] times = new double[runs];
        Object last = null;
        for (int i = 0; i < runs; i++) {
            before.run();
            long t = System.nanoTime();
            last = call.get();
            times[i] = (System.nanoTime() - t) / 1e3;
            sink = last;
        }
        Arrays.sort(times);
        long got = broker ? brokerTotal(last) : clientTotal(last);
        // Cooperative-sticky withholds the partitions that change owners (its first round).
        long withheld = kind.equals("cooperative-sticky") ? expected[0] - got : 0;
        if (got + withheld != expected[0] || withheld < 0) {
            throw new IllegalStateException("assigned " + got + " partitions, expected " + expected[0]);
        }
        System.out.printf(java.util.Locale.ROOT,
            "{\"assignor\":\"%s\",\"rebalance\":\"%s\",\"heterogeneous\":%b,\"members\":%d,\"topics\":%d,"
                + "\"partitions_per_topic\":%d,\"runs\":%d,\"warmup_invocations\":%d,\"warmup_seconds\":%.1f,"
                + "\"withheld\":%d,\"median_us\":%.1f,\"java\":\"%s\"}%n",
            kind, args[1], heterogeneous, members, topicCount, partitions, runs, warm, warmSeconds,
            withheld, times[runs / 2], System.getProperty("java.version"));
    }
}
