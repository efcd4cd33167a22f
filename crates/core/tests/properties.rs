//! Property tests: codec round trips and bounds, a differential test against the
//! kafka-protocol crate, assignor invariants, link and hex round trips.
#![cfg(not(target_arch = "wasm32"))]

use bytes::{Buf, BytesMut};
use kafka_protocol::messages::consumer_protocol_subscription::{
    ConsumerProtocolSubscription as KpSubscription, TopicPartition as KpTopicPartition,
};
use kafka_protocol::messages::TopicName;
use kafka_protocol::protocol::{Decodable, Encodable, StrBytes};
use proptest::prelude::*;
use proptest::test_runner::{TestCaseError, TestRunner};
use rebalance_lab_core::assignor::{
    self, AssignorKind, GroupInput, MemberMeta, TopicMeta, UNASSIGNED,
};
use rebalance_lab_core::protocol::{
    decode_assignment, decode_subscription, encode_assignment, encode_subscription, hex,
    Assignment, DecodeErrorKind, Decoded, Field, FieldValue, Note, Span, Subscription,
    TopicPartitions, ILLEGAL_ARGUMENT_EXCEPTION, RUNTIME_EXCEPTION, SCHEMA_EXCEPTION,
};
use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::sync::atomic::{AtomicUsize, Ordering};

// ---------- an allocator that counts, per thread ----------

struct Counting;

thread_local! {
    static ALLOCATED: Cell<usize> = const { Cell::new(0) };
}

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let _ = ALLOCATED.try_with(|a| a.set(a.get() + layout.size()));
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let _ = ALLOCATED.try_with(|a| a.set(a.get() + new_size));
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

fn allocated_by<T>(f: impl FnOnce() -> T) -> (T, usize) {
    let before = ALLOCATED.with(|a| a.get());
    let r = f();
    (r, ALLOCATED.with(|a| a.get()) - before)
}

// ---------- strategies ----------

fn name() -> impl Strategy<Value = String> {
    prop_oneof![
        "[a-z0-9._-]{0,12}",
        "\\PC{0,6}",
        Just("consumer-10".to_string()),
        Just("😀".to_string()),
        "(consumer-g-1)?-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}",
        "c-[0-9A-F]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}",
    ]
}

