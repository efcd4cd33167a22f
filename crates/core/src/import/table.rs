//! Tables as `kafka-consumer-groups.sh` prints them: a header line, then rows whose cells
//! are left-justified and space-padded to the header's columns.
//!
//! The rule for reading a row (the tool's `printf` formats, Scala 2.8 to Java 4.x):
//! - Column starts are the header words' positions, counted in UTF-16 code units, the unit
//!   Java's `Formatter` pads by (`String.length()`), so a member id with an emoji does not
//!   shift the columns after it. If that does not line up, Unicode characters are tried
//!   (a text re-padded by another tool).
//! - A *padded* column (GROUP, TOPIC, CONSUMER-ID, GROUP-INSTANCE-ID, HOST, CLIENT-ID) is as
//!   wide as its longest value: Kafka sizes it so, and it never overflows. Its cell is
//!   everything up to the space before the next column, so ids keep inner spaces; trailing
//!   spaces cannot be told from padding and are dropped.
//! - Every other column (PARTITION, offsets, LAG, #PARTITIONS, epochs, newer columns) has a
//!   fixed width and holds a number, `-` or a word without spaces; a longer value overflows
//!   and pushes the following columns right, so its cell runs to the next space.
//! - The last column is the rest of the line.
//! - A row that does not line up either way is split at whitespace when that gives exactly
//!   one cell per column (text whose padding was collapsed); otherwise it is refused at the
//!   column where it stops lining up.
//! - The `--state` view is read from the right: its GROUP column is sized by the
//!   coordinator's text and its COORDINATOR (ID) holds a space, so positions do not hold;
//!   the coordinator is the `host:port (id)` pair and ASSIGNMENT-STRATEGY may be empty.

use super::error::{ErrorKind, ImportError};

/// Which `--describe` view a table is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum View {
    /// `--describe` (`--offsets`): one row per partition.
    Offsets,
    /// `--describe --members [--verbose]`: one row per member.
    Members,
    /// `--describe --state`: one row for the group.
    State,
}

/// How a column's cells are laid out.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Fill {
    /// As wide as its longest value; may hold spaces.
    Padded,
    /// A fixed width that a long value overflows; no spaces.
    Token,
}

#[derive(Debug, Clone)]
struct Column {
    name: String,
    /// Position of the header word, in characters (the header is ASCII).
    start: usize,
    fill: Fill,
}

/// A table header: its view and columns.
#[derive(Debug, Clone)]
pub(crate) struct Header {
    pub view: View,
    columns: Vec<Column>,
}

/// One cell of a row: its text and its 1-based character column.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Cell {
    pub text: String,
    pub column: usize,
}

fn fill_of(name: &str) -> Fill {
    match name {
        "GROUP" | "TOPIC" | "CONSUMER-ID" | "GROUP-INSTANCE-ID" | "HOST" | "CLIENT-ID" => {
            Fill::Padded
        }
        _ => Fill::Token,
    }
}

impl Header {
    /// The index of a column by its header word.
    pub fn index(&self, name: &str) -> Option<usize> {
        self.columns.iter().position(|c| c.name == name)
    }

    /// The header word of column `i`.
    #[cfg(test)]
    pub fn name(&self, i: usize) -> &str {
        &self.columns[i].name
    }
}

/// The header a line is, if it is one.
pub(crate) fn parse_header(line: &str) -> Option<Header> {
    if !line.is_ascii() {
        return None;
    }
    let bytes = line.as_bytes();
    let mut columns: Vec<Column> = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b' ' || bytes[i] == b'\t' {
            i += 1;
            continue;
        }
        let start = i;
        while i < bytes.len() && bytes[i] != b' ' && bytes[i] != b'\t' {
            i += 1;
        }
        let word = &line[start..i];
        if word == "(ID)" {
            match columns.last_mut() {
                Some(c) if c.name == "COORDINATOR" => {
                    c.name.push_str(" (ID)");
                    continue;
                }
                _ => return None,
            }
        }
        let is_word = word
            .bytes()
            .all(|b| b.is_ascii_uppercase() || b.is_ascii_digit() || b == b'-' || b == b'#');
        if !is_word || !word.bytes().any(|b| b.is_ascii_uppercase()) {
            return None;
        }
        columns.push(Column {
            name: word.to_string(),
            start,
            fill: fill_of(word),
        });
    }
    let has = |n: &str| columns.iter().any(|c| c.name == n);
    let view = if has("COORDINATOR (ID)") && has("STATE") {
        View::State
    } else if has("TOPIC") && has("PARTITION") {
        View::Offsets
    } else if has("CONSUMER-ID") && has("#PARTITIONS") {
        View::Members
    } else {
        return None;
    };
    Some(Header { view, columns })
}

