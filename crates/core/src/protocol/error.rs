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

/// Which message was being decoded; Java names it in its exceptions.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum MessageKind {
    /// ConsumerProtocolSubscription (JoinGroup metadata).
    Subscription,
    /// ConsumerProtocolAssignment (SyncGroup).
    Assignment,
}

impl MessageKind {
    /// The word Java uses for it: "subscription" or "assignment".
    pub fn java_name(self) -> &'static str {
        match self {
            MessageKind::Subscription => "subscription",
            MessageKind::Assignment => "assignment",
        }
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
        /// Set when the input ends right after a length or count prefix: what the prefix
        /// counts ("string", "array" or "bytes") and the length it declares. Java refuses
        /// these on the declared length, not with a buffer underflow.
        declared: Option<(&'static str, i64)>,
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
        /// The field as Java's generated reader names it: `topics`, `topics element`,
        /// `ownedPartitions`, `topic`, `partitions`, `assignedPartitions`.
        java_field: &'static str,
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
    /// The message being decoded.
    pub message: MessageKind,
    /// True when the failure is in the int16 version header (Java parses it apart and says
    /// "header" in its underflow exception).
    pub in_header: bool,
}

/// Java's exception class for a failure that `ConsumerProtocol` wraps: a buffer underflow
/// and an unsupported version.
pub const SCHEMA_EXCEPTION: &str = "org.apache.kafka.common.protocol.types.SchemaException";
/// Java's exception class for the generated reader's own checks (negative non-nullable
/// length, collection or byte array longer than the bytes remaining).
pub const RUNTIME_EXCEPTION: &str = "java.lang.RuntimeException";
/// Java's exception class for zero-copy bytes longer than the bytes remaining
/// (`ByteBuffer.limit` refuses the slice).
pub const ILLEGAL_ARGUMENT_EXCEPTION: &str = "java.lang.IllegalArgumentException";

/// Java's cause of a failure, before it is written out as a message.
enum JavaCause {
    /// `BufferUnderflowException`, wrapped by `ConsumerProtocol` in a SchemaException.
    Underflow,
    /// `checkSubscriptionVersion` / `checkAssignmentVersion`.
    Version(i16),
    /// The generated reader: a negative length for a non-nullable field.
    Null(&'static str),
    /// The generated reader: an array count above `_readable.remaining()`.
    Collection(i64, usize),
    /// `ByteBufferAccessor.readArray` (strings): a length above the bytes remaining.
    ByteArray(i64, usize),
    /// `ByteBufferAccessor.readByteBuffer` (zero-copy bytes): `limit` beyond the slice.
    Limit(i64, usize),
}

impl DecodeError {
    /// True when the input is merely unfinished (ends at a field boundary), not wrong.
    pub fn is_incomplete(&self) -> bool {
        matches!(self.kind, DecodeErrorKind::Incomplete { .. })
    }

    fn java_cause(&self) -> JavaCause {
        let beyond = |what: &str, length: i64, remaining: usize| match what {
            "array" => JavaCause::Collection(length, remaining),
            "bytes" => JavaCause::Limit(length, remaining),
            _ => JavaCause::ByteArray(length, remaining),
        };
        match &self.kind {
            DecodeErrorKind::Incomplete {
                declared: Some((what, length)),
                ..
            } => beyond(what, *length, 0),
            DecodeErrorKind::Incomplete { .. } | DecodeErrorKind::Truncated { .. } => {
                JavaCause::Underflow
            }
            DecodeErrorKind::NegativeLength { java_field, .. } => JavaCause::Null(java_field),
            DecodeErrorKind::LengthBeyondInput {
                what,
                length,
                remaining,
            } => beyond(what, *length, *remaining),
            DecodeErrorKind::UnsupportedVersion { version } => JavaCause::Version(*version),
        }
    }

    /// The exception Kafka's Java client (`ConsumerProtocol.deserializeSubscription` /
    /// `deserializeAssignment`) throws for the same bytes: its class and its exact message.
    pub fn java_exception(&self) -> (&'static str, String) {
        let part = if self.in_header {
            "header"
        } else {
            self.message.java_name()
        };
        match self.java_cause() {
            JavaCause::Underflow => (
                SCHEMA_EXCEPTION,
                format!("Buffer underflow while parsing consumer protocol's {part}"),
            ),
            JavaCause::Version(v) => (
                SCHEMA_EXCEPTION,
                format!("Unsupported {} version: {v}", self.message.java_name()),
            ),
            JavaCause::Null(field) => (
                RUNTIME_EXCEPTION,
                format!("non-nullable field {field} was serialized as null"),
            ),
            JavaCause::Collection(n, left) => (
                RUNTIME_EXCEPTION,
                format!(
                    "Tried to allocate a collection of size {n}, but there are only {left} bytes remaining."
                ),
            ),
            JavaCause::ByteArray(n, left) => (
                RUNTIME_EXCEPTION,
                format!("Error reading byte array of {n} byte(s): only {left} byte(s) available"),
            ),
            JavaCause::Limit(n, left) => (
                ILLEGAL_ARGUMENT_EXCEPTION,
                format!("newLimit > capacity: ({n} > {left})"),
            ),
        }
    }

    /// Java's cause in a few plain words, for [`Display`](fmt::Display).
    fn java_gist(&self) -> String {
        match self.java_cause() {
            JavaCause::Underflow => format!(
                "buffer underflow while parsing the {}",
                if self.in_header {
                    "header"
                } else {
                    self.message.java_name()
                }
            ),
            JavaCause::Version(_) => format!("unsupported {} version", self.message.java_name()),
            JavaCause::Null(field) => format!("non-nullable field {field} serialized as null"),
            JavaCause::Collection(..) => "collection larger than the bytes remaining".into(),
            JavaCause::ByteArray(..) => "byte array longer than the bytes available".into(),
            JavaCause::Limit(..) => {
                "the bytes would end past the buffer, newLimit > capacity".into()
            }
        }
    }
}

impl fmt::Display for DecodeErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DecodeErrorKind::Incomplete { next, needed, .. } => {
                write!(
                    f,
                    "incomplete: next comes the {next}, {needed} {}",
                    if *needed == 1 { "byte" } else { "bytes" }
                )
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
            DecodeErrorKind::NegativeLength { what, length, .. } => {
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
                write!(f, "unsupported version {version}: versions are 0 or more")
            }
        }
    }
}

impl fmt::Display for DecodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "byte 0x{:02x}, {}: {} (Java: {})",
            self.span.start,
            self.field,
            self.kind,
            self.java_gist()
        )
    }
}

impl std::error::Error for DecodeError {}
