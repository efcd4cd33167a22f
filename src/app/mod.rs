//! The yew front end (wasm32 only).

/// Starts the app.
pub fn start() {}
