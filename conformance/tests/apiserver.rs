//! The real-server goldens (`conformance/apiserver/goldens`, written by
//! `conformance/apiserver/regen`) read back through the Rust port of gogen's normaliser. The
//! replay of each real-server case against its golden is a test of its own in `tests/cases.rs`
//! (`apiserver/FILE::CASE`). Needs neither Go nor a server.

use std::path::Path;

/// gogen's normalisation, ported to Rust, leaves every golden as it is (placeholders appear in
/// the order they were numbered, times are step labels already): so smd's answers normalised
/// by it are comparable with the goldens.
#[test]
fn normalising_a_golden_leaves_it_unchanged() {
    use smd_conformance::normalise::Normaliser;
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("apiserver");
    let mut files: Vec<_> = std::fs::read_dir(root.join("goldens"))
        .map(|d| d.filter_map(|e| e.ok().map(|e| e.path())).collect())
        .unwrap_or_default();
    files.retain(|p| p.extension().is_some_and(|e| e == "json"));
    assert!(!files.is_empty());
    let keep = |t: &str| -> Result<String, String> {
        if t.starts_with('<') {
            Ok(t.to_owned())
        } else {
            Err(format!("a time that is not a step label: {t}"))
        }
    };
    let mut values = 0;
    for path in &files {
        // The requests' bodies: a value a request sets at an allocated key stays, as gogen
        // notes it before each step.
        let scenario = root.join("scenarios").join(
            path.with_extension("yaml")
                .file_name()
                .expect("a file name"),
        );
        let (scenarios, golden) =
            smd_conformance::apiserver::read_files(&scenario, path).expect("scenario and golden");
        let cases = scenarios["cases"].as_array().expect("cases");
        let results = golden["results"].as_object().expect("results");
        for (case, result) in results {
            let requests = cases
                .iter()
                .find(|c| c["name"] == case.as_str())
                .map(|c| c["steps"].as_array().cloned().unwrap_or_default())
                .unwrap_or_default();
            let mut norm = Normaliser::new();
            for (i, step) in result["steps"]
                .as_array()
                .expect("steps")
                .iter()
                .enumerate()
            {
                if let Some(body) = requests.get(i).map(|r| &r["body"]).filter(|b| !b.is_null()) {
                    norm.requested(body);
                }
                for part in ["body", "stored"] {
                    let Some(v) = step.get(part) else { continue };
                    let again = norm.normalise(v, &keep).expect("normalises");
                    assert_eq!(
                        &again,
                        v,
                        "{}: {case} step {} {part} changed",
                        path.display(),
                        i + 1
                    );
                    values += 1;
                }
            }
        }
    }
    assert!(values > 100, "only {values} answers normalised");
}
