//! Reading a FILE argument, or standard input for `-`, with a size limit.

use std::io::Read;

/// The largest input read (256 MiB): a scenario of a million members is about 60 MB, and a
/// bigger file is a mistake or an attack that should end with a message, not with memory
/// exhausted.
pub const MAX_INPUT_BYTES: u64 = 256 << 20;

/// The text of `arg`: the file it names, or standard input for `-`.
pub fn read_input(arg: &str) -> Result<String, String> {
    if arg == "-" {
        read_limited(std::io::stdin().lock(), "standard input")
    } else {
        let file = std::fs::File::open(arg).map_err(|e| format!("{arg}: {e}"))?;
        if let Ok(meta) = file.metadata() {
            if meta.is_file() && meta.len() > MAX_INPUT_BYTES {
                return Err(too_big(arg, Some(meta.len())));
            }
        }
        read_limited(file, arg)
    }
}

fn read_limited(r: impl Read, name: &str) -> Result<String, String> {
    let mut bytes = Vec::new();
    r.take(MAX_INPUT_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| format!("{name}: {e}"))?;
    if bytes.len() as u64 > MAX_INPUT_BYTES {
        return Err(too_big(name, None));
    }
    String::from_utf8(bytes).map_err(|e| {
        format!(
            "{name}: not UTF-8 text (invalid byte at offset {})",
            e.utf8_error().valid_up_to()
        )
    })
}

/// The message for an input above the limit, of `len` bytes when known.
fn too_big(name: &str, len: Option<u64>) -> String {
    let size = match len {
        Some(len) => format!("{} MiB", len.div_ceil(1 << 20)),
        None => format!("more than {} MiB", MAX_INPUT_BYTES >> 20),
    };
    format!(
        "{name}: {size} is above the limit of {} MiB for an input",
        MAX_INPUT_BYTES >> 20
    )
}
