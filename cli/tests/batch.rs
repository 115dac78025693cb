//! Batches report every object (issue 14, item 3), run through the binary: each document's
//! answer in input order, bad input and refusals named with their file, document and line while
//! the others are still answered, the exit status of the most severe answer, the summary line,
//! `--quiet` and `--only`, the `smd/v2` report and `apply`'s List of what it can store.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::path::Path;
use std::process::{Command, Stdio};

const NOW: &str = "2026-06-01T12:00:00Z";
const HPA_LIVE: &str = "examples/deployment-hpa/live.yaml";
const HPA_APPLIED: &str = "examples/deployment-hpa/applied.yaml";

fn root() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
}

/// Runs `smd args` from the repository's root: exit code, stdout, stderr.
fn smd(args: &[&str]) -> (i32, String, String) {
    let output = Command::new(env!("CARGO_BIN_EXE_smd"))
        .args(args)
        .current_dir(root())
        .env_remove("KUBECTL_EXTERNAL_DIFF")
        .env_remove("NO_COLOR")
        .stdin(Stdio::null())
        .output()
        .unwrap();
    (
        output.status.code().unwrap_or(-1),
        String::from_utf8(output.stdout).unwrap(),
        String::from_utf8(output.stderr).unwrap(),
    )
}

fn shown(result: &(i32, String, String)) -> String {
    let (code, out, err) = result;
    format!("exit: {code}\n--- stdout\n{out}--- stderr\n{err}")
}

/// The files of a batch in a fresh directory under the repository's target dir: the live
/// objects are what `smd apply` stores for two ConfigMaps (one write path makes them), then
/// the HPA example's live Deployment.
struct Batch {
    dir: tempfile::TempDir,
}

