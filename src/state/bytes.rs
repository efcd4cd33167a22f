//! A member's subscription bytes: opened, typed as hex, written at a version, dropped for
//! the form fields.

use super::{id_at, AppState, HistoryMode, Outcome, DEFAULT_VERSION};
use rebalance_lab_core::protocol::{decode_subscription, encode_subscription, hex};
use std::rc::Rc;

/// Opens (or closes, with None) a member's bytes.
pub(super) fn show(next: &mut AppState, index: Option<usize>) -> Outcome {
    next.bytes_member = index.and_then(|i| Some(next.scenario.members.get(i)?.id.clone()));
    Outcome::Viewed
}

/// Hex typed or pasted: the bytes read so far (all of them when the text is hex; the text
/// itself stays as typed) are what the member sends. Bytes that do not decode are kept: the
/// member then subscribes to nothing, as a Java leader would fail.
pub(super) fn set_hex(next: &mut AppState, index: usize, text: String) -> Outcome {
    let s = Rc::make_mut(&mut next.scenario);
    let Some(m) = s.members.get_mut(index) else {
        return Outcome::refused(format!("member-{index}-hex"), "no such member".into());
    };
    let (bytes, hex_error) = hex::parse_hex_partial(&text);
    let d = decode_subscription(&bytes);
    if d.error.is_none() && hex_error.is_none() {
        m.apply_subscription(&d.message);
    }
    m.subscription = Some(bytes);
    next.hex_drafts.insert(m.id.clone(), text);
    Outcome::Changed(HistoryMode::Replace)
}

/// The version the member's bytes are written at: raw bytes that decode are written again
/// at it.
pub(super) fn set_version(next: &mut AppState, index: usize, version: i16) -> Outcome {
    let version = version.clamp(0, DEFAULT_VERSION);
    let s = Rc::make_mut(&mut next.scenario);
    let id = id_at(s, index);
    if version == DEFAULT_VERSION {
        next.versions.remove(&id);
    } else if !id.is_empty() {
        next.versions.insert(id.clone(), version);
    }
    if let Some(m) = s.members.get_mut(index) {
        if let Some(bytes) = &m.subscription {
            let d = decode_subscription(bytes);
            if d.error.is_none() {
                if let Ok(enc) = encode_subscription(&d.message, version) {
                    m.subscription = Some(enc.bytes);
                    next.hex_drafts.remove(&id);
                }
            }
        }
    }
    Outcome::Changed(HistoryMode::Push)
}

/// Drops the member's raw bytes: its form fields say what it sends again.
pub(super) fn use_form_fields(next: &mut AppState, index: usize) -> Outcome {
    let s = Rc::make_mut(&mut next.scenario);
    if let Some(m) = s.members.get_mut(index) {
        m.subscription = None;
    }
    next.hex_drafts.remove(&id_at(s, index));
    Outcome::Changed(HistoryMode::Push)
}
