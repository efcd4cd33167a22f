//! Kafka's `org.apache.kafka.common.Uuid`: a topic id, written as 22 base64url characters.
//! Orders of the broker's assignors depend on its `hashCode` and `compareTo`.

use std::cmp::Ordering;
use std::fmt;

/// A Kafka `Uuid`: two big-endian 64-bit halves.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Uuid {
    /// The first 8 bytes, big-endian, as Java's signed `long`.
    pub msb: i64,
    /// The last 8 bytes, big-endian, as Java's signed `long`.
    pub lsb: i64,
}

const B64: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/// Why a text is not a Kafka `Uuid`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UuidError {
    /// Character index where the problem is (the text's length when it is too short).
    pub position: usize,
    /// The message of the `IllegalArgumentException` Java's `Uuid.fromString` throws.
    pub message: String,
}

/// `java.util.Base64.getUrlDecoder().decode(byte[])` in Java 17 (`Decoder.decodedOutLength`,
/// then `decode0` without MIME), over ISO-8859-1 bytes: its checks, in its order, with its
/// messages.
fn base64_url_decode(src: &[u8]) -> Result<Vec<u8>, UuidError> {
    let fail = |position: usize, message: String| Err(UuidError { position, message });
    if src.len() == 1 {
        return fail(
            1,
            "Input byte[] should at least have 2 bytes for base64 bytes".into(),
        );
    }
    let value = |b: u8| B64.iter().position(|x| *x == b).map(|v| v as u32);
    let mut out = Vec::with_capacity(src.len() / 4 * 3 + 2);
    let (mut bits, mut shift, mut at) = (0u32, 18i32, 0usize);
    while at < src.len() {
        let b = src[at];
        at += 1;
        let Some(v) = value(b) else {
            if b == b'=' {
                // `=` ends the input: after two characters of a unit it must be `==` and the
                // end; at a unit's start it is an error; after three it is the end.
                let pad_ok = match shift {
                    6 => {
                        let ok = at < src.len() && src[at] == b'=';
                        at += 1;
                        ok
                    }
                    18 => false,
                    _ => true,
                };
                if !pad_ok {
                    return fail(
                        at.min(src.len()) - 1,
                        "Input byte array has wrong 4-byte ending unit".into(),
                    );
                }
                break;
            }
            // (Java prints the byte as a signed number in hex: 0xE9 is "-17")
            return fail(
                at - 1,
                format!("Illegal base64 character {}", java_hex(i32::from(b as i8))),
            );
        };
        bits |= v << shift;
        shift -= 6;
        if shift < 0 {
            out.extend_from_slice(&[(bits >> 16) as u8, (bits >> 8) as u8, bits as u8]);
            shift = 18;
            bits = 0;
        }
    }
    match shift {
        // (the last character's unused low bits are dropped here)
        6 => out.push((bits >> 16) as u8),
        0 => out.extend_from_slice(&[(bits >> 16) as u8, (bits >> 8) as u8]),
        12 => return fail(at - 1, "Last unit does not have enough valid bits".into()),
        _ => {}
    }
    if at < src.len() {
        return fail(
            at,
            format!("Input byte array has incorrect ending byte at {at}"),
        );
    }
    Ok(out)
}

/// Java's `Integer.toString(n, 16)`: a minus sign, then the magnitude.
fn java_hex(n: i32) -> String {
    if n < 0 {
        format!("-{:x}", -(n as i64))
    } else {
        format!("{n:x}")
    }
}

impl fmt::Display for UuidError {
    /// Where, Java's reason, and what a topic id looks like.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "character {}: {} (Kafka's Uuid.fromString; a topic id is 22 base64url characters)",
            self.position, self.message
        )
    }
}

impl Uuid {
    /// Kafka's `Uuid.ZERO_UUID`: "no id".
    pub const ZERO: Uuid = Uuid { msb: 0, lsb: 0 };

    /// Kafka's `Uuid.METADATA_TOPIC_ID` (`Uuid.ONE_UUID`): the KRaft metadata log's id.
    pub const METADATA_TOPIC_ID: Uuid = Uuid { msb: 0, lsb: 1 };

    /// The 16 bytes, big-endian.
    pub fn from_bytes(b: [u8; 16]) -> Uuid {
        let mut hi = [0u8; 8];
        let mut lo = [0u8; 8];
        hi.copy_from_slice(&b[..8]);
        lo.copy_from_slice(&b[8..]);
        Uuid {
            msb: i64::from_be_bytes(hi),
            lsb: i64::from_be_bytes(lo),
        }
    }

