//! What we reproduce of Java itself, against values recorded from a real JVM
//! (tests/vectors/java.json, written by tests/java/RecordJava.java on OpenJDK 17).
#![cfg(not(target_arch = "wasm32"))]

use rebalance_lab_core::java::{self, JavaHashMap, Uuid};
use serde_json::Value;
use std::cmp::Ordering;

fn recorded() -> Value {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/vectors/java.json"
    ))
    .unwrap();
    serde_json::from_str(&text).unwrap()
}

#[test]
fn string_hash_code_and_coordinator_partition() {
    let v = recorded();
    let cases = v["string_hash"].as_array().unwrap();
    assert!(cases.len() >= 60);
    let mut min_seen = false;
    for c in cases {
        let s = c["s"].as_str().unwrap();
        let h = java::string_hash_code(s);
        assert_eq!(h as i64, c["hash"].as_i64().unwrap(), "{s:?}");
        assert_eq!(
            (java::utils_abs(h) % 50) as i64,
            c["abs_mod_50"].as_i64().unwrap(),
            "{s:?}"
        );
        min_seen |= h == i32::MIN;
    }
    assert!(
        min_seen,
        "the recorded set holds a hash of Integer.MIN_VALUE"
    );
}

#[test]
fn string_compare_to() {
    let v = recorded();
    let pairs = v["string_compare"].as_array().unwrap();
    assert!(pairs.len() > 1000);
    for p in pairs {
        let (a, b) = (p[0].as_str().unwrap(), p[1].as_str().unwrap());
        let want = p[2].as_i64().unwrap().cmp(&0);
        assert_eq!(java::string_compare(a, b), want, "{a:?} vs {b:?}");
    }
}

#[test]
fn uuid_hash_code_and_compare_to() {
    let v = recorded();
    let cases = v["uuid"].as_array().unwrap();
    let ids: Vec<Uuid> = cases
        .iter()
        .map(|c| Uuid::parse(c["uuid"].as_str().unwrap()).unwrap())
        .collect();
    for (i, c) in cases.iter().enumerate() {
        assert_eq!(ids[i].to_string(), c["uuid"].as_str().unwrap());
        assert_eq!(ids[i].hash_code() as i64, c["hash"].as_i64().unwrap());
        let next = &ids[(i + 1) % ids.len()];
        assert_eq!(
            ids[i].java_cmp(next),
            c["compare_to_next"].as_i64().unwrap().cmp(&0),
            "{}",
            c["uuid"]
        );
    }
}

fn run<K: PartialEq + java::JavaHash + ToString>(
    ops: &[&str],
    key: impl Fn(&str) -> K,
) -> (Vec<String>, bool) {
    let mut m: JavaHashMap<K, ()> = JavaHashMap::new();
    for op in ops {
        let (verb, arg) = op.split_once(' ').unwrap();
        match verb {
            "put" => {
                m.insert(key(arg), ());
            }
            "remove" => {
                let k = key(arg);
                // Java's remove of an absent key is a no-op, as ours
                m.remove(&Wrapper(&k));
            }
            "new" => m = JavaHashMap::with_capacity(arg.parse().unwrap()),
            "set" => {
                let keys: Vec<&str> = arg.split(' ').collect();
                m = JavaHashMap::for_collection_of(keys.len());
                for k in keys {
                    m.insert(key(k), ());
                }
            }
            other => panic!("unknown op {other}"),
        }
    }
    (m.keys().map(|k| k.to_string()).collect(), m.is_exact())
}

/// Lets `remove` take a `&K` for any key type.
struct Wrapper<'a, K>(&'a K);
impl<K: PartialEq> PartialEq<K> for Wrapper<'_, K> {
    fn eq(&self, other: &K) -> bool {
        self.0 == other
    }
}
impl<K: java::JavaHash> java::JavaHash for Wrapper<'_, K> {
    fn java_hash(&self) -> i32 {
        self.0.java_hash()
    }
}

#[test]
fn hash_map_iteration_order() {
    let v = recorded();
    let cases = v["hash_order"].as_array().unwrap();
    assert!(cases.len() >= 20);
    for c in cases {
        let name = c["name"].as_str().unwrap();
        let ops: Vec<&str> = c["ops"]
            .as_array()
            .unwrap()
            .iter()
            .map(|o| o.as_str().unwrap())
            .collect();
        let want: Vec<String> = c["order"]
            .as_array()
            .unwrap()
            .iter()
            .map(|o| o.as_str().unwrap().to_string())
            .collect();
        let (got, exact) = match c["key_type"].as_str().unwrap() {
            "string" => run(&ops, |k| k.to_string()),
            "int" => run(&ops, |k| k.parse::<i32>().unwrap()),
            "uuid" => run(&ops, |k| Uuid::parse(k).unwrap()),
            other => panic!("{other}"),
        };
        assert!(exact, "{name}");
        assert_eq!(got, want, "{name}");
    }
}

#[test]
fn order_differs_from_insertion_and_from_sorted() {
    // A guard that the recorded orders really test something.
    let v = recorded();
    let c = v["hash_order"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["name"] == "100 keys")
        .unwrap();
    let order: Vec<&str> = c["order"]
        .as_array()
        .unwrap()
        .iter()
        .map(|o| o.as_str().unwrap())
        .collect();
    let mut sorted = order.clone();
    sorted.sort_by(|a, b| java::string_compare(a, b));
    assert_ne!(order, sorted);
    assert_ne!(order[0], "consumer-0");
    assert_eq!(java::string_compare("a", "b"), Ordering::Less);
}

