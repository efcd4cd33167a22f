// Differential-testing oracle: random groups, each run through Kafka's own assignor classes
// (apache/kafka 1eb7644, compiled from the mirror by tests/java/oracle.sh, which runs this),
// written in the shape of tests/vectors/*.json to <out>/{sticky,cooperative-sticky,
// kip848-uniform,kip848-range}.json. tests/oracle.rs replays every case through our library.
//
// Inputs reach Java as tests/vectors/README.md says the hand-picked vectors' did:
// - sticky: `owned` + `generation` as the StickyAssignor user data (serialized by
//   StickyAssignor itself), no owned partitions in the subscription, whose generation id is
//   the same generation;
// - cooperative-sticky: the subscription's owned partitions (topics in name order, each
//   topic's partitions as listed) and generation id;
// - both: the subscriptions in a HashMap filled in member order; `Cluster` partitions with
//   one replica node per listed rack;
// - KIP-848 (uniform, server range): as TargetAssignmentBuilder.build does, members in a
//   HashMap in member order, subscribed names as `new HashSet<>(list)` resolved to ids
//   through TopicIds over the topics image (names absent from it dropped), `owned` as the
//   member's target assignment (`HashMap<Uuid, Set<Integer>>` filled in topic name order,
//   each set a `new HashSet`),
//   the inverted target assignment, and the subscription metadata of subscribed topics.
// - KIP-848 topic ids: the file's text, about two in three spelled as Kafka writes no id but
//   reads one (the last character's unused bits set, or "==" added), parsed by Kafka's own
//   `Uuid.fromString` into the id the assignor gets.
// Every case comes from one java.util.Random seeded per assignor (the ids' spellings from a
// second one): rerunning writes the same files.
import org.apache.kafka.clients.consumer.ConsumerPartitionAssignor;
import org.apache.kafka.clients.consumer.ConsumerPartitionAssignor.GroupSubscription;
import org.apache.kafka.clients.consumer.ConsumerPartitionAssignor.Subscription;
import org.apache.kafka.clients.consumer.CooperativeStickyAssignor;
import org.apache.kafka.clients.consumer.StickyAssignor;
import org.apache.kafka.clients.consumer.internals.AbstractStickyAssignor;
import org.apache.kafka.common.Cluster;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.coordinator.group.api.assignor.ConsumerGroupPartitionAssignor;
import org.apache.kafka.coordinator.group.api.assignor.GroupAssignment;
import org.apache.kafka.coordinator.group.api.assignor.MemberAssignment;
import org.apache.kafka.coordinator.group.api.assignor.SubscriptionType;
import org.apache.kafka.coordinator.group.assignor.RangeAssignor;
import org.apache.kafka.coordinator.group.assignor.UniformAssignor;
import org.apache.kafka.coordinator.group.modern.Assignment;
import org.apache.kafka.coordinator.group.modern.GroupSpecImpl;
import org.apache.kafka.coordinator.group.modern.MemberSubscriptionAndAssignmentImpl;
import org.apache.kafka.coordinator.group.modern.SubscribedTopicDescriberImpl;
import org.apache.kafka.coordinator.group.modern.TopicIds;
import org.apache.kafka.coordinator.group.modern.TopicMetadata;
import org.apache.kafka.image.TopicImage;
import org.apache.kafka.image.TopicsImage;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;

public class Oracle {
    /** Cases per assignor, and the seed of the first assignor's Random (the others follow). */
    static final int CASES = 250;
    static final long SEED = 848_000;
    /** -Doracle.hard=true (ORACLE_HARD=1): more racks, more conflicts, shuffled owned lists
     * and, on the broker, partitions owned twice or beyond their topic. For exploring. */
    static final boolean HARD = Boolean.getBoolean("oracle.hard");
    static final String SOURCE = "tests/java/Oracle.java";

    /** One member of a generated case. Maps keep the order they are written in. */
    static final class Member {
        String id;
        String instanceId;
        String rack;
        List<String> topics = new ArrayList<>();
        // By topic name: a scenario's `owned` is a JSON object, which Rebalance Lab reads in
        // key order (String order equals its byte order for these names, no surrogates).
        TreeMap<String, List<Integer>> owned = new TreeMap<>();
        Integer generation;
    }

