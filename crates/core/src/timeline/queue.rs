//! The simulators' events in time order: at one time by class (lower first), then in the
//! order they were queued. An event waits in a slot (reused once it is handled), so the
//! ordering moves four numbers, not the event.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// Events of type `E`, each due at a time (ms).
#[derive(Debug, Clone)]
pub(crate) struct Queue<E> {
    /// (time, class, order queued, slot), earliest first.
    order: BinaryHeap<Reverse<(i64, u8, u64, u32)>>,
    slots: Vec<Option<E>>,
    free: Vec<u32>,
    queued: u64,
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
    /// `ev` is due at `t`; at one time, lower classes come first.
    pub fn push(&mut self, t: i64, class: u8, ev: E) {
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
        self.queued += 1;
        self.order.push(Reverse((t, class, self.queued, slot)));
    }

    /// When the next event is due.
    pub fn next_time(&self) -> Option<i64> {
        self.order.peek().map(|Reverse((t, ..))| *t)
    }

    /// The next event and its time.
    pub fn pop(&mut self) -> Option<(i64, E)> {
        let Reverse((t, _, _, slot)) = self.order.pop()?;
        let ev = self.slots[slot as usize].take()?;
        self.free.push(slot);
        Some((t, ev))
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
}
