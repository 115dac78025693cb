//! The string formats a CRD schema may name, and how the API server checks a value against one.
//!
//! kube-openapi's registry (`pkg/validation/strfmt`'s `Default`, which apiextensions-apiserver
//! v0.37.2 validates custom resources with) holds 26 formats; a name is looked up with every
//! `-` removed (`date-time` is `datetime`, `k8s-short-name` is `k8sshortname`), and an unknown
//! name validates nothing. Before a schema validates anything, apiextensions' post-processor
//! (`StripUnsupportedFormatsPostProcessorForVersion`) drops the formats it does not support for
//! the schema's type; a 1.37 server's compatibility version (at least 1.34) supports all 26 for
//! strings, `int32`/`int64` for integers and `float`/`double` for numbers.
//!
//! Each check accepts exactly the strings Go's does (the corpus `tests/data/crd_formats.json`,
//! written by `gogen crdchecks`, holds Go's answers; `tests/crd_formats.rs` replays it): the
//! address parsers in `formats/net.rs`, `net/url`'s `ParseRequestURI` in `formats/uri.rs`,
//! `net/mail`'s `ParseAddress` in `formats/mail.rs`, dates, date-times and durations in
//! `formats/time.rs`, and the regular expressions of the rest by hand here. Go's regular
//! expressions are ASCII where they say `\d` or `\s`; the hostname's `\p{L}` and `\p{S}` are
//! Unicode 15.0's in Go and the `regex` crate's (16.0) here, so a character new in 16.0 is the
//! one way the two can differ.
//!
//! ```ignore
//! assert_eq!(supported("date-time", Some("string")), Some("date-time"));
//! assert_eq!(supported("int32", Some("string")), None);
//! assert!(validates("date-time", "2024-02-29T12:00:00Z"));
//! assert!(!validates("k8s-short-name", "Not-A-Name"));
//! ```

use std::sync::LazyLock;

mod mail;
mod net;
mod time;
mod uri;

/// One registered format.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Format {
    BsonObjectId,
    Uri,
    Email,
    Hostname,
    Ipv4,
    Ipv6,
    Cidr,
    Mac,
    Uuid,
    Uuid3,
    Uuid4,
    Uuid5,
    Isbn,
    Isbn10,
    Isbn13,
    CreditCard,
    Ssn,
    HexColor,
    RgbColor,
    Byte,
    Password,
    Date,
    Duration,
    DateTime,
    K8sShortName,
    K8sLongName,
}

/// The registry by normalised name (hyphens removed), with the Kubernetes minor version that
/// first supports each format in a CRD (`supportedVersionedFormats`).
const REGISTRY: [(&str, Format, u32); 26] = [
    ("bsonobjectid", Format::BsonObjectId, 0),
    ("uri", Format::Uri, 0),
    ("email", Format::Email, 0),
    ("hostname", Format::Hostname, 0),
    ("ipv4", Format::Ipv4, 0),
    ("ipv6", Format::Ipv6, 0),
    ("cidr", Format::Cidr, 0),
    ("mac", Format::Mac, 0),
    ("uuid", Format::Uuid, 0),
    ("uuid3", Format::Uuid3, 0),
    ("uuid4", Format::Uuid4, 0),
    ("uuid5", Format::Uuid5, 0),
    ("isbn", Format::Isbn, 0),
    ("isbn10", Format::Isbn10, 0),
    ("isbn13", Format::Isbn13, 0),
    ("creditcard", Format::CreditCard, 0),
    ("ssn", Format::Ssn, 0),
    ("hexcolor", Format::HexColor, 0),
    ("rgbcolor", Format::RgbColor, 0),
    ("byte", Format::Byte, 0),
    ("password", Format::Password, 0),
    ("date", Format::Date, 0),
    ("duration", Format::Duration, 0),
    ("datetime", Format::DateTime, 0),
    ("k8sshortname", Format::K8sShortName, 34),
    ("k8slongname", Format::K8sLongName, 34),
];

/// The minor version of Kubernetes 1.x whose formats a 1.37 server supports (its
/// compatibility version; the emulated version cannot go below 1.34).
const COMPATIBILITY_MINOR: u32 = 37;

/// The registry's entry for `name`, after its normalisation (every `-` removed).
fn entry(name: &str) -> Option<&'static (&'static str, Format, u32)> {
    let normalised: String = name.chars().filter(|&c| c != '-').collect();
    REGISTRY.iter().find(|(n, _, _)| *n == normalised)
}

/// Whether the registry knows `name` (`strfmt.Default.ContainsName`): a string's format is
/// checked only then.
pub(crate) fn known(name: &str) -> bool {
    entry(name).is_some()
}

