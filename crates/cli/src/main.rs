//! The `rebalance-lab` command-line tool (its commands: lib.rs).

fn main() {
    std::process::exit(rebalance_lab_cli::run(std::env::args().skip(1).collect()));
}

/// The command-line tool allocates through mimalloc: reading 1,000 members' sticky user data
/// is 20,000 small allocations (a topic name and a partition list per entry), which glibc's
/// allocator made a third of a one-leaves run (390 µs, 310 with mimalloc); the JVM it is
/// compared with allocates from a thread-local buffer.
#[global_allocator]
static ALLOC: mimalloc::MiMalloc = mimalloc::MiMalloc;
