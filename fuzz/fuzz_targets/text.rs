//! Arbitrary text through the hex reader, the link reader, the reader of what
//! kafka-consumer-groups.sh prints, the timeline's text in a link, the timeline's script
//! reader and the scenario file's reader: never a panic.
#![no_main]

use libfuzzer_sys::fuzz_target;
use rebalance_lab_core::protocol::hex::parse_hex;
use rebalance_lab_core::scenario::link::{from_fragment, to_fragment};
use rebalance_lab_core::scenario::Scenario;
use rebalance_lab_core::timeline::script::acts;
use rebalance_lab_core::timeline::spec::Spec;
use rebalance_lab_core::timeline::ClientSettings;

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        let _ = parse_hex(text);
        let _ = Scenario::from_json(text);
        let _ = rebalance_lab_core::import::parse(text);
        if let Ok(spec) = Spec::parse(text) {
            // the timeline's text reads back as it was written
            assert_eq!(Spec::parse(&spec.write()).as_ref(), Ok(&spec));
        }
        let names = ["a".to_string(), "b c".to_string(), "new-1".to_string()];
        let lists = vec![vec!["range".to_string(), "cooperative-sticky".to_string()]; 3];
        let _ = acts(text, &names, &ClientSettings::default(), &lists);
        if let Ok(state) = from_fragment(text) {
            // What a link reads, it writes back to a link that reads the same.
            let again = from_fragment(&to_fragment(&state)).unwrap();
            assert_eq!(
                again, state,
                "read -> write -> read differs (left: read again, right: first read)"
            );
        }
    }
});
