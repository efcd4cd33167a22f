//! The command-line tool: `rebalance-lab
//! assign|coordinator|vote|leader|decode|encode|link|import|export|timeline|bench|completions`.
//!
//! Parsing is clap's (derive): `--help` on every command, `--version`, a repeated option
//! or an unknown one is a usage error (stderr, exit code 2, with a hint). Bad input (a
//! file that is not a scenario, hex that does not decode) gets `rebalance-lab: <message>`
//! on stderr and exit code 1, never a panic. Every FILE or HEX may be `-`, standard input.
//!
//! One file per command: its `Args` (the clap arguments, help and example) and its
//! `run`, which returns what goes to standard output. A new command is a new file, a
//! variant of [`Command`] and its arm in [`Command::run`].

mod assign;
mod bench;
mod coordinator;
mod decode;
mod encode;
mod export;
mod import;
mod input;
mod leader;
mod link;
mod timeline;
mod vote;

pub use decode::decoded_json;
pub use encode::subscription_from_json;
pub use input::MAX_INPUT_BYTES;

use clap::{CommandFactory, Parser, Subcommand};

const ABOUT: &str = "See exactly how a Kafka consumer group splits partitions among its members";

const AFTER_HELP: &str = "\
Examples:
  rebalance-lab assign examples/three-topics.json
  rebalance-lab coordinator --group-id orders
  rebalance-lab decode 00030000000100057330312d610000000000000000ffffffff0000
  rebalance-lab assign --help

Every FILE or HEX may be - to read standard input.
Exit codes: 0 success, 1 bad input (message on stderr), 2 usage error.";

/// The tool's arguments.
#[derive(Debug, Parser)]
#[command(
    name = "rebalance-lab",
    version,
    about = ABOUT,
    after_help = AFTER_HELP,
    arg_required_else_help = true
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

/// The commands.
#[derive(Debug, Subcommand)]
enum Command {
    Assign(assign::Args),
    Coordinator(coordinator::Args),
    Vote(vote::Args),
    Leader(leader::Args),
    Decode(decode::Args),
    Encode(encode::Args),
    Link(link::Args),
    Import(import::Args),
    Export(export::Args),
    Timeline(timeline::Args),
    Bench(bench::Args),
    Completions(Completions),
}

/// Print a shell completion script.
#[derive(Debug, clap::Args)]
#[command(after_help = "\
Examples:
  rebalance-lab completions bash > ~/.local/share/bash-completion/completions/rebalance-lab
  rebalance-lab completions zsh > ~/.zfunc/_rebalance-lab
  rebalance-lab completions fish > ~/.config/fish/completions/rebalance-lab.fish")]
struct Completions {
    /// The shell to complete for.
    #[arg(value_name = "SHELL")]
    shell: clap_complete::Shell,
}

impl Command {
    fn run(self) -> Result<String, String> {
        match self {
            Command::Assign(a) => assign::run(a),
            Command::Coordinator(a) => coordinator::run(a),
            Command::Vote(a) => vote::run(a),
            Command::Leader(a) => leader::run(a),
            Command::Decode(a) => decode::run(a),
            Command::Encode(a) => encode::run(a),
            Command::Link(a) => link::run(a),
            Command::Import(a) => import::run(a),
            Command::Export(a) => export::run(a),
            Command::Timeline(a) => timeline::run(a),
            Command::Bench(a) => bench::run(a),
            Command::Completions(c) => {
                let mut out = Vec::new();
                clap_complete::generate(c.shell, &mut Cli::command(), "rebalance-lab", &mut out);
                let text = String::from_utf8(out).map_err(|e| e.to_string())?;
                // `run` prints with a newline of its own.
                Ok(text.trim_end_matches('\n').to_string())
            }
        }
    }
}

/// Tells glibc's allocator to keep memory it is given back instead of returning it to the
/// system: by default a large buffer (above 128 KiB, a threshold glibc raises as it sees
/// large frees) is a fresh mapping, paid for again in page faults on each use, which was two
/// thirds of a round-robin run at 1,000 members x 10,000 partitions (1.3 ms, 0.44 ms with
/// this). The JVM the figures are compared with keeps its whole heap the same way (`-Xms` =
/// `-Xmx`). Elsewhere a no-op; a glibc that refuses a value keeps its default. The binary
/// itself allocates through mimalloc (src/main.rs); this holds for what still uses glibc's
/// allocator: `cargo bench` and the tests.
pub fn keep_freed_memory() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: mallopt sets allocator parameters only; it has no memory-safety preconditions.
    unsafe {
        libc::mallopt(libc::M_MMAP_THRESHOLD, 1 << 30);
        libc::mallopt(libc::M_TRIM_THRESHOLD, 1 << 30);
    }
}

/// Runs the tool with its arguments (without the program name); returns the exit code:
/// 0 on success (and for `--help`, `--version`, printed on stdout), 1 for bad input, 2 for
/// a usage error (clap's message and hint on stderr).
pub fn run(args: Vec<String>) -> i32 {
    keep_freed_memory();
    let argv = std::iter::once("rebalance-lab".to_string()).chain(args);
    let cli = match Cli::try_parse_from(argv) {
        Ok(cli) => cli,
        Err(e) => {
            // clap sends help and version to stdout, errors to stderr.
            let _ = e.print();
            return e.exit_code();
        }
    };
    match cli.command.run() {
        Ok(out) => {
            use std::io::Write;
            let mut stdout = std::io::stdout().lock();
            match writeln!(stdout, "{out}").and_then(|()| stdout.flush()) {
                Ok(()) => 0,
                // the reader stopped reading (`| head`): it has what it wanted
                Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => 0,
                Err(e) => {
                    eprintln!("rebalance-lab: cannot write the output: {e}");
                    1
                }
            }
        }
        Err(e) => {
            eprintln!("rebalance-lab: {e}");
            1
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clap_definition_is_consistent() {
        Cli::command().debug_assert();
    }
}
