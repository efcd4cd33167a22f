//! A forgiving hex reader for pasted text, and a plain hex writer.
//!
//! Accepts upper or lower case digits separated (or not) by spaces, newlines, tabs, commas
//! and colons, `0x` prefixes and `\x` escapes, and hex dumps with a leading offset column
//! and a trailing ASCII column: `xxd`, `hexdump -C`, and Wireshark's "copy as hex dump".
//! Anything else is refused with its character position; an odd number of digits is
//! reported as incomplete.

use std::fmt;

/// Why text is not hex.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum HexError {
    /// A character that is neither a hex digit nor an accepted separator.
    InvalidChar {
        /// Character index (not byte index) in the text, from 0.
        position: usize,
        /// Line, from 1.
        line: usize,
        /// Column, from 1.
        column: usize,
        /// The character.
        ch: char,
    },
    /// An odd number of hex digits: the last byte is half typed.
    OddDigits {
        /// Character index of the lone last digit.
        position: usize,
        /// How many digits were read.
        digits: usize,
    },
}

impl HexError {
    /// True when the text is merely unfinished (a half-typed byte).
    pub fn is_incomplete(&self) -> bool {
        matches!(self, HexError::OddDigits { .. })
    }
}

impl fmt::Display for HexError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            HexError::InvalidChar {
                line, column, ch, ..
            } => write!(
                f,
                "line {line}, column {column}: \"{}\" is not a hex digit (accepted: 0-9 a-f, spaces, commas, colons, 0x, \\x, and xxd / hexdump -C / Wireshark dumps)",
                ch
            ),
            HexError::OddDigits { digits, .. } => write!(
                f,
                "incomplete: {digits} hex digits, so the last byte has only one digit so far"
            ),
        }
    }
}

impl std::error::Error for HexError {}

/// Writes bytes as lower-case hex without separators.
pub fn to_hex(bytes: &[u8]) -> String {
    const D: &[u8; 16] = b"0123456789abcdef";
    let mut s = String::with_capacity(bytes.len() * 2);
    for b in bytes {
        s.push(D[(b >> 4) as usize] as char);
        s.push(D[(b & 15) as usize] as char);
    }
    s
}

/// Hex for a person to read and edit: byte pairs separated by spaces, 16 to a line (what
/// [`parse_hex`] reads back).
pub fn pretty_hex(bytes: &[u8]) -> String {
    let mut s = String::with_capacity(bytes.len() * 3);
    for (i, chunk) in bytes.chunks(16).enumerate() {
        if i > 0 {
            s.push('\n');
        }
        for (j, b) in chunk.iter().enumerate() {
            if j > 0 {
                s.push(' ');
            }
            s.push_str(&to_hex(&[*b]));
        }
    }
    s
}

/// The ASCII column of a hex dump: printable ASCII as itself, every other byte as `.`,
/// one character per byte.
pub fn ascii_column(bytes: &[u8]) -> String {
    bytes
        .iter()
        .map(|b| {
            if b.is_ascii_graphic() || *b == b' ' {
                *b as char
            } else {
                '.'
            }
        })
        .collect()
}

fn nibble(b: u8) -> Option<u8> {
    match b {
        b'0'..=b'9' => Some(b - b'0'),
        b'a'..=b'f' => Some(b - b'a' + 10),
        b'A'..=b'F' => Some(b - b'A' + 10),
        _ => None,
    }
}

/// Byte offset in `text` to a (character position, line, column) triple.
fn locate(text: &str, byte_offset: usize) -> (usize, usize, usize) {
    let before = &text[..byte_offset];
    let position = before.chars().count();
    let line = before.bytes().filter(|b| *b == b'\n').count() + 1;
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    let column = before[line_start..].chars().count() + 1;
    (position, line, column)
}

fn invalid(text: &str, byte_offset: usize) -> HexError {
    let (position, line, column) = locate(text, byte_offset);
    let ch = text[byte_offset..].chars().next().unwrap_or('?');
    HexError::InvalidChar {
        position,
        line,
        column,
        ch,
    }
}

/// Nibble accumulator shared by both modes.
struct Digits {
    out: Vec<u8>,
    high: u8,
    /// Byte offset of a lone first digit waiting for its pair.
    pending: Option<usize>,
    count: usize,
}

impl Digits {
    #[inline]
    fn push(&mut self, n: u8, at: usize) {
        self.count += 1;
        match self.pending {
            None => {
                self.high = n;
                self.pending = Some(at);
            }
            Some(_) => {
                self.out.push((self.high << 4) | n);
                self.pending = None;
            }
        }
    }
    fn finish(self, text: &str) -> Result<Vec<u8>, HexError> {
        match self.pending {
            None => Ok(self.out),
            Some(at) => Err(HexError::OddDigits {
                position: locate(text, at).0,
                digits: self.count,
            }),
        }
    }
}