/// What the post-processor keeps of a schema's `format` given its type: `schema_type` is the
/// schema's type when it has exactly one (`None` when it has none or several, which the
/// post-processor reads as `""`). Returns the format unchanged when kept, `None` when stripped
/// (or empty).
pub(crate) fn supported<'a>(format: &'a str, schema_type: Option<&str>) -> Option<&'a str> {
    let kept = match schema_type.unwrap_or("") {
        // The supported set is normalised as the registry is and names the same formats.
        "" | "string" => entry(format).is_some_and(|&(_, _, since)| since <= COMPATIBILITY_MINOR),
        "integer" => format == "int32" || format == "int64",
        "number" => format == "float" || format == "double",
        _ => false,
    };
    (kept && !format.is_empty()).then_some(format)
}

/// Whether `value` is a valid instance of the format `name` (`strfmt.Default.Validates`):
/// `false` for a name the registry does not know.
pub(crate) fn validates(name: &str, value: &str) -> bool {
    let Some(&(_, format, _)) = entry(name) else {
        return false;
    };
    match format {
        Format::BsonObjectId => value.len() == 24 && value.bytes().all(|b| b.is_ascii_hexdigit()),
        Format::Uri => uri::is_request_uri(value),
        Format::Email => mail::is_address(value),
        Format::Hostname => is_hostname(value),
        Format::Ipv4 => net::parse_ip_sloppy(value.as_bytes()) && value.contains('.'),
        Format::Ipv6 => {
            matches!(
                net::parse_addr(value.as_bytes()),
                Some(net::Addr::V6 { zone: false })
            ) && value.contains(':')
        }
        Format::Cidr => net::parse_cidr_sloppy(value.as_bytes()),
        Format::Mac => net::parse_mac(value.as_bytes()),
        Format::Uuid => is_uuid(value, None),
        Format::Uuid3 => is_uuid(value, Some(b'3')),
        Format::Uuid4 => is_uuid(value, Some(b'4')),
        Format::Uuid5 => is_uuid(value, Some(b'5')),
        Format::Isbn => is_isbn10(value) || is_isbn13(value),
        Format::Isbn10 => is_isbn10(value),
        Format::Isbn13 => is_isbn13(value),
        Format::CreditCard => is_credit_card(value),
        Format::Ssn => is_ssn(value.as_bytes()),
        Format::HexColor => {
            let hex = value.strip_prefix('#').unwrap_or(value);
            (hex.len() == 3 || hex.len() == 6) && hex.bytes().all(|b| b.is_ascii_hexdigit())
        }
        Format::RgbColor => is_rgb_color(value),
        Format::Byte => is_base64(value.as_bytes()),
        Format::Password => true,
        Format::Date => time::is_date(value.as_bytes()),
        Format::Duration => time::is_duration(value),
        Format::DateTime => time::is_date_time(value),
        Format::K8sShortName => value.len() <= 63 && is_dns_label(value.as_bytes()),
        Format::K8sLongName => {
            value.len() <= 253 && value.split('.').all(|l| is_dns_label(l.as_bytes()))
        }
    }
}

/// Go's `\s`: ASCII white space without the vertical tab.
pub(super) fn is_go_space(b: u8) -> bool {
    matches!(b, b'\t' | b'\n' | b'\x0c' | b'\r' | b' ')
}

/// `[a-z0-9]([-a-z0-9]*[a-z0-9])?`, whole.
fn is_dns_label(label: &[u8]) -> bool {
    let alnum = |b: &u8| b.is_ascii_lowercase() || b.is_ascii_digit();
    match (label.first(), label.last()) {
        (Some(first), Some(last)) => {
            alnum(first) && alnum(last) && label.iter().all(|b| alnum(b) || *b == b'-')
        }
        _ => false,
    }
}

/// kube-openapi's UUID expressions, case-insensitive: five hex groups of 8, 4, 4, 4 and 12,
/// each hyphen optional; a version's third group starts with its digit, and a version 4 or 5
/// UUID's fourth with one of `89ab`.
fn is_uuid(value: &str, version: Option<u8>) -> bool {
    let mut rest = value.as_bytes();
    for (i, len) in [8, 4, 4, 4, 12].into_iter().enumerate() {
        if i > 0 {
            rest = rest.strip_prefix(b"-").unwrap_or(rest);
        }
        let Some((group, tail)) = rest.split_at_checked(len) else {
            return false;
        };
        if !group.iter().all(u8::is_ascii_hexdigit) {
            return false;
        }
        match (version, i) {
            (Some(v), 2) if group[0] != v => return false,
            (Some(b'4' | b'5'), 3)
                if !matches!(group[0].to_ascii_lowercase(), b'8' | b'9' | b'a' | b'b') =>
            {
                return false;
            }
            _ => {}
        }
        rest = tail;
    }
    rest.is_empty()
}

/// The digits an ISBN check reads: Go's `[\s-]+` removed.
fn isbn_digits(value: &str) -> Vec<u8> {
    value
        .bytes()
        .filter(|&b| !is_go_space(b) && b != b'-')
        .collect()
}

fn is_isbn10(value: &str) -> bool {
    let d = isbn_digits(value);
    let shape = d.len() == 10
        && d[..9].iter().all(u8::is_ascii_digit)
        && (d[9].is_ascii_digit() || d[9] == b'X');
    if !shape {
        return false;
    }
    let mut sum: u32 = (0..9)
        .map(|i| (i as u32 + 1) * u32::from(d[i] - b'0'))
        .sum();
    sum += 10
        * if d[9] == b'X' {
            10
        } else {
            u32::from(d[9] - b'0')
        };
    sum % 11 == 0
}