const BATCH: &str = "\
apiVersion: v1
kind: ConfigMap
metadata: {name: one}
data: {a: \"1\"}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: two}
data: {a: \"22\"}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: broken
data: [
---
apiVersion: v1
kind: ConfigMap
metadata: {name: three}
data: {a: \"3\"}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: four}
data: {a: [1]}
---
just a string
---
apiVersion: v1
kind: ConfigMap
metadata: {name: one}
data: {a: \"1\"}
";

impl Batch {
    fn new() -> Batch {
        let dir = tempfile::Builder::new()
            .prefix("smd-batch-")
            .tempdir()
            .unwrap();
        let path = |name: &str| dir.path().join(name).to_str().unwrap().to_owned();
        std::fs::write(
            path("created.yaml"),
            "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: one}\ndata: {a: \"1\"}\n---\n\
             apiVersion: v1\nkind: ConfigMap\nmetadata: {name: two}\ndata: {a: \"2\"}\n",
        )
        .unwrap();
        let created = smd(&[
            "apply",
            "-f",
            &path("created.yaml"),
            "--live",
            "none",
            "--now",
            NOW,
        ]);
        assert_eq!(created.0, 0, "{}", shown(&created));
        std::fs::write(path("live.yaml"), &created.1).unwrap();
        let mut batch = BATCH.to_owned();
        batch.push_str("---\n");
        batch.push_str(&std::fs::read_to_string(root().join(HPA_APPLIED)).unwrap());
        std::fs::write(path("batch.yaml"), batch).unwrap();
        Batch { dir }
    }

    fn path(&self, name: &str) -> String {
        self.dir.path().join(name).to_str().unwrap().to_owned()
    }

    /// `smd COMMAND -f MANIFESTS --live LIVE --live HPA_LIVE ...`, paths shown relative.
    fn run(&self, command: &str, manifests: &str, more: &[&str]) -> (i32, String, String) {
        let (manifests, live) = (self.path(manifests), self.path("live.yaml"));
        let mut args = vec![
            command, "-f", &manifests, "--live", &live, "--live", HPA_LIVE, "--now", NOW,
        ];
        args.extend(more);
        let (code, out, err) = smd(&args);
        let dir = format!("{}/", self.dir.path().to_str().unwrap());
        (code, out.replace(&dir, "TMP/"), err.replace(&dir, "TMP/"))
    }
}

#[test]
fn every_document_is_answered() {
    let b = Batch::new();
    let run = b.run("diff", "batch.yaml", &["--color", "never"]);
    // Bad input and a refusal outrank the conflict.
    assert_eq!(run.0, 2, "{}", shown(&run));
    for (section, expected) in [
        ("ConfigMap default/one — TMP/batch.yaml: document 1", true),
        ("ConfigMap default/two — TMP/batch.yaml: document 2", true),
        ("ConfigMap default/three — TMP/batch.yaml: document 4", true),
        (
            "Deployment.apps default/web — TMP/batch.yaml: document 8",
            true,
        ),
        ("ConfigMap default/four", false),
    ] {
        assert_eq!(run.1.contains(section), expected, "{section}: {}", run.1);
    }
    assert!(
        run.1.ends_with(
            "8 objects: 1 change, 1 create, 1 conflict, 1 refused, 3 bad input, 1 unchanged\n"
        ),
        "{}",
        run.1
    );
    let errors: Vec<&str> = run
        .2
        .lines()
        .filter(|l| l.starts_with("smd: TMP"))
        .collect();
    assert_eq!(errors.len(), 4, "{}", run.2);
    assert!(errors[0].starts_with("smd: TMP/batch.yaml: document 3: line "));
    assert!(errors[1].starts_with("smd: TMP/batch.yaml: document 5 (line 20): the API server would refuse this apply (500 InternalError)"));
    assert!(errors[2].starts_with(
        "smd: TMP/batch.yaml: document 6 (line 25): a Kubernetes object must be a map"
    ));
    assert!(errors[3].contains(
        "is also applied at TMP/batch.yaml: document 1 (line 1): one manifest per object"
    ));
    insta::assert_snapshot!("batch-diff", shown(&run));
}

#[test]
fn the_most_severe_answer_gives_the_exit_status() {
    let b = Batch::new();
    let docs: Vec<&str> = BATCH.split("---\n").collect();
    let hpa = std::fs::read_to_string(root().join(HPA_APPLIED)).unwrap();
    for (name, parts, code, summary) in [
        ("unchanged", vec![docs[0]], 0, ""),
        (
            "change",
            vec![docs[0], docs[1]],
            1,
            "2 objects: 1 change, 1 unchanged\n",
        ),
        (
            "create",
            vec![docs[0], docs[3]],
            1,
            "2 objects: 1 create, 1 unchanged\n",
        ),
        (
            "conflict",
            vec![docs[1], hpa.as_str()],
            3,
            "2 objects: 1 change, 1 conflict\n",
        ),
        (
            "refused",
            vec![hpa.as_str(), docs[4]],
            2,
            "2 objects: 1 conflict, 1 refused\n",
        ),
        (
            "bad",
            vec![docs[0], docs[5]],
            2,
            "2 objects: 1 bad input, 1 unchanged\n",
        ),
    ] {
        std::fs::write(b.path(&format!("{name}.yaml")), parts.join("---\n")).unwrap();
        let run = b.run("diff", &format!("{name}.yaml"), &["--color", "never"]);
        assert_eq!(run.0, code, "{name}: {}", shown(&run));
        if summary.is_empty() {
            assert!(
                run.1.contains("# The object would not change."),
                "{}",
                run.1
            );
        } else {
            assert!(run.1.ends_with(summary), "{name}: {}", run.1);
        }
        let quiet = b.run("diff", &format!("{name}.yaml"), &["-q"]);
        assert_eq!(quiet.0, code, "{name} -q");
        assert_eq!(quiet.1, "", "{name} -q");
        assert_eq!(quiet.2, run.2, "{name} -q: the same errors");
    }
}

#[test]
fn only_selects_the_sections_printed() {
    let b = Batch::new();
    let conflicts = b.run(
        "diff",
        "batch.yaml",
        &["--color", "never", "--only", "conflicts"],
    );
    assert_eq!(conflicts.0, 2);
    let headings = |text: &str| {
        text.lines()
            .filter(|l| l.starts_with("# apply to ") || l.starts_with("# create "))
            .count()
    };
    assert_eq!(headings(&conflicts.1), 1, "{}", conflicts.1);
    assert!(
        conflicts
            .1
            .starts_with("# apply to Deployment.apps default/web"),
        "{}",
        conflicts.1
    );
    let changes = b.run(
        "diff",
        "batch.yaml",
        &["--color", "never", "--only", "changes"],
    );
    for (name, shown) in [
        ("one", false),
        ("two", true),
        ("three", true),
        ("web", true),
    ] {
        assert_eq!(
            changes.1.contains(&format!("default/{name} —")),
            shown,
            "{name}: {}",
            changes.1
        );
    }
    // The summary counts every object whatever is printed.
    assert_eq!(
        changes.1.lines().last(),
        Some("8 objects: 1 change, 1 create, 1 conflict, 1 refused, 3 bad input, 1 unchanged")
    );
}

#[test]
fn the_report_answers_every_document() {
    let b = Batch::new();
    let run = b.run("diff", "batch.yaml", &["-o", "json"]);
    assert_eq!(run.0, 2, "{}", run.2);
    let report: smd::report::DiffReport = serde_json::from_str(&run.1).unwrap();
    // What the types read back is every field the CLI wrote.
    let written: serde_json::Value = serde_json::from_str(&run.1).unwrap();
    assert_eq!(serde_json::to_value(&report).unwrap(), written);
    assert_eq!(report.api_version, "smd/v2");
    use smd::report::Outcome::*;
    let outcomes: Vec<_> = report.items.iter().map(|i| i.outcome).collect();
    assert_eq!(
        outcomes,
        [
            Unchanged, Change, BadInput, Create, Refused, BadInput, BadInput, Conflict
        ]
    );
    let refused = &report.items[4];
    let refusal = refused.refusal.as_ref().unwrap();
    assert_eq!(
        (refusal.code, refusal.reason.as_str()),
        (500, "InternalError")
    );
    assert!(
        refusal
            .message
            .starts_with("failed to create typed patch object"),
        "{}",
        refusal.message
    );
    assert_eq!(refused.object.as_ref().unwrap().name, "four");
    assert_eq!((refused.applied.document, refused.applied.line), (5, 20));
    assert!(report.items[2].object.is_none());
    assert!(
        report.items[2]
            .error
            .as_ref()
            .unwrap()
            .contains("document 3")
    );
    assert_eq!(report.items[7].refusal.as_ref().unwrap().code, 409);
    assert_eq!(report.summary.objects, 8);
    assert_eq!(report.summary.bad_input, 3);
    let yaml = b.run("diff", "batch.yaml", &["-o", "yaml"]);
    let yaml = smd::fieldpath::yaml::from_str(&yaml.1).unwrap();
    assert_eq!(yaml, smd::fieldpath::Value::from_json(&run.1).unwrap());
}

#[test]
fn apply_prints_what_it_can_store() {
    let b = Batch::new();
    let run = b.run("apply", "batch.yaml", &[]);
    assert_eq!(run.0, 2, "{}", run.2);
    let list = smd::fieldpath::yaml::from_str(&run.1).unwrap();
    let list = list.as_map().unwrap();
    assert_eq!(list.get("kind").and_then(|k| k.as_str()), Some("List"));
    let names: Vec<&str> = list
        .get("items")
        .and_then(|i| i.as_list())
        .unwrap()
        .iter()
        .map(|o| {
            o.as_map()
                .unwrap()
                .get("metadata")
                .unwrap()
                .as_map()
                .unwrap()
                .get("name")
                .unwrap()
                .as_str()
                .unwrap()
        })
        .collect();
    assert_eq!(names, ["one", "two", "three"]);
    assert!(
        run.2
            .contains("document 8 (line 32): Apply failed with 1 conflict"),
        "{}",
        run.2
    );
    assert!(
        run.2.ends_with(
            "smd: 8 objects: 1 change, 1 create, 1 conflict, 1 refused, 3 bad input, 1 unchanged\n"
        ),
        "{}",
        run.2
    );
    insta::assert_snapshot!("batch-apply", shown(&run));
}

/// The live objects' spill file leaves nothing in the temp dir: it is unlinked from the start.
#[test]
fn the_spill_file_leaves_no_trace() {
    let b = Batch::new();
    let tmp = tempfile::Builder::new()
        .prefix("smd-tmpdir-")
        .tempdir()
        .unwrap();
    let output = Command::new(env!("CARGO_BIN_EXE_smd"))
        .args([
            "diff",
            "-f",
            &b.path("batch.yaml"),
            "--live",
            &b.path("live.yaml"),
            "--live",
            HPA_LIVE,
        ])
        .current_dir(root())
        .env("TMPDIR", tmp.path())
        .env_remove("KUBECTL_EXTERNAL_DIFF")
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stdout).contains("default/two"));
    assert_eq!(std::fs::read_dir(tmp.path()).unwrap().count(), 0);
}

/// A `--live` dump's objects that no manifest names are silent unless asked for.
#[test]
fn unmatched_live_objects_are_shown_when_asked() {
    let b = Batch::new();
    let docs: Vec<&str> = BATCH.split("---\n").collect();
    std::fs::write(b.path("one.yaml"), docs[0]).unwrap();
    let silent = b.run("diff", "one.yaml", &["--color", "never"]);
    assert_eq!(silent.0, 0, "{}", shown(&silent));
    assert!(!silent.1.contains("no manifest names it"), "{}", silent.1);
    let shown_ = b.run(
        "diff",
        "one.yaml",
        &["--color", "never", "--show-unmatched"],
    );
    assert_eq!(shown_.0, 0);
    for name in ["ConfigMap default/two", "Deployment.apps default/web"] {
        assert!(
            shown_.1.contains(&format!("# {name} (")),
            "{name}: {}",
            shown_.1
        );
    }
    let report = b.run("diff", "one.yaml", &["-o", "json", "--show-unmatched"]);
    let report: smd::report::DiffReport = serde_json::from_str(&report.1).unwrap();
    let names: Vec<&str> = report
        .unmatched_live
        .iter()
        .map(|u| u.object.name.as_str())
        .collect();
    assert_eq!(names, ["two", "web"]);
}
