//! Field names as path elements hold them: bytes, short ones inline.
//!
//! Go strings are byte strings, and a `fieldsV1` document may carry field names that are not
//! valid UTF-8; Go writes them back byte for byte, and so must we. Almost every Kubernetes field
//! name is short, so names up to [`INLINE`] bytes live inside the value and cost no allocation;
//! longer ones share one reference-counted buffer between clones.

use std::borrow::Cow;
use std::cmp::Ordering;
use std::fmt;
use std::hash::{Hash, Hasher};
use std::sync::Arc;

/// The longest name kept inline.
const INLINE: usize = 22;

/// A field name: a byte string, usually UTF-8.
#[derive(Clone)]
pub struct Name(Repr);

#[derive(Clone)]
enum Repr {
    Inline { len: u8, bytes: [u8; INLINE] },
    Shared(Arc<[u8]>),
}

impl Name {
    /// A name from bytes.
    pub fn from_bytes(bytes: &[u8]) -> Name {
        if bytes.len() <= INLINE {
            let mut inline = [0u8; INLINE];
            inline[..bytes.len()].copy_from_slice(bytes);
            Name(Repr::Inline {
                len: bytes.len() as u8,
                bytes: inline,
            })
        } else {
            Name(Repr::Shared(Arc::from(bytes)))
        }
    }

    /// The name's bytes.
    pub fn as_bytes(&self) -> &[u8] {
        match &self.0 {
            Repr::Inline { len, bytes } => &bytes[..usize::from(*len)],
            Repr::Shared(bytes) => bytes,
        }
    }

    /// The name as text, if it is valid UTF-8 (it is unless it came from a `fieldsV1` document
    /// that carried other bytes).
    pub fn as_str(&self) -> Option<&str> {
        std::str::from_utf8(self.as_bytes()).ok()
    }

    /// The name as text, with invalid UTF-8 replaced by U+FFFD.
    pub fn to_str_lossy(&self) -> Cow<'_, str> {
        String::from_utf8_lossy(self.as_bytes())
    }

    /// The length in bytes.
    pub fn len(&self) -> usize {
        self.as_bytes().len()
    }

    /// Whether the name is empty (legal: `f:` names the empty field).
    pub fn is_empty(&self) -> bool {
        self.as_bytes().is_empty()
    }
}

impl From<&str> for Name {
    fn from(s: &str) -> Name {
        Name::from_bytes(s.as_bytes())
    }
}

impl From<&String> for Name {
    fn from(s: &String) -> Name {
        Name::from_bytes(s.as_bytes())
    }
}

impl From<String> for Name {
    fn from(s: String) -> Name {
        Name::from_bytes(s.as_bytes())
    }
}

impl PartialEq for Name {
    fn eq(&self, other: &Name) -> bool {
        self.as_bytes() == other.as_bytes()
    }
}

impl Eq for Name {}

impl PartialEq<str> for Name {
    fn eq(&self, other: &str) -> bool {
        self.as_bytes() == other.as_bytes()
    }
}

impl PartialEq<&str> for Name {
    fn eq(&self, other: &&str) -> bool {
        self.as_bytes() == other.as_bytes()
    }
}

impl Ord for Name {
    /// Byte-wise, as Go's `strings.Compare`.
    fn cmp(&self, other: &Name) -> Ordering {
        self.as_bytes().cmp(other.as_bytes())
    }
}

impl PartialOrd for Name {
    fn partial_cmp(&self, other: &Name) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Hash for Name {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.as_bytes().hash(state);
    }
}

impl fmt::Display for Name {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_str_lossy())
    }
}

impl fmt::Debug for Name {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&self.to_str_lossy(), f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_and_long_names_compare_by_bytes() {
        let short = Name::from("spec");
        let long = Name::from("a-field-name-that-is-longer-than-inline");
        assert_eq!(short.as_bytes(), b"spec");
        assert_eq!(
            long.as_str(),
            Some("a-field-name-that-is-longer-than-inline")
        );
        assert!(long < short);
        assert_eq!(Name::from(""), Name::from_bytes(b""));
        assert_eq!(Name::from_bytes(&[0xff, b'a']).as_str(), None);
        assert_eq!(Name::from_bytes(&[0xff, b'a']).to_str_lossy(), "\u{fffd}a");
        assert_eq!(std::mem::size_of::<Name>(), 24);
    }
}