fn subscription() -> impl Strategy<Value = Subscription> {
    (
        prop::collection::vec(name(), 0..6),
        prop::option::of(prop::collection::vec(any::<u8>(), 0..20)),
        prop::collection::vec((name(), prop::collection::vec(any::<i32>(), 0..5)), 0..4),
        any::<i32>(),
        prop::option::of(name()),
    )
        .prop_map(
            |(topics, user_data, owned, generation_id, rack_id)| Subscription {
                topics,
                user_data,
                owned_partitions: owned
                    .into_iter()
                    .map(|(topic, partitions)| TopicPartitions { topic, partitions })
                    .collect(),
                generation_id,
                rack_id,
            },
        )
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    /// decode(encode(x)) == x as written at that version, and every byte is consumed.
    #[test]
    fn subscription_round_trip(sub in subscription(), version in 0i16..=3) {
        let enc = encode_subscription(&sub, version).unwrap();
        let d = decode_subscription(&enc.bytes);
        prop_assert!(d.error.is_none(), "{:?}", d.error);
        prop_assert_eq!(&d.message, &sub.as_written_at(version));
        prop_assert_eq!(d.trailing_bytes, 0);
        prop_assert_eq!(d.consumed(), enc.bytes.len());
        // Encoding what was decoded gives the same bytes.
        prop_assert_eq!(encode_subscription(&d.message, version).unwrap().bytes, enc.bytes);
    }

    #[test]
    fn assignment_round_trip(parts in prop::collection::vec((name(), prop::collection::vec(any::<i32>(), 0..5)), 0..4),
                             user_data in prop::option::of(prop::collection::vec(any::<u8>(), 0..20)),
                             version in 0i16..=3) {
        let mut grouped: Vec<TopicPartitions> = Vec::new();
        for (topic, partitions) in parts {
            match grouped.iter_mut().find(|g| g.topic == topic) {
                Some(g) => g.partitions.extend(partitions),
                None => grouped.push(TopicPartitions { topic, partitions }),
            }
        }
        let a = Assignment { assigned_partitions: grouped, user_data };
        let enc = encode_assignment(&a, version).unwrap();
        let d = decode_assignment(&enc.bytes);
        prop_assert!(d.error.is_none());
        prop_assert_eq!(&d.message, &a);
        prop_assert_eq!(d.consumed(), enc.bytes.len());
    }

    /// Arbitrary bytes never panic, and never allocate more than a bounded multiple of
    /// their length (each decoded field records its span and path for the UI).
    #[test]
    fn arbitrary_bytes_are_bounded(bytes in prop::collection::vec(any::<u8>(), 0..300)) {
        let (d, alloc) = allocated_by(|| decode_subscription(&bytes));
        prop_assert!(alloc <= 96 * bytes.len() + 2048, "{} bytes allocated for {} bytes of input", alloc, bytes.len());
        if let Some(e) = &d.error {
            prop_assert!(e.span.start <= bytes.len());
            prop_assert!(!e.to_string().is_empty());
        }
        let (_, alloc) = allocated_by(|| decode_assignment(&bytes));
        prop_assert!(alloc <= 96 * bytes.len() + 2048);
    }

    /// Prefixes of a valid message (someone still typing) never panic; those that stop at
    /// a field boundary are reported as incomplete.
    #[test]
    fn prefixes_are_incomplete_or_positioned(sub in subscription(), version in 0i16..=3) {
        let enc = encode_subscription(&sub, version).unwrap();
        let full = decode_subscription(&enc.bytes);
        // Clean boundaries: the end of every primitive (length prefixes included).
        let mut boundaries: Vec<usize> = vec![0];
        for f in &full.fields {
            if let Some(p) = f.prefix { boundaries.push(p.end); }
            if !matches!(f.value, FieldValue::Array(_) | FieldValue::Struct) { boundaries.push(f.payload.end); }
        }
        for cut in 0..enc.bytes.len() {
            let d = decode_subscription(&enc.bytes[..cut]);
            let e = d.error.expect("a strict prefix cannot be a whole message");
            prop_assert!(e.span.start <= cut);
            if boundaries.contains(&cut) {
                // Like Java, an array count larger than the bytes left is refused up front,
                // before its elements are read; otherwise a clean cut is incomplete.
                let early_count = matches!(e.kind, DecodeErrorKind::LengthBeyondInput { what: "array", .. }) && e.span.start < cut;
                prop_assert!(e.is_incomplete() || early_count, "cut at {} is a boundary: {}", cut, e);
            } else {
                prop_assert!(!e.is_incomplete(), "cut at {} is inside a primitive: {}", cut, e);
            }
        }
    }

    /// Differential: the kafka-protocol crate and this codec agree on valid messages, in
    /// both directions.
    #[test]
    fn agrees_with_kafka_protocol(sub in subscription(), version in 0i16..=3) {
        let kp = KpSubscription::default()
            .with_topics(sub.topics.iter().map(|t| StrBytes::from_string(t.clone())).collect())
            .with_user_data(sub.user_data.clone().map(Into::into))
            .with_owned_partitions(sub.owned_partitions.iter().map(|tp| {
                KpTopicPartition::default()
                    .with_topic(TopicName(StrBytes::from_string(tp.topic.clone())))
                    .with_partitions(tp.partitions.clone())
            }).collect())
            .with_generation_id(sub.generation_id)
            .with_rack_id(sub.rack_id.clone().map(StrBytes::from_string));
        let mut buf = BytesMut::new();
        buf.extend_from_slice(&version.to_be_bytes());
        kp.encode(&mut buf, version).unwrap();
        // Ours reads theirs.
        let d = decode_subscription(&buf);
        prop_assert!(d.error.is_none());
        let mut expected = sub.clone();
        if version < 1 { expected.owned_partitions.clear(); }
        if version < 2 { expected.generation_id = -1; }
        if version < 3 { expected.rack_id = None; }
        prop_assert_eq!(&d.message, &expected);
        // Theirs reads ours.
        let ours = encode_subscription(&sub, version).unwrap();
        let mut b = bytes::Bytes::from(ours.bytes.clone());
        let v = b.get_i16();
        let back = KpSubscription::decode(&mut b, v).unwrap();
        let norm = sub.as_written_at(version);
        prop_assert_eq!(back.topics.iter().map(|t| t.to_string()).collect::<Vec<_>>(), norm.topics);
        prop_assert_eq!(back.user_data.map(|u| u.to_vec()), norm.user_data);
        prop_assert_eq!(back.generation_id, norm.generation_id);
        prop_assert_eq!(back.rack_id.map(|r| r.to_string()), norm.rack_id);
        prop_assert_eq!(b.remaining(), 0);
    }

    #[test]
    fn hex_round_trip_and_never_panics(bytes in prop::collection::vec(any::<u8>(), 0..64), text in "\\PC{0,40}") {
        prop_assert_eq!(hex::parse_hex(&hex::to_hex(&bytes)).unwrap(), bytes);
        let _ = hex::parse_hex(&text);
    }
}

// ---------- differential against kafka-protocol, counted ----------

/// kafka-protocol sizes a `Vec` by whatever count the wire declares; above this many
/// elements a case is not handed to it (the allocation could abort the test process).
const KP_ALLOCATION_LIMIT: i64 = 1 << 16;

/// How many cases a differential test generated and how many it really compared.
#[derive(Default)]
struct Tally {
    generated: AtomicUsize,
    compared: AtomicUsize,
    /// Compared cases both decoders accepted (with the same fields).
    accepted: AtomicUsize,
    /// Compared cases kafka-protocol refused and we accepted under a leniency of Java's.
    lenient: AtomicUsize,
}

