use rebalance_lab_core::timeline::{benchmark_group, simulate, Protocol, Settings, Story};
fn main() {
    let a: Vec<String> = std::env::args().collect();
    let members: usize = a[1].parse().unwrap();
    let parts: u32 = a[2].parse().unwrap();
    let protocol = match a[3].as_str() {
        "eager" => Protocol::Eager,
        "cooperative" => Protocol::Cooperative,
        _ => Protocol::Consumer,
    };
    let group = benchmark_group(members, parts);
    let settings = Settings {
        protocol,
        keep_tenures: false,
        max_events: u64::MAX,
        ..Settings::default()
    };
    let t = std::time::Instant::now();
    let run = simulate(&group, &settings, &Story::default()).unwrap();
    println!(
        "{:?} {} rebalances {:.3}s",
        protocol,
        run.costs.rebalances,
        t.elapsed().as_secs_f64()
    );
}