    /// The 16 bytes, big-endian.
    pub fn to_bytes(self) -> [u8; 16] {
        let mut b = [0u8; 16];
        b[..8].copy_from_slice(&self.msb.to_be_bytes());
        b[8..].copy_from_slice(&self.lsb.to_be_bytes());
        b
    }

    /// Java's `Uuid.fromString`: at most 24 characters, decoded by
    /// `Base64.getUrlDecoder()` to exactly 16 bytes. That decoder takes padding (`==`) and
    /// ignores the unused low bits of the last character, so `T2-B4s3VTwiI5YHbPp6YUe` and
    /// `T2-B4s3VTwiI5YHbPp6YUQ` are one id (its [`fmt::Display`] is Kafka's canonical
    /// `toString`). A refusal carries Java's own message and the character it is at.
    pub fn parse(text: &str) -> Result<Uuid, UuidError> {
        // `String.length()` counts UTF-16 units (read no further than the 25th).
        if text.encode_utf16().take(25).count() > 24 {
            let prefix: Vec<u16> = text.encode_utf16().take(24).collect();
            return Err(UuidError {
                position: 24,
                message: format!(
                    "Input string with prefix `{}` is too long to be decoded as a base64 UUID",
                    String::from_utf16_lossy(&prefix)
                ),
            });
        }
        // `Base64.Decoder.decode(String)` reads the string's ISO-8859-1 bytes: a character
        // beyond U+00FF is one `?`.
        let latin1: Vec<u8> = text
            .chars()
            .map(|c| u8::try_from(u32::from(c)).unwrap_or(b'?'))
            .collect();
        let bytes = base64_url_decode(&latin1)?;
        let Ok(bytes) = <[u8; 16]>::try_from(bytes.as_slice()) else {
            return Err(UuidError {
                position: latin1.len(),
                message: format!(
                    "Input string `{text}` decoded as {} bytes, which is not equal to the \
                     expected 16 bytes of a base64-encoded UUID",
                    bytes.len()
                ),
            });
        };
        Ok(Uuid::from_bytes(bytes))
    }

    /// Why Kafka never gives this id to a topic, if it doesn't: the group coordinator's
    /// `TopicMetadata` refuses `Uuid.ZERO_UUID` ("Topic id cannot be ZERO_UUID."), and
    /// `Uuid.randomUuid`, which the controller names topics with, never returns a reserved id
    /// (`Uuid.RESERVED`: `ZERO_UUID` and `METADATA_TOPIC_ID`, the KRaft metadata log's). (Nor
    /// one whose text starts with `-`; but Java takes such an id, and so does this tool.)
    pub fn reserved_for_topics(self) -> Option<&'static str> {
        if self == Uuid::ZERO {
            Some(
                "AAAAAAAAAAAAAAAAAAAAAA is Kafka's Uuid.ZERO_UUID, \"no id\": the broker refuses it \
                 as a topic's id (Topic id cannot be ZERO_UUID.)",
            )
        } else if self == Uuid::METADATA_TOPIC_ID {
            Some(
                "AAAAAAAAAAAAAAAAAAAAAQ is Kafka's Uuid.METADATA_TOPIC_ID, reserved for the \
                 KRaft metadata log: the controller never gives it to a topic",
            )
        } else {
            None
        }
    }

    /// Java's `Uuid.hashCode`: `x = msb ^ lsb; (int) (x >> 32) ^ (int) x`.
    pub fn hash_code(self) -> i32 {
        let x = self.msb ^ self.lsb;
        ((x >> 32) as i32) ^ (x as i32)
    }

    /// Java's `Uuid.compareTo`: the most significant half, then the least, as signed longs.
    pub fn java_cmp(&self, other: &Uuid) -> Ordering {
        self.msb.cmp(&other.msb).then(self.lsb.cmp(&other.lsb))
    }
}

impl fmt::Display for Uuid {
    /// Kafka's `Uuid.toString`: 22 base64url characters.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let x = u128::from_be_bytes(self.to_bytes());
        let mut s = String::with_capacity(22);
        for i in 0..21 {
            s.push(B64[((x >> (122 - 6 * i)) & 63) as usize] as char);
        }
        s.push(B64[((x & 3) << 4) as usize] as char);
        f.write_str(&s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_round_trip() {
        let u = Uuid {
            msb: -1,
            lsb: 0x0123_4567_89ab_cdef,
        };
        assert_eq!(Uuid::parse(&u.to_string()).unwrap(), u);
        assert_eq!(Uuid::default().to_string(), "AAAAAAAAAAAAAAAAAAAAAA");
        assert!(Uuid::parse("short")
            .unwrap_err()
            .message
            .contains("Last unit"));
        assert_eq!(
            Uuid::parse("AAAAAAAAAAAAAAAAAAAA*A").unwrap_err().position,
            20
        );
    }
}