impl Tally {
    /// Prints the counts and fails when fewer than `min_percent` of the generated cases
    /// were compared.
    fn check(&self, test: &str, min_percent: usize) {
        let generated = self.generated.load(Ordering::Relaxed);
        let compared = self.compared.load(Ordering::Relaxed);
        let accepted = self.accepted.load(Ordering::Relaxed);
        let lenient = self.lenient.load(Ordering::Relaxed);
        println!(
            "{test}: compared {compared} of {generated} generated cases ({accepted} accepted by both, {lenient} refused by kafka-protocol under a Java leniency)"
        );
        assert!(
            generated > 0 && compared * 100 >= generated * min_percent,
            "{test}: only {compared} of {generated} cases compared with kafka-protocol (want {min_percent}%)"
        );
    }
}

fn runner(cases: u32) -> TestRunner {
    TestRunner::new(ProptestConfig {
        cases,
        failure_persistence: None,
        ..ProptestConfig::default()
    })
}

/// True when kafka-protocol, reading `bytes` at `version`, would size a `Vec` from a count
/// above [`KP_ALLOCATION_LIMIT`]. Our decoder refuses a count beyond the bytes left before
/// allocating (as Java does) and stops there; kafka-protocol allocates it and goes on to
/// read elements, so past our error it is emulated here (only owned_partitions has counts
/// nested in its elements).
fn kp_would_allocate_huge(bytes: &[u8], ours: &Decoded<Subscription>) -> bool {
    let Some(e) = &ours.error else { return false };
    let (what, count) = match e.kind {
        DecodeErrorKind::LengthBeyondInput { what, length, .. } => (what, length),
        DecodeErrorKind::Incomplete {
            declared: Some((what, length)),
            ..
        } => (what, length),
        _ => return false,
    };
    if what != "array" {
        return false;
    }
    if count > KP_ALLOCATION_LIMIT {
        return true;
    }
    // An incomplete count has nothing after it: kafka-protocol fails on the first element.
    if e.is_incomplete() || !e.field.starts_with("owned_partitions") || e.field.contains('.') {
        return false;
    }
    // kafka-protocol reads owned_partitions elements from just after the count.
    let mut rest = &bytes[e.span.start + 4..];
    for _ in 0..count {
        let Some((len, tail)) = rest.split_first_chunk::<2>() else {
            return false;
        };
        let len = i16::from_be_bytes(*len);
        if len < 0 || len as usize > tail.len() {
            return false;
        }
        let Some((n, tail)) = tail[len as usize..].split_first_chunk::<4>() else {
            return false;
        };
        let n = i32::from_be_bytes(*n);
        if n as i64 > KP_ALLOCATION_LIMIT {
            return true;
        }
        if n < 0 || n as usize * 4 > tail.len() {
            return false;
        }
        rest = &tail[n as usize * 4..];
    }
    false
}

/// A leniency of Java's (and ours) that kafka-protocol lacks, applied in this decode: invalid
/// UTF-8 replaced, or a nullable length below -1 read as null.
fn java_leniency(bytes: &[u8], d: &Decoded<Subscription>) -> bool {
    d.notes
        .iter()
        .any(|n| matches!(n, Note::InvalidUtf8 { .. }))
        || d.fields.iter().any(|f| {
            let nullable =
                f.path.parent.is_none() && ["user_data", "rack_id"].contains(&f.path.name);
            let Some(p) = f.prefix.filter(|_| nullable && f.value == FieldValue::Null) else {
                return false;
            };
            bytes[p.start..p.end].iter().any(|b| *b != 0xff)
        })
}

