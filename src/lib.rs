//! The yew front end: a thin layer over the core. One reducer owns the state ([`state`],
//! plain Rust, tested natively too); the URL and local storage are effects at the edge
//! ([`hooks`]); derived data (the assignment, explanations) comes from `use_memo` over pure
//! functions. [`markup`] (escaping and the markup the views paint as strings) is plain Rust
//! too, so its tests run natively.

pub mod lesson;
pub mod markup;
pub mod state;

#[cfg(target_arch = "wasm32")]
pub mod components;
#[cfg(target_arch = "wasm32")]
mod computed;
#[cfg(target_arch = "wasm32")]
pub mod hooks;
#[cfg(target_arch = "wasm32")]
mod ui;
#[cfg(target_arch = "wasm32")]
pub mod worker;
#[cfg(target_arch = "wasm32")]
pub use computed::Computed;
#[cfg(target_arch = "wasm32")]
pub use ui::{start, App};

/// Talc instead of Rust's default dlmalloc: about 5 KB less wasm, and faster. Declared in
/// the library so the browser tests measure the allocator the app ships with.
#[cfg(target_arch = "wasm32")]
#[global_allocator]
static ALLOCATOR: talc::wasm::WasmDynamicTalc = talc::wasm::new_wasm_dynamic_allocator();
