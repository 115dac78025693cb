//! `yaml::to_string` of `yaml::sorted` against what `kubectl get -o yaml` prints: the corpus
//! `data/sigs_yaml.json`, written by `gogen yamlcorpus` (conformance/regen) with
//! sigs.k8s.io/yaml.Marshal over values read as kubectl reads JSON. Every case is compared
//! byte for byte, but for the deliberate differences (`yaml/scalar.rs`): a terminal control
//! beyond ASCII, which yaml.v2 writes raw, and a text of Go's that does not read back as the
//! value. There, and where Go refuses to write the value (control characters yaml.v2 will not
//! emit), smd's text must read back as the same value.

use smd_value::{Value, yaml};

#[derive(serde::Deserialize)]
struct Corpus {
    cases: Vec<Case>,
}

#[derive(serde::Deserialize)]
struct Case {
    json: String,
    yaml: Option<String>,
    error: Option<String>,
}

#[test]
fn kubectl_yaml_is_sigs_yaml() {
    let text = include_str!("data/sigs_yaml.json");
    let corpus: Corpus = serde_json::from_str(text).expect("corpus");
    assert!(corpus.cases.len() > 1000, "{} cases", corpus.cases.len());
    let mut differences = Vec::new();
    let mut refused = 0;
    let mut deliberate = 0;
    for case in &corpus.cases {
        let value: Value = serde_json::from_str(&case.json).expect("case JSON");
        let written = yaml::to_string(&yaml::sorted(&value));
        let controls = value_has_terminal_control(&value);
        // Where kubectl's own text does not read back as the value (`<<: v` is a merge; a
        // uint64 no reader here takes; a key of line breaks alone), smd writes what does.
        let unreadable = case
            .yaml
            .as_deref()
            .is_some_and(|y| !matches!(yaml::from_str(y), Ok(back) if back == value));
        match (&case.yaml, &case.error) {
            (Some(_), None) if controls || unreadable => {
                // Deliberate: smd escapes what a terminal would act on (U+202E, U+2028, ...),
                // where yaml.v2 writes it raw. It must still read back.
                deliberate += 1;
                assert!(
                    !written
                        .chars()
                        .any(|c| c != '\n' && smd_value::is_terminal_control(c)),
                    "{written:?}"
                );
                assert_eq!(
                    yaml::from_str(&written).expect("reads back"),
                    value,
                    "{written:?}"
                );
            }
            (Some(expected), None) => {
                if &written != expected {
                    differences.push(format!(
                        "{}\n  go:  {expected:?}\n  smd: {written:?}",
                        case.json
                    ));
                }
            }
            (None, Some(_)) => {
                refused += 1;
                let back = yaml::from_str(&written).expect("smd's text reads back");
                assert_eq!(back, value, "{written:?}");
            }
            _ => panic!("a case has either yaml or error: {}", case.json),
        }
    }
    println!(
        "{} cases: {} byte for byte, {deliberate} deliberately otherwise, {refused} refused by Go",
        corpus.cases.len(),
        corpus.cases.len() - deliberate - refused
    );
    assert!(refused < 30, "{refused} cases Go refuses");
    assert!(
        deliberate < 40,
        "{deliberate} cases written deliberately otherwise"
    );
    assert!(
        differences.is_empty(),
        "{} of {} cases differ:\n{}",
        differences.len(),
        corpus.cases.len(),
        differences.join("\n")
    );
}

/// Whether a string of `value` holds a terminal control beyond ASCII, which yaml.v2 writes raw.
fn value_has_terminal_control(value: &Value) -> bool {
    // C0 controls and DEL yaml.v2 escapes too (or refuses): only the others differ.
    let text = |s: &str| {
        s.chars()
            .any(|c| u32::from(c) >= 0x80 && smd_value::is_terminal_control(c))
    };
    match value {
        Value::String(s) => text(s),
        Value::List(items) => items.iter().any(value_has_terminal_control),
        Value::Map(m) => m
            .iter()
            .any(|(k, v)| text(k) || value_has_terminal_control(v)),
        _ => false,
    }
}
