//! Member ids, compactly: `^.` repeats the previous id's client.id (all before its UUID),
//! `^N.` reuses the first N bytes of the previous id, and a trailing coordinator UUID is
//! written as `~` and 22 base64url characters. A shared link stays short for real member ids
//! (`consumer-orders-1-<uuid>` fifty times).

use super::text::{b64_encode, escape, Part};
use super::LinkError;
use crate::scenario::member_id::split_member_id;

/// The canonical lower-case UUID at the end of a coordinator member id
/// (`client.id-xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx`), as 16 bytes.
fn trailing_uuid(id: &str) -> Option<[u8; 16]> {
    let (_, uuid) = split_member_id(id)?;
    // Only the canonical lower-case form packs: the reader writes it back lower-case.
    if uuid.bytes().any(|c| c.is_ascii_uppercase()) {
        return None;
    }
    let digits: String = uuid.chars().filter(|c| *c != '-').collect();
    crate::protocol::hex::parse_hex(&digits)
        .ok()?
        .try_into()
        .ok()
}

/// A member id without its packable UUID: what `^.` repeats.
fn head_of(id: &str) -> &str {
    if trailing_uuid(id).is_some() {
        &id[..id.len() - 37]
    } else {
        id
    }
}

/// Writes a member id after the previous member's id `prev`.
pub(super) fn write_member_id(id: &str, prev: &str, out: &mut String) {
    let (head, uuid) = match trailing_uuid(id) {
        Some(u) => (&id[..id.len() - 37], Some(u)),
        None => (id, None),
    };
    let prev_head = head_of(prev);
    let mut common = head
        .bytes()
        .zip(prev.bytes())
        .take_while(|(a, b)| a == b)
        .count();
    while !head.is_char_boundary(common) {
        common -= 1;
    }
    if !head.is_empty() && head == prev_head {
        // The same client.id as the previous member: the usual case.
        out.push_str("^.");
    } else if common >= 4 {
        out.push_str(&format!("^{common}."));
        escape(&head[common..], out);
    } else {
        escape(head, out);
    }
    if let Some(u) = uuid {
        out.push('~');
        b64_encode(&u, out);
    }
}

/// Reads a member id written by [`write_member_id`] after the previous member's id `prev`.
pub(super) fn read_member_id(p: &Part<'_>, prev: &str) -> Result<String, LinkError> {
    let mut rest = *p;
    let mut id = String::new();
    if p.text.starts_with("^.") {
        let prev_head = head_of(prev);
        if prev_head.is_empty() {
            return Err(p.err(
                "member id: '^.' repeats the previous member's client.id, but there is none",
            ));
        }
        id.push_str(prev_head);
        rest = p.skip(2);
    } else if let Some(r) = p.text.strip_prefix('^') {
        let dot = r
            .find('.')
            .ok_or_else(|| p.err("member id: '^' must be followed by a length and '.'"))?;
        let n: usize = p.skip(1).take(dot).number("member id prefix length", "")?;
        let shared = prev.get(..n).ok_or_else(|| {
            p.err(format!(
                "member id: reuses {n} bytes of the previous member id, which is shorter (or cut inside a character)"
            ))
        })?;
        id.push_str(shared);
        rest = p.skip(dot + 2);
    }
    let (text, uuid) = match rest.text.find('~') {
        Some(t) => (rest.take(t), Some(rest.skip(t + 1))),
        None => (rest, None),
    };
    id.push_str(&text.unescape("member id")?);
    if let Some(u) = uuid {
        let bytes = u.b64("member id UUID")?;
        if bytes.len() != 16 {
            return Err(u.err(format!(
                "member id UUID: {} bytes, a UUID has 16",
                bytes.len()
            )));
        }
        let h = crate::protocol::hex::to_hex(&bytes);
        id.push_str(&format!(
            "-{}-{}-{}-{}-{}",
            &h[..8],
            &h[8..12],
            &h[12..16],
            &h[16..20],
            &h[20..]
        ));
    }
    if id.is_empty() {
        return Err(p.err("a member id cannot be empty"));
    }
    Ok(id)
}
