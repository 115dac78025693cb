//! A CRD schema's `pattern` (`customresource/validation/pattern.rs`) against Go's `regexp`: every
//! case of the corpus `tests/data/go_regexp.json` (written by `gogen crdchecks`: hand-picked and
//! seeded random patterns, each with Go's compile error or its match answer on shared and own
//! subjects) gives Go's answer, but the cases listed in `KNOWN_DIFFERENCES`, which are checked
//! to still differ.
//!
//! The module is crate-private; it is compiled into this test on its own.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use serde_json::Value;

#[allow(dead_code)]
#[path = "../src/customresource/validation"]
mod validation {
    pub(crate) mod pattern;
}
use validation::pattern::{Pattern, PatternError};

/// `(pattern as `described`, subject or None for the compile answer, why)`: where smd's answer
/// is not Go's.
const KNOWN_DIFFERENCES: &[(&str, Option<&str>, &str)] = &[
    (r"(?i)\x{1c89}", Some("\u{1c8a}"), UNICODE_16),
    ("(?i)ɤ", Some("\u{a7cb}"), UNICODE_16),
    ("a{1000}×3350", None, TOO_LARGE),
    ("a{1000}×3355", None, TOO_LARGE),
    (r"\pL{1000}×20", None, TOO_LARGE),
    ("(?:ab){1000}×1677", None, TOO_LARGE),
    ("(a×3353){1000}", None, TOO_LARGE),
    ("(?:a×3353){1000}", None, TOO_LARGE),
    ("(?:a×3360){1000}x", None, TOO_LARGE),
    ("x(?:a×3360){1000}", None, TOO_LARGE),
    ("(?:a×1700|b){1000}", None, TOO_LARGE),
];

/// Go's case folding is Unicode 15.0's; the crate's 16.0 pairs letters Go leaves alone.
const UNICODE_16: &str = "a case pair new in Unicode 16.0";
/// Go compiles up to about 3.3 million instructions; the crate's automaton for the same
/// pattern passes smd's bound (`SIZE_LIMIT`), so smd refuses it as too large to evaluate.
const TOO_LARGE: &str = "past smd's bound on a compiled pattern, within Go's";

fn corpus() -> Value {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/go_regexp.json");
    let text = std::fs::read_to_string(path).expect("the corpus is committed");
    serde_json::from_str(&text).expect("JSON")
}

fn strings(v: &Value) -> Vec<&str> {
    v.as_array()
        .expect("a list")
        .iter()
        .map(|s| s.as_str().expect("a string"))
        .collect()
}

/// A case's pattern: as written, or built from its parts.
fn pattern_of(case: &Value) -> String {
    match case.get("built") {
        Some(b) => {
            let times = usize::try_from(b["times"].as_u64().expect("times")).expect("a count");
            let part = |k: &str| b[k].as_str().expect("a part");
            format!(
                "{}{}{}",
                part("open").repeat(times),
                part("inner"),
                part("close").repeat(times)
            )
        }
        None => case["pattern"].as_str().expect("pattern").to_owned(),
    }
}

/// A case's pattern in short: a built one as `open×times inner close×times`, runs of one
/// character as `c×n`.
fn described(case: &Value, pattern: &str) -> String {
    let runs = |text: &str| {
        let mut out = String::new();
        let mut chars = text.chars().peekable();
        while let Some(c) = chars.next() {
            let mut n = 1;
            while chars.peek() == Some(&c) {
                chars.next();
                n += 1;
            }
            if n >= 8 {
                out.push_str(&format!("{c}×{n}"));
            } else {
                out.extend(std::iter::repeat_n(c, n));
            }
        }
        out
    };
    match case.get("built") {
        Some(b) => {
            let part = |k: &str| runs(b[k].as_str().expect("a part"));
            let times = &b["times"];
            let repeated = |k: &str| {
                if part(k).is_empty() {
                    String::new()
                } else {
                    format!("{}×{times}", part(k))
                }
            };
            format!("{}{}{}", repeated("open"), part("inner"), repeated("close"))
        }
        None => pattern.to_owned(),
    }
}

#[test]
fn every_pattern_compiles_and_matches_as_in_go() {
    let corpus = corpus();
    let subjects = strings(&corpus["subjects"]);
    let mut wrong = Vec::new();
    let mut still_differ = vec![false; KNOWN_DIFFERENCES.len()];
    let (mut patterns, mut answers, mut errors) = (0, 0, 0);
    let mut check = |described: &str, subject: Option<&str>, agree: bool, what: String| {
        let known = KNOWN_DIFFERENCES
            .iter()
            .position(|(p, s, _)| *p == described && *s == subject);
        match known {
            Some(i) => still_differ[i] = !agree,
            None if !agree => wrong.push(what),
            None => {}
        }
    };
    for case in corpus["cases"].as_array().expect("cases") {
        let pattern = pattern_of(case);
        let name = described(case, &pattern);
        patterns += 1;
        let compiled = Pattern::compile(&pattern);
        if let Some(error) = case["error"].as_str() {
            errors += 1;
            let error = error.replace("`«pattern»`", &format!("`{pattern}`"));
            let got = match &compiled {
                Ok(_) => "compiles".to_owned(),
                Err(e) => e.to_string(),
            };
            let agree = matches!(&compiled, Err(PatternError::Invalid(e)) if *e == error);
            let what = format!("{name:?}: Go {error:?}, smd {got:?}");
            check(&name, None, agree, what);
            continue;
        }
        let re = match compiled {
            Ok(re) => re,
            Err(e) => {
                check(
                    &name,
                    None,
                    false,
                    format!("{name:?}: Go compiles it, smd: {e}"),
                );
                continue;
            }
        };
        let shared = case["shared"].as_str().expect("shared").as_bytes();
        assert_eq!(shared.len(), subjects.len());
        let own = strings(&case["match"]).into_iter().map(|s| (s, true));
        let own = own.chain(strings(&case["miss"]).into_iter().map(|s| (s, false)));
        let all = subjects
            .iter()
            .zip(shared)
            .map(|(s, &bit)| (*s, bit == b'1'))
            .chain(own);
        for (subject, want) in all {
            answers += 1;
            let got = re.is_match(subject);
            let what = format!("{name:?} on {subject:?}: Go {want}, smd {got}");
            check(&name, Some(subject), got == want, what);
        }
    }
    assert!(
        patterns > 2000 && errors > 500 && answers > 150_000,
        "{patterns} {errors} {answers}"
    );
    let fixed: Vec<_> = KNOWN_DIFFERENCES
        .iter()
        .zip(&still_differ)
        .filter(|(_, differs)| !**differs)
        .map(|((p, s, _), _)| format!("{p:?} {s:?}"))
        .collect();
    assert!(
        fixed.is_empty(),
        "listed as differing, but agree (or are gone): {fixed:?}"
    );
    assert!(
        wrong.is_empty(),
        "{} differ ({patterns} patterns, {errors} errors, {answers} answers):\n{}",
        wrong.len(),
        wrong.join("\n")
    );
}