    /** One generated case. */
    static final class Case {
        LinkedHashMap<String, Integer> topics = new LinkedHashMap<>();
        LinkedHashMap<String, List<List<String>>> partitionRacks = new LinkedHashMap<>();
        LinkedHashMap<String, Uuid> topicIds = new LinkedHashMap<>();
        /** Each topic id as the case's file spells it, which Kafka's `Uuid.fromString` reads. */
        LinkedHashMap<String, String> topicIdTexts = new LinkedHashMap<>();
        List<Member> members = new ArrayList<>();
    }

    static final String BASE64_URL = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

    /**
     * The id as Kafka writes it, or, one time in three each, with the last character's unused
     * low bits set or padded with "==": texts `Uuid.fromString` reads as the same id. Drawn from
     * `spell`, apart from the case's own random stream, so the cases are the same either way.
     */
    static String spelled(Uuid id, Random spell) {
        String text = id.toString();
        switch (spell.nextInt(3)) {
            case 0: {
                int last = BASE64_URL.indexOf(text.charAt(21)) | (1 + spell.nextInt(15));
                return text.substring(0, 21) + BASE64_URL.charAt(last);
            }
            case 1: return text + "==";
            default: return text;
        }
    }

    // ---- generation ----------------------------------------------------------------------

    static final String[] PLAIN_TOPICS = {"t0", "t1", "t2", "t3", "t4", "t5"};
    // Equal String hashes ("Aa", "BB") and names out of their hash order.
    static final String[] ODD_TOPICS = {"orders", "Aa", "BB", "x", "events", "t10", "\u00e9t\u00e9"};
    static final String[] ODD_MEMBERS = {"Aa", "BB", "c10", "c2", "consumer-1", "consumer-11",
        "\u00e9", "\u20ac", "\ud83d\ude00", "\ue000", "z", "A", "m-9f2c"};
    static final String[] RACKS = {"r0", "r1", "r2"};

    /** Where the ids' spellings are drawn from (reset for each assignor's batch). */
    static Random SPELL = new Random(0);

    static <T> T pick(Random r, T[] xs) {
        return xs[r.nextInt(xs.length)];
    }

    static Case generate(Random r, boolean broker, boolean cooperative) {
        Case c = new Case();
        int nTopics = 1 + r.nextInt(r.nextInt(3) == 0 ? 6 : 3);
        List<String> pool = new ArrayList<>(Arrays.asList(r.nextInt(5) == 0 ? ODD_TOPICS : PLAIN_TOPICS));
        if (pool.size() > PLAIN_TOPICS.length) Collections.shuffle(pool, r);
        List<String> names = new ArrayList<>(pool.subList(0, nTopics));
        for (String t : names) {
            // Mostly present; a count of 0 is a topic absent from the metadata.
            int n = r.nextInt(8) == 0 ? 0 : 1 + r.nextInt(r.nextBoolean() ? 4 : 12);
            c.topics.put(t, n);
            Uuid id = new Uuid(r.nextLong(), r.nextLong());
            if (broker) {
                // the id the broker's assignors get is the one Kafka reads from the text
                String text = spelled(id, SPELL);
                id = Uuid.fromString(text);
                c.topicIdTexts.put(t, text);
            }
            c.topicIds.put(t, id);
        }
        // Sometimes someone subscribes to a name the metadata never heard of.
        List<String> subscribable = new ArrayList<>(names);
        if (r.nextInt(10) == 0) subscribable.add("gone");

        int nMembers = 1 + r.nextInt(r.nextBoolean() ? 4 : 12);
        boolean odd = r.nextInt(4) == 0;
        Set<String> ids = new HashSet<>();
        while (c.members.size() < nMembers) {
            Member m = new Member();
            m.id = odd && r.nextBoolean() ? pick(r, ODD_MEMBERS) : "c" + c.members.size();
            if (!ids.add(m.id)) continue;
            c.members.add(m);
        }
        // Subscriptions: all equal, or each its own subset.
        boolean equal = r.nextInt(5) < 2;
        List<String> shared = subset(r, subscribable);
        for (Member m : c.members) {
            m.topics = equal ? new ArrayList<>(shared) : subset(r, subscribable);
            if (r.nextInt(40) == 0 && !m.topics.isEmpty()) m.topics.add(m.topics.get(0));
        }
        // Racks: member racks and partition replica racks.
        if (HARD ? r.nextInt(5) < 3 : r.nextInt(4) == 0) {
            for (Member m : c.members) m.rack = r.nextInt(5) == 0 ? null : pick(r, RACKS);
            // The broker ignores racks: its cases carry member racks only, to stay small.
            for (Map.Entry<String, Integer> t : c.topics.entrySet()) {
                if (t.getValue() == 0 || broker) continue;
                List<List<String>> per = new ArrayList<>();
                for (int p = 0; p < t.getValue(); p++) {
                    List<String> rs = new ArrayList<>();
                    int k = r.nextInt(8) == 0 ? 0 : 1 + r.nextInt(2);
                    for (String rack : shuffled(r, RACKS)) if (rs.size() < k) rs.add(rack);
                    per.add(rs);
                }
                c.partitionRacks.put(t.getKey(), per);
            }
        }
        if (broker && r.nextBoolean()) {
            for (Member m : c.members) if (r.nextInt(5) < 3) m.instanceId = "i" + r.nextInt(100);
        }
        if (r.nextInt(4) != 0) previous(r, c, broker, cooperative);
        return c;
    }