/// The cells of a row under `header`, one per column.
pub(crate) fn split_row(
    line: &str,
    header: &Header,
    line_no: usize,
) -> Result<Vec<Cell>, ImportError> {
    let chars: Vec<char> = line.chars().collect();
    if header.view == View::State {
        return split_state_row(&chars, header)
            .ok_or_else(|| ImportError::new(line_no, 1, misaligned("COORDINATOR (ID)")));
    }
    let first = match split_at_positions(&chars, header, true) {
        Ok(cells) => return Ok(cells),
        Err(e) => e,
    };
    if chars.iter().any(|c| c.len_utf16() == 2) {
        if let Ok(cells) = split_at_positions(&chars, header, false) {
            return Ok(cells);
        }
    }
    if let Some(cells) = split_whitespace(&chars, header.columns.len()) {
        return Ok(cells);
    }
    Err(ImportError::new(line_no, first.0 + 1, first.1))
}

fn misaligned(column: &str) -> ErrorKind {
    ErrorKind::Misaligned {
        column: column.to_string(),
    }
}

fn truncated(column: &str) -> ErrorKind {
    ErrorKind::Truncated {
        column: column.to_string(),
    }
}

fn collect(chars: &[char]) -> String {
    chars
        .iter()
        .collect::<String>()
        .trim_end_matches(' ')
        .to_string()
}

/// Splits by header positions; the error is (character index, why).
fn split_at_positions(
    chars: &[char],
    header: &Header,
    utf16: bool,
) -> Result<Vec<Cell>, (usize, ErrorKind)> {
    // pos[i]: where character i starts, in units; pos[len]: the line's width.
    let mut pos = Vec::with_capacity(chars.len() + 1);
    let mut u = 0usize;
    for c in chars {
        pos.push(u);
        u += if utf16 { c.len_utf16() } else { 1 };
    }
    pos.push(u);
    let total = u;
    let char_at = |unit: usize| pos.binary_search(&unit).ok();
    let cols = &header.columns;
    let n = cols.len();
    let mut cells = Vec::with_capacity(n);
    // How far overflowing cells have pushed the columns right.
    let mut shift = 0usize;
    for (i, col) in cols.iter().enumerate() {
        let start = col.start + shift;
        let last = i + 1 == n;
        if start >= total {
            if last {
                cells.push(Cell {
                    text: String::new(),
                    column: chars.len() + 1,
                });
                break;
            }
            return Err((chars.len(), truncated(&col.name)));
        }
        let s = char_at(start).ok_or((chars.len().min(start), misaligned(&col.name)))?;
        if last {
            cells.push(Cell {
                text: collect(&chars[s..]),
                column: s + 1,
            });
            break;
        }
        let next = &cols[i + 1];
        // The separator: the one space Kafka prints after each padded cell.
        let sep = next.start + shift - 1;
        let e = match col.fill {
            Fill::Padded => {
                if sep >= total {
                    if i + 2 == n {
                        // The last cell is empty and the trailing spaces were trimmed.
                        cells.push(Cell {
                            text: collect(&chars[s..]),
                            column: s + 1,
                        });
                        cells.push(Cell {
                            text: String::new(),
                            column: chars.len() + 1,
                        });
                        break;
                    }
                    return Err((chars.len(), truncated(&next.name)));
                }
                let e = char_at(sep).ok_or((s, misaligned(&next.name)))?;
                if chars[e] != ' ' {
                    return Err((e, misaligned(&next.name)));
                }
                e
            }
            Fill::Token => {
                if chars[s] == ' ' {
                    return Err((s, misaligned(&col.name)));
                }
                let mut e = s;
                while e < chars.len() && chars[e] != ' ' {
                    e += 1;
                }
                if pos[e] > sep {
                    if e == chars.len() {
                        return Err((e, truncated(&next.name)));
                    }
                    shift += pos[e] - sep;
                } else {
                    if sep >= total {
                        return Err((chars.len(), truncated(&next.name)));
                    }
                    let se = char_at(sep).ok_or((e, misaligned(&next.name)))?;
                    if let Some(k) = (e..=se).find(|&k| chars[k] != ' ') {
                        return Err((k, misaligned(&next.name)));
                    }
                }
                e
            }
        };
        cells.push(Cell {
            text: collect(&chars[s..e]),
            column: s + 1,
        });
    }
    Ok(cells)
}

/// Whitespace-separated words with their character index.
fn words(chars: &[char]) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        if chars[i].is_whitespace() {
            i += 1;
            continue;
        }
        let s = i;
        while i < chars.len() && !chars[i].is_whitespace() {
            i += 1;
        }
        out.push((s, chars[s..i].iter().collect()));
    }
    out
}

/// Splits at whitespace when that gives exactly `n` cells.
fn split_whitespace(chars: &[char], n: usize) -> Option<Vec<Cell>> {
    let w = words(chars);
    (w.len() == n).then(|| {
        w.into_iter()
            .map(|(s, text)| Cell {
                text,
                column: s + 1,
            })
            .collect()
    })
}

