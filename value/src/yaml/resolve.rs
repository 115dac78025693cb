//! YAML 1.1 scalar resolution, as yaml.v2 decodes a scalar into `interface{}`
//! (`resolve.go:86 resolve`, `decode.go:411 scalar`).

use std::borrow::Cow;

use granit_parser::{ScalarStyle, Tag};

use super::{binary, number, timestamp};
use crate::Value;

/// What a scalar's tag asks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum TagKind {
    /// No tag.
    None,
    /// The non-specific tag `!`: for yaml.v2 an unknown tag on an implicit scalar.
    NonSpecific,
    /// `!!str`.
    Str,
    /// `!!bool`.
    Bool,
    /// `!!int`.
    Int,
    /// `!!float`.
    Float,
    /// `!!null`.
    Null,
    /// `!!timestamp`.
    Timestamp,
    /// `!!binary`: base64 text standing for a string.
    Binary,
    /// `!!merge`: only meaningful on a `<<` key.
    Merge,
    /// Any other tag (`!foo`, `!!python/str`, …): ignored, the scalar is a string.
    Other,
}

const CORE: &str = "tag:yaml.org,2002:";

impl TagKind {
    /// The kind of a parser tag, by its resolved URI (so `!!int`, `!<tag:yaml.org,2002:int>`
    /// and `%TAG`-declared spellings agree).
    pub(super) fn of(tag: Option<&Tag>) -> TagKind {
        let Some(tag) = tag else {
            return TagKind::None;
        };
        let (handle, suffix) = tag.parts();
        if handle.len() + suffix.len() == 1 && (handle == "!" || suffix == "!") {
            return TagKind::NonSpecific;
        }
        match tag.suffix_in_namespace(CORE).as_deref() {
            Some("str") => TagKind::Str,
            Some("bool") => TagKind::Bool,
            Some("int") => TagKind::Int,
            Some("float") => TagKind::Float,
            Some("null") => TagKind::Null,
            Some("timestamp") => TagKind::Timestamp,
            Some("binary") => TagKind::Binary,
            Some("merge") => TagKind::Merge,
            _ => TagKind::Other,
        }
    }

    /// yaml.v2's short name of a resolvable tag, for messages.
    fn short(self) -> &'static str {
        match self {
            TagKind::Str => "!!str",
            TagKind::Bool => "!!bool",
            TagKind::Int => "!!int",
            TagKind::Float => "!!float",
            TagKind::Null => "!!null",
            TagKind::Timestamp => "!!timestamp",
            TagKind::Binary => "!!binary",
            TagKind::Merge => "!!merge",
            TagKind::None | TagKind::NonSpecific | TagKind::Other => "!",
        }
    }
}

/// Whether a scalar is "plain implicit" in libyaml's sense: plain and untagged, or tagged `!`.
/// Only such scalars are resolved by content, and only they (or `!!merge` ones) can be `<<` keys.
pub(super) fn is_implicit(style: ScalarStyle, tag: TagKind) -> bool {
    (style == ScalarStyle::Plain && tag == TagKind::None) || tag == TagKind::NonSpecific
}

/// Whether a key scalar is a merge key (`decode.go:813 isMerge`).
pub(super) fn is_merge_key(text: &str, style: ScalarStyle, tag: TagKind) -> bool {
    text == "<<" && (is_implicit(style, tag) || tag == TagKind::Merge)
}

/// Why a scalar has no value.
#[derive(Debug)]
enum Problem {
    /// An integer that only fits in uint64.
    OutOfRange,
    /// The tag asks for a kind the text is not (`cannot decode !!str `x` as a !!int`).
    Mismatch {
        /// What the text resolves to.
        found: TagKind,
        /// What the tag asked for.
        wanted: TagKind,
    },
    /// `!!binary` text that is not base64.
    Base64,
    /// `!!binary` bytes that are not UTF-8, which a string cannot hold.
    BinaryUtf8,
}

