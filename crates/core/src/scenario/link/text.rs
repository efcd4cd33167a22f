//! The link's text primitives: percent-encoding of names, base64url, and a cursor over the
//! fragment that knows its position for messages.
//!
//! A link is ASCII (the writer percent-encodes every other byte), so every position is both
//! a byte and a character index, and slicing never falls inside a character.

use super::LinkError;

pub(super) fn is_plain(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_')
}

/// Percent-encodes every byte outside `A-Z a-z 0-9 - . _`.
pub fn escape(s: &str, out: &mut String) {
    const H: &[u8; 16] = b"0123456789ABCDEF";
    for b in s.bytes() {
        if is_plain(b) {
            out.push(b as char);
        } else {
            out.push('%');
            out.push(H[(b >> 4) as usize] as char);
            out.push(H[(b & 15) as usize] as char);
        }
    }
}

/// Reverses [`escape`].
pub fn unescape(s: &str) -> Result<String, String> {
    Part { text: s, at: 0 }
        .unescape("text")
        .map_err(|e| e.message)
}

pub(super) const B64: &[u8; 64] =
    b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

pub(super) fn b64_encode(bytes: &[u8], out: &mut String) {
    for chunk in bytes.chunks(3) {
        let n = chunk.len();
        let v = (chunk[0] as u32) << 16
            | (*chunk.get(1).unwrap_or(&0) as u32) << 8
            | *chunk.get(2).unwrap_or(&0) as u32;
        for i in 0..=n {
            out.push(B64[((v >> (18 - 6 * i)) & 63) as usize] as char);
        }
    }
}

pub(super) fn b64_value(c: u8) -> Option<u32> {
    B64.iter().position(|x| *x == c).map(|p| p as u32)
}

/// Writes the bitmask with the bits at `indices` (sorted) set, up to the last one: one
/// character per six topics, so the cost is the length written, not the topic count.
pub(super) fn bitmask(indices: &[usize], out: &mut String) {
    let Some(&last) = indices.last() else {
        return;
    };
    let mut i = 0;
    for chunk in (0..=last).step_by(6) {
        let mut v = 0usize;
        while i < indices.len() && indices[i] < chunk + 6 {
            v |= 1 << (indices[i] - chunk);
            i += 1;
        }
        out.push(B64[v] as char);
    }
}

/// A cursor over (ASCII) fragment text that knows its position, for messages.
#[derive(Debug, Clone, Copy)]
pub(super) struct Part<'a> {
    pub text: &'a str,
    /// offset of text[0] in the whole fragment
    pub at: usize,
}

impl<'a> Part<'a> {
    pub fn err(&self, msg: impl Into<String>) -> LinkError {
        LinkError {
            position: self.at,
            message: msg.into(),
        }
    }

