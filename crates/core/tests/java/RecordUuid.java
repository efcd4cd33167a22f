// Records what Kafka's Uuid.fromString answers (method body copied from apache/kafka 1eb7644:
// clients/src/main/java/org/apache/kafka/common/Uuid.java, over Java's own
// java.util.Base64.getUrlDecoder()) for ids as Kafka writes them, the same ids with the last
// character's unused bits set, padded ids, and random strings of every length up to 26 over
// base64url, padding, other base64 and non-ASCII characters: the id, or the exception's
// message. tests/java.rs checks src/java/uuid.rs against every entry.
//
// Run: javac -d /tmp/ru tests/java/RecordUuid.java && java -cp /tmp/ru RecordUuid > tests/vectors/java-uuid.json
import java.nio.ByteBuffer;
import java.util.*;

public class RecordUuid {
    static long[] fromString(String str) {
        if (str.length() > 24) {
            throw new IllegalArgumentException("Input string with prefix `"
                + str.substring(0, 24) + "` is too long to be decoded as a base64 UUID");
        }

        ByteBuffer uuidBytes = ByteBuffer.wrap(Base64.getUrlDecoder().decode(str));
        if (uuidBytes.remaining() != 16) {
            throw new IllegalArgumentException("Input string `" + str + "` decoded as "
                + uuidBytes.remaining() + " bytes, which is not equal to the expected 16 bytes "
                + "of a base64-encoded UUID");
        }

        return new long[] {uuidBytes.getLong(), uuidBytes.getLong()};
    }

    static String toString(long msb, long lsb) {
        ByteBuffer b = ByteBuffer.allocate(16); b.putLong(msb); b.putLong(lsb);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(b.array());
    }

    // (a lone surrogate, as in the prefix of a too-long id cut inside a surrogate pair, is
    // written U+FFFD: a Rust string cannot hold half a character, and src/java/uuid.rs writes
    // the same)
    static String q(String s) {
        StringBuilder b = new StringBuilder("\"");
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            boolean paired = Character.isHighSurrogate(c) ? i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1))
                : Character.isLowSurrogate(c) ? i > 0 && Character.isHighSurrogate(s.charAt(i - 1)) : true;
            if (!paired) c = '\ufffd';
            if (c == '"' || c == '\\') b.append('\\').append(c);
            else if (c < 0x20 || c > 0x7e) b.append(String.format("\\u%04x", (int) c));
            else b.append(c);
        }
        return b.append('"').toString();
    }

    static final String URL = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

    public static void main(String[] args) {
        Random r = new Random(848);
        List<String> inputs = new ArrayList<>(Arrays.asList(
            "T2-B4s3VTwiI5YHbPp6YUe", "T2-B4s3VTwiI5YHbPp6YUQ", "T2-B4s3VTwiI5YHbPp6YUQ==",
            "AAAAAAAAAAAAAAAAAAAAAA", "AAAAAAAAAAAAAAAAAAAAAQ", "AAAAAAAAAAAAAAAAAAAAAB",
            "", "A", "AA", "AA=", "AA==", "AAA=", "AAAA=", "=", "==", "short",
            "T2-B4s3VTwiI5YHbPp6YUQ=", "T2-B4s3VTwiI5YHbPp6YUQ=A", "T2-B4s3VTwiI5YHbPp6YU===",
            "T2-B4s3VTwiI5YHbPp6YUQ===", "T2+B4s3VTwiI5YHbPp6YUQ", "T2/B4s3VTwiI5YHbPp6YUQ",
            "T2-B4s3VTwiI5YHbPp6YU", "T2-B4s3VTwiI5YHbPp6YUQA", "T2-B4s3VTwiI5YHbPp6YUQAA",
            "T2-B4s3V Twi5YHbPp6YUQ", "T2-B4s3VTwiI5YHbPp6YU\u00e9", "T2-B4s3VTwiI5YHbPp6YU\u20ac",
            "T2-B4s3VTwiI5YHbPp6Y\ud83d\ude00", "\ud83d\ude00AAAAAAAAAAAAAAAAAAAAAAAA",
            "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA", "AAAA==AAAAAAAAAAAAAAAAAA",
            "-AAAAAAAAAAAAAAAAAAAAA", "______________________", "_____________________w"));
        // Ids as Kafka writes them, and each with every other last character.
        for (int i = 0; i < 12; i++) {
            String id = toString(r.nextLong(), r.nextLong());
            inputs.add(id);
            inputs.add(id + "==");
            for (int c = 0; c < 64; c += (i < 3 ? 1 : 7)) inputs.add(id.substring(0, 21) + URL.charAt(c));
        }
        // Random strings of every length up to 26.
        String odd = "=+/ .\u00e9\u00ff\u0100\u20ac";
        for (int i = 0; i < 600; i++) {
            int len = r.nextInt(27);
            StringBuilder b = new StringBuilder();
            for (int j = 0; j < len; j++) {
                if (r.nextInt(12) == 0) b.append(odd.charAt(r.nextInt(odd.length())));
                else if (r.nextInt(40) == 0) b.append("\ud83d\ude00");
                else b.append(URL.charAt(r.nextInt(64)));
            }
            // (and the random string ending in one or two '=')
            inputs.add(b.toString());
            if (len > 0 && len < 24 && r.nextInt(4) == 0) inputs.add(b.toString() + (r.nextBoolean() ? "=" : "=="));
        }
        StringBuilder out = new StringBuilder("[\n");
        for (int i = 0; i < inputs.size(); i++) {
            String s = inputs.get(i);
            out.append("  {\"input\": ").append(q(s));
            try {
                long[] u = fromString(s);
                out.append(", \"msb\": ").append(u[0]).append(", \"lsb\": ").append(u[1])
                   .append(", \"canonical\": ").append(q(toString(u[0], u[1])));
            } catch (IllegalArgumentException e) {
                out.append(", \"error\": ").append(q(e.getMessage()));
            }
            out.append(i + 1 < inputs.size() ? "},\n" : "}\n");
        }
        System.out.print(out.append("]\n"));
    }
}