    static List<String> subset(Random r, List<String> names) {
        List<String> out = new ArrayList<>();
        for (String t : shuffled(r, names.toArray(new String[0]))) if (r.nextInt(3) != 0) out.add(t);
        if (out.isEmpty() && r.nextInt(6) != 0) out.add(names.get(r.nextInt(names.size())));
        return out;
    }

    static String[] shuffled(Random r, String[] xs) {
        List<String> l = new ArrayList<>(Arrays.asList(xs));
        Collections.shuffle(l, r);
        return l.toArray(new String[0]);
    }

    /**
     * A previous assignment. Client side: generations 1 to 3, some partitions claimed twice,
     * now and then a partition that no longer exists. Broker side (a target assignment): each
     * partition owned at most once (but now and then twice), whatever the owner subscribes
     * to now.
     */
    static void previous(Random r, Case c, boolean broker, boolean cooperative) {
        List<Member> old = new ArrayList<>();
        int top = 1 + r.nextInt(5);
        for (Member m : c.members) {
            if (r.nextInt(5) == 0) continue;
            old.add(m);
            if (!broker) m.generation = r.nextInt(3) == 0 ? Math.max(1, top - 1 - r.nextInt(2)) : top;
        }
        if (old.isEmpty()) return;
        // A broker's target never gives a partition twice, but a scenario can: now and then.
        boolean conflicts = HARD ? r.nextInt(3) != 0 : r.nextInt(broker ? 12 : 3) == 0;
        int twice = HARD ? (broker ? 12 : 3) : (broker ? 10 : 6);
        for (Map.Entry<String, Integer> t : c.topics.entrySet()) {
            int n = t.getValue() == 0 ? (r.nextInt(4) == 0 ? 2 : 0) : t.getValue();
            for (int p = 0; p < n; p++) {
                if (r.nextInt(7) == 0) continue;
                own(old.get(r.nextInt(old.size())), t.getKey(), p);
                if (conflicts && r.nextInt(twice) == 0) own(old.get(r.nextInt(old.size())), t.getKey(), p);
            }
            if ((!broker || HARD) && t.getValue() > 0 && r.nextInt(HARD && broker ? 15 : 30) == 0) {
                own(old.get(r.nextInt(old.size())), t.getKey(), t.getValue() + r.nextInt(3));
            }
            // A negative owned partition (a hand-edited scenario): Java keeps it when the
            // topic exists, and answers with it.
            if (HARD && !broker && r.nextInt(25) == 0) own(old.get(r.nextInt(old.size())), t.getKey(), -1);
        }
        if (HARD) {
            for (Member m : old) m.owned.values().forEach(ps -> Collections.shuffle(ps, r));
        }
        // Cooperative-sticky also meets members with owned partitions and no generation.
        if (cooperative && r.nextInt(12) == 0) old.get(0).generation = null;
    }

    static void own(Member m, String topic, int p) {
        List<Integer> ps = m.owned.computeIfAbsent(topic, __ -> new ArrayList<>());
        if (!ps.contains(p)) ps.add(p);
    }

    // ---- running Kafka's classes ---------------------------------------------------------

    /** The answer: per member id, per topic name, partitions; or the exception. */
    static final class Answer {
        Map<String, Map<String, List<Integer>>> members;
        String exception;
        String subscriptionType;
        List<String> memberOrder;
        List<String> topicOrder;
    }

