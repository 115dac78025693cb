//! The string formats of a CRD schema (`customresource/validation/formats.rs`) against Go: every
//! case of the corpus `tests/data/crd_formats.json` (written by `gogen crdchecks` from kube-openapi's
//! `strfmt.Default` and apiextensions' format post-processor) gives Go's answer, but the cases
//! listed in `KNOWN_DIFFERENCES`, which are checked to still differ.
//!
//! The module is crate-private; it is compiled into this test on its own.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use serde_json::Value;

#[allow(dead_code)]
#[path = "../src/customresource/validation"]
mod validation {
    pub(crate) mod formats;
}
use validation::formats;

/// `(format, value, why)`: where smd's answer is not Go's.
const KNOWN_DIFFERENCES: &[(&str, &str, &str)] = &[];

fn corpus() -> Value {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/crd_formats.json");
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

#[test]
fn the_registry_knows_the_names_go_knows() {
    let corpus = corpus();
    let known = strings(&corpus["registry"]["known"]);
    let unknown = strings(&corpus["registry"]["unknown"]);
    assert!(known.len() > 30 && unknown.len() > 20);
    let wrong: Vec<String> = known
        .iter()
        .filter(|n| !formats::known(n))
        .map(|n| format!("{n:?} is known to Go"))
        .chain(
            unknown
                .iter()
                .filter(|n| formats::known(n))
                .map(|n| format!("{n:?} is unknown to Go")),
        )
        .collect();
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn the_post_processor_keeps_the_formats_go_keeps() {
    let corpus = corpus();
    let mut wrong = Vec::new();
    let mut cases = 0;
    for row in corpus["postProcessor"].as_array().expect("rows") {
        let schema_type = row["type"].as_str();
        for (list, kept) in [("kept", true), ("stripped", false)] {
            for format in strings(&row[list]) {
                cases += 1;
                // Go keeps "" as it is: no format either way.
                let want = (kept && !format.is_empty()).then_some(format);
                let got = formats::supported(format, schema_type);
                if got != want {
                    wrong.push(format!(
                        "type {schema_type:?}, format {format:?}: Go {want:?}, smd {got:?}"
                    ));
                }
            }
        }
    }
    assert!(cases > 500, "{cases} cases");
    assert!(
        wrong.is_empty(),
        "{} of {cases} differ:\n{}",
        wrong.len(),
        wrong.join("\n")
    );
}

#[test]
fn every_value_validates_as_in_go() {
    let corpus = corpus();
    let mut wrong = Vec::new();
    let mut still_differ = vec![false; KNOWN_DIFFERENCES.len()];
    let mut cases = 0;
    for row in corpus["validates"].as_array().expect("rows") {
        let format = row["format"].as_str().expect("format");
        for (list, valid) in [("valid", true), ("invalid", false)] {
            for value in strings(&row[list]) {
                cases += 1;
                let got = formats::validates(format, value);
                let known = KNOWN_DIFFERENCES
                    .iter()
                    .position(|(f, v, _)| *f == format && *v == value);
                match known {
                    Some(i) => still_differ[i] = got != valid,
                    None if got != valid => {
                        wrong.push(format!("{format} {value:?}: Go {valid}, smd {got}"));
                    }
                    None => {}
                }
            }
        }
    }
    assert!(cases > 9000, "{cases} cases");
    let fixed: Vec<_> = KNOWN_DIFFERENCES
        .iter()
        .zip(&still_differ)
        .filter(|(_, differs)| !**differs)
        .map(|((f, v, _), _)| format!("{f} {v:?}"))
        .collect();
    assert!(
        fixed.is_empty(),
        "listed as differing, but agree (or are gone): {fixed:?}"
    );
    assert!(
        wrong.is_empty(),
        "{} of {cases} differ:\n{}",
        wrong.len(),
        wrong.join("\n")
    );
}
