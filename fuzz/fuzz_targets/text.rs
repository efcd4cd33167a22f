//! Arbitrary text through the hex reader, the link reader and the reader of what
//! kafka-consumer-groups.sh prints: never a panic.
#![no_main]

use libfuzzer_sys::fuzz_target;
use rebalance_lab_core::protocol::hex::parse_hex;
use rebalance_lab_core::scenario::link::{from_fragment, to_fragment};

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        let _ = parse_hex(text);
        let _ = rebalance_lab_core::import::parse(text);
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
