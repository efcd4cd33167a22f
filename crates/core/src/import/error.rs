//! What cannot be read, and where.

use std::fmt;

/// Why a text could not be imported.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum ErrorKind {
    /// No table header of `kafka-consumer-groups.sh --describe` (and no message of it)
    /// anywhere in the text.
    NotConsumerGroups,
    /// A line outside any table that is not a message Kafka prints.
    UnknownLine,
    /// A row ends before one of its columns (a line cut short: the rest may still be
    /// coming, or was lost in the paste).
    Truncated {
        /// The header of the missing column.
        column: String,
    },
    /// A row whose cells do not line up with its header's columns, and that whitespace
    /// alone cannot split either.
    Misaligned {
        /// The header of the column where the row stops lining up.
        column: String,
    },
    /// A cell that should hold a number (or `-`) and does not.
    NotANumber {
        /// The header of the column.
        column: String,
        /// The cell as printed.
        text: String,
    },
    /// A partition number at or above [`crate::scenario::MAX_PARTITIONS`].
    PartitionTooLarge {
        /// The number as printed.
        text: String,
    },
    /// All topics together above [`crate::scenario::MAX_TOTAL_PARTITIONS`].
    TooManyPartitions,
    /// An ASSIGNMENT cell in none of the forms Kafka prints.
    BadAssignment {
        /// What was expected there.
        expected: &'static str,
    },
    /// Rows of a second group (import one group at a time).
    SecondGroup {
        /// The group seen first.
        first: String,
        /// The other one.
        second: String,
    },
}

/// A text that cannot be imported: where (1-based line and character column) and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ImportError {
    /// Line, from 1.
    pub line: usize,
    /// Column in characters (Unicode scalar values), from 1.
    pub column: usize,
    /// What is wrong.
    pub kind: ErrorKind,
}

impl ImportError {
    pub(crate) fn new(line: usize, column: usize, kind: ErrorKind) -> Self {
        ImportError { line, column, kind }
    }
}

impl fmt::Display for ErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ErrorKind::NotConsumerGroups => f.write_str(
                "not the output of kafka-consumer-groups.sh --describe (no GROUP ... header)",
            ),
            ErrorKind::UnknownLine => f.write_str(
                "a line outside the tables that kafka-consumer-groups.sh does not print",
            ),
            ErrorKind::Truncated { column } => {
                write!(f, "the row ends before its {column} column (cut short?)")
            }
            ErrorKind::Misaligned { column } => write!(
                f,
                "the row does not line up with the header at its {column} column"
            ),
            ErrorKind::NotANumber { column, text } => {
                write!(f, "{column} \"{text}\" is neither a number nor -")
            }
            ErrorKind::PartitionTooLarge { text } => write!(
                f,
                "partition {text} is above the limit of {}",
                crate::scenario::MAX_PARTITIONS - 1
            ),
            ErrorKind::TooManyPartitions => write!(
                f,
                "more than {} partitions in all",
                crate::scenario::MAX_TOTAL_PARTITIONS
            ),
            ErrorKind::BadAssignment { expected } => {
                write!(f, "ASSIGNMENT: expected {expected}")
            }
            ErrorKind::SecondGroup { first, second } => write!(
                f,
                "rows of group \"{second}\" after group \"{first}\": import one group at a time"
            ),
        }
    }
}

impl fmt::Display for ImportError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "line {}, column {}: {}",
            self.line, self.column, self.kind
        )
    }
}

impl std::error::Error for ImportError {}