fn is_isbn13(value: &str) -> bool {
    let d = isbn_digits(value);
    if d.len() != 13 || !d.iter().all(u8::is_ascii_digit) {
        return false;
    }
    let sum: u32 = (0..12)
        .map(|i| [1, 3][i % 2] * u32::from(d[i] - b'0'))
        .sum();
    u32::from(d[12] - b'0') == (10 - sum % 10) % 10
}

/// govalidator's credit card: every character that is not an ASCII digit removed, the number
/// one of the card issuers' shapes, its Luhn sum a multiple of ten.
fn is_credit_card(value: &str) -> bool {
    let d: Vec<u8> = value.bytes().filter(u8::is_ascii_digit).collect();
    let starts = |p: &[u8]| d.starts_with(p);
    let shape = match d.len() {
        13 => starts(b"4"),
        14 => starts(b"3") && matches!((d[1], d[2]), (b'0', b'0'..=b'5') | (b'6' | b'8', _)),
        15 => starts(b"34") || starts(b"37") || starts(b"2131") || starts(b"1800"),
        16 => {
            starts(b"4")
                || (d[0] == b'5' && (b'1'..=b'5').contains(&d[1]))
                || starts(b"6011")
                || starts(b"65")
                || starts(b"35")
        }
        _ => false,
    };
    let luhn: u32 = d
        .iter()
        .rev()
        .enumerate()
        .map(|(i, &c)| {
            let n = u32::from(c - b'0');
            if i % 2 == 1 {
                if n * 2 >= 10 { n * 2 % 10 + 1 } else { n * 2 }
            } else {
                n
            }
        })
        .sum();
    shape && luhn % 10 == 0
}

/// `^\d{3}[- ]?\d{2}[- ]?\d{4}$` on exactly 11 bytes: both separators present.
fn is_ssn(b: &[u8]) -> bool {
    let digits = |r: std::ops::Range<usize>| b[r].iter().all(u8::is_ascii_digit);
    b.len() == 11
        && digits(0..3)
        && matches!(b[3], b'-' | b' ')
        && digits(4..6)
        && matches!(b[6], b'-' | b' ')
        && digits(7..11)
}

/// `rgb(` three decimal numbers from 0 to 255 without leading zeros, separated by commas, Go's
/// `\s*` around each, `)`.
fn is_rgb_color(value: &str) -> bool {
    let Some(inner) = value.strip_prefix("rgb(").and_then(|v| v.strip_suffix(')')) else {
        return false;
    };
    let parts: Vec<&str> = inner.split(',').collect();
    parts.len() == 3
        && parts.iter().all(|p| {
            let n = p.trim_matches(|c: char| c.is_ascii() && is_go_space(c as u8));
            let canonical = n == "0" || (!n.starts_with('0') && !n.is_empty());
            canonical
                && n.len() <= 3
                && n.bytes().all(|b| b.is_ascii_digit())
                && n.parse::<u16>().is_ok_and(|v| v <= 255)
        })
}

/// govalidator's base64: quanta of four characters of the standard alphabet, at least one, the
/// last ending in `==` or `=` or neither.
fn is_base64(b: &[u8]) -> bool {
    let body = b
        .strip_suffix(b"==")
        .or_else(|| b.strip_suffix(b"="))
        .unwrap_or(b);
    !b.is_empty()
        && b.len() % 4 == 0
        && body
            .iter()
            .all(|&c| c.is_ascii_alphanumeric() || c == b'+' || c == b'/')
}

/// Go's hostname expression (`HostnamePattern`): one label with at most one hyphen, right after
/// its first character, or labels ending in a dot then a top-level name of 2 to 63 letters;
/// at most 255 bytes, no part between dots over 63 bytes. Its letters and symbols are Unicode
/// 15.0's, as Go's tables are.
fn is_hostname(value: &str) -> bool {
    static PATTERN: LazyLock<Option<regex::Regex>> = LazyLock::new(|| {
        // X: a label's character, Y: X or a hyphen, Z: a top-level name's letter.
        let x = r"[a-zA-Z0-9[[\p{S}\p{L}]&&\p{Age=V15_0}]]";
        let y = r"[-a-zA-Z0-9[[\p{S}\p{L}]&&\p{Age=V15_0}]]";
        let z = r"[a-zA-Z[\p{L}&&\p{Age=V15_0}]]";
        let pattern =
            format!("^({x}((-?{x}{{0,62}})?)|({x}(({y}{{0,61}}{x})?)(\\.)){{1,}}({z}){{2,63}})$");
        regex::Regex::new(&pattern).ok()
    });
    let Some(pattern) = PATTERN.as_ref() else {
        return false;
    };
    value.len() <= 255 && value.split('.').all(|p| p.len() <= 63) && pattern.is_match(value)
}
