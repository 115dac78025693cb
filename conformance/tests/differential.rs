//! The differential mode's own checks that need no Go: generated cases are well formed, and a
//! mismatch printed as a scenario case reads back (with smd's YAML reader, as the runner reads
//! scenario files) as exactly the case that was compared.

use serde_json::Value as Json;
use smd_conformance::differential::{cases::GENERATORS, make_case, yaml::case_yaml};

#[test]
fn printed_cases_read_back_as_the_same_case() {
    let mut failures = Vec::new();
    for seed in 1..=3 {
        for i in 0..700 {
            let (op, case) = make_case(GENERATORS, seed, i);
            let mut named = serde_json::Map::new();
            named.insert("name".into(), Json::String(format!("diff-{seed}-{i}")));
            if let Json::Object(m) = &case {
                named.extend(m.clone());
            }
            named.insert(
                "note".into(),
                Json::String(format!("seed {seed}, case {i}")),
            );
            let named = Json::Object(named);
            let text = format!("format: smd-scenarios/v1\ncases:\n{}", case_yaml(&named));
            let back = smd_fieldpath::yaml::from_str(&text)
                .map_err(|e| e.to_string())
                .and_then(|v| Json::try_from(&v).map_err(|e| e.to_string()));
            match back {
                Ok(json) if json["cases"][0] == named => {}
                Ok(json) => failures.push(format!(
                    "{op} seed {seed} case {i}: read back as {}\n{text}",
                    json["cases"][0]
                )),
                Err(e) => failures.push(format!("{op} seed {seed} case {i}: {e}\n{text}")),
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} cases do not read back:\n{}",
        failures.len(),
        failures
            .iter()
            .take(5)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n")
    );
}

#[test]
fn cases_depend_only_on_seed_and_index() {
    for i in [0, 1, 17, 999] {
        assert_eq!(make_case(GENERATORS, 42, i), make_case(GENERATORS, 42, i));
    }
    assert_ne!(make_case(GENERATORS, 42, 0), make_case(GENERATORS, 43, 0));
}

#[test]
fn every_generated_case_is_well_formed() {
    for i in 0..3000 {
        let (op, case) = make_case(GENERATORS, 7, i);
        if let Err(m) = smd_conformance::run_case(&case) {
            panic!("{op}: case {i} is malformed ({m}): {case}");
        }
    }
}