impl Problem {
    /// The error message for a scalar whose text is `text`.
    fn message(&self, text: &str) -> String {
        match self {
            Problem::OutOfRange => format!(
                "integer `{text}` is out of range for int64 (yaml.v2 would decode it as a uint64, \
                 which is not a valid value)"
            ),
            Problem::Mismatch { found, wanted } => {
                format!(
                    "cannot decode {} `{text}` as a {}",
                    found.short(),
                    wanted.short()
                )
            }
            Problem::Base64 => "!!binary value contains invalid base64 data".to_owned(),
            Problem::BinaryUtf8 => {
                "!!binary value decodes to bytes that are not valid UTF-8".to_owned()
            }
        }
    }
}

/// The value of a scalar with this text, style and tag, or the message saying why it has none.
pub(super) fn scalar(
    text: Cow<'_, str>,
    style: ScalarStyle,
    tag: TagKind,
) -> Result<Value, String> {
    match tag {
        // Quoted and block scalars without a tag are strings (`decode.go:414`), and so is any
        // scalar whose tag yaml.v2 does not resolve (`resolve.go:87`).
        TagKind::None if style != ScalarStyle::Plain => Ok(Value::String(text.into_owned())),
        TagKind::Str | TagKind::NonSpecific | TagKind::Merge | TagKind::Other => {
            Ok(Value::String(text.into_owned()))
        }
        TagKind::Binary => {
            let bytes = binary::decode(&text).ok_or_else(|| Problem::Base64.message(&text))?;
            String::from_utf8(bytes)
                .map(Value::String)
                .map_err(|_| Problem::BinaryUtf8.message(&text))
        }
        TagKind::None
        | TagKind::Bool
        | TagKind::Int
        | TagKind::Float
        | TagKind::Null
        | TagKind::Timestamp => {
            let found = resolve(&text, tag);
            let value = match (found, tag) {
                (Resolved::Uint, TagKind::None | TagKind::Int) => {
                    return Err(Problem::OutOfRange.message(&text));
                }
                (found, TagKind::None) => found,
                (Resolved::Int(i), TagKind::Float) => Resolved::Float(i as f64),
                (found, wanted) if found.kind() == wanted => found,
                (found, wanted) => {
                    return Err(Problem::Mismatch {
                        found: found.kind(),
                        wanted,
                    }
                    .message(&text));
                }
            };
            Ok(match value {
                Resolved::Null => Value::Null,
                Resolved::Bool(b) => Value::Bool(b),
                Resolved::Int(i) => Value::Int(i),
                Resolved::Float(f) => Value::Float(f),
                // Unreachable (refused above), but a string is the honest fallback.
                Resolved::Uint | Resolved::Str | Resolved::Timestamp => {
                    Value::String(text.into_owned())
                }
            })
        }
    }
}

/// Whether [`scalar`] makes of this scalar the string of its own text (without an error):
/// what nearly every map key is.
pub(super) fn is_own_text(text: &str, style: ScalarStyle, tag: TagKind) -> bool {
    match tag {
        TagKind::None if style != ScalarStyle::Plain => true,
        TagKind::Str | TagKind::NonSpecific | TagKind::Merge | TagKind::Other => true,
        TagKind::None => matches!(resolve(text, tag), Resolved::Str | Resolved::Timestamp),
        _ => false,
    }
}

/// What yaml.v2's `resolve` makes of a text, before the tag is checked.
#[derive(Debug, Clone, Copy)]
enum Resolved {
    Null,
    Bool(bool),
    Int(i64),
    /// An integer beyond int64 that fits in uint64.
    Uint,
    Float(f64),
    Str,
    /// A timestamp; decoded into `interface{}`, the string as written.
    Timestamp,
}

impl Resolved {
    fn kind(self) -> TagKind {
        match self {
            Resolved::Null => TagKind::Null,
            Resolved::Bool(_) => TagKind::Bool,
            Resolved::Int(_) | Resolved::Uint => TagKind::Int,
            Resolved::Float(_) => TagKind::Float,
            Resolved::Str => TagKind::Str,
            Resolved::Timestamp => TagKind::Timestamp,
        }
    }
}