/// 0..=15 for a hex digit, 16 for an accepted separator, 17 for anything else.
const CLASS: [u8; 256] = {
    let mut t = [17u8; 256];
    let mut i = 0;
    while i < 10 {
        t[b'0' as usize + i] = i as u8;
        i += 1;
    }
    let mut i = 0;
    while i < 6 {
        t[b'a' as usize + i] = 10 + i as u8;
        t[b'A' as usize + i] = 10 + i as u8;
        i += 1;
    }
    t[b' ' as usize] = 16;
    t[b'\t' as usize] = 16;
    t[b'\r' as usize] = 16;
    t[b'\n' as usize] = 16;
    t[b',' as usize] = 16;
    t[b':' as usize] = 16;
    t
};

/// Reads hex from pasted text. See the module docs for what is accepted.
pub fn parse_hex(text: &str) -> Result<Vec<u8>, HexError> {
    let mut d = Digits {
        out: Vec::with_capacity(text.len() / 2),
        high: 0,
        pending: None,
        count: 0,
    };
    if looks_like_dump(text) {
        parse_dump(text, &mut d)?;
    } else {
        parse_plain(text, 0, text.len(), &mut d)?;
    }
    d.finish(text)
}

/// Like [`parse_hex`], but also returns the bytes read before the problem: every complete
/// pair when a digit is missing, the bytes before a character that is not hex. A live view
/// shows them while someone is still typing.
pub fn parse_hex_partial(text: &str) -> (Vec<u8>, Option<HexError>) {
    let mut d = Digits {
        out: Vec::with_capacity(text.len() / 2),
        high: 0,
        pending: None,
        count: 0,
    };
    let res = if looks_like_dump(text) {
        parse_dump(text, &mut d)
    } else {
        parse_plain(text, 0, text.len(), &mut d)
    };
    match res {
        Err(e) => (d.out, Some(e)),
        Ok(()) => {
            let out = d.out.clone();
            match d.finish(text) {
                Ok(v) => (v, None),
                Err(e) => (out, Some(e)),
            }
        }
    }
}

/// Plain hex with separators, `0x` prefixes and `\x` escapes, over `text[from..to]`.
fn parse_plain(text: &str, from: usize, to: usize, d: &mut Digits) -> Result<(), HexError> {
    let b = text.as_bytes();
    let mut i = from;
    while i < to {
        let c = b[i];
        let class = CLASS[c as usize];
        if class < 16 {
            // "0x" prefix: a 0 at the start of a token, followed by x or X.
            if c == b'0'
                && i + 1 < to
                && (b[i + 1] | 0x20) == b'x'
                && d.pending.is_none()
                && (i == from || CLASS[b[i - 1] as usize] >= 16)
            {
                i += 2;
                continue;
            }
            d.push(class, i);
            i += 1;
        } else if class == 16 {
            i += 1;
        } else if c == b'\\' && i + 1 < to && (b[i + 1] | 0x20) == b'x' {
            i += 2;
        } else {
            return Err(invalid(text, i));
        }
    }
    Ok(())
}

fn is_digit_byte(c: u8) -> bool {
    nibble(c).is_some()
}

/// The offset column of a dump line: hex digits (at least 4) then ':' or at least two
/// spaces. Returns (offset value, byte index where the hex area starts).
fn dump_offset(line: &str) -> Option<(u64, usize)> {
    let b = line.as_bytes();
    let n = b.iter().take_while(|c| is_digit_byte(**c)).count();
    if !(4..=16).contains(&n) {
        return None;
    }
    let value = u64::from_str_radix(&line[..n], 16).ok()?;
    if b.get(n) == Some(&b':') {
        return Some((value, n + 1));
    }
    let spaces = b[n..]
        .iter()
        .take_while(|c| **c == b' ' || **c == b'\t')
        .count();
    if n + spaces == b.len() {
        // An offset alone: hexdump's closing line.
        return Some((value, b.len()));
    }
    if spaces >= 2 {
        return Some((value, n + spaces));
    }
    None
}

