//! Replays every real-server scenario (`conformance/apiserver/scenarios`) through smd's
//! `Endpoint` and compares each step with the answers a real kube-apiserver v1.37.2 gave
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
                (Outcome::Unsupported(c, why), None) => failures.push(format!(
                    "{place}: smd cannot send this request ({why}; {}) and it is not listed",
                    c.name()
                )),
                (Outcome::Unsupported(c, why), Some(i)) if KNOWN_DISAGREEMENTS[i].3 != *c => {
                    failures.push(format!(
                        "{place}: unsupported as {} ({why}) but listed as {}",
                        c.name(),
                        KNOWN_DISAGREEMENTS[i].3.name()
                    ))
                }
                (_, Some(i)) => *known.entry(KNOWN_DISAGREEMENTS[i].3.name()).or_default() += 1,
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
