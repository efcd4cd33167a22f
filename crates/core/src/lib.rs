//! Rebalance Lab's core: how a Kafka consumer group splits partitions among its members,
//! exactly as Kafka does. Plain Rust with no web crate, so the web app (the workspace's root
//! package), the command-line tool (`crates/cli`) and the native tests share every answer.
//!
//! The rooms, from the ground up: [`java`] (what Kafka's answers take from Java itself),
//! [`protocol`] (the consumer protocol's bytes), [`assignor`] (every assignor), [`group`]
//! (the group around it: coordinator, vote, leader, rebalance round, reconciliation),
//! [`scenario`] (the model, its edits, presets, the what-if and the link), and over them
//! [`lesson`], [`import`] and [`export`].
pub mod assignor;
pub mod collections;
pub mod export;
pub mod group;
pub mod import;
pub mod java;
pub mod lesson;
pub mod protocol;
pub mod scenario;
pub mod timeline;