/// A dump is recognised only when every non-empty line starts with an offset column, the
/// first offset is 0 (or written `NNNNNNNN:` as xxd does), and the offsets increase.
fn looks_like_dump(text: &str) -> bool {
    let mut prev: Option<u64> = None;
    let mut any = false;
    for line in text.lines() {
        if line.trim().is_empty() {
            continue;
        }
        let Some((off, from)) = dump_offset(line) else {
            return false;
        };
        match prev {
            None => {
                // An offset alone can only close a dump (hexdump's last line).
                if from >= line.len() {
                    return false;
                }
                let colon = line
                    .as_bytes()
                    .iter()
                    .position(|c| !is_digit_byte(*c))
                    .is_some_and(|i| line.as_bytes()[i] == b':');
                if off != 0 && !colon {
                    return false;
                }
            }
            Some(p) if off <= p => return false,
            _ => {}
        }
        prev = Some(off);
        any = true;
    }
    any
}

fn parse_dump(text: &str, d: &mut Digits) -> Result<(), HexError> {
    // (line start byte offset, line) for non-empty lines.
    let mut lines: Vec<(usize, &str)> = Vec::new();
    let mut start = 0;
    for raw in text.split_inclusive('\n') {
        let line = raw.trim_end_matches(['\n', '\r']);
        if !line.trim().is_empty() {
            lines.push((start, line));
        }
        start += raw.len();
    }
    let mut offsets: Vec<(u64, usize)> = Vec::with_capacity(lines.len());
    for (base, l) in &lines {
        // looks_like_dump checked every line; a line that still has no offset is refused.
        offsets.push(dump_offset(l).ok_or_else(|| invalid(text, *base))?);
    }
    for (k, (base, line)) in lines.iter().enumerate() {
        let (off, hex_from) = offsets[k];
        let mut hex_to = line.len();
        // hexdump -C: the ASCII column sits between '|' bars.
        if let Some(bar) = line[hex_from..].find('|') {
            hex_to = hex_from + bar;
        }
        let expected = offsets
            .get(k + 1)
            .and_then(|(next_off, _)| usize::try_from(next_off.checked_sub(off)?).ok());
        let area = &line[hex_from..hex_to];
        let cut = ascii_cut(area, expected);
        parse_plain(text, base + hex_from, base + hex_from + cut, d)?;
    }
    Ok(())
}