/// Decodes `bytes` with this codec and, when that is safe, with kafka-protocol, and checks
/// they agree: same fields when both accept, both refuse otherwise (or kafka-protocol
/// refuses where Java is lenient). Counts the case as generated, and as compared when
/// kafka-protocol ran.
fn differential(bytes: &[u8], tally: &Tally) -> Result<(), TestCaseError> {
    tally.generated.fetch_add(1, Ordering::Relaxed);
    let ours = decode_subscription(bytes);
    if let Some(e) = &ours.error {
        prop_assert!(
            e.span.start <= e.span.end && e.span.end <= bytes.len(),
            "span {:?} outside {} bytes: {}",
            e.span,
            bytes.len(),
            e
        );
        let (class, message) = e.java_exception();
        prop_assert!(
            [
                SCHEMA_EXCEPTION,
                RUNTIME_EXCEPTION,
                ILLEGAL_ARGUMENT_EXCEPTION
            ]
            .contains(&class)
                && !message.is_empty()
        );
    }
    if kp_would_allocate_huge(bytes, &ours) {
        return Ok(());
    }
    tally.compared.fetch_add(1, Ordering::Relaxed);
    // kafka-protocol has no reader for the header: read it as Java does (a negative
    // version is refused, above 3 is read as 3).
    let Some((v, body)) = bytes.split_first_chunk::<2>() else {
        prop_assert!(
            ours.error.as_ref().is_some_and(|e| e.in_header),
            "{:?}",
            ours.error
        );
        return Ok(());
    };
    let v = i16::from_be_bytes(*v);
    let mut b = bytes::Bytes::copy_from_slice(body);
    let theirs = KpSubscription::decode(&mut b, v.min(3));
    match (theirs, &ours.error) {
        (Ok(theirs), None) => {
            prop_assert_eq!(
                theirs
                    .topics
                    .iter()
                    .map(|t| t.to_string())
                    .collect::<Vec<_>>(),
                ours.message.topics.clone()
            );
            prop_assert_eq!(
                theirs.user_data.map(|u| u.to_vec()),
                ours.message.user_data.clone()
            );
            let owned: Vec<TopicPartitions> = theirs
                .owned_partitions
                .iter()
                .map(|tp| TopicPartitions {
                    topic: tp.topic.to_string(),
                    partitions: tp.partitions.clone(),
                })
                .collect();
            prop_assert_eq!(owned, ours.message.owned_partitions.clone());
            prop_assert_eq!(theirs.generation_id, ours.message.generation_id);
            prop_assert_eq!(
                theirs.rack_id.map(|r| r.to_string()),
                ours.message.rack_id.clone()
            );
            prop_assert_eq!(b.remaining(), ours.trailing_bytes);
            tally.accepted.fetch_add(1, Ordering::Relaxed);
        }
        (Ok(_), Some(e)) => prop_assert!(false, "kafka-protocol accepted, we refused: {}", e),
        (Err(_), Some(_)) => {}
        (Err(k), None) => {
            prop_assert!(
                java_leniency(bytes, &ours),
                "kafka-protocol refused ({}), we accepted with no leniency applied",
                k
            );
            tally.lenient.fetch_add(1, Ordering::Relaxed);
        }
    }
    Ok(())
}

/// Differential on damaged messages (a valid one with bytes overwritten, cut or appended).
#[test]
fn agrees_with_kafka_protocol_on_damaged_bytes() {
    let tally = Tally::default();
    let strategy = (
        subscription(),
        0i16..=3,
        prop::collection::vec((any::<prop::sample::Index>(), any::<u8>()), 0..4),
        any::<prop::sample::Index>(),
        prop::collection::vec(any::<u8>(), 0..6),
    );
    runner(1024)
        .run(&strategy, |(sub, version, edits, cut, tail)| {
            let mut bytes = encode_subscription(&sub, version).unwrap().bytes;
            for (at, value) in edits {
                let i = at.index(bytes.len());
                bytes[i] = value;
            }
            bytes.truncate(2 + cut.index(bytes.len() - 1));
            bytes.extend(tail);
            differential(&bytes, &tally)
        })
        .unwrap();
    tally.check("damaged bytes", 85);
}

/// One change to a valid encoding, at a place chosen by the encoding's own fields.
#[derive(Debug, Clone)]
enum Mutation {
    /// Overwrite a length or count prefix.
    Prefix(prop::sample::Index, PrefixValue),
    /// Flip one bit of one byte.
    Flip(prop::sample::Index, u8),
    /// Replace the version header.
    Version(i16),
}

/// What a length or count prefix is overwritten with.
#[derive(Debug, Clone)]
enum PrefixValue {
    /// -1, -2 or the most negative value.
    Negative(u8),
    /// The largest value the prefix holds.
    Huge,
    /// The bytes left after the prefix plus this (-1 to 3: just within, exactly, just beyond).
    NearRemaining(i8),
}

/// Where a truncation cuts.
#[derive(Debug, Clone, Copy)]
enum Cut {
    /// Where a field starts.
    FieldStart,
    /// Right after a length or count prefix.
    AfterPrefix,
    /// Inside a prefix or an int.
    InsidePrimitive,
    /// Inside the payload of a string or bytes.
    InsidePayload,
    /// Anywhere.
    Anywhere,
}

fn mutation() -> impl Strategy<Value = Mutation> {
    prop_oneof![
        3 => (any::<prop::sample::Index>(), prop_oneof![
            (0u8..3).prop_map(PrefixValue::Negative),
            Just(PrefixValue::Huge),
            (-1i8..=3).prop_map(PrefixValue::NearRemaining),
        ]).prop_map(|(i, v)| Mutation::Prefix(i, v)),
        1 => (any::<prop::sample::Index>(), 0u8..8).prop_map(|(i, bit)| Mutation::Flip(i, bit)),
        1 => prop_oneof![Just(-1i16), Just(i16::MIN), 0i16..=5, Just(i16::MAX)].prop_map(Mutation::Version),
    ]
}

fn cut() -> impl Strategy<Value = Option<(Cut, prop::sample::Index)>> {
    prop::option::of((
        prop_oneof![
            Just(Cut::FieldStart),
            Just(Cut::AfterPrefix),
            Just(Cut::InsidePrimitive),
            Just(Cut::InsidePayload),
            Just(Cut::Anywhere),
        ],
        any::<prop::sample::Index>(),
    ))
}

