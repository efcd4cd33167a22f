//! A cursor over `&[u8]` that knows its offset and records every field it reads.
//!
//! Never allocates from a length read off the wire without first checking it against the
//! bytes that remain.

use super::error::{DecodeError, DecodeErrorKind, MessageKind, Span};
use super::{Field, FieldPath, FieldValue, Note};

pub(crate) struct Reader<'a> {
    buf: &'a [u8],
    pos: usize,
    pub(crate) fields: Vec<Field>,
    pub(crate) notes: Vec<Note>,
    depth: u8,
    message: MessageKind,
    /// Still reading the version header (Java reports its underflow apart).
    pub(crate) in_header: bool,
}

pub(crate) type Res<T> = Result<T, DecodeError>;

impl<'a> Reader<'a> {
    pub(crate) fn new(buf: &'a [u8], message: MessageKind) -> Self {
        Reader {
            buf,
            pos: 0,
            fields: Vec::new(),
            notes: Vec::new(),
            depth: 0,
            message,
            in_header: true,
        }
    }

    pub(crate) fn pos(&self) -> usize {
        self.pos
    }

    pub(crate) fn remaining(&self) -> usize {
        self.buf.len() - self.pos
    }

    fn err(&self, start: usize, field: FieldPath, kind: DecodeErrorKind) -> DecodeError {
        self.err_at(Span::new(start, self.buf.len().max(start)), field, kind)
    }

    pub(crate) fn err_at(
        &self,
        span: Span,
        field: FieldPath,
        kind: DecodeErrorKind,
    ) -> DecodeError {
        DecodeError {
            span,
            field: field.to_string(),
            kind,
            message: self.message,
            in_header: self.in_header,
        }
    }

