//! `--field-manager-only` against its oracle: Go's field manager. Every apply of
//! `examples/sequences.yaml` was replayed by `gogen examples` through the real
//! `k8s.io/apimachinery/pkg/util/managedfields` (with the endpoint imitation of
//! `kind: fieldmanager`), which wrote the object Go stores (`*.result.yaml`) or checked its
//! refusal. With the flag, `smd apply` must print exactly that object, and `smd diff` must report
//! it in every output format; without it, smd answers as the API server does, which adds to it.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::path::{Path, PathBuf};
use std::process::Command;

use smd::fieldpath::{Value, yaml};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// Runs `smd args` in the workspace root: (exit code, stdout, stderr).
fn smd(args: &[String]) -> (i32, String, String) {
    let output = Command::new(env!("CARGO_BIN_EXE_smd"))
        .args(args)
        .current_dir(root())
        .env_remove("KUBECTL_EXTERNAL_DIFF")
        .output()
        .unwrap();
    (
        output.status.code().unwrap_or(-1),
        String::from_utf8(output.stdout).unwrap(),
        String::from_utf8(output.stderr).unwrap(),
    )
}

fn get(v: &Value, key: &str) -> Option<Value> {
    v.as_map().and_then(|m| m.get(key)).cloned()
}

/// One apply of the examples, with Go's answer.
struct Example {
    name: String,
    /// `apply LIVE MANIFEST --manager M --now T [--force-conflicts] [--crd F]...`, without the
    /// subcommand.
    args: Vec<String>,
    /// Go's stored object as its file holds it (the generator's comment left out), or Go's
    /// refusal.
    answer: Result<String, String>,
}

/// Every apply of `examples/sequences.yaml`, at the time Go applied it (the step after the
/// sequence: the result's newest entry time; for a refusal, the forced apply's).
fn examples() -> Vec<Example> {
    let text = std::fs::read_to_string(root().join("examples/sequences.yaml")).unwrap();
    let spec = yaml::from_str(&text).unwrap();
    let mut out = Vec::new();
    for example in get(&spec, "examples").unwrap().as_list().unwrap() {
        let dir = format!(
            "examples/{}",
            get(example, "name").unwrap().as_str().unwrap()
        );
        let applies = get(example, "applies").unwrap();
        let applies = applies.as_list().unwrap();
        let result_of = |apply: &Value| {
            get(apply, "result").map(|r| {
                let path = root().join(&dir).join(r.as_str().unwrap());
                let text = std::fs::read_to_string(path).unwrap();
                text.lines()
                    .filter(|l| !l.starts_with('#'))
                    .map(|l| format!("{l}\n"))
                    .collect::<String>()
            })
        };
        let time_of = |object: &str| {
            let object = yaml::from_str(object).unwrap();
            let entries = smd::managedfields::entries(&object).unwrap().unwrap();
            entries.into_iter().filter_map(|e| e.time).max().unwrap()
        };
        let any_time = applies
            .iter()
            .find_map(result_of)
            .map(|r| time_of(&r))
            .unwrap();
        for apply in applies {
            let manifest = get(apply, "manifest").unwrap();
            let manager = get(apply, "manager").unwrap();
            let answer = match (result_of(apply), get(apply, "error")) {
                (Some(result), _) => Ok(result),
                (None, Some(error)) => Err(error.as_str().unwrap().to_owned()),
                (None, None) => panic!("{dir}: an apply with neither result nor error"),
            };
            let now = answer.as_ref().map_or(any_time, |r| time_of(r));
            let mut args = vec![
                format!("{dir}/live.yaml"),
                format!("{dir}/{}", manifest.as_str().unwrap()),
                "--manager".to_owned(),
                manager.as_str().unwrap().to_owned(),
                "--now".to_owned(),
                now.to_string(),
            ];
            if get(apply, "force").and_then(|f| f.as_bool()) == Some(true) {
                args.push("--force-conflicts".to_owned());
            }
            for crd in get(example, "crdFiles").iter().flat_map(|l| l.as_list()) {
                for f in crd {
                    args.extend(["--crd".to_owned(), format!("{dir}/{}", f.as_str().unwrap())]);
                }
            }
            out.push(Example {
                name: format!("{} as {}", args[1], manager.as_str().unwrap()),
                args,
                answer,
            });
        }
    }
    assert!(out.len() >= 6, "only {} example applies", out.len());
    out
}

fn with(first: &[&str], args: &[String], last: &[&str]) -> Vec<String> {
    first
        .iter()
        .map(|s| (*s).to_owned())
        .chain(args.iter().cloned())
        .chain(last.iter().map(|s| (*s).to_owned()))
        .collect()
}

/// The forced apply's stored object, for a refused example: Go's answer to the same apply
/// with `--force-conflicts`, which `diff` shows.
fn forced_answer<'a>(all: &'a [Example], refused: &Example) -> Option<&'a str> {
    all.iter().find_map(|e| {
        let same = e.args[..e.args.len().min(6)] == refused.args[..6]
            && e.args.iter().any(|a| a == "--force-conflicts");
        same.then(|| e.answer.as_deref().ok()).flatten()
    })
}