    static Cluster cluster(Case c) {
        List<PartitionInfo> parts = new ArrayList<>();
        Map<String, Node> nodes = new LinkedHashMap<>();
        Node noRack = new Node(0, "n0", 9092);
        nodes.put("", noRack);
        for (Map.Entry<String, Integer> t : c.topics.entrySet()) {
            List<List<String>> racks = c.partitionRacks.get(t.getKey());
            for (int p = 0; p < t.getValue(); p++) {
                List<String> rs = racks == null ? List.of() : racks.get(p);
                List<Node> replicas = new ArrayList<>();
                for (String rack : rs) {
                    replicas.add(nodes.computeIfAbsent(rack, k -> new Node(nodes.size(), "n" + nodes.size(), 9092, k)));
                }
                if (replicas.isEmpty()) replicas.add(noRack);
                Node[] rep = replicas.toArray(new Node[0]);
                parts.add(new PartitionInfo(t.getKey(), p, rep[0], rep, rep));
            }
        }
        return new Cluster("oracle", nodes.values(), parts, Set.of(), Set.of());
    }

    static Answer runSticky(Case c, boolean cooperative) {
        Map<String, Subscription> subs = new HashMap<>();
        for (Member m : c.members) {
            List<TopicPartition> owned = new ArrayList<>();
            m.owned.forEach((t, ps) -> ps.forEach(p -> owned.add(new TopicPartition(t, p))));
            int generation = m.generation == null ? -1 : m.generation;
            Optional<String> rack = Optional.ofNullable(m.rack);
            if (cooperative) {
                subs.put(m.id, new Subscription(m.topics, null, owned, generation, rack));
            } else {
                ByteBuffer userData = null;
                if (m.generation != null) {
                    userData = StickyUserData.serialize(owned, m.generation);
                }
                subs.put(m.id, new Subscription(m.topics, userData, List.of(), generation, rack));
            }
        }
        ConsumerPartitionAssignor assignor = cooperative ? new CooperativeStickyAssignor() : new StickyAssignor();
        Answer a = new Answer();
        try {
            Map<String, ConsumerPartitionAssignor.Assignment> got =
                assignor.assign(cluster(c), new GroupSubscription(subs)).groupAssignment();
            a.members = new LinkedHashMap<>();
            for (Member m : c.members) {
                Map<String, List<Integer>> mine = new LinkedHashMap<>();
                for (TopicPartition tp : got.get(m.id).partitions()) {
                    mine.computeIfAbsent(tp.topic(), __ -> new ArrayList<>()).add(tp.partition());
                }
                a.members.put(m.id, mine);
            }
        } catch (RuntimeException e) {
            a.exception = e.getClass().getName() + (e.getMessage() == null ? "" : ": " + e.getMessage());
        }
        return a;
    }

    /** StickyAssignor's own user data writer is package-private: reach it by reflection. */
    static final class StickyUserData {
        static ByteBuffer serialize(List<TopicPartition> owned, int generation) {
            try {
                java.lang.reflect.Method m = StickyAssignor.class.getDeclaredMethod(
                    "serializeTopicPartitionAssignment", AbstractStickyAssignor.MemberData.class);
                m.setAccessible(true);
                return (ByteBuffer) m.invoke(null, new AbstractStickyAssignor.MemberData(owned, Optional.of(generation)));
            } catch (ReflectiveOperationException e) {
                throw new IllegalStateException(e);
            }
        }
    }

