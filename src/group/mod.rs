//! The group around the assignor: how the coordinator moves members from one assignment to
//! the next. [`reconcile`]: KIP-848 reconciliation (`group.protocol=consumer`).

pub mod reconcile;