/// Applies `mutations`, then `cut`, to the valid encoding `bytes` whose fields are `fields`.
fn mutate(
    mut bytes: Vec<u8>,
    fields: &[Field],
    mutations: &[Mutation],
    cut: Option<(Cut, prop::sample::Index)>,
) -> Vec<u8> {
    let prefixes: Vec<Span> = fields.iter().filter_map(|f| f.prefix).collect();
    for m in mutations {
        match m {
            Mutation::Prefix(i, value) if !prefixes.is_empty() => {
                let p = prefixes[i.index(prefixes.len())];
                let remaining = (bytes.len() - p.end) as i64;
                let (min, max) = if p.len() == 2 {
                    (i16::MIN as i64, i16::MAX as i64)
                } else {
                    (i32::MIN as i64, i32::MAX as i64)
                };
                let v = match value {
                    PrefixValue::Negative(0) => -1,
                    PrefixValue::Negative(1) => -2,
                    PrefixValue::Negative(_) => min,
                    PrefixValue::Huge => max,
                    PrefixValue::NearRemaining(k) => (remaining + *k as i64).clamp(0, max),
                };
                let be = (v as i32).to_be_bytes();
                bytes[p.start..p.end].copy_from_slice(&be[4 - p.len()..]);
            }
            Mutation::Prefix(..) => {}
            Mutation::Flip(i, bit) => {
                let i = i.index(bytes.len());
                bytes[i] ^= 1 << bit;
            }
            Mutation::Version(v) => bytes[..2].copy_from_slice(&v.to_be_bytes()),
        }
    }
    if let Some((kind, i)) = cut {
        let mut at: Vec<usize> = Vec::new();
        for f in fields {
            match kind {
                Cut::FieldStart => at.push(f.span().start),
                Cut::AfterPrefix => at.extend(f.prefix.map(|p| p.end)),
                Cut::InsidePrimitive => {
                    if let Some(p) = f.prefix {
                        at.extend(p.start + 1..p.end);
                    }
                    if matches!(f.value, FieldValue::Int(_)) {
                        at.extend(f.payload.start + 1..f.payload.end);
                    }
                }
                Cut::InsidePayload => {
                    if matches!(f.value, FieldValue::Text(_) | FieldValue::Bytes(_)) {
                        at.extend(f.payload.start + 1..f.payload.end);
                    }
                }
                Cut::Anywhere => {}
            }
        }
        if at.is_empty() {
            at.extend(0..bytes.len());
        }
        bytes.truncate(at[i.index(at.len())]);
    }
    bytes
}

/// Subscriptions whose elements are smaller than their count prefix (empty or one-letter
/// names), where a count checked as elements times 4 instead of against the bytes left
/// would refuse what Java accepts.
fn dense_subscription() -> impl Strategy<Value = Subscription> {
    (
        prop::collection::vec("[a-z]?", 0..12),
        prop::collection::vec(("[a-z]?", prop::collection::vec(any::<i32>(), 0..3)), 0..4),
        prop::option::of("[a-z]?"),
    )
        .prop_map(|(topics, owned, rack_id)| Subscription {
            topics,
            user_data: None,
            owned_partitions: owned
                .into_iter()
                .map(|(topic, partitions)| TopicPartitions { topic, partitions })
                .collect(),
            generation_id: 1,
            rack_id,
        })
}

/// Structure-aware: valid encodings at every version, their length and count prefixes
/// overwritten (negative, huge, at and just beyond the bytes left), bits flipped, the
/// version header changed, then cut at every kind of position. Never a panic, every error
/// inside the input, and the same accept/refuse as kafka-protocol wherever it can run.
#[test]
fn mutated_subscriptions_agree_with_kafka_protocol() {
    let tally = Tally::default();
    let strategy = (
        prop_oneof![subscription(), dense_subscription()],
        0i16..=3,
        prop::collection::vec(mutation(), 0..3),
        cut(),
    );
    runner(2048)
        .run(&strategy, |(sub, version, mutations, cut)| {
            let bytes = encode_subscription(&sub, version).unwrap().bytes;
            let fields = decode_subscription(&bytes).fields;
            let bytes = mutate(bytes, &fields, &mutations, cut);
            differential(&bytes, &tally)
        })
        .unwrap();
    tally.check("mutated subscriptions", 85);
}

#[test]
fn declared_i32_max_elements_is_a_clean_error() {
    // topics count i32::MAX, then nothing.
    let bytes = [0u8, 0, 0x7f, 0xff, 0xff, 0xff, 0, 1, b'a'];
    let (d, alloc) = allocated_by(|| decode_subscription(&bytes));
    let e = d.error.unwrap();
    assert!(
        matches!(
            e.kind,
            DecodeErrorKind::LengthBeyondInput {
                length: 2147483647,
                remaining: 3,
                ..
            }
        ),
        "{e}"
    );
    assert_eq!(
        e.to_string(),
        "byte 0x02, topics: array count 2147483647 but only 3 bytes left (Java: collection larger than the bytes remaining)"
    );
    assert!(alloc < 4096, "{alloc}");
    // owned partitions with i32::MAX partitions
    let bytes = hex::parse_hex("000100000000ffffffff00000001000174 7fffffff").unwrap();
    let (d, alloc) = allocated_by(|| decode_subscription(&bytes));
    assert!(d.error.is_some());
    assert!(alloc < 4096, "{alloc}");
    // user_data of i32::MAX bytes
    let bytes = hex::parse_hex("000000000000 7fffffff 00").unwrap();
    let (d, alloc) = allocated_by(|| decode_subscription(&bytes));
    assert_eq!(
        d.error.unwrap().to_string(),
        "byte 0x06, user_data: bytes length 2147483647 but only 1 byte left (Java: the bytes would end past the buffer, newLimit > capacity)"
    );
    assert!(alloc < 4096, "{alloc}");
}