#[test]
fn protocol_vote_tally_and_stream_max() {
    // ClassicGroup.selectProtocol's HashMap<String, Integer> and Stream.max, as recorded.
    let v = recorded();
    let cases = v["tally"].as_array().unwrap();
    assert!(cases.len() >= 10);
    let mut ties = 0;
    for c in cases {
        let votes: Vec<&str> = c["votes"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s.as_str().unwrap())
            .collect();
        let t = rebalance_lab_core::group::tally(votes.iter().copied());
        let want: Vec<(String, u32)> = c["order"]
            .as_array()
            .unwrap()
            .iter()
            .map(|e| {
                (
                    e[0].as_str().unwrap().to_string(),
                    e[1].as_u64().unwrap() as u32,
                )
            })
            .collect();
        assert_eq!(t.counts, want, "{votes:?}");
        assert_eq!(t.winner.as_deref(), c["max"].as_str(), "{votes:?}");
        ties += usize::from(t.tied.len() > 1);
    }
    assert!(ties >= 5, "{ties}");
}

#[test]
fn members_map_when_leaders_leave() {
    // The recorded member-id maps with a leader leaving: the group's members (in map order)
    // and the new leader (the first key) follow Java's map.
    use rebalance_lab_core::group::{run_events, GroupEvent};
    let v = recorded();
    let mut n = 0;
    for c in v["hash_order"].as_array().unwrap() {
        let name = c["name"].as_str().unwrap();
        if !name.contains("leave") {
            continue;
        }
        let events: Vec<GroupEvent> = c["ops"]
            .as_array()
            .unwrap()
            .iter()
            .map(|o| match o.as_str().unwrap().split_once(' ').unwrap() {
                ("put", k) => GroupEvent::Join(k.into()),
                ("remove", k) => GroupEvent::Leave(k.into()),
                other => panic!("{other:?}"),
            })
            .collect();
        let want: Vec<String> = c["order"]
            .as_array()
            .unwrap()
            .iter()
            .map(|o| o.as_str().unwrap().to_string())
            .collect();
        let h = run_events(&events);
        assert_eq!(h.members, want, "{name}");
        // each leader change names the first key of the map at that moment
        for s in h.steps.iter().filter(|s| s.changed) {
            assert_eq!(s.leader.as_ref(), s.members.first(), "{name}");
        }
        assert!(h
            .steps
            .iter()
            .any(|s| s.changed && matches!(s.event, GroupEvent::Leave(_))));
        n += 1;
    }
    assert_eq!(n, 4);
}

/// `HashMap` through tree buckets (tests/vectors/java-hashmap-trees.txt, recorded from Java 17
/// by tests/java/HashMapTrees.java): keys that share `String.hashCode` turn a bucket into a
/// red-black tree (its root linked first, new keys after their tree parent), a resize splits
/// or rebuilds it, removals rebalance or untreeify it; after every put and remove our map
/// iterates as Java's did.
#[test]
fn hash_map_tree_buckets() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/vectors/java-hashmap-trees.txt"
    );
    let text = std::fs::read_to_string(path).unwrap();
    let mut m: java::JavaHashMap<String, ()> = java::JavaHashMap::new();
    let (mut orders, mut longest) = (0, 0);
    for (n, line) in text.lines().enumerate() {
        let (op, arg) = line.split_at(2);
        match op {
            "N " => {
                let cap: i64 = arg.parse().unwrap();
                m = if cap < 0 {
                    java::JavaHashMap::new()
                } else {
                    java::JavaHashMap::with_capacity(cap as usize)
                };
            }
            "P " => {
                m.insert(arg.to_string(), ());
            }
            "R " => {
                m.remove(arg);
            }
            _ => {
                let ours: Vec<&str> = m.keys().map(String::as_str).collect();
                assert_eq!(ours.join(" "), arg, "line {}", n + 1);
                assert!(m.is_exact());
                orders += 1;
                longest = longest.max(ours.len());
            }
        }
    }
    assert_eq!(orders, 2000);
    assert!(longest > 20, "{longest}");
}

/// `Uuid.fromString` as Java answers it (tests/vectors/java-uuid.json, recorded by
/// tests/java/RecordUuid.java on OpenJDK 17 running Kafka's method body): every id Java takes
/// is taken with the same 128 bits and written back in Java's canonical form (`toString`);
/// every text Java refuses is refused with Java's own message.
#[test]
fn uuid_from_string_accepts_and_refuses_as_java_does() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/vectors/java-uuid.json");
    let cases: Vec<serde_json::Value> =
        serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let (mut taken, mut refused) = (0, 0);
    for c in &cases {
        let input = c["input"].as_str().unwrap();
        match (Uuid::parse(input), c["error"].as_str()) {
            (Ok(u), None) => {
                assert_eq!(
                    (u.msb, u.lsb),
                    (c["msb"].as_i64().unwrap(), c["lsb"].as_i64().unwrap()),
                    "{input:?}"
                );
                assert_eq!(u.to_string(), c["canonical"].as_str().unwrap(), "{input:?}");
                taken += 1;
            }
            (Err(e), Some(java)) => {
                assert_eq!(e.message, java, "{input:?}");
                refused += 1;
            }
            (got, java) => panic!("{input:?}: we answer {got:?}, Java {java:?}"),
        }
    }
    // (the file holds both kinds, and ids whose last character carries unused bits)
    assert!(
        taken > 300 && refused > 700,
        "{taken} taken, {refused} refused"
    );
    let a = Uuid::parse("T2-B4s3VTwiI5YHbPp6YUe").unwrap();
    assert_eq!(a, Uuid::parse("T2-B4s3VTwiI5YHbPp6YUQ").unwrap());
    assert_eq!(a.to_string(), "T2-B4s3VTwiI5YHbPp6YUQ");
}
