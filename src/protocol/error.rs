//! Decode errors: every one knows the bytes where it starts and the field it was reading.

use std::fmt;

/// A half-open byte range `start..end` in the decoded input.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, serde::Serialize)]
pub struct Span {
    /// First byte (inclusive).
    pub start: usize,
    /// One past the last byte (exclusive).
    pub end: usize,
}

impl Span {
    /// The span `start..end`.
    pub fn new(start: usize, end: usize) -> Self {
        Span { start, end }
    }
    /// Number of bytes covered.
    pub fn len(&self) -> usize {
        self.end - self.start
    }
    /// True when the span covers no byte.
    pub fn is_empty(&self) -> bool {
        self.start == self.end
    }
    /// True when `offset` falls inside the span.
    pub fn contains(&self, offset: usize) -> bool {
        offset >= self.start && offset < self.end
    }
}

/// Why a decode failed.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum DecodeErrorKind {
    /// The input ends cleanly at a field boundary: the message is not finished yet
    /// (the user may still be typing). `next` names what comes next.
    Incomplete {
        /// What the next bytes would be, for example "int32 count of topics".
        next: &'static str,
        /// Bytes the next primitive needs.
        needed: usize,
    },
    /// The input ends in the middle of a primitive (for example 1 of the 4 bytes of an int32).
    Truncated {
        /// What was being read.
        what: &'static str,
        /// Bytes needed.
        needed: usize,
        /// Bytes available.
        available: usize,
    },
    /// A non-nullable count or length was negative (Java: "non-nullable field ... was serialized as null").
    NegativeLength {
        /// "string", "array" or "bytes".
        what: &'static str,
        /// The value read.
        length: i32,
    },
    /// A count or length is larger than the bytes that remain; refused before any allocation.
    LengthBeyondInput {
        /// "string", "array" or "bytes".
        what: &'static str,
        /// The declared length or element count.
        length: i64,
        /// Bytes remaining after the prefix.
        remaining: usize,
    },
    /// A negative version in the header (Java: "Unsupported subscription version").
    UnsupportedVersion {
        /// The version read.
        version: i16,
    },
}

/// A decode failure with the span of the offending bytes and the path of the field.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DecodeError {
    /// Where the failing field starts (and as far as it goes in the input).
    pub span: Span,
    /// Field path such as `owned_partitions[1].partitions[0]`.
    pub field: String,
    /// What went wrong.
    pub kind: DecodeErrorKind,
}

impl DecodeError {
    /// True when the input is merely unfinished (ends at a field boundary), not wrong.
    pub fn is_incomplete(&self) -> bool {
        matches!(self.kind, DecodeErrorKind::Incomplete { .. })
    }
}

impl fmt::Display for DecodeErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DecodeErrorKind::Incomplete { next, needed } => {
                write!(f, "incomplete: next comes the {next} ({needed} bytes)")
            }
            DecodeErrorKind::Truncated {
                what,
                needed,
                available,
            } => write!(
                f,
                "{what} needs {needed} bytes but only {available} {} left",
                if *available == 1 {
                    "byte is"
                } else {
                    "bytes are"
                }
            ),
            DecodeErrorKind::NegativeLength { what, length } => {
                write!(
                    f,
                    "{what} length {length} is negative, but this field cannot be null"
                )
            }
            DecodeErrorKind::LengthBeyondInput {
                what,
                length,
                remaining,
            } => {
                let noun = if *what == "array" { "count" } else { "length" };
                write!(
                    f,
                    "{what} {noun} {length} but only {remaining} {} left",
                    if *remaining == 1 { "byte" } else { "bytes" }
                )
            }
            DecodeErrorKind::UnsupportedVersion { version } => {
                write!(f, "unsupported version {version} (versions are 0 or more)")
            }
        }
    }
}

impl fmt::Display for DecodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "byte 0x{:02x}, {}: {}",
            self.span.start, self.field, self.kind
        )
    }
}

impl std::error::Error for DecodeError {}