#[test]
fn error_messages_read_like_the_spec() {
    // topics[1] declares 5 bytes with 3 left.
    let bytes = hex::parse_hex("0000 00000002 0001 61 0005 626364").unwrap();
    let e = decode_subscription(&bytes).error.unwrap();
    assert_eq!(
        e.to_string(),
        "byte 0x09, topics[1]: string length 5 but only 3 bytes left (Java: byte array longer than the bytes available)"
    );
    let e = decode_subscription(&hex::parse_hex("0000").unwrap())
        .error
        .unwrap();
    assert!(e.is_incomplete());
    assert_eq!(
        e.to_string(),
        "byte 0x02, topics: incomplete: next comes the int32 count of topics, 4 bytes (Java: buffer underflow while parsing the subscription)"
    );
    // Partial fields come back with the error.
    let d = decode_subscription(&bytes);
    assert_eq!(d.message.topics, vec!["a".to_string()]);
    let paths: Vec<String> = d.fields.iter().map(|f| f.path.to_string()).collect();
    assert_eq!(paths, vec!["version", "topics", "topics[0]"]);
    let t0 = &d.fields[2];
    assert_eq!(
        (
            t0.prefix.unwrap().start,
            t0.prefix.unwrap().end,
            t0.payload.start,
            t0.payload.end
        ),
        (6, 8, 8, 9)
    );
}

// ---------- assignor invariants ----------

fn group() -> impl Strategy<Value = GroupInput> {
    let topics = prop::collection::vec(0u32..12, 1..5);
    (
        topics,
        prop::collection::vec(
            (
                0usize..40,
                prop::bool::ANY,
                prop::collection::vec(prop::bool::ANY, 5),
            ),
            0..9,
        ),
    )
        .prop_map(|(counts, members)| {
            let topics: Vec<TopicMeta> = counts
                .iter()
                .enumerate()
                .map(|(i, n)| TopicMeta {
                    name: format!("t{i}"),
                    partitions: *n,
                    racks: vec![],
                })
                .collect();
            let mut seen = std::collections::HashSet::new();
            let members = members
                .into_iter()
                .filter(|(id, _, _)| seen.insert(*id))
                .map(|(id, is_static, subs)| MemberMeta {
                    id: format!("consumer-{id}"),
                    instance_id: is_static.then(|| format!("instance-{}", 40 - id)),
                    rack: None,
                    owned: vec![],
                    // t4 is subscribed to but may not exist in metadata
                    topics: subs
                        .iter()
                        .enumerate()
                        .filter(|(_, s)| **s)
                        .map(|(i, _)| format!("t{i}"))
                        .collect::<Vec<_>>()
                        .into(),
                    ..Default::default()
                })
                .collect();
            GroupInput {
                topics,
                members,
                ..Default::default()
            }
        })
}