    static Answer runBroker(Case c, ConsumerGroupPartitionAssignor assignor) {
        List<TopicImage> image = new ArrayList<>();
        Map<Uuid, String> nameOf = new HashMap<>();
        c.topicIds.forEach((name, id) -> nameOf.put(id, name));
        c.topics.forEach((name, n) -> {
            if (n > 0) image.add(new TopicImage(name, c.topicIds.get(name)));
        });
        TopicIds.TopicResolver resolver = new TopicIds.CachedTopicResolver(new TopicsImage(image));

        Map<String, MemberSubscriptionAndAssignmentImpl> memberSpecs = new HashMap<>();
        Map<Uuid, Map<Integer, String>> inverted = new HashMap<>();
        Map<String, Integer> subscribedTopicNames = new HashMap<>();
        for (Member m : c.members) {
            Set<String> names = new HashSet<>(m.topics);
            names.forEach(n -> subscribedTopicNames.merge(n, 1, Integer::sum));
            Map<Uuid, Set<Integer>> target = new HashMap<>();
            m.owned.forEach((t, ps) -> {
                Uuid id = c.topicIds.get(t);
                target.put(id, new HashSet<>(ps));
                for (int p : ps) inverted.computeIfAbsent(id, __ -> new HashMap<>()).put(p, m.id);
            });
            memberSpecs.put(m.id, new MemberSubscriptionAndAssignmentImpl(
                Optional.ofNullable(m.rack),
                Optional.ofNullable(m.instanceId),
                new TopicIds(names, resolver),
                new Assignment(target)));
        }
        Map<Uuid, TopicMetadata> metadata = new HashMap<>();
        for (String name : subscribedTopicNames.keySet()) {
            Integer n = c.topics.get(name);
            if (n != null && n > 0) metadata.put(c.topicIds.get(name), new TopicMetadata(c.topicIds.get(name), name, n));
        }
        SubscriptionType type = subscriptionType(subscribedTopicNames, memberSpecs.size());
        GroupSpecImpl spec = new GroupSpecImpl(Collections.unmodifiableMap(memberSpecs), type, inverted);

        Answer a = new Answer();
        a.subscriptionType = type.name();
        a.memberOrder = new ArrayList<>(spec.memberIds());
        if (assignor instanceof UniformAssignor && type == SubscriptionType.HOMOGENEOUS && !memberSpecs.isEmpty()) {
            // UniformHomogeneousAssignmentBuilder deals topics in this set's order.
            a.topicOrder = new ArrayList<>();
            for (Uuid id : new HashSet<>(spec.memberSubscription(spec.memberIds().iterator().next()).subscribedTopicIds())) {
                a.topicOrder.add(nameOf.get(id));
            }
        }
        try {
            GroupAssignment got = assignor.assign(spec, new SubscribedTopicDescriberImpl(metadata));
            a.members = new LinkedHashMap<>();
            for (Member m : c.members) {
                Map<String, List<Integer>> mine = new LinkedHashMap<>();
                MemberAssignment ma = got.members().get(m.id);
                if (ma != null) {
                    ma.partitions().forEach((id, ps) -> {
                        List<Integer> sorted = new ArrayList<>(ps);
                        Collections.sort(sorted);
                        if (!sorted.isEmpty()) mine.put(nameOf.get(id), sorted);
                    });
                }
                a.members.put(m.id, mine);
            }
        } catch (RuntimeException e) {
            a.exception = e.getClass().getName() + (e.getMessage() == null ? "" : ": " + e.getMessage());
        }
        return a;
    }

    /** ModernGroup.subscriptionType (its body; ModernGroup itself needs the whole coordinator). */
    static SubscriptionType subscriptionType(Map<String, Integer> subscribedTopicNames, int numberOfMembers) {
        if (subscribedTopicNames.isEmpty()) {
            return SubscriptionType.HOMOGENEOUS;
        }
        for (int subscriberCount : subscribedTopicNames.values()) {
            if (subscriberCount != numberOfMembers) {
                return SubscriptionType.HETEROGENEOUS;
            }
        }
        return SubscriptionType.HOMOGENEOUS;
    }

    // ---- JSON ----------------------------------------------------------------------------

    static String q(String s) {
        StringBuilder b = new StringBuilder("\"");
        for (int i = 0; i < s.length(); i++) {
            char ch = s.charAt(i);
            if (ch == '"' || ch == '\\') b.append('\\').append(ch);
            else if (ch < 0x20 || ch > 0x7e) b.append(String.format("\\u%04x", (int) ch));
            else b.append(ch);
        }
        return b.append('"').toString();
    }

    static String ints(List<Integer> xs) {
        StringBuilder b = new StringBuilder("[");
        for (int i = 0; i < xs.size(); i++) b.append(i > 0 ? "," : "").append(xs.get(i));
        return b.append(']').toString();
    }

    static String strs(List<String> xs) {
        StringBuilder b = new StringBuilder("[");
        for (int i = 0; i < xs.size(); i++) b.append(i > 0 ? "," : "").append(q(xs.get(i)));
        return b.append(']').toString();
    }

    static String topicMap(Map<String, List<Integer>> m) {
        StringBuilder b = new StringBuilder("{");
        int i = 0;
        for (Map.Entry<String, List<Integer>> e : m.entrySet()) {
            b.append(i++ > 0 ? "," : "").append(q(e.getKey())).append(':').append(ints(e.getValue()));
        }
        return b.append('}').toString();
    }

