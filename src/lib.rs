//! Rebalance Lab: how a Kafka consumer group splits partitions among its members.
//!
//! The core (`java`, `protocol`, `assignor`, `group`, `scenario`, `lesson`, `import`,
//! `export`) is plain Rust, tested natively; `app` is the yew front end (wasm32 only) and
//! `cli` the command-line tool (native only).
pub mod assignor;
pub mod collections;
pub mod export;
pub mod group;
pub mod import;
pub mod java;
pub mod lesson;
pub mod protocol;
pub mod scenario;

pub mod app;
#[cfg(not(target_arch = "wasm32"))]
pub mod cli;