proptest! {
    #[test]
    fn every_partition_once_to_a_subscriber(g in group(), rr in prop::bool::ANY, seed in any::<u64>(), same in prop::bool::ANY) {
        let kind = if rr { AssignorKind::RoundRobin } else { AssignorKind::Range };
        let mut g = g;
        if same {
            // Everyone lists the first member's topics (the shared-list path).
            let first = g.members.first().map(|m| m.topics.clone()).unwrap_or_default();
            for m in &mut g.members {
                m.topics = first.clone();
            }
        }
        let a = assignor::assign(kind, &g).unwrap();
        // Each topic's shares: its subscribers in assignor order, each with the count of
        // partitions it got.
        for t in &a.topics {
            let want: Vec<u32> = a.order.iter().copied().filter(|m| g.members[*m as usize].topics.contains(&t.topic)).collect();
            let got: Vec<u32> = t.shares().iter().map(|s| s.member).collect();
            prop_assert_eq!(got, want);
            for (i, s) in t.shares().iter().enumerate() {
                prop_assert_eq!(s.index as usize, i);
                prop_assert_eq!(s.quota as usize, t.owners.iter().filter(|o| **o == s.member).count());
            }
        }
        for meta in &g.topics {
            let subscribers: Vec<usize> = (0..g.members.len()).filter(|m| g.members[*m].topics.contains(&meta.name)).collect();
            let t = a.topics.iter().find(|t| t.topic == meta.name);
            if subscribers.is_empty() || meta.partitions == 0 {
                prop_assert!(t.is_none_or(|t| t.owners.iter().all(|o| *o == UNASSIGNED)));
                continue;
            }
            let t = t.unwrap();
            prop_assert_eq!(t.owners.len(), meta.partitions as usize);
            for o in &t.owners {
                prop_assert!(*o != UNASSIGNED && subscribers.contains(&(*o as usize)));
            }
            if kind == AssignorKind::Range {
                let counts: Vec<usize> = subscribers.iter().map(|m| t.owners.iter().filter(|o| **o as usize == *m).count()).collect();
                prop_assert!(counts.iter().max().unwrap() - counts.iter().min().unwrap() <= 1);
            }
        }
        // Every member is in the result; the order members are listed never matters.
        let map = a.to_map(&g);
        prop_assert_eq!(map.len(), g.members.len());
        let mut shuffled = g.clone();
        let n = shuffled.members.len();
        if n > 1 {
            let mut s = seed;
            for i in (1..n).rev() {
                s = s.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                shuffled.members.swap(i, (s >> 33) as usize % (i + 1));
            }
        }
        prop_assert_eq!(assignor::assign(kind, &shuffled).unwrap().to_map(&shuffled), map);
    }

    /// What-if: the diff of two assignments of random groups matches a plain count by
    /// member id, partition by partition (the baseline's members renamed at random, as a
    /// restart does, some of them onto current ids).
    #[test]
    fn diff_counts_every_move(before in group(), after in group(), rr in prop::bool::ANY, renames in prop::collection::vec(0usize..40, 0..4)) {
        use rebalance_lab_core::scenario::whatif::{diff, Baseline};
        use std::collections::BTreeMap;
        let kind = if rr { AssignorKind::RoundRobin } else { AssignorKind::Range };
        let mut b = Baseline::pin(&before, &assignor::range(&before));
        for r in renames {
            if let Some(m) = b.members.get(r % b.members.len().max(1)).cloned() {
                b.rename(&m, &format!("consumer-{r}"));
            }
        }
        let a = assignor::assign(kind, &after).unwrap();
        let d = diff(&b, &after, &a);

        let (mut moved, mut newly, mut gone) = (0u32, 0u32, 0u32);
        let mut changes: BTreeMap<String, (u32, u32)> = BTreeMap::new();
        let mut cells = 0u32;
        let owner_now = |t: &str, p: usize| {
            a.topics.iter().find(|x| x.topic == t).and_then(|x| x.owners.get(p)).filter(|o| **o != UNASSIGNED).map(|o| after.members[*o as usize].id.clone())
        };
        let mut partitions: Vec<(String, usize)> = Vec::new();
        for t in &a.topics { for p in 0..t.owners.len() { partitions.push((t.topic.clone(), p)); } }
        for (t, owners) in &b.topics {
            for p in 0..owners.len() { if !partitions.contains(&(t.clone(), p)) { partitions.push((t.clone(), p)); } }
        }
        for (t, p) in &partitions {
            match (b.owner(t, *p).map(str::to_string), owner_now(t, *p)) {
                (Some(x), Some(y)) if x != y => {
                    moved += 1;
                    cells += 1;
                    changes.entry(y).or_default().0 += 1;
                    changes.entry(x).or_default().1 += 1;
                }
                (None, Some(y)) => { newly += 1; changes.entry(y).or_default().0 += 1; }
                (Some(x), None) => { gone += 1; changes.entry(x).or_default().1 += 1; }
                _ => {}
            }
        }
        prop_assert_eq!((d.moved, d.newly_assigned, d.unassigned), (moved, newly, gone));
        prop_assert_eq!(d.moved_cells.iter().flatten().filter(|c| **c).count() as u32, cells);
        let got: BTreeMap<String, (u32, u32)> = d.changes.iter().map(|(k, v)| (k.clone(), *v)).collect();
        prop_assert_eq!(got, changes);
        for m in &after.members {
            prop_assert_eq!(d.joined.contains(&m.id), !b.members.contains(&m.id));
        }
    }
}

#[test]
fn incomplete_prefix_keeps_the_count_in_the_tree() {
    let d = decode_subscription(&hex::parse_hex("000300000001").unwrap());
    assert!(d.error.as_ref().unwrap().is_incomplete(), "{:?}", d.error);
    let paths: Vec<String> = d.fields.iter().map(|f| f.path.to_string()).collect();
    assert_eq!(paths, vec!["version", "topics"]);
}

mod classic_group {
    use proptest::prelude::*;
    use rebalance_lab_core::group::{leader_after, select_protocol, JoinRequest};

    const NAMES: [&str; 6] = [
        "range",
        "roundrobin",
        "sticky",
        "cooperative-sticky",
        "custom-v1",
        "x",
    ];

