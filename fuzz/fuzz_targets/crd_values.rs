//! A custom resource's string checks on hostile input: a schema `pattern` in Go's syntax
//! translated and compiled (`smd/src/customresource/validation/pattern.rs`), then matched; and
//! every string format (`formats.rs`). Input: `pattern \u{1} subject`.
//!
//! Invariants: nothing panics or runs away (libFuzzer's timeout and memory limit); a refused
//! pattern is refused in Go's words (`error parsing regexp: CODE: `EXPR``) or as too large for
//! smd; a compiled pattern matches its subject or not, and any text.
#![no_main]

use libfuzzer_sys::fuzz_target;

// The modules are crate-private in smd; they are compiled into the target on their own.
#[allow(dead_code)]
#[path = "../../smd/src/customresource/validation"]
mod validation {
    pub(crate) mod formats;
    pub(crate) mod pattern;
}
use validation::formats;
use validation::pattern::{Pattern, PatternError};

const FORMATS: [&str; 27] = [
    "bsonobjectid",
    "uri",
    "email",
    "hostname",
    "ipv4",
    "ipv6",
    "cidr",
    "mac",
    "uuid",
    "uuid3",
    "uuid4",
    "uuid5",
    "isbn",
    "isbn10",
    "isbn13",
    "creditcard",
    "ssn",
    "hexcolor",
    "rgbcolor",
    "byte",
    "password",
    "date",
    "duration",
    "date-time",
    "k8s-short-name",
    "k8s-long-name",
    "unknown",
];

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let (pattern, subject) = text.split_once('\u{1}').unwrap_or((&text, ""));
    match Pattern::compile(pattern) {
        Ok(compiled) => {
            compiled.is_match(subject);
            compiled.is_match(pattern);
        }
        Err(PatternError::Invalid(error)) => {
            assert!(
                error.starts_with("error parsing regexp: ") && error.ends_with('`'),
                "{error}"
            );
        }
        Err(PatternError::TooComplex(_)) => {}
    }
    for format in FORMATS {
        formats::validates(format, subject);
    }
    formats::known(pattern);
    formats::supported(pattern, Some(subject));
});
