//! A map over the run's member ids, which count up from 1: a slot per id, walked in id
//! order as a `BTreeMap<u64, V>` is, looked up without a search.

/// Values by member id.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct IdMap<V> {
    slots: Vec<Option<(u64, V)>>,
    len: usize,
}

impl<V> Default for IdMap<V> {
    fn default() -> Self {
        IdMap {
            slots: Vec::new(),
            len: 0,
        }
    }
}

impl<V> IdMap<V> {
    pub fn get(&self, id: &u64) -> Option<&V> {
        self.slots.get(*id as usize)?.as_ref().map(|(_, v)| v)
    }

    pub fn get_mut(&mut self, id: &u64) -> Option<&mut V> {
        self.slots.get_mut(*id as usize)?.as_mut().map(|(_, v)| v)
    }

    pub fn contains_key(&self, id: &u64) -> bool {
        self.get(id).is_some()
    }

    /// Sets `id`'s value; returns the one before.
    pub fn insert(&mut self, id: u64, value: V) -> Option<V> {
        let i = id as usize;
        if self.slots.len() <= i {
            self.slots.resize_with(i + 1, || None);
        }
        let before = self.slots[i].replace((id, value)).map(|(_, v)| v);
        if before.is_none() {
            self.len += 1;
        }
        before
    }

    pub fn remove(&mut self, id: &u64) -> Option<V> {
        let before = self.slots.get_mut(*id as usize)?.take().map(|(_, v)| v);
        if before.is_some() {
            self.len -= 1;
        }
        before
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// (id, value), in id order.
    pub fn iter(&self) -> impl Iterator<Item = (&u64, &V)> {
        self.slots.iter().flatten().map(|(id, v)| (id, v))
    }

    pub fn keys(&self) -> impl Iterator<Item = &u64> {
        self.iter().map(|(id, _)| id)
    }

    pub fn values(&self) -> impl Iterator<Item = &V> {
        self.iter().map(|(_, v)| v)
    }

    pub fn values_mut(&mut self) -> impl Iterator<Item = &mut V> {
        self.slots.iter_mut().flatten().map(|(_, v)| v)
    }
}

impl<V> std::ops::Index<&u64> for IdMap<V> {
    type Output = V;

    fn index(&self, id: &u64) -> &V {
        self.get(id).expect("a member id the map holds")
    }
}

impl<'a, V> IntoIterator for &'a IdMap<V> {
    type Item = (&'a u64, &'a V);
    type IntoIter = Box<dyn Iterator<Item = (&'a u64, &'a V)> + 'a>;

    fn into_iter(self) -> Self::IntoIter {
        Box::new(self.iter())
    }
}

impl<V> FromIterator<(u64, V)> for IdMap<V> {
    fn from_iter<I: IntoIterator<Item = (u64, V)>>(items: I) -> Self {
        let mut map = IdMap::default();
        for (id, v) in items {
            map.insert(id, v);
        }
        map
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeMap;

    #[test]
    fn it_holds_and_walks_what_a_btree_map_would() {
        let mut ours: IdMap<&str> = IdMap::default();
        let mut btree = BTreeMap::new();
        for (id, v) in [(5, "e"), (1, "a"), (3, "c"), (5, "E"), (9, "i")] {
            assert_eq!(ours.insert(id, v), btree.insert(id, v));
        }
        assert_eq!(ours.remove(&3), btree.remove(&3));
        assert_eq!(ours.remove(&3), None);
        assert_eq!(ours.remove(&100), None);
        *ours.get_mut(&1).unwrap() = "A";
        *btree.get_mut(&1).unwrap() = "A";
        let walked: Vec<(u64, &str)> = ours.iter().map(|(k, v)| (*k, *v)).collect();
        let expected: Vec<(u64, &str)> = btree.iter().map(|(k, v)| (*k, *v)).collect();
        assert_eq!(walked, expected);
        assert_eq!(ours[&9], "i");
        assert!(ours.contains_key(&5) && !ours.contains_key(&2) && !ours.is_empty());
        for id in [1, 5, 9] {
            ours.remove(&id);
        }
        assert!(ours.is_empty());
    }
}