/// Where the hex area of a dump line ends: at a gap of two or more spaces after which the
/// rest of the line (the ASCII column) has no more characters than the bytes before it,
/// and exactly `expected` bytes before it when the next line's offset tells.
fn ascii_cut(area: &str, expected: Option<usize>) -> usize {
    let b = area.as_bytes();
    let mut i = 0;
    while i < b.len() {
        if b[i] == b' ' && i + 1 < b.len() && b[i + 1] == b' ' {
            let gap_start = i;
            let mut j = i;
            while j < b.len() && b[j] == b' ' {
                j += 1;
            }
            let left = &area[..gap_start];
            let digits = left.bytes().filter(|c| is_digit_byte(*c)).count();
            let bytes_left = digits / 2;
            let all_hex = left.bytes().all(|c| is_digit_byte(c) || c == b' ');
            if all_hex && bytes_left > 0 {
                let rest = area[j..].trim_end();
                let rest_chars = rest.chars().count();
                let fits = match expected {
                    Some(e) => bytes_left == e,
                    None => rest_chars <= bytes_left && rest_chars > 0,
                };
                if fits {
                    return gap_start;
                }
            }
            i = j;
        } else {
            i += 1;
        }
    }
    area.len()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pretty_hex_is_pairs_sixteen_to_a_line() {
        assert_eq!(pretty_hex(&[]), "");
        assert_eq!(pretty_hex(&[0x00, 0x0a, 0xff]), "00 0a ff");
        let b: Vec<u8> = (0..=16).collect();
        assert_eq!(
            pretty_hex(&b),
            "00 01 02 03 04 05 06 07 08 09 0a 0b 0c 0d 0e 0f\n10"
        );
        // What it writes reads back.
        let b: Vec<u8> = (0..=255).collect();
        assert_eq!(parse_hex(&pretty_hex(&b)).unwrap(), b);
        assert_eq!(parse_hex(&pretty_hex(&bytes())).unwrap(), bytes());
    }

    #[test]
    fn ascii_column_keeps_printable_ascii_only() {
        assert_eq!(ascii_column(b"orders t0"), "orders t0");
        // Controls, DEL, high bytes (a UTF-8 "é") and NUL are dots, one per byte.
        assert_eq!(
            ascii_column(&[0x00, b'a', 0x0a, 0x7f, 0xc3, 0xa9, b'~']),
            ".a....~"
        );
        assert_eq!(
            ascii_column(&parse_hex("00066f7264657273").unwrap()),
            "..orders"
        );
    }

    const LIBRDKAFKA_V3: &str = "00030000000100057330312d610000000000000000ffffffff0000";

    fn bytes() -> Vec<u8> {
        parse_hex(LIBRDKAFKA_V3).unwrap()
    }

    #[test]
    fn plain_forms() {
        assert_eq!(parse_hex("0A0b").unwrap(), vec![10, 11]);
        assert_eq!(parse_hex("0x0a, 0x0b").unwrap(), vec![10, 11]);
        assert_eq!(parse_hex("0x0a0b").unwrap(), vec![10, 11]);
        assert_eq!(parse_hex("\\x0a\\x0b").unwrap(), vec![10, 11]);
        assert_eq!(parse_hex("0a:0b\n0c").unwrap(), vec![10, 11, 12]);
        assert_eq!(parse_hex("").unwrap(), Vec::<u8>::new());
        assert_eq!(parse_hex("00 00").unwrap(), vec![0, 0]);
    }

    #[test]
    fn refuses_with_position() {
        let e = parse_hex("00 0g").unwrap_err();
        assert_eq!(
            e,
            HexError::InvalidChar {
                position: 4,
                line: 1,
                column: 5,
                ch: 'g'
            }
        );
        let e = parse_hex("00\nzz").unwrap_err();
        assert!(matches!(
            e,
            HexError::InvalidChar {
                line: 2,
                column: 1,
                ..
            }
        ));
        let e = parse_hex("é0").unwrap_err();
        assert!(matches!(e, HexError::InvalidChar { position: 0, .. }));
        assert!(e.to_string().contains("line 1, column 1"));
    }

    #[test]
    fn odd_is_incomplete() {
        let e = parse_hex("000").unwrap_err();
        assert!(e.is_incomplete());
        assert_eq!(
            e,
            HexError::OddDigits {
                position: 2,
                digits: 3
            }
        );
    }

    #[test]
    fn xxd() {
        let dump = "00000000: 0003 0000 0001 0005 7330 312d 6100 0000  ........s01-a...\n\
                    00000010: 0000 0000 00ff ffff ff00 00              ...........\n";
        assert_eq!(parse_hex(dump).unwrap(), bytes());
    }

    #[test]
    fn hexdump_c() {
        let dump =
            "00000000  00 03 00 00 00 01 00 05  73 30 31 2d 61 00 00 00  |........s01-a...|\n\
                    00000010  00 00 00 00 00 ff ff ff  ff 00 00                 |...........|\n\
                    0000001b\n";
        assert_eq!(parse_hex(dump).unwrap(), bytes());
    }

    #[test]
    fn wireshark() {
        let dump = "0000   00 03 00 00 00 01 00 05 73 30 31 2d 61 00 00 00   ........s01-a...\n\
                    0010   00 00 00 00 00 ff ff ff ff 00 00                  ...........\n";
        assert_eq!(parse_hex(dump).unwrap(), bytes());
    }

    #[test]
    fn ascii_column_that_looks_like_hex() {
        // Bytes "dead" shown as ASCII "dead".
        let dump = "00000000: 6465 6164                                dead\n";
        assert_eq!(parse_hex(dump).unwrap(), b"dead".to_vec());
        let dump = "0000   64 65 61 64   dead\n";
        assert_eq!(parse_hex(dump).unwrap(), b"dead".to_vec());
    }

    #[test]
    fn plain_hex_that_starts_like_an_offset_is_plain() {
        assert_eq!(
            parse_hex("00030000 00010005").unwrap(),
            vec![0, 3, 0, 0, 0, 1, 0, 5]
        );
        assert_eq!(parse_hex("0003  0000").unwrap(), vec![0, 3, 0, 0]);
    }

    #[test]
    fn eight_digits_alone_are_bytes() {
        assert_eq!(parse_hex("00000000").unwrap(), vec![0, 0, 0, 0]);
        assert_eq!(parse_hex("0000").unwrap(), vec![0, 0]);
    }

    #[test]
    fn partial() {
        assert_eq!(
            parse_hex_partial("0a0b0"),
            (
                vec![10, 11],
                Some(HexError::OddDigits {
                    position: 4,
                    digits: 5
                })
            )
        );
        let (b, e) = parse_hex_partial("0a zz");
        assert_eq!(b, vec![10]);
        assert!(matches!(e, Some(HexError::InvalidChar { position: 3, .. })));
        assert_eq!(parse_hex_partial("0a0b"), (vec![10, 11], None));
    }

    #[test]
    fn round_trip() {
        let b: Vec<u8> = (0..=255).collect();
        assert_eq!(parse_hex(&to_hex(&b)).unwrap(), b);
    }
}
