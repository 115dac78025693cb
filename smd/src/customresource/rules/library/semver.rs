//! Kubernetes' `library.SemverLib` at version 1: `semver(string)`, `semver(string, normalize)`,
//! `isSemver` (both), `major`, `minor`, `patch`, `isGreaterThan`, `isLessThan`, `compareTo`,
//! over `github.com/blang/semver/v4`'s `Parse` (strict Semantic Versioning 2.0.0, with its
//! error texts) and the library's own normalisation (`v` prefix, missing minor or patch,
//! leading zeros).

use smd_cel::Value;
use smd_cel::error::{Error, Result};
use smd_cel::library::{Functions, Overload, Param};
use smd_cel::value::{Opaque, Type};
use std::cmp::Ordering;
use std::sync::Arc;

/// The type's name in CEL.
pub(crate) const TYPE_NAME: &str = "kubernetes.Semver";

/// A pre-release identifier: numeric ones order numerically and before alphanumeric ones.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Pre {
    Num(u64),
    Alpha(String),
}

/// A version; build metadata is checked and kept, but never compared.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Version {
    pub(crate) major: u64,
    pub(crate) minor: u64,
    pub(crate) patch: u64,
    pub(crate) pre: Vec<Pre>,
    pub(crate) build: Vec<String>,
}

const ALPHANUM: &str = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ-0123456789";

fn only(s: &str, set: &str) -> bool {
    s.chars().all(|c| set.contains(c))
}

fn only_digits(s: &str) -> bool {
    s.bytes().all(|b| b.is_ascii_digit())
}

fn leading_zero(s: &str) -> bool {
    s.len() > 1 && s.starts_with('0')
}

/// Go's `strconv.ParseUint(s, 10, 64)` on a text of digits (or none).
fn parse_uint(s: &str) -> std::result::Result<u64, String> {
    if s.is_empty() {
        return Err(format!(
            "strconv.ParseUint: parsing {}: invalid syntax",
            super::ip::quote(s)
        ));
    }
    s.parse().map_err(|_| {
        format!(
            "strconv.ParseUint: parsing {}: value out of range",
            super::ip::quote(s)
        )
    })
}

fn number(s: &str, what: &str, title: &str) -> std::result::Result<u64, String> {
    let q = super::ip::quote(s);
    if !only_digits(s) {
        return Err(format!("Invalid character(s) found in {what} number {q}"));
    }
    if leading_zero(s) {
        return Err(format!(
            "{title} number must not contain leading zeroes {q}"
        ));
    }
    parse_uint(s)
}

/// blang/semver's `Parse`.
pub(crate) fn parse(s: &str) -> std::result::Result<Version, String> {
    if s.is_empty() {
        return Err("Version string empty".to_owned());
    }
    let parts: Vec<&str> = s.splitn(3, '.').collect();
    let [major, minor, rest] = parts[..] else {
        return Err("No Major.Minor.Patch elements found".to_owned());
    };
    let major = number(major, "major", "Major")?;
    let minor = number(minor, "minor", "Minor")?;
    let (rest, build) = match rest.split_once('+') {
        Some((r, b)) => (r, Some(b)),
        None => (rest, None),
    };
    let (patch, pre) = match rest.split_once('-') {
        Some((p, pre)) => (p, Some(pre)),
        None => (rest, None),
    };
    let patch = number(patch, "patch", "Patch")?;
    let mut v = Version {
        major,
        minor,
        patch,
        pre: Vec::new(),
        build: Vec::new(),
    };
    for p in pre.into_iter().flat_map(|p| p.split('.')) {
        if p.is_empty() {
            return Err("Prerelease is empty".to_owned());
        }
        let q = super::ip::quote(p);
        if only_digits(p) {
            if leading_zero(p) {
                return Err(format!(
                    "Numeric PreRelease version must not contain leading zeroes {q}"
                ));
            }
            v.pre.push(Pre::Num(parse_uint(p)?));
        } else if only(p, ALPHANUM) {
            v.pre.push(Pre::Alpha(p.to_owned()));
        } else {
            return Err(format!("Invalid character(s) found in prerelease {q}"));
        }
    }
    for b in build.into_iter().flat_map(|b| b.split('.')) {
        if b.is_empty() {
            return Err("Build meta data is empty".to_owned());
        }
        if !only(b, ALPHANUM) {
            return Err(format!(
                "Invalid character(s) found in build meta data {}",
                super::ip::quote(b)
            ));
        }
        v.build.push(b.to_owned());
    }
    Ok(v)
}

/// The library's `normalizeAndParse`: no `v` prefix, leading zeros dropped from the first three
/// dot-separated parts, a missing minor or patch made `0`.
pub(crate) fn parse_normalized(s: &str) -> std::result::Result<Version, String> {
    let s = s.strip_prefix('v').unwrap_or(s);
    let mut parts: Vec<String> = s
        .splitn(3, '.')
        .map(|p| {
            if p.len() <= 1 {
                return p.to_owned();
            }
            let t = p.trim_start_matches('0');
            if t.is_empty() || !t.starts_with(|c: char| c.is_ascii_digit()) {
                format!("0{t}")
            } else {
                t.to_owned()
            }
        })
        .collect();
    if parts.len() < 3 {
        if parts.last().is_some_and(|p| p.contains(['+', '-'])) {
            return Err("short version cannot contain PreRelease/Build meta data".to_owned());
        }
        parts.resize(3, "0".to_owned());
    }
    parse(&parts.join("."))
}

