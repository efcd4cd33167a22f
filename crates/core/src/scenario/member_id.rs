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

/// A member id as the views show it where space is short, so that ids can be told apart: a
/// coordinator id keeps its client.id and the first 8 digits of its UUID
/// (`consumer-orders-1-0f5b6e0c…`); another long id keeps its start and its end. The whole id
/// is always one hover away.
pub fn display_id(member_id: &str) -> String {
    if let Some((client, uuid)) = split_member_id(member_id) {
        return format!("{client}-{}…", &uuid[..8]);
    }
    let n = member_id.chars().count();
    if n <= 40 {
        return member_id.to_string();
    }
    let head: String = member_id.chars().take(24).collect();
    let tail: String = member_id.chars().skip(n - 12).collect();
    format!("{head}…{tail}")
}

/// The member id the coordinator would give the next consumer to join, as a real Java
/// consumer gets one: its client.id is `consumer-<group.id>-<n>` (the client's default,
/// `n` counting the consumers of that process), then a dash and a UUID. The group's own
/// ids decide `<group.id>` (`consumer-orders-1-<uuid>` gives `orders`), `my-group` when they
/// say nothing; `n` is one more than the largest in use, so the new id sorts as a real
/// join would. `seed` makes the UUID (deterministic, so a link reproduces it).
pub fn next_consumer_id<'a>(ids: impl IntoIterator<Item = &'a str>, seed: u64) -> String {
    let mut group: Option<String> = None;
    let mut max_n = 0u64;
    for id in ids {
        let client = client_id_of(id);
        // consumer-<group>-<n>
        let Some(rest) = client.strip_prefix("consumer-") else {
            continue;
        };
        let Some((g, n)) = rest.rsplit_once('-') else {
            continue;
        };
        let Ok(n) = n.parse::<u64>() else {
            continue;
        };
        if group.is_none() && !g.is_empty() {
            group = Some(g.to_string());
        }
        if group.as_deref() == Some(g) {
            max_n = max_n.max(n);
        }
    }
    let group = group.unwrap_or_else(|| "my-group".to_string());
    coordinator_member_id(&format!("consumer-{group}-{}", max_n + 1), seed)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn display_ids_tell_members_apart() {
        let a = coordinator_member_id("consumer-orders-1", 1);
        let b = coordinator_member_id("consumer-orders-1", 2);
        assert_ne!(display_id(&a), display_id(&b));
        assert!(display_id(&a).starts_with("consumer-orders-1-"));
        assert_eq!(display_id("c1"), "c1");
        let long = "x".repeat(30) + "-end-of-a-very-long-id";
        assert!(display_id(&long).ends_with("very-long-id"));
    }

    #[test]
    fn a_new_member_joins_like_a_real_consumer() {
        let ids = [
            coordinator_member_id("consumer-orders-1", 1),
            coordinator_member_id("consumer-orders-3", 2),
        ];
        let next = next_consumer_id(ids.iter().map(String::as_str), 9);
        assert!(next.starts_with("consumer-orders-4-"), "{next}");
        assert!(split_member_id(&next).is_some());
        let first = next_consumer_id(["consumer-a", "consumer-b"], 9);
        assert!(first.starts_with("consumer-my-group-1-"), "{first}");
    }
}
