// Records what Java itself answers for the behaviour Rebalance Lab reproduces in src/java/:
// String.compareTo, String.hashCode, Kafka's Utils.abs and Uuid (method bodies copied from
// apache/kafka 1eb7644: clients/src/main/java/org/apache/kafka/common/{Uuid,utils/Utils}.java),
// java.util.HashMap / HashSet iteration order after sequences of operations, and the protocol
// vote's tally (ClassicGroup.selectProtocol's HashMap<String, Integer> and Stream.max).
//
// Run: javac -d /tmp/rj tests/java/RecordJava.java && java -cp /tmp/rj RecordJava > tests/vectors/java.json
import java.nio.ByteBuffer;
import java.util.*;

public class RecordJava {
    // Kafka's Uuid, the parts that orders depend on.
    static final class Uuid implements Comparable<Uuid> {
        final long msb, lsb;
        Uuid(long msb, long lsb) { this.msb = msb; this.lsb = lsb; }
        static Uuid fromString(String s) {
            ByteBuffer b = ByteBuffer.wrap(Base64.getUrlDecoder().decode(s));
            return new Uuid(b.getLong(), b.getLong());
        }
        public String toString() {
            ByteBuffer b = ByteBuffer.allocate(16); b.putLong(msb); b.putLong(lsb);
            return Base64.getUrlEncoder().withoutPadding().encodeToString(b.array());
        }
        @Override public int hashCode() { long x = msb ^ lsb; return (int) (x >> 32) ^ (int) x; }
        @Override public boolean equals(Object o) { return o instanceof Uuid && ((Uuid) o).msb == msb && ((Uuid) o).lsb == lsb; }
        public int compareTo(Uuid o) {
            if (msb > o.msb) return 1; else if (msb < o.msb) return -1;
            else if (lsb > o.lsb) return 1; else if (lsb < o.lsb) return -1; else return 0;
        }
    }

    static int kafkaAbs(int n) { return (n == Integer.MIN_VALUE) ? 0 : Math.abs(n); }

