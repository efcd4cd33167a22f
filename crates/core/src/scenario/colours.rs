//! Member colours that follow members, not positions.
//!
//! Each member holds a colour slot for as long as it exists: a new member takes the lowest
//! slot nobody holds, a renamed member (or one that came back under a new member id after a
//! restart) keeps its slot, and a member that leaves frees its slot only once nothing still
//! shows it (a pinned baseline keeps the slots of the members it names). The views draw slot
//! `k` as colour `k mod 8` of the palette plus pattern `(k div 8) mod 4`, so 32 members are
//! told apart before a colour and pattern repeat; the legend names every member.

use std::collections::BTreeMap;

/// Colours in the palette.
pub const PALETTE: u32 = 8;
/// Patterns over the colours.
pub const PATTERNS: u32 = 4;

/// Colour slots by member id.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Colours {
    slots: BTreeMap<String, u32>,
}

impl Colours {
    /// Slots in list order: the first member 0, the next 1, ... (a scenario just opened).
    pub fn in_order<'a>(ids: impl IntoIterator<Item = &'a str>) -> Colours {
        Colours {
            slots: ids
                .into_iter()
                .enumerate()
                .map(|(i, id)| (id.to_string(), i as u32))
                .collect(),
        }
    }

    /// From explicit slots (a link that carries them); ids repeat at most once each.
    pub fn from_pairs(pairs: impl IntoIterator<Item = (String, u32)>) -> Colours {
        Colours {
            slots: pairs.into_iter().collect(),
        }
    }

    /// A member's slot.
    pub fn slot(&self, id: &str) -> Option<u32> {
        self.slots.get(id).copied()
    }

    /// The slots after the group changed: `live` are the ids shown now (members, and the
    /// members a pinned baseline names). Ids no longer live free their slots; live ids
    /// without one take the lowest free slots, in the order given.
    pub fn updated<'a>(&self, live: impl IntoIterator<Item = &'a str>) -> Colours {
        let live: Vec<&str> = live.into_iter().collect();
        let mut keep: Vec<(String, u32)> = Vec::with_capacity(live.len());
        let mut taken: Vec<bool> = Vec::new();
        let mut new_ids: Vec<&str> = Vec::new();
        let mut seen = crate::collections::Names::default();
        for id in &live {
            if seen.insert(id.to_string(), 0).is_some() {
                continue;
            }
            match self.slots.get(*id) {
                Some(s) => {
                    keep.push((id.to_string(), *s));
                    let s = *s as usize;
                    if s >= taken.len() {
                        taken.resize(s + 1, false);
                    }
                    taken[s] = true;
                }
                None => new_ids.push(id),
            }
        }
        let mut next = 0usize;
        for id in new_ids {
            while taken.get(next).copied().unwrap_or(false) {
                next += 1;
            }
            keep.push((id.to_string(), next as u32));
            next += 1;
        }
        Colours::from_pairs(keep)
    }

    /// The slot of `old` now belongs to `new` (a rename, or a restart under a new id).
    pub fn rename(&mut self, old: &str, new: &str) {
        if let Some(s) = self.slots.remove(old) {
            self.slots.insert(new.to_string(), s);
        }
    }

    /// Every (id, slot).
    pub fn iter(&self) -> impl Iterator<Item = (&String, &u32)> {
        self.slots.iter()
    }
}

/// The CSS classes of slot `k`: its colour and its pattern.
pub fn classes(slot: u32) -> (u32, u32) {
    (slot % PALETTE, (slot / PALETTE) % PATTERNS)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_member_keeps_its_slot() {
        let c = Colours::in_order(["a", "b", "c"]);
        // b leaves: a and c keep theirs
        let c = c.updated(["a", "c"]);
        assert_eq!(
            (c.slot("a"), c.slot("c"), c.slot("b")),
            (Some(0), Some(2), None)
        );
        // a newcomer that sorts first takes the free slot, nobody else moves
        let c = c.updated(["0-new", "a", "c"]);
        assert_eq!(c.slot("0-new"), Some(1));
        assert_eq!((c.slot("a"), c.slot("c")), (Some(0), Some(2)));
        let mut c = c;
        c.rename("a", "a2");
        assert_eq!((c.slot("a2"), c.slot("a")), (Some(0), None));
        assert_eq!(classes(9), (1, 1));
    }
}