    static String json(String name, String assignor, Case c, Answer a, boolean broker) {
        StringBuilder b = new StringBuilder("{");
        b.append("\"name\":").append(q(name)).append(",\"source\":").append(q(SOURCE));
        b.append(",\"assignor\":").append(q(assignor)).append(",\"topics\":{");
        int i = 0;
        for (Map.Entry<String, Integer> t : c.topics.entrySet()) {
            b.append(i++ > 0 ? "," : "").append(q(t.getKey())).append(':').append(t.getValue());
        }
        b.append('}');
        if (!c.partitionRacks.isEmpty()) {
            b.append(",\"partition_racks\":{");
            i = 0;
            for (Map.Entry<String, List<List<String>>> t : c.partitionRacks.entrySet()) {
                b.append(i++ > 0 ? "," : "").append(q(t.getKey())).append(":[");
                for (int p = 0; p < t.getValue().size(); p++) b.append(p > 0 ? "," : "").append(strs(t.getValue().get(p)));
                b.append(']');
            }
            b.append('}');
        }
        if (broker) {
            b.append(",\"topic_ids\":{");
            i = 0;
            for (Map.Entry<String, String> t : c.topicIdTexts.entrySet()) {
                b.append(i++ > 0 ? "," : "").append(q(t.getKey())).append(':').append(q(t.getValue()));
            }
            b.append('}');
        }
        b.append(",\"members\":[");
        i = 0;
        for (Member m : c.members) {
            b.append(i++ > 0 ? "," : "").append("{\"id\":").append(q(m.id));
            // Absent instance_id and rack read as null.
            if (m.instanceId != null) b.append(",\"instance_id\":").append(q(m.instanceId));
            if (m.rack != null) b.append(",\"rack\":").append(q(m.rack));
            b.append(",\"topics\":").append(strs(m.topics));
            if (!m.owned.isEmpty()) b.append(",\"owned\":").append(topicMap(m.owned));
            if (m.generation != null) b.append(",\"generation\":").append(m.generation);
            b.append('}');
        }
        b.append("],\"expected\":");
        if (a.members == null) {
            b.append("null,\"java_exception\":").append(q(a.exception));
        } else {
            b.append('{');
            i = 0;
            for (Map.Entry<String, Map<String, List<Integer>>> e : a.members.entrySet()) {
                b.append(i++ > 0 ? "," : "").append(q(e.getKey())).append(':').append(topicMap(e.getValue()));
            }
            b.append('}');
        }
        if (broker) {
            b.append(",\"subscription_type\":").append(q(a.subscriptionType));
            b.append(",\"java_member_order\":").append(strs(a.memberOrder));
            if (a.topicOrder != null) b.append(",\"java_topic_order\":").append(strs(a.topicOrder));
        }
        return b.append('}').toString();
    }

    static void write(Path out, String file, List<String> cases) throws IOException {
        Files.write(out.resolve(file), ("[\n" + String.join(",\n", cases) + "\n]\n").getBytes(StandardCharsets.UTF_8));
    }

    public static void main(String[] args) throws IOException {
        // Oracle <out dir> [cases per assignor] [seed]: the defaults write the committed files.
        Path out = Path.of(args[0]);
        int count = args.length > 1 ? Integer.parseInt(args[1]) : CASES;
        long seed = args.length > 2 ? Long.parseLong(args[2]) : SEED;
        String[][] kinds = {
            {"sticky", "sticky.json"},
            {"cooperative-sticky", "cooperative-sticky.json"},
            {"uniform", "kip848-uniform.json"},
            {"server-range", "kip848-range.json"},
        };
        for (int k = 0; k < kinds.length; k++) {
            String kind = kinds[k][0];
            boolean broker = k >= 2;
            Random r = new Random(seed + k);
            SPELL = new Random(~(seed + k));
            List<String> cases = new ArrayList<>();
            int thrown = 0;
            for (int n = 0; n < count; n++) {
                Case c = generate(r, broker, kind.equals("cooperative-sticky"));
                Answer a;
                switch (kind) {
                    case "sticky": a = runSticky(c, false); break;
                    case "cooperative-sticky": a = runSticky(c, true); break;
                    case "uniform": a = runBroker(c, new UniformAssignor()); break;
                    default: a = runBroker(c, new RangeAssignor()); break;
                }
                if (a.members == null) thrown++;
                cases.add(json(String.format("oracle-%s-%03d", kind, n), kind, c, a, broker));
            }
            write(out, kinds[k][1], cases);
            System.err.printf("%s: %d cases, %d where Java throws%n", kind, count, thrown);
        }
    }
}