/// A `--state` row, read from the right (see the module docs).
fn split_state_row(chars: &[char], header: &Header) -> Option<Vec<Cell>> {
    let c = header.index("COORDINATOR (ID)")?;
    let n = header.columns.len();
    let after = n - c - 1;
    let w = words(chars);
    // The coordinator's `(id)`: the rightmost word in brackets with the columns after it.
    let j = (1..w.len()).rev().find(|&j| {
        let rest = w.len() - j - 1;
        (rest == after || rest + 1 == after)
            && w[j].1.starts_with('(')
            && w[j].1.ends_with(')')
            && w[j - 1].1.contains(':')
    })?;
    let host = j - 1;
    if c > 0 && host == 0 {
        return None;
    }
    let mut cells = Vec::with_capacity(n);
    if c > 0 {
        // Columns before the coordinator: GROUP only, in every layout.
        let group_start = header.columns[0].start.min(w[host].0);
        cells.push(Cell {
            text: collect(&chars[group_start..w[host].0]),
            column: group_start + 1,
        });
        for _ in 1..c {
            cells.push(Cell {
                text: String::new(),
                column: w[host].0 + 1,
            });
        }
    }
    cells.push(Cell {
        text: format!("{} {}", w[host].1, w[j].1),
        column: w[host].0 + 1,
    });
    let mut rest: Vec<Cell> = w[j + 1..]
        .iter()
        .map(|(s, t)| Cell {
            text: t.clone(),
            column: s + 1,
        })
        .collect();
    if rest.len() + 1 == after {
        // An empty ASSIGNMENT-STRATEGY (a group with no members has no protocol).
        rest.insert(
            0,
            Cell {
                text: String::new(),
                column: w[j].0 + w[j].1.chars().count() + 2,
            },
        );
    }
    cells.extend(rest);
    Some(cells)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(line: &str, header: &str) -> Vec<String> {
        let h = parse_header(header).unwrap();
        split_row(line, &h, 1)
            .unwrap()
            .into_iter()
            .map(|c| c.text)
            .collect()
    }

    #[test]
    fn header_words_and_views() {
        let h = parse_header("GROUP           COORDINATOR (ID)          ASSIGNMENT-STRATEGY  STATE           #MEMBERS").unwrap();
        assert_eq!(h.view, View::State);
        assert_eq!(h.name(1), "COORDINATOR (ID)");
        assert!(parse_header("GROUP orders 0").is_none());
        assert!(parse_header("Consumer group 'g' has no active members.").is_none());
    }

    #[test]
    fn padded_cells_keep_inner_spaces_and_tokens_overflow() {
        let header = "GROUP           TOPIC           PARTITION  CURRENT-OFFSET  LOG-END-OFFSET  LAG             CONSUMER-ID     HOST            CLIENT-ID";
        let row = "my group        orders          0          1234567890123456789 1234567890123456789 0               a b             /10.0.0.1       my client";
        assert_eq!(
            texts(row, header),
            [
                "my group",
                "orders",
                "0",
                "1234567890123456789",
                "1234567890123456789",
                "0",
                "a b",
                "/10.0.0.1",
                "my client"
            ]
        );
    }

    #[test]
    fn utf16_positions_as_java_pads() {
        // "😀" is two UTF-16 units: Java pads "g😀" to 15 with 12 spaces.
        let header =
            "GROUP           CONSUMER-ID     HOST            CLIENT-ID       #PARTITIONS     ";
        let row = format!(
            "g😀{}c 1{}/1.2.3.4{}x{}3               ",
            " ".repeat(13),
            " ".repeat(13),
            " ".repeat(8),
            " ".repeat(15)
        );
        assert_eq!(texts(&row, header), ["g😀", "c 1", "/1.2.3.4", "x", "3"]);
    }

    #[test]
    fn state_rows_from_the_right() {
        let header = "GROUP                     COORDINATOR (ID)          ASSIGNMENT-STRATEGY  STATE           #MEMBERS";
        assert_eq!(
            texts("my group                  broker-1.example.com:9092  (1) range                Stable          2", header),
            ["my group", "broker-1.example.com:9092 (1)", "range", "Stable", "2"]
        );
        assert_eq!(
            texts("g                         localhost:9092 (0)                             Empty           0", header),
            ["g", "localhost:9092 (0)", "", "Empty", "0"]
        );
    }

    #[test]
    fn cut_short_and_misaligned_rows_are_refused() {
        let h = parse_header("GROUP           TOPIC           PARTITION  CURRENT-OFFSET  LOG-END-OFFSET  LAG             CONSUMER-ID     HOST            CLIENT-ID").unwrap();
        let e = split_row("g               orders          0          5", &h, 7).unwrap_err();
        assert_eq!(e.line, 7);
        assert!(matches!(e.kind, ErrorKind::Truncated { .. }), "{e}");
        let e = split_row("g               orders          0   x      5               5               0               c               h               id more", &h, 2).unwrap_err();
        assert!(matches!(e.kind, ErrorKind::Misaligned { .. }), "{e}");
        assert_eq!(e.column, 37);
    }
}