    /// Takes `n` bytes of a primitive, or fails with Incomplete (nothing left: a clean
    /// boundary) or Truncated (a partial primitive).
    fn take(&mut self, n: usize, what: &'static str, path: FieldPath) -> Res<&'a [u8]> {
        let available = self.remaining();
        if available < n {
            let kind = if available == 0 {
                DecodeErrorKind::Incomplete {
                    next: what,
                    needed: n,
                    declared: None,
                }
            } else {
                DecodeErrorKind::Truncated {
                    what,
                    needed: n,
                    available,
                }
            };
            return Err(self.err(self.pos, path, kind));
        }
        let s = &self.buf[self.pos..self.pos + n];
        self.pos += n;
        Ok(s)
    }

    fn raw_i16(&mut self, what: &'static str, path: FieldPath) -> Res<(i16, Span)> {
        let start = self.pos;
        let b = self.take(2, what, path)?;
        Ok((
            i16::from_be_bytes([b[0], b[1]]),
            Span::new(start, start + 2),
        ))
    }

    fn raw_i32(&mut self, what: &'static str, path: FieldPath) -> Res<(i32, Span)> {
        let start = self.pos;
        let b = self.take(4, what, path)?;
        Ok((
            i32::from_be_bytes([b[0], b[1], b[2], b[3]]),
            Span::new(start, start + 4),
        ))
    }

    fn push(&mut self, path: FieldPath, prefix: Option<Span>, payload: Span, value: FieldValue) {
        self.fields.push(Field {
            path,
            depth: self.depth,
            prefix,
            payload,
            value,
        });
    }

    /// A length or count beyond the input, refused before any allocation. When the input
    /// ends right after the prefix (someone typing), it is incomplete rather than wrong.
    fn beyond(
        &mut self,
        start: usize,
        path: FieldPath,
        what: &'static str,
        length: i64,
        next: &'static str,
    ) -> DecodeError {
        let remaining = self.remaining();
        if remaining == 0 {
            return self.err_at(
                Span::new(self.pos, self.pos),
                path,
                DecodeErrorKind::Incomplete {
                    next,
                    needed: if what == "array" { 1 } else { length as usize },
                    declared: Some((what, length)),
                },
            );
        }
        self.pos = start;
        self.err(
            start,
            path,
            DecodeErrorKind::LengthBeyondInput {
                what,
                length,
                remaining,
            },
        )
    }

    /// Reads an int16 field and records it.
    pub(crate) fn i16_field(&mut self, what: &'static str, path: FieldPath) -> Res<i16> {
        let (v, span) = self.raw_i16(what, path)?;
        self.push(path, None, span, FieldValue::Int(v as i64));
        Ok(v)
    }

    /// Reads an int32 field and records it.
    pub(crate) fn i32_field(&mut self, what: &'static str, path: FieldPath) -> Res<i32> {
        let (v, span) = self.raw_i32(what, path)?;
        self.push(path, None, span, FieldValue::Int(v as i64));
        Ok(v)
    }

    fn text(&mut self, bytes: &[u8], path: FieldPath, span: Span) -> String {
        match std::str::from_utf8(bytes) {
            Ok(s) => s.to_string(),
            Err(_) => {
                // Java's new String(bytes, UTF_8) replaces malformed input with U+FFFD.
                self.notes.push(Note::InvalidUtf8 { field: path, span });
                String::from_utf8_lossy(bytes).into_owned()
            }
        }
    }

    /// Reads a string (int16 length + UTF-8). `nullable`: a negative length means null.
    pub(crate) fn string_field(&mut self, path: FieldPath, nullable: bool) -> Res<Option<String>> {
        let start = self.pos;
        let what = if nullable {
            "int16 length of a nullable string"
        } else {
            "int16 length of a string"
        };
        let (len, prefix) = self.raw_i16(what, path)?;
        if len < 0 {
            if nullable {
                self.push(
                    path,
                    Some(prefix),
                    Span::new(self.pos, self.pos),
                    FieldValue::Null,
                );
                return Ok(None);
            }
            self.pos = start;
            return Err(self.err(
                start,
                path,
                DecodeErrorKind::NegativeLength {
                    what: "string",
                    length: len as i32,
                    java_field: java_field(path),
                },
            ));
        }
        let len = len as usize;
        if len > self.remaining() {
            return Err(self.beyond(start, path, "string", len as i64, "UTF-8 bytes of a string"));
        }
        let payload = Span::new(self.pos, self.pos + len);
        let bytes = &self.buf[payload.start..payload.end];
        self.pos += len;
        let s = self.text(bytes, path, payload);
        self.push(path, Some(prefix), payload, FieldValue::Text(s.clone()));
        Ok(Some(s))
    }

    /// Reads nullable bytes (int32 length, negative = null).
    pub(crate) fn nullable_bytes_field(&mut self, path: FieldPath) -> Res<Option<Vec<u8>>> {
        let start = self.pos;
        let (len, prefix) = self.raw_i32("int32 length of nullable bytes", path)?;
        if len < 0 {
            self.push(
                path,
                Some(prefix),
                Span::new(self.pos, self.pos),
                FieldValue::Null,
            );
            return Ok(None);
        }
        let len = len as usize;
        if len > self.remaining() {
            return Err(self.beyond(start, path, "bytes", len as i64, "payload of the bytes"));
        }
        let payload = Span::new(self.pos, self.pos + len);
        let bytes = self.buf[payload.start..payload.end].to_vec();
        self.pos += len;
        self.push(path, Some(prefix), payload, FieldValue::Bytes(len));
        Ok(Some(bytes))
    }

    /// Reads a non-nullable array count and records the array field (its payload span is
    /// completed by [`Reader::end_array`]). Returns the count and the field's index.
    ///
    /// Like Java, a count larger than the bytes remaining is refused before anything is
    /// allocated; callers size their vectors with [`Reader::capacity_for`].
    pub(crate) fn array_start(
        &mut self,
        what: &'static str,
        path: FieldPath,
    ) -> Res<(usize, usize)> {
        let start = self.pos;
        let (count, prefix) = self.raw_i32(what, path)?;
        if count < 0 {
            self.pos = start;
            return Err(self.err(
                start,
                path,
                DecodeErrorKind::NegativeLength {
                    what: "array",
                    length: count,
                    java_field: java_field(path),
                },
            ));
        }
        let count = count as usize;
        if count > self.remaining() {
            let e = self.beyond(
                start,
                path,
                "array",
                count as i64,
                "first element of the array",
            );
            if e.is_incomplete() {
                // The count itself was read: the partial tree shows it.
                self.push(
                    path,
                    Some(prefix),
                    Span::new(self.pos, self.pos),
                    FieldValue::Array(count),
                );
            }
            return Err(e);
        }
        let index = self.fields.len();
        self.push(
            path,
            Some(prefix),
            Span::new(self.pos, self.pos),
            FieldValue::Array(count),
        );
        self.depth += 1;
        Ok((count, index))
    }

    /// Completes the span of the array field at `index` (also after a failure inside it).
    pub(crate) fn end_array(&mut self, index: usize) {
        self.depth = self.depth.saturating_sub(1);
        let end = self.pos;
        if let Some(f) = self.fields.get_mut(index) {
            f.payload.end = end;
        }
    }

    /// Starts a struct element (no prefix of its own); closed by [`Reader::end_array`].
    pub(crate) fn struct_start(&mut self, path: FieldPath) -> usize {
        let index = self.fields.len();
        self.push(
            path,
            None,
            Span::new(self.pos, self.pos),
            FieldValue::Struct,
        );
        self.depth += 1;
        index
    }

    /// A capacity for `count` elements of at least `min_size` bytes each that the input can
    /// actually hold: never more than the input allows, whatever the wire claims.
    pub(crate) fn capacity_for(&self, count: usize, min_size: usize) -> usize {
        count.min(self.remaining() / min_size.max(1))
    }
}

/// A field's name as Java's generated reader writes it in its exceptions: camelCase, and
/// "element" after an array's name for one of its strings.
fn java_field(path: FieldPath) -> &'static str {
    match (path.name, path.index.is_some()) {
        ("topics", true) => "topics element",
        ("owned_partitions", _) => "ownedPartitions",
        ("assigned_partitions", _) => "assignedPartitions",
        ("user_data", _) => "userData",
        ("rack_id", _) => "rackId",
        ("generation_id", _) => "generationId",
        (name, _) => name,
    }
}
