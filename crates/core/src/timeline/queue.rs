//! The simulators' events in time order: at one time by class (lower first), then in the
//! order they were queued (or in an order given: [`Queue::push_in_order`]). An event waits
//! in a slot (reused once it is handled), so the ordering moves a key and a slot number,
//! not the event.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// Events of type `E`, each due at a time (ms).
#[derive(Debug, Clone)]
pub(crate) struct Queue<E> {
    /// (key, slot), earliest first ([`key`]; events queued in an order given may share one).
    order: BinaryHeap<Reverse<(u128, u32)>>,
    slots: Vec<Option<E>>,
    free: Vec<u32>,
    queued: u64,
}

/// (time, class, order) as one number that sorts as the tuple does: the time in the high
/// 64 bits (its sign bit flipped, so that a negative time sorts first), the class in the
/// next 8 and the order (queued, or given) in the low 56 (more events than any run queues).
fn key(t: i64, class: u8, order: u64) -> u128 {
    let t = (t as u64) ^ (1 << 63);
    (u128::from(t) << 64) | (u128::from(class) << 56) | u128::from(order & ((1 << 56) - 1))
}

/// The time a [`key`] holds.
fn time_of(key: u128) -> i64 {
    ((key >> 64) as u64 ^ (1 << 63)) as i64
}

impl<E> Default for Queue<E> {
    fn default() -> Self {
        Queue {
            order: BinaryHeap::new(),
            slots: Vec::new(),
            free: Vec::new(),
            queued: 0,
        }
    }
}

impl<E> Queue<E> {
    /// `ev` is due at `t`; at one time, lower classes come first, then the order queued.
    pub fn push(&mut self, t: i64, class: u8, ev: E) {
        self.queued += 1;
        self.push_in_order(t, class, self.queued, ev);
    }

    /// `ev` is due at `t`, placed among the events of its class due then by `order` (below
    /// 2^56), not by when it was queued: events that stand for the same thing are due in
    /// the same order however they came to be queued. (A class is queued one way only.)
    pub fn push_in_order(&mut self, t: i64, class: u8, order: u64, ev: E) {
        let slot = match self.free.pop() {
            Some(s) => {
                self.slots[s as usize] = Some(ev);
                s
            }
            None => {
                self.slots.push(Some(ev));
                u32::try_from(self.slots.len() - 1).expect("fewer than 2^32 events waiting")
            }
        };
        self.order.push(Reverse((key(t, class, order), slot)));
    }

    /// When the next event is due.
    pub fn next_time(&self) -> Option<i64> {
        self.order.peek().map(|Reverse((k, _))| time_of(*k))
    }

    /// The next event and its time.
    pub fn pop(&mut self) -> Option<(i64, E)> {
        let Reverse((k, slot)) = self.order.pop()?;
        let ev = self.slots[slot as usize].take()?;
        self.free.push(slot);
        Some((time_of(k), ev))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn events_come_by_time_then_class_then_order_queued() {
        let mut q = Queue::default();
        q.push(5, 1, "late");
        q.push(3, 1, "second");
        q.push(3, 0, "first, a lower class");
        q.push(3, 1, "third");
        assert_eq!(q.next_time(), Some(3));
        let mut got = Vec::new();
        while let Some((t, e)) = q.pop() {
            got.push((t, e));
            // a slot is reused
            if got.len() == 1 {
                q.push(4, 1, "queued later, due before late");
            }
        }
        assert_eq!(
            got,
            [
                (3, "first, a lower class"),
                (3, "second"),
                (3, "third"),
                (4, "queued later, due before late"),
                (5, "late")
            ]
        );
        assert_eq!(q.slots.len(), 4);
    }

    #[test]
    fn an_order_given_places_an_event_however_late_it_was_queued() {
        let mut q = Queue::default();
        q.push_in_order(7, 0, 9, "ninth");
        q.push(7, 1, "a request");
        q.push_in_order(7, 0, 2, "second, queued later");
        q.push_in_order(3, 0, 5, "earlier");
        let got: Vec<&str> = std::iter::from_fn(|| q.pop().map(|(_, e)| e)).collect();
        assert_eq!(
            got,
            ["earlier", "second, queued later", "ninth", "a request"]
        );
    }

    #[test]
    fn keys_sort_as_time_class_order_queued() {
        let keys = [
            key(i64::MIN, 9, 9),
            key(-1, 0, 0),
            key(0, 0, 5),
            key(0, 1, 1),
            key(7, 0, 1),
            key(7, 0, 2),
            key(i64::MAX, 0, 0),
        ];
        assert!(keys.is_sorted());
        for (k, t) in keys.iter().zip([i64::MIN, -1, 0, 0, 7, 7, i64::MAX]) {
            assert_eq!(time_of(*k), t);
        }
    }
}