impl Version {
    /// `Compare`: numbers, then a version without pre-release after one with, then the
    /// pre-release identifiers in turn.
    pub(crate) fn compare(&self, o: &Version) -> Ordering {
        (self.major, self.minor, self.patch)
            .cmp(&(o.major, o.minor, o.patch))
            .then_with(|| match (self.pre.is_empty(), o.pre.is_empty()) {
                (true, true) => Ordering::Equal,
                (true, false) => Ordering::Greater,
                (false, true) => Ordering::Less,
                (false, false) => {
                    for (a, b) in self.pre.iter().zip(&o.pre) {
                        let c = match (a, b) {
                            (Pre::Num(x), Pre::Num(y)) => x.cmp(y),
                            (Pre::Num(_), Pre::Alpha(_)) => Ordering::Less,
                            (Pre::Alpha(_), Pre::Num(_)) => Ordering::Greater,
                            (Pre::Alpha(x), Pre::Alpha(y)) => x.cmp(y),
                        };
                        if c != Ordering::Equal {
                            return c;
                        }
                    }
                    self.pre.len().cmp(&o.pre.len())
                }
            })
    }
}

/// A semver as a CEL value.
#[derive(Debug, Clone)]
pub(crate) struct Semver(pub(crate) Version);

impl Opaque for Semver {
    fn type_name(&self) -> &str {
        TYPE_NAME
    }
    fn equals(&self, other: &Value) -> bool {
        as_semver(other).is_some_and(|o| o.0.compare(&self.0) == Ordering::Equal)
    }
    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
}

fn as_semver(v: &Value) -> Option<&Semver> {
    match v {
        Value::Opaque(o) => o.as_any().downcast_ref::<Semver>(),
        _ => None,
    }
}

fn param() -> Param {
    Param::Is(Type::Opaque(Arc::from(TYPE_NAME)))
}

fn text(v: &Value) -> &str {
    if let Value::String(s) = v { s } else { "" }
}

fn parsed(a: &[Value]) -> std::result::Result<Version, String> {
    match a.get(1) {
        Some(Value::Bool(true)) => parse_normalized(text(&a[0])),
        _ => parse(text(&a[0])),
    }
}

fn pair(a: &[Value]) -> Result<(&Version, &Version)> {
    match (as_semver(&a[0]), as_semver(&a[1])) {
        (Some(x), Some(y)) => Ok((&x.0, &y.0)),
        _ => Err(Error::no_such_overload()),
    }
}

fn field(a: &[Value], f: fn(&Version) -> u64) -> Result<Value> {
    // Go converts the uint64 to int64 as is: past the int64 range it wraps.
    as_semver(&a[0])
        .map(|v| Value::Int(f(&v.0) as i64))
        .ok_or_else(Error::no_such_overload)
}

pub(super) fn register(f: &mut Functions) {
    let (s, b) = (Param::Is(Type::String), Param::Is(Type::Bool));
    let to = |a: &[Value]| {
        parsed(a)
            .map(|v| Value::Opaque(Arc::new(Semver(v))))
            .map_err(Error::new)
    };
    let is = |a: &[Value]| Ok(Value::Bool(parsed(a).is_ok()));
    f.add(
        "semver",
        Overload::new("string_to_semver", vec![s.clone()], to),
    );
    f.add(
        "semver",
        Overload::new("string_bool_to_semver", vec![s.clone(), b.clone()], to),
    );
    f.add(
        "isSemver",
        Overload::new("is_semver_string", vec![s.clone()], is),
    );
    f.add(
        "isSemver",
        Overload::new("is_semver_string_bool", vec![s, b], is),
    );
    let cmp = |a: &[Value], want: Ordering| -> Result<Value> {
        let (x, y) = pair(a)?;
        Ok(Value::Bool(x.compare(y) == want))
    };
    f.add(
        "isGreaterThan",
        Overload::new("semver_is_greater_than", vec![param(), param()], move |a| {
            cmp(a, Ordering::Greater)
        }),
    );
    f.add(
        "isLessThan",
        Overload::new("semver_is_less_than", vec![param(), param()], move |a| {
            cmp(a, Ordering::Less)
        }),
    );
    f.add(
        "compareTo",
        Overload::new("semver_compare_to", vec![param(), param()], |a| {
            let (x, y) = pair(a)?;
            Ok(Value::Int(x.compare(y) as i64))
        }),
    );
    f.add(
        "major",
        Overload::new("semver_major", vec![param()], |a| field(a, |v| v.major)),
    );
    f.add(
        "minor",
        Overload::new("semver_minor", vec![param()], |a| field(a, |v| v.minor)),
    );
    f.add(
        "patch",
        Overload::new("semver_patch", vec![param()], |a| field(a, |v| v.patch)),
    );
    for id in [
        "string_to_semver",
        "string_bool_to_semver",
        "is_semver_string",
        "is_semver_string_bool",
    ] {
        f.set_cost(id, super::traversal_cost(1));
    }
    for id in [
        "semver_is_greater_than",
        "semver_is_less_than",
        "semver_compare_to",
        "semver_major",
        "semver_minor",
        "semver_patch",
    ] {
        f.set_cost(id, Arc::new(|_, _| 1));
    }
}
