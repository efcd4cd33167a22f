//! The shape of member ids: what a coordinator hands out (`client.id-<uuid>`), and the
//! client.id inside one.

/// The member ids a coordinator hands out: client.id, a dash, and a UUID. Deterministic
/// here (from `seed`), so a story and its link always show the same thing.
pub fn coordinator_member_id(client_id: &str, seed: u64) -> String {
    let mut x = seed ^ 0x9E37_79B9_7F4A_7C15;
    for b in client_id.bytes() {
        x = (x ^ b as u64).wrapping_mul(0x0100_0000_01B3);
    }
    let mut next = || {
        x ^= x >> 33;
        x = x.wrapping_mul(0xff51_afd7_ed55_8ccd);
        x ^= x >> 33;
        x
    };
    let (a, b) = (next(), next());
    format!(
        "{client_id}-{:08x}-{:04x}-4{:03x}-{:04x}-{:012x}",
        a >> 32,
        (a >> 16) & 0xffff,
        a & 0xfff,
        0x8000 | (b >> 48) & 0x3fff,
        b & 0xffff_ffff_ffff
    )
}

/// The client.id part of a coordinator-assigned member id (the id without its UUID).
pub fn client_id_of(member_id: &str) -> &str {
    match split_member_id(member_id) {
        Some((client_id, _)) if !client_id.is_empty() => client_id,
        _ => member_id,
    }
}

/// A coordinator member id's two parts: the client.id and the UUID after it
/// (`xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx`, hex digits of either case), when it has that shape.
pub fn split_member_id(member_id: &str) -> Option<(&str, &str)> {
    let b = member_id.as_bytes();
    if b.len() < 37 || b[b.len() - 37] != b'-' {
        return None;
    }
    let uuid = &member_id[member_id.len() - 36..];
    let shape = uuid.bytes().enumerate().all(|(i, c)| match i {
        8 | 13 | 18 | 23 => c == b'-',
        _ => c.is_ascii_hexdigit(),
    });
    shape.then(|| (&member_id[..member_id.len() - 37], uuid))
}