    static String q(String s) {
        StringBuilder b = new StringBuilder("\"");
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '"' || c == '\\') b.append('\\').append(c);
            else if (c < 0x20 || c > 0x7e) b.append(String.format("\\u%04x", (int) c));
            else b.append(c);
        }
        return b.append('"').toString();
    }

    static Object key(String type, String k) {
        switch (type) {
            case "string": return k;
            case "int": return Integer.parseInt(k);
            case "uuid": return Uuid.fromString(k);
            default: throw new IllegalArgumentException(type);
        }
    }

    static StringBuilder out = new StringBuilder();
    static boolean firstCase = true;

    // ops: "put k", "remove k", "new N" (new HashMap<>(N)), "set k1 k2 ..." (new HashSet<>(List.of(...)))
    static void hashCase(String name, String type, List<String> ops) {
        Map<Object, Boolean> m = new HashMap<>();
        for (String op : ops) {
            String[] p = op.split(" ", 2);
            switch (p[0]) {
                case "put": m.put(key(type, p[1]), true); break;
                case "remove": m.remove(key(type, p[1])); break;
                case "new": m = new HashMap<>(Integer.parseInt(p[1])); break;
                case "set": {
                    List<Object> ks = new ArrayList<>();
                    for (String k : p[1].split(" ")) ks.add(key(type, k));
                    Set<Object> s = new HashSet<>(ks);
                    m = new LinkedHashMap<>();
                    // keep the HashSet's own order: record it directly
                    List<String> order = new ArrayList<>();
                    for (Object o : s) order.add(o.toString());
                    emit(name, type, ops, order);
                    return;
                }
                default: throw new IllegalArgumentException(op);
            }
        }
        List<String> order = new ArrayList<>();
        for (Object o : m.keySet()) order.add(o.toString());
        emit(name, type, ops, order);
    }

    static void emit(String name, String type, List<String> ops, List<String> order) {
        out.append(firstCase ? "\n" : ",\n");
        firstCase = false;
        out.append("    {\"name\": ").append(q(name)).append(", \"key_type\": ").append(q(type)).append(", \"ops\": [");
        for (int i = 0; i < ops.size(); i++) out.append(i > 0 ? ", " : "").append(q(ops.get(i)));
        out.append("], \"order\": [");
        for (int i = 0; i < order.size(); i++) out.append(i > 0 ? ", " : "").append(q(order.get(i)));
        out.append("]}");
    }

    static List<String> puts(List<String> keys) {
        List<String> ops = new ArrayList<>();
        for (String k : keys) ops.add("put " + k);
        return ops;
    }

    static int spread(int h) { return h ^ (h >>> 16); }

    public static void main(String[] a) {
        Random rnd = new Random(848);
        List<String> strings = new ArrayList<>(Arrays.asList(
            "", "a", "Aa", "BB", "polygenelubricants", "consumer-1", "consumer-10", "consumer-2",
            "\u0000", "a\u0000b", "\u00e9", "\u20ac", "\ud83d\ude00", "\ue000", "\uffff",
            "consumer-orders-1-0f5b6e0c-5c3e-4a8f-9d55-2b2f3b9c6a11", "my-group", "orders", "GROUP-\u00fc\u00df",
            "rebalance", "range", "roundrobin", "sticky", "cooperative-sticky", "uniform"));
        StringBuilder longS = new StringBuilder();
        for (int i = 0; i < 10000; i++) longS.append((char) ('a' + (i * 7) % 26));
        strings.add(longS.toString());
        for (int i = 0; i < 40; i++) {
            StringBuilder s = new StringBuilder();
            int n = rnd.nextInt(12);
            for (int k = 0; k < n; k++) {
                int pick = rnd.nextInt(10);
                if (pick < 6) s.append((char) ('a' + rnd.nextInt(26)));
                else if (pick < 7) s.append((char) (0xe000 + rnd.nextInt(0x2000)));
                else if (pick < 8) s.appendCodePoint(0x10000 + rnd.nextInt(0x10000));
                else if (pick < 9) s.append((char) (0x80 + rnd.nextInt(0x700)));
                else s.append((char) ('0' + rnd.nextInt(10)));
            }
            strings.add(s.toString());
        }
        System.out.println("{");
        System.out.println("  \"note\": \"Recorded by tests/java/RecordJava.java on OpenJDK 17 (java.util.HashMap, String); Uuid and Utils.abs are Kafka's method bodies at 1eb7644\",");
        // String.hashCode and Utils.abs(hash) % 50
        System.out.print("  \"string_hash\": [");
        for (int i = 0; i < strings.size(); i++) {
            String s = strings.get(i);
            System.out.print((i > 0 ? ",\n    " : "\n    ") + "{\"s\": " + q(s) + ", \"hash\": " + s.hashCode()
                + ", \"abs_mod_50\": " + (kafkaAbs(s.hashCode()) % 50) + "}");
        }
        System.out.println("\n  ],");
        // String.compareTo signs over all pairs of a small set
        List<String> cmp = strings.subList(0, 26);
        System.out.print("  \"string_compare\": [");
        boolean first = true;
        for (int i = 0; i < strings.size(); i++) for (int j = 0; j < strings.size(); j++) {
            if (strings.get(i).length() > 100 || strings.get(j).length() > 100) continue;
            if ((i * 31 + j) % 3 != 0 && i >= 26 && j >= 26) continue;
            int c = Integer.signum(strings.get(i).compareTo(strings.get(j)));
            System.out.print((first ? "\n    " : ",\n    ") + "[" + q(strings.get(i)) + ", " + q(strings.get(j)) + ", " + c + "]");
            first = false;
        }
        System.out.println("\n  ],");
        // Uuid hashCode and compareTo
        List<Uuid> uuids = new ArrayList<>();
        for (int i = 0; i < 12; i++) uuids.add(new Uuid(rnd.nextLong(), rnd.nextLong()));
        uuids.add(new Uuid(Long.MIN_VALUE, 0)); uuids.add(new Uuid(-1L, -1L)); uuids.add(new Uuid(0, 1)); uuids.add(new Uuid(0, -1L));
        System.out.print("  \"uuid\": [");
        for (int i = 0; i < uuids.size(); i++) {
            Uuid u = uuids.get(i);
            System.out.print((i > 0 ? ",\n    " : "\n    ") + "{\"uuid\": " + q(u.toString()) + ", \"hash\": " + u.hashCode() + ", \"compare_to_next\": "
                + Integer.signum(u.compareTo(uuids.get((i + 1) % uuids.size()))) + "}");
        }
        System.out.println("\n  ],");

        // HashMap / HashSet iteration orders
        out.append("  \"hash_order\": [");
        List<String> cons = new ArrayList<>();
        for (int i = 0; i < 100; i++) cons.add("consumer-" + i);
        hashCase("12 keys, no resize", "string", puts(cons.subList(0, 12)));
        hashCase("13 keys, one resize", "string", puts(cons.subList(0, 13)));
        hashCase("25 keys, two resizes", "string", puts(cons.subList(0, 25)));
        hashCase("49 keys", "string", puts(cons.subList(0, 49)));
        hashCase("100 keys", "string", puts(cons));
        List<String> rev = new ArrayList<>(cons.subList(0, 30)); Collections.reverse(rev);
        hashCase("30 keys, reverse insertion", "string", puts(rev));
        List<String> coord = new ArrayList<>();
        for (int i = 0; i < 60; i++) coord.add("consumer-orders-1-" + UUID.nameUUIDFromBytes(("m" + i).getBytes()));
        hashCase("60 coordinator member ids", "string", puts(coord));
        hashCase("protocol names", "string", puts(Arrays.asList("cooperative-sticky", "range", "roundrobin", "sticky", "uniform")));
        hashCase("protocol names, other order", "string", puts(Arrays.asList("roundrobin", "sticky", "range", "cooperative-sticky")));
        // same hash: insertion order within the bucket
        hashCase("equal hashes", "string", puts(Arrays.asList("BBBB", "AaAa", "AaBB", "BBAa", "x", "y")));
        // removals and re-insertion
        List<String> ops = puts(cons.subList(0, 20));
        ops.add("remove consumer-3"); ops.add("remove consumer-7"); ops.add("remove consumer-15");
        ops.add("put consumer-3"); ops.add("put consumer-50"); ops.add("put consumer-0");
        for (int i = 0; i < 10; i++) ops.add("remove consumer-" + (i + 8));
        ops.add("put z");
        hashCase("removals never shrink, re-put goes last in its bucket", "string", ops);
        // a 9th key in one bucket below capacity 64 forces a resize
        Map<Integer, List<String>> byBucket = new TreeMap<>();
        for (int i = 0; i < 20000; i++) {
            String k = "k" + i;
            byBucket.computeIfAbsent(spread(k.hashCode()) & 15, x -> new ArrayList<>()).add(k);
        }
        List<String> nine = byBucket.get(3).subList(0, 9);
        hashCase("nine keys in one bucket of 16 force a resize", "string", puts(nine));
        List<String> ten = new ArrayList<>(byBucket.get(5).subList(0, 9));
        ten.add("consumer-1"); ten.add("consumer-2");
        hashCase("nine in one bucket then more", "string", puts(ten));
        // nine keys in one bucket of 32 (after a resize) force another
        Map<Integer, List<String>> by32 = new TreeMap<>();
        for (int i = 0; i < 20000; i++) {
            String k = "k" + i;
            by32.computeIfAbsent(spread(k.hashCode()) & 31, x -> new ArrayList<>()).add(k);
        }
        List<String> cap32 = new ArrayList<>(cons.subList(0, 13));
        cap32.addAll(by32.get(7).subList(0, 9));
        hashCase("nine in one bucket of 32", "string", puts(cap32));
        // new HashMap<>(n) and new HashSet<>(collection)
        List<String> with = new ArrayList<>(); with.add("new 100"); with.addAll(puts(cons.subList(0, 30)));
        hashCase("new HashMap<>(100)", "string", with);
        for (int n : new int[]{3, 12, 13, 30, 100}) {
            hashCase("new HashSet<>(" + n + " strings)", "string", Collections.singletonList("set " + String.join(" ", cons.subList(0, n))));
        }
        hashCase("integers", "int", puts(Arrays.asList("17", "1", "33", "5", "64", "100", "-1", "16", "0", "2147483647", "-2147483648")));
        hashCase("HashSet of partitions", "int", Collections.singletonList("set 40 3 19 0 16 32 7 25 1"));
        List<String> us = new ArrayList<>();
        for (int i = 0; i < 30; i++) us.add(new Uuid(rnd.nextLong(), rnd.nextLong()).toString());
        hashCase("topic ids", "uuid", puts(us));
        hashCase("HashSet of topic ids", "uuid", Collections.singletonList("set " + String.join(" ", us.subList(0, 20))));
        List<String> rs = new ArrayList<>();
        for (int i = 0; i < 40; i++) rs.add(strings.get(26 + (i % 40)).isEmpty() ? "e" + i : strings.get(26 + (i % 40)) + i);
        hashCase("unicode keys", "string", puts(rs));
        // the maps the classic group relies on: protocol names counted, member ids with the
        // leader leaving (the new leader is the first key)
        hashCase("protocol tally, same bucket", "string", puts(Arrays.asList("custom-v1", "roundrobin", "range", "sticky", "stream", "lag-aware", "my-assignor")));
        List<String> lead = puts(Arrays.asList("z", "y", "x"));
        lead.add("remove z");
        hashCase("leader z leaves: x is the first key", "string", lead);
        List<String> same = puts(Arrays.asList("x", "BB", "Aa"));
        same.add("remove x");
        hashCase("leader leaves, equal hashes keep insertion order", "string", same);
        List<String> thirteen = new ArrayList<>();
        for (int i = 1; i <= 14; i++) thirteen.add("put member-" + i);
        thirteen.add("remove member-1"); thirteen.add("remove member-5"); thirteen.add("remove member-6");
        hashCase("14 members, leaders leave after a resize", "string", thirteen);
        List<String> javaIds = new ArrayList<>();
        for (int i = 1; i <= 5; i++) javaIds.add("put consumer-orders-" + i + "-" + UUID.nameUUIDFromBytes(("o" + i).getBytes()));
        javaIds.add(javaIds.get(0).replace("put ", "remove "));
        hashCase("Java client member ids, leader leaves", "string", javaIds);
        out.append("\n  ],\n");
        // the vote tally: votes in the order members cast them, counted as selectProtocol does
        out.append("  \"tally\": [");
        List<List<String>> tallies = Arrays.asList(
            Arrays.asList("range", "roundrobin"),
            Arrays.asList("roundrobin", "range"),
            Arrays.asList("cooperative-sticky", "range"),
            Arrays.asList("roundrobin", "custom-v1"),
            Arrays.asList("custom-v1", "roundrobin"),
            Arrays.asList("sticky", "range", "range", "sticky", "cooperative-sticky"),
            Arrays.asList("roundrobin", "roundrobin", "range"),
            Arrays.asList("lag-aware"),
            Arrays.asList("b", "c", "d", "e", "f", "g", "h", "i", "j", "k", "l", "m", "n", "a"),
            Arrays.asList("uniform", "range", "stream", "my-assignor", "custom-v1", "sticky", "roundrobin", "cooperative-sticky"));
        for (int t = 0; t < tallies.size(); t++) {
            Map<String, Integer> votesByProtocol = new HashMap<>();
            for (String protocolName : tallies.get(t)) {
                int count = votesByProtocol.getOrDefault(protocolName, 0);
                votesByProtocol.put(protocolName, count + 1);
            }
            String max = votesByProtocol.entrySet().stream()
                .max(Comparator.comparingInt(Map.Entry::getValue))
                .map(Map.Entry::getKey).orElse(null);
            out.append(t > 0 ? ",\n    " : "\n    ").append("{\"votes\": [");
            for (int i = 0; i < tallies.get(t).size(); i++) out.append(i > 0 ? ", " : "").append(q(tallies.get(t).get(i)));
            out.append("], \"order\": [");
            int i = 0;
            for (Map.Entry<String, Integer> e : votesByProtocol.entrySet()) {
                out.append(i++ > 0 ? ", " : "").append("[").append(q(e.getKey())).append(", ").append(e.getValue()).append("]");
            }
            out.append("], \"max\": ").append(q(max)).append("}");
        }
        out.append("\n  ]\n}");
        System.out.println(out);
    }
}
