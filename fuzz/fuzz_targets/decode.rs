//! Arbitrary bytes through both decoders: never a panic; a success re-encodes to a message
//! that decodes to the same fields.
#![no_main]

use libfuzzer_sys::fuzz_target;
use rebalance_lab_core::protocol::{decode_assignment, decode_subscription, encode_subscription};

fuzz_target!(|data: &[u8]| {
    let d = decode_subscription(data);
    if d.error.is_none() {
        let v = d.version;
        let again = encode_subscription(&d.message, v).expect("a decoded message encodes");
        let back = decode_subscription(&again.bytes);
        assert_eq!(back.message, d.message.as_written_at(v));
    } else {
        let e = d.error.unwrap();
        assert!(e.span.start <= data.len());
    }
    let _ = decode_assignment(data);
});