/// `resolve.go:86`, for an untagged plain scalar or one tagged `!!bool`, `!!int`, `!!float`,
/// `!!null` or `!!timestamp`.
fn resolve(text: &str, tag: TagKind) -> Resolved {
    let b = text.as_bytes();
    // The first byte is a hint of what the text may be (`resolve.go:20`); other texts are strings.
    let Some(&first) = b.first() else {
        return Resolved::Null;
    };
    if let Some(known) = lookup(text) {
        return known;
    }
    match first {
        b'.' => number::parse_float(text).map_or(Resolved::Str, Resolved::Float),
        b'0'..=b'9' | b'+' | b'-' => {
            // Only untagged or `!!timestamp` scalars are tried as timestamps (`resolve.go:143`).
            if matches!(tag, TagKind::None | TagKind::Timestamp) && timestamp::is_timestamp(text) {
                return Resolved::Timestamp;
            }
            let plain: Cow<'_, [u8]> = if b.contains(&b'_') {
                Cow::Owned(b.iter().copied().filter(|&c| c != b'_').collect())
            } else {
                Cow::Borrowed(b)
            };
            if let Some(i) = number::parse_int(&plain) {
                return Resolved::Int(i);
            }
            if number::parse_uint(&plain).is_some() {
                return Resolved::Uint;
            }
            if number::is_yaml_style_float(&plain) {
                // The text matched a decimal pattern, so it is ASCII.
                if let Some(f) = std::str::from_utf8(&plain)
                    .ok()
                    .and_then(number::parse_float)
                {
                    return Resolved::Float(f);
                }
            }
            // yaml.v2 then retries `0b…` and `-0b…` in base 2 (`resolve.go:169-190`), which
            // Go's base-0 `ParseInt` above has already accepted since Go 1.13: nothing new.
            Resolved::Str
        }
        _ => Resolved::Str,
    }
}

/// Whether an untagged plain scalar with this text reads as the string itself.
pub(super) fn resolves_to_str(text: &str, tag: TagKind) -> bool {
    matches!(resolve(text, tag), Resolved::Str)
}

/// yaml.v2's table of exact spellings (`resolve.go:37-47`).
fn lookup(text: &str) -> Option<Resolved> {
    Some(match text {
        "y" | "Y" | "yes" | "Yes" | "YES" | "true" | "True" | "TRUE" | "on" | "On" | "ON" => {
            Resolved::Bool(true)
        }
        "n" | "N" | "no" | "No" | "NO" | "false" | "False" | "FALSE" | "off" | "Off" | "OFF" => {
            Resolved::Bool(false)
        }
        "~" | "null" | "Null" | "NULL" => Resolved::Null,
        ".nan" | ".NaN" | ".NAN" => Resolved::Float(f64::NAN),
        ".inf" | ".Inf" | ".INF" | "+.inf" | "+.Inf" | "+.INF" => Resolved::Float(f64::INFINITY),
        "-.inf" | "-.Inf" | "-.INF" => Resolved::Float(f64::NEG_INFINITY),
        _ => return None,
    })
}

/// The map key a scalar value stands for, as sigs.k8s.io/yaml turns yaml.v2's keys into strings
/// (`convertToJSONableObject`): ints in decimal, floats as Go's `FormatFloat(f, 'g', -1, 32)`,
/// booleans as `true`/`false`. A null key, a list or a map is refused, as sigs.k8s.io/yaml
/// refuses them; the error says why.
pub(super) fn key_text(value: Value) -> Result<String, &'static str> {
    Ok(match value {
        Value::String(s) => s,
        Value::Bool(b) => b.to_string(),
        Value::Int(i) => i.to_string(),
        Value::Float(f) => number::format_key_float(f),
        Value::Null => {
            return Err("invalid map key: a null key is not supported (quote it: \"null\", \"~\")");
        }
        Value::List(_) | Value::Map(_) => {
            return Err("invalid map key: a list or a map cannot be a map key");
        }
    })
}
