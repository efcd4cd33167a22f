//! One cfg for the lesson's code (issue 17), `lesson_page`: on everywhere natively (its
//! tests, the command-line tool), and in the page only with the `lesson` feature, which the
//! shipped build leaves out while the bundle has no room for it (README, Size).
fn main() {
    println!("cargo::rustc-check-cfg=cfg(lesson_page)");
    println!("cargo::rustc-check-cfg=cfg(broker_page)");
    println!("cargo::rustc-check-cfg=cfg(import_page)");
    let wasm = std::env::var("CARGO_CFG_TARGET_ARCH").as_deref() == Ok("wasm32");
    if !wasm || std::env::var_os("CARGO_FEATURE_LESSON").is_some() {
        println!("cargo::rustc-cfg=lesson_page");
    }
    // The broker's assignors in the page (issue 15), the same way: everywhere natively, in
    // the page only with the `broker` feature.
    if !wasm || std::env::var_os("CARGO_FEATURE_BROKER").is_some() {
        println!("cargo::rustc-cfg=broker_page");
    }
    // Your own group's page (issue 18: the import box, the planner, the exports), the same way.
    if !wasm || std::env::var_os("CARGO_FEATURE_IMPORT").is_some() {
        println!("cargo::rustc-cfg=import_page");
    }
    println!("cargo::rerun-if-changed=build.rs");
}
