//! The ASSIGNMENT cell of `--describe --members --verbose`, in every form Kafka printed:
//! - `orders(0,1,2), payments(3)`: the Scala tool (2.8 to 3.7), partitions sorted as numbers;
//! - `(0,1,2), (3)`: the Java tool of 3.8 (topic names lost; the offsets view tells them),
//!   partitions sorted as strings (`10` before `2`);
//! - `orders:0,1,2;payments:3` (4.x, also with `,` or `, ` between topics);
//! - `-`: nothing assigned.
//!
//! Topic names never hold `(`, `:`, `,`, `;` or spaces (Kafka allows `[a-zA-Z0-9._-]`), which
//! keeps every form unambiguous. Partition order is never trusted: the caller sorts.

use crate::scenario::MAX_PARTITIONS;

/// One topic's partitions in the cell; `topic` is `None` in the 3.8 form.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Group {
    pub topic: Option<String>,
    pub partitions: Vec<i32>,
}

/// Where (character offset in the cell) and what was expected, or a partition too large.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum CellError {
    Expected(usize, &'static str),
    TooLarge(usize, String),
}

/// Reads an ASSIGNMENT cell.
pub(crate) fn parse(cell: &str) -> Result<Vec<Group>, CellError> {
    let c: Vec<char> = cell.chars().collect();
    let mut out = Vec::new();
    if cell.trim() == "-" || cell.trim().is_empty() {
        return Ok(out);
    }
    let mut i = 0;
    let is_sep = |ch: char| ch == ',' || ch == ';' || ch == ' ';
    loop {
        while i < c.len() && is_sep(c[i]) {
            i += 1;
        }
        if i == c.len() {
            break;
        }
        let start = i;
        while i < c.len() && !matches!(c[i], '(' | ':' | ',' | ';' | ' ' | ')') {
            i += 1;
        }
        let topic: String = c[start..i].iter().collect();
        let topic = (!topic.is_empty()).then_some(topic);
        match c.get(i) {
            Some('(') => {
                i += 1;
                let mut partitions = Vec::new();
                loop {
                    while i < c.len() && c[i] == ' ' {
                        i += 1;
                    }
                    let (p, next) = number(&c, i)?;
                    partitions.push(p);
                    i = next;
                    match c.get(i) {
                        Some(',') => i += 1,
                        Some(')') => {
                            i += 1;
                            break;
                        }
                        _ => return Err(CellError::Expected(i, "`,` or `)` after a partition")),
                    }
                }
                out.push(Group { topic, partitions });
            }
            Some(':') if topic.is_some() => {
                i += 1;
                let mut partitions = Vec::new();
                let (p, next) = number(&c, i)?;
                partitions.push(p);
                i = next;
                // `,` then digits up to a separator is one more partition; anything else is
                // the next topic (a name may start with digits: `2024-events:0`).
                while i < c.len() && c[i] == ',' {
                    let mut j = i + 1;
                    while j < c.len() && c[j] == ' ' {
                        j += 1;
                    }
                    let mut k = j;
                    while k < c.len() && c[k].is_ascii_digit() {
                        k += 1;
                    }
                    let ends = k == c.len() || matches!(c[k], ',' | ';' | ' ');
                    if k == j || !ends {
                        break;
                    }
                    let (p, next) = number(&c, j)?;
                    partitions.push(p);
                    i = next;
                }
                out.push(Group { topic, partitions });
            }
            _ => {
                return Err(CellError::Expected(
                    i,
                    "topic(partitions), (partitions) or topic:partitions",
                ))
            }
        }
    }
    Ok(out)
}

/// A partition number at `i`; bounded by [`MAX_PARTITIONS`] before anything is allocated.
fn number(c: &[char], i: usize) -> Result<(i32, usize), CellError> {
    let mut k = i;
    while k < c.len() && c[k].is_ascii_digit() {
        k += 1;
    }
    if k == i {
        return Err(CellError::Expected(i, "a partition number"));
    }
    let text: String = c[i..k].iter().collect();
    match text.parse::<u32>() {
        Ok(p) if p < MAX_PARTITIONS => Ok((p as i32, k)),
        _ => Err(CellError::TooLarge(i, text)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn g(topic: Option<&str>, partitions: &[i32]) -> Group {
        Group {
            topic: topic.map(String::from),
            partitions: partitions.to_vec(),
        }
    }

    #[test]
    fn every_form() {
        assert_eq!(
            parse("orders(0,1,2), payments(3)").unwrap(),
            [g(Some("orders"), &[0, 1, 2]), g(Some("payments"), &[3])]
        );
        assert_eq!(
            parse("(0,10,2), (3)").unwrap(),
            [g(None, &[0, 10, 2]), g(None, &[3])]
        );
        assert_eq!(
            parse("orders:0,1,2;payments:3").unwrap(),
            [g(Some("orders"), &[0, 1, 2]), g(Some("payments"), &[3])]
        );
        assert_eq!(
            parse("orders:0,1,2024-events:3, x.y_z:4").unwrap(),
            [
                g(Some("orders"), &[0, 1]),
                g(Some("2024-events"), &[3]),
                g(Some("x.y_z"), &[4])
            ]
        );
        assert_eq!(parse("-").unwrap(), []);
    }

    #[test]
    fn garbled_cells_say_where() {
        assert_eq!(
            parse("orders(0,1"),
            Err(CellError::Expected(10, "`,` or `)` after a partition"))
        );
        assert!(matches!(parse("orders"), Err(CellError::Expected(6, _))));
        assert!(matches!(
            parse("orders(99999999999)"),
            Err(CellError::TooLarge(7, _))
        ));
        assert!(matches!(parse("orders:x"), Err(CellError::Expected(7, _))));
    }
}