    /// Splits on `sep`, each piece knowing its position.
    pub fn split(&self, sep: char) -> Vec<Part<'a>> {
        let mut out = Vec::new();
        let mut at = self.at;
        for piece in self.text.split(sep) {
            out.push(Part { text: piece, at });
            at += piece.len() + sep.len_utf8();
        }
        out
    }

    /// The text after its first `n` bytes (empty when `n` is past the end or would cut a
    /// character: the reader has refused non-ASCII before, so that never happens).
    pub fn skip(&self, n: usize) -> Part<'a> {
        Part {
            text: self.text.get(n..).unwrap_or(""),
            at: self.at + n.min(self.text.len()),
        }
    }

    /// The first `n` bytes.
    pub fn take(&self, n: usize) -> Part<'a> {
        Part {
            text: self.text.get(..n).unwrap_or(self.text),
            at: self.at,
        }
    }

    pub fn unescape(&self, what: &str) -> Result<String, LinkError> {
        let b = self.text.as_bytes();
        let mut out = Vec::with_capacity(b.len());
        let mut i = 0;
        while i < b.len() {
            if b[i] == b'%' {
                let hex = |k: usize| b.get(k).and_then(|c| (*c as char).to_digit(16));
                match (hex(i + 1), hex(i + 2)) {
                    (Some(h), Some(l)) => out.push((h * 16 + l) as u8),
                    _ => {
                        return Err(LinkError {
                            position: self.at + i,
                            message: format!("{what}: '%' must be followed by two hex digits"),
                        })
                    }
                }
                i += 3;
            } else if is_plain(b[i]) {
                out.push(b[i]);
                i += 1;
            } else {
                let ch = self.text.get(i..).and_then(|t| t.chars().next());
                return Err(LinkError {
                    position: self.at + i,
                    message: format!(
                        "{what}: unexpected character \"{}\"",
                        ch.map_or("?".to_string(), |c| c.escape_default().to_string())
                    ),
                });
            }
        }
        String::from_utf8(out)
            .map_err(|_| self.err(format!("{what}: not valid UTF-8 once decoded")))
    }

    /// `name<sep>rest`: the unescaped name and the rest, or `missing` as the error.
    pub fn name_and_rest(
        &self,
        sep: char,
        what: &str,
        missing: &str,
    ) -> Result<(String, Part<'a>), LinkError> {
        let Some(at) = self.text.find(sep) else {
            return Err(self.err(missing));
        };
        let name = self.take(at).unescape(what)?;
        Ok((name, self.skip(at + sep.len_utf8())))
    }

    pub fn optional(&self, what: &str) -> Result<Option<String>, LinkError> {
        if self.text.is_empty() {
            return Ok(None);
        }
        match self.text.strip_prefix('~') {
            Some(_) => self.skip(1).unescape(what).map(Some),
            None => Err(self.err(format!("{what}: expected empty or '~' then a value"))),
        }
    }

    pub fn number<T: TryFrom<i64>>(&self, what: &str, range: &str) -> Result<T, LinkError> {
        // Only digits (and a leading '-' where T has negatives): Rust's parser would also
        // take "+5", and "-0" is no unsigned number. One parser for every integer type (it
        // is in the page once, not once per type): an i64, so past i64::MAX is no number.
        let negative = self.text.starts_with('-');
        self.integer()
            .filter(|_| !negative || T::try_from(-1).is_ok())
            .and_then(|v| T::try_from(v).ok())
            .ok_or_else(|| self.not_a_number(what, range))
    }

    fn integer(&self) -> Option<i64> {
        let digits = self.text.strip_prefix('-').unwrap_or(self.text);
        if digits.is_empty() {
            return None;
        }
        // Accumulated negatively, so that i64::MIN reads too.
        let mut n: i64 = 0;
        for c in digits.bytes() {
            let d = (c as char).to_digit(10)? as i64;
            n = n.checked_mul(10)?.checked_sub(d)?;
        }
        if digits.len() == self.text.len() {
            n.checked_neg()
        } else {
            Some(n)
        }
    }

    fn not_a_number(&self, what: &str, range: &str) -> LinkError {
        let shown: String = self.text.chars().take(24).collect();
        let more = if self.text.len() > 24 { "..." } else { "" };
        self.err(format!("{what}: \"{shown}{more}\" is not a number {range}"))
    }

    pub fn b64(&self, what: &str) -> Result<Vec<u8>, LinkError> {
        let b = self.text.as_bytes();
        if b.len() % 4 == 1 {
            return Err(self.err(format!(
                "{what}: base64 text is cut short (length {})",
                b.len()
            )));
        }
        let mut out = Vec::with_capacity(b.len() * 3 / 4);
        for (ci, chunk) in b.chunks(4).enumerate() {
            let mut v = 0u32;
            for (k, c) in chunk.iter().enumerate() {
                let d = b64_value(*c).ok_or_else(|| LinkError {
                    position: self.at + ci * 4 + k,
                    message: format!("{what}: \"{}\" is not a base64url character", *c as char),
                })?;
                v |= d << (18 - 6 * k);
            }
            for k in 0..chunk.len() - 1 {
                out.push((v >> (16 - 8 * k)) as u8);
            }
        }
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::Part;

    fn num<T: TryFrom<i64>>(text: &str) -> Option<T> {
        Part { text, at: 7 }.number::<T>("n", "").ok()
    }

    #[test]
    fn numbers_are_digits_in_the_type_s_range() {
        assert_eq!(num::<u32>("42"), Some(42));
        assert_eq!(num::<u32>("007"), Some(7));
        assert_eq!(num::<i32>("-5"), Some(-5));
        assert_eq!(num::<i16>("-32768"), Some(i16::MIN));
        assert_eq!(num::<i16>("32768"), None);
        // Read as an i64 (one parser in the page): past i64::MAX is no number, for any type.
        assert_eq!(num::<u64>("9223372036854775807"), Some(i64::MAX as u64));
        assert_eq!(num::<u64>("9223372036854775808"), None);
        for bad in [
            "",
            "-",
            "+5",
            "-0",
            "-1",
            "5 ",
            "1e3",
            "0x10",
            "99999999999999999999999999999999999999999",
        ] {
            assert_eq!(num::<u32>(bad), None, "{bad:?}");
        }
        assert_eq!(num::<i32>("-0"), Some(0), "-0 is a signed zero");
        assert_eq!(num::<i64>("-9223372036854775808"), Some(i64::MIN));
        assert_eq!(num::<i64>("9223372036854775807"), Some(i64::MAX));
        assert_eq!(num::<i64>("-9223372036854775809"), None);
        let e = Part {
            text: "12345678901234567890123456789",
            at: 7,
        }
        .number::<u32>("partition count", "from 1 to 10")
        .unwrap_err();
        assert_eq!(e.position, 7);
        assert_eq!(
            e.message,
            "partition count: \"123456789012345678901234...\" is not a number from 1 to 10"
        );
    }
}
