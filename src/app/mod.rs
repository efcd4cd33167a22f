//! The yew front end: a thin layer over the core. One reducer owns the state ([`state`],
//! plain Rust, tested natively too); the URL and local storage are effects at the edge
//! ([`hooks`]); derived data (the assignment, explanations) comes from `use_memo` over pure
//! functions.

pub mod state;

#[cfg(target_arch = "wasm32")]
pub mod components;
#[cfg(target_arch = "wasm32")]
pub mod hooks;
#[cfg(target_arch = "wasm32")]
mod ui;
#[cfg(target_arch = "wasm32")]
pub use ui::{start, App, Computed};
