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
    /// Character index where the problem is.
    pub position: usize,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for UuidError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "character {}: {}", self.position, self.message)
    }
}

impl Uuid {
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

    /// Reads Kafka's text form: 22 base64url characters without padding (Java's
    /// `Uuid.fromString` also takes the padded 24).
    pub fn parse(text: &str) -> Result<Uuid, UuidError> {
        let t = text.strip_suffix("==").unwrap_or(text);
        if t.len() != 22 {
            return Err(UuidError {
                position: 0,
                message: format!(
                    "a topic id is 22 base64url characters, \"{}\" has {}",
                    text.chars().take(30).collect::<String>(),
                    text.chars().count()
                ),
            });
        }
        let mut acc: u128 = 0;
        for (i, c) in t.bytes().enumerate() {
            let v = B64.iter().position(|x| *x == c).ok_or_else(|| UuidError {
                position: i,
                message: format!(
                    "\"{}\" is not a base64url character",
                    t[i..].chars().next().unwrap_or('?')
                ),
            })? as u128;
            if i < 21 {
                acc = (acc << 6) | v;
            } else {
                // 22 characters carry 132 bits: the last character's low 4 bits are padding.
                if v & 0xF != 0 {
                    return Err(UuidError {
                        position: 21,
                        message: "the last character of a topic id must end in four zero bits"
                            .into(),
                    });
                }
                acc = (acc << 2) | (v >> 4);
            }
        }
        Ok(Uuid::from_bytes(acc.to_be_bytes()))
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
        assert!(Uuid::parse("short").unwrap_err().message.contains("22"));
        assert_eq!(
            Uuid::parse("AAAAAAAAAAAAAAAAAAAA*A").unwrap_err().position,
            20
        );
    }
}
