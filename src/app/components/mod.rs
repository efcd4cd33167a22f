//! The app's views: plain props and callbacks.

pub mod bytes;
pub mod editor;
pub mod explain;
pub mod grid;
pub mod linkbar;
pub mod presets;
pub mod whatif;
