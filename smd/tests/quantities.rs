//! `resource.Quantity`'s canonical texts: every text of the Go-written corpus
//! (`tests/data/quantities.json`, `gogen quantities`: edge texts and 2,000 seeded random ones)
//! gives Go's text or Go's error.

use smd::builtin::quantity::canonical;

#[test]
fn every_text_of_the_go_corpus_gives_gos_answer() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/quantities.json");
    let text = std::fs::read_to_string(path).expect("the corpus is committed");
    let corpus: serde_json::Value = serde_json::from_str(&text).expect("JSON");
    let cases = corpus["cases"].as_array().expect("cases");
    assert!(cases.len() > 2000, "the corpus has {} cases", cases.len());
    let mut failures = Vec::new();
    for case in cases {
        let input = case["in"].as_str().expect("in");
        let got = match canonical(input) {
            Ok(s) => serde_json::json!({ "in": input, "out": s }),
            Err(e) => serde_json::json!({ "in": input, "error": e.to_string() }),
        };
        if &got != case {
            failures.push(format!("Go: {case}\nsmd: {got}"));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} differ:\n{}",
        failures.len(),
        cases.len(),
        failures.join("\n")
    );
}