#[test]
fn apply_prints_the_object_gos_field_manager_stores() {
    for example in examples() {
        let (code, out, err) = smd(&with(&["apply"], &example.args, &["--field-manager-only"]));
        match &example.answer {
            Ok(expected) => {
                assert_eq!(code, 0, "{}: {err}", example.name);
                // Byte for byte: the same object, entries and order, in kubectl's layout.
                assert_eq!(&out, expected, "{}", example.name);
            }
            Err(error) => {
                assert_eq!(code, 3, "{}: {out}{err}", example.name);
                assert!(err.contains(error.as_str()), "{}: {err}", example.name);
            }
        }
    }
}

/// The paths of the maps' keys `ours` has and `theirs` lacks (lists compared item by item).
fn added(theirs: &Value, ours: &Value, at: &str, out: &mut Vec<String>) {
    match (theirs, ours) {
        (Value::Map(t), Value::Map(o)) => {
            for (k, v) in o.iter() {
                let path = format!("{at}.{k}");
                match t.get(k) {
                    Some(w) => added(w, v, &path, out),
                    None => out.push(path),
                }
            }
        }
        (Value::List(t), Value::List(o)) => {
            for (i, (w, v)) in t.iter().zip(o.iter()).enumerate() {
                added(w, v, &format!("{at}[{i}]"), out);
            }
        }
        _ => {}
    }
}

#[test]
fn without_the_flag_the_server_adds_its_defaults() {
    let all = examples();
    let deployment = all
        .iter()
        .find(|e| e.args[0].contains("deployment-hpa") && e.answer.is_ok())
        .unwrap();
    let go = yaml::from_str(deployment.answer.as_ref().unwrap()).unwrap();
    let (code, server, err) = smd(&with(&["apply"], &deployment.args, &[]));
    assert_eq!(code, 0, "{err}");
    let (code, raw, err) = smd(&with(
        &["apply"],
        &deployment.args,
        &["--field-manager-only"],
    ));
    assert_eq!(code, 0, "{err}");
    let mut by_server = Vec::new();
    added(&go, &yaml::from_str(&server).unwrap(), "", &mut by_server);
    // The API server defaults a Deployment (its strategy, the pod template's policies).
    assert!(
        by_server.iter().any(|p| p.starts_with(".spec.")),
        "{by_server:?}"
    );
    let mut by_raw = Vec::new();
    added(&go, &yaml::from_str(&raw).unwrap(), "", &mut by_raw);
    assert_eq!(by_raw, Vec::<String>::new());
}

#[test]
fn diff_reports_gos_result_in_every_format() {
    let all = examples();
    let mut forced_checked = 0;
    for example in &all {
        // What `diff` shows: the stored object, or with conflicts what a forced apply stores
        // (Go's answer to it where the examples hold one).
        let (expected, code) = match &example.answer {
            Ok(result) => (Some(result.as_str()), 1),
            Err(_) => (forced_answer(&all, example), 3),
        };
        if example.answer.is_err() && expected.is_some() {
            forced_checked += 1;
        }
        let run = |format: &str| {
            let args = with(
                &["diff"],
                &example.args,
                &["--field-manager-only", "-o", format, "--color", "never"],
            );
            let (got, out, err) = smd(&args);
            assert_eq!(got, code, "{} -o {format}: {out}{err}", example.name);
            out
        };
        let json: serde_json::Value = serde_json::from_str(&run("json")).unwrap();
        assert_eq!(json["fieldManagerOnly"], true);
        let item = &json["items"][0];
        assert_eq!(
            item["refusal"].is_object(),
            example.answer.is_err(),
            "{}",
            example.name
        );
        if let Some(expected) = expected {
            let result = Value::from_json(&item["result"].to_string()).unwrap();
            let expected = yaml::from_str(expected).unwrap();
            assert_eq!(result, expected, "{} -o json", example.name);
        }
        let yaml_report = yaml::from_str(&run("yaml")).unwrap();
        let json_report = Value::from_json(&json.to_string()).unwrap();
        assert_eq!(yaml_report, json_report, "{} -o yaml", example.name);
        let text = run("diff");
        assert!(text.contains("(--field-manager-only)"), "{text}");
        if let Err(error) = &example.answer {
            assert!(text.contains(error.as_str()), "{}: {text}", example.name);
        }
        // The text diff is the report's: the same hunks, between the same two objects.
        let diff = item["diff"].as_str().unwrap();
        let hunks: String = diff.lines().skip(2).map(|l| format!("{l}\n")).collect();
        assert!(
            !hunks.is_empty() && text.contains(&hunks),
            "{}: {text}",
            example.name
        );
    }
    assert!(
        forced_checked >= 1,
        "no refused example with Go's forced answer"
    );
}

#[test]
fn both_commands_teach_the_flag() {
    for command in ["diff", "apply"] {
        let (code, out, _) = smd(&[command.to_owned(), "--help".to_owned()]);
        assert_eq!(code, 0);
        assert!(
            out.contains("--field-manager-only")
                && out.contains("before")
                && out.contains("defaulting, registry strategies, validation, admission"),
            "{command}: {out}"
        );
    }
}