    fn requests() -> impl Strategy<Value = Vec<JoinRequest>> {
        prop::collection::vec(prop::collection::vec(0..NAMES.len(), 0..4), 0..12).prop_map(
            |lists| {
                lists
                    .into_iter()
                    .enumerate()
                    .map(|(i, l)| {
                        let mut protocols: Vec<String> = Vec::new();
                        for p in l {
                            // distinct names, as every real client sends
                            if !protocols.iter().any(|q| q == NAMES[p]) {
                                protocols.push(NAMES[p].to_string());
                            }
                        }
                        JoinRequest {
                            id: format!("m{i}"),
                            protocols,
                        }
                    })
                    .collect()
            },
        )
    }

    proptest! {
        #[test]
        fn the_winner_is_listed_by_every_accepted_member(reqs in requests()) {
            let s = select_protocol(&reqs).unwrap();
            prop_assert_eq!(s.accepted.len() + s.refused.len(), reqs.len());
            match &s.selected {
                Some(w) => {
                    for id in s.accepted_ids() {
                        let r = reqs.iter().find(|r| r.id == id).unwrap();
                        prop_assert!(r.protocols.contains(w), "{} lacks {}", id, w);
                    }
                    // one vote per accepted member, and the winner has the most
                    let total: u32 = s.tally.counts.iter().map(|c| c.1).sum();
                    prop_assert_eq!(total as usize, s.accepted.len());
                    prop_assert!(s.tally.counts.iter().all(|c| c.1 <= s.tally.votes(w)));
                }
                None => prop_assert!(s.accepted.is_empty()),
            }
        }

        #[test]
        fn a_refused_member_never_changes_the_group(reqs in requests()) {
            let s = select_protocol(&reqs).unwrap();
            let without: Vec<JoinRequest> = reqs
                .iter()
                .filter(|r| !s.refused.iter().any(|x| x.id == r.id))
                .cloned()
                .collect();
            let t = select_protocol(&without).unwrap();
            prop_assert!(t.refused.is_empty());
            prop_assert_eq!(s.accepted_ids(), t.accepted_ids());
            prop_assert_eq!(&s.tally, &t.tally);
            prop_assert_eq!(s.selected, t.selected);
        }

        #[test]
        fn the_leader_is_a_member_and_the_next_leader_takes_over(
            joins in prop::collection::vec("[a-zA-Z0-9-]{1,12}", 0..40),
            leave_picks in prop::collection::vec(any::<prop::sample::Index>(), 0..20),
        ) {
            let mut joins_unique: Vec<String> = Vec::new();
            for j in joins {
                if !joins_unique.contains(&j) {
                    joins_unique.push(j);
                }
            }
            let leaves: Vec<String> = if joins_unique.is_empty() {
                Vec::new()
            } else {
                leave_picks.iter().map(|i| i.get(&joins_unique).clone()).collect()
            };
            let h = leader_after(&joins_unique, &leaves);
            match &h.leader {
                Some(l) => prop_assert!(h.members.contains(l)),
                None => prop_assert!(h.members.is_empty()),
            }
            // with no leader leaving, the first joiner leads
            if !leaves.iter().any(|l| Some(l) == joins_unique.first()) {
                prop_assert_eq!(h.leader.as_ref(), joins_unique.first());
            }
            // the announced next leader is who leads once the leader leaves
            if let Some(l) = &h.leader {
                let mut more = leaves.clone();
                more.push(l.clone());
                prop_assert_eq!(leader_after(&joins_unique, &more).leader, h.next_leader);
            }
        }
    }
}

mod librdkafka_order {
    use proptest::prelude::*;
    use rebalance_lab_core::assignor::{
        self, AssignorKind, GroupInput, LeaderClient, MemberMeta, TopicMeta,
    };

    proptest! {
        /// Where the two clients order the members alike, their answers are equal.
        #[test]
        fn same_order_same_answer(
            ids in prop::collection::vec("\\PC{1,4}", 1..8),
            statics in prop::collection::vec(prop::option::of("[a-c]{1,2}"), 8),
            parts in 1u32..12,
        ) {
            let mut members: Vec<MemberMeta> = Vec::new();
            for (i, id) in ids.iter().enumerate() {
                let id = format!("{id}{i}");
                let instance_id = statics[i].clone().map(|s| format!("{s}{i}"));
                members.push(MemberMeta { id, instance_id, rack: None, topics: vec!["t".into(), "u".into()].into(), ..Default::default() });
            }
            let input = GroupInput {
                topics: vec![
                    TopicMeta { name: "t".into(), partitions: parts, racks: vec![] },
                    TopicMeta { name: "u".into(), partitions: parts + 1, racks: vec![] },
                ],
                members,
                ..Default::default()
            };
            for kind in [AssignorKind::Range, AssignorKind::RoundRobin] {
                let j = assignor::assign_with(kind, &input, LeaderClient::Java).unwrap();
                let r = assignor::assign_with(kind, &input, LeaderClient::Librdkafka).unwrap();
                if j.order == r.order {
                    prop_assert_eq!(j.to_map(&input), r.to_map(&input));
                }
                // each partition once, either way
                prop_assert_eq!(r.totals.iter().sum::<u32>(), 2 * parts + 1);
            }
        }
    }
}
