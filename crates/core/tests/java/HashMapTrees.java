// Records java.util.HashMap<String, Object> iteration orders through tree buckets: keys built
// from "Aa", "BB" and "C#" (which share String.hashCode) collide in one bucket, so the map
// turns buckets into red-black trees, splits them on resize and untreeifies them on removal.
// Each case: "N cap" (new HashMap<>(cap), -1 for new HashMap<>()), then per operation
// "P key" (put) or "R key" (remove) and "= keys in iteration order". tests/java.rs replays it.
//   javac HashMapTrees.java && java HashMapTrees SEED CASES OPS > tests/vectors/java-hashmap-trees.txt
// (the committed file: seed 848, 20 cases, 100 operations, Java 17)
import java.util.*;
public class HashMapTrees { public static void main(String[] a) {
  Random r = new Random(Long.parseLong(a[0]));
  String[] parts = {"Aa","BB","C#"};
  StringBuilder out = new StringBuilder();
  for (int c = 0; c < Integer.parseInt(a[1]); c++) {
    int[] caps = {-1, 16, 64, 128};
    int cap = caps[r.nextInt(4)];
    HashMap<String,Object> m = cap < 0 ? new HashMap<>() : new HashMap<>(cap);
    out.append("N ").append(cap).append('\n');
    List<String> pool = new ArrayList<>();
    int len = 2 + r.nextInt(3);
    for (int i = 0; i < 60; i++) { StringBuilder sb = new StringBuilder(); for (int j = 0; j < len; j++) sb.append(parts[r.nextInt(3)]); if (r.nextInt(5)==0) sb.append((char)('a'+r.nextInt(26))); pool.add(sb.toString()); }
    for (int op = 0; op < Integer.parseInt(a[2]); op++) {
      String k = pool.get(r.nextInt(pool.size()));
      if (r.nextInt(3) == 0) { m.remove(k); out.append("R ").append(k).append('\n'); }
      else { m.put(k, null); out.append("P ").append(k).append('\n'); }
      out.append("= ").append(String.join(" ", m.keySet())).append('\n');
    }
  }
  System.out.print(out);
}}
