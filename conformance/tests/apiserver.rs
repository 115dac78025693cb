//! Replays every real-server scenario (`conformance/apiserver/scenarios`) through smd's
//! in-memory API server (`smd::apiserver`) and compares each step with the answers a real kube-apiserver v1.37.2 gave
//! (`conformance/apiserver/goldens`, written by `conformance/apiserver/regen`). Every step
//! where smd differs must be listed in `KNOWN_DISAGREEMENTS` with its category, and every listed
//! step must still differ. Needs neither Go nor a server.

use std::collections::BTreeMap;
use std::path::Path;

use smd_conformance::apiserver::{KNOWN_DISAGREEMENTS, Outcome, replay_file};

#[test]
fn real_server_goldens() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("apiserver");
    let mut files: Vec<_> = std::fs::read_dir(root.join("scenarios"))
        .map(|d| d.filter_map(|e| e.ok().map(|e| e.path())).collect())
        .unwrap_or_default();
    files.retain(|p| p.extension().is_some_and(|e| e == "yaml"));
    files.sort();
    assert!(
        !files.is_empty(),
        "no scenario files under {}",
        root.display()
    );

    let mut failures = Vec::new();
    let mut agree = 0;
    let mut known: BTreeMap<&str, usize> = BTreeMap::new();
    let mut listed_seen = vec![false; KNOWN_DISAGREEMENTS.len()];
    let mut steps = 0;
    // SMD_REPLAY_SHOW_KNOWN=1 (with --nocapture) prints how each listed step differs.
    let show_known = std::env::var_os("SMD_REPLAY_SHOW_KNOWN").is_some();
    for path in &files {
        let file = path.file_name().and_then(|n| n.to_str()).unwrap_or("?");
        let golden = root
            .join("goldens")
            .join(Path::new(file).with_extension("json"));
        let reports = match replay_file(path, &golden) {
            Ok(r) => r,
            Err(e) => {
                failures.push(format!("{file}: {e}"));
                continue;
            }
        };
        for r in reports {
            steps += 1;
            let listed = KNOWN_DISAGREEMENTS
                .iter()
                .position(|(f, c, s, _)| *f == file && *c == r.case && *s == r.step);
            if let Some(i) = listed {
                listed_seen[i] = true;
            }
            let place = format!("{file}: {} step {}", r.case, r.step);
            match (&r.outcome, listed) {
                (Outcome::Agree, None) => agree += 1,
                (Outcome::Agree, Some(_)) => failures.push(format!(
                    "{place}: listed in KNOWN_DISAGREEMENTS but smd now agrees: remove it"
                )),
                (Outcome::Differs(d), None) => failures.push(format!("{place}: {d}")),
                (Outcome::Differs(d), Some(i)) => {
                    if show_known {
                        println!("known: {place}: {d}");
                    }
                    *known.entry(KNOWN_DISAGREEMENTS[i].3.name()).or_default() += 1
                }
            }
        }
    }
    for (i, seen) in listed_seen.iter().enumerate() {
        if !seen {
            let (f, c, s, _) = KNOWN_DISAGREEMENTS[i];
            failures.push(format!(
                "KNOWN_DISAGREEMENTS names {f}: {c} step {s}, which no scenario has"
            ));
        }
    }
    println!(
        "real kube-apiserver goldens: {} files, {steps} steps: {agree} agree, {} known disagreements",
        files.len(),
        known.values().sum::<usize>()
    );
    for (category, n) in &known {
        println!("  {n:4} {category}");
    }
    assert!(
        failures.is_empty(),
        "{} problems:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

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
