//! Errors that teach, from the real binary: each mistake a user is likely to make gets the API
//! server's (or kubectl's) own words and, under them, a hint saying what to do. The first line
//! stays Go's text; the hints are smd's.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// `smd args` in the workspace root with `stdin`, as one text: exit code, stdout, stderr.
fn smd_with(args: &[&str], stdin: &str) -> String {
    let mut child = Command::new(env!("CARGO_BIN_EXE_smd"))
        .args(args)
        .current_dir(root())
        .env_remove("KUBECTL_EXTERNAL_DIFF")
        .env_remove("NO_COLOR")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // smd may refuse before it reads stdin: a closed pipe here is no failure.
    let _ = child.stdin.take().unwrap().write_all(stdin.as_bytes());
    let output = child.wait_with_output().unwrap();
    format!(
        "exit: {}\n--- stdout\n{}--- stderr\n{}",
        output.status.code().unwrap_or(-1),
        String::from_utf8(output.stdout).unwrap(),
        String::from_utf8(output.stderr).unwrap()
    )
}

fn smd(args: &[&str]) -> String {
    smd_with(args, "")
}

const HPA_LIVE: &str = "examples/deployment-hpa/live.yaml";
const HPA_APPLIED: &str = "examples/deployment-hpa/applied.yaml";
const YAML11: &str = "cli/tests/data/yaml11-strings.yaml";
const NOW: &str = "2026-06-01T12:00:00Z";

/// The Go text must stay whole on its own line, the hint under it.
fn assert_go_then_hint(shown: &str, go: &str, hint: &str) {
    let at = shown
        .find(go)
        .unwrap_or_else(|| panic!("{go:?} in {shown}"));
    let after = &shown[at + go.len()..];
    assert!(after.starts_with('\n'), "{shown}");
    assert!(after.contains(hint), "{hint:?} in {shown}");
}

#[test]
fn swapped_live_and_applied_asks_whether_the_manifest_is_the_live_object() {
    let shown = smd(&["diff", HPA_APPLIED, HPA_LIVE, "--now", NOW]);
    assert!(shown.starts_with("exit: 2\n"), "{shown}");
    assert_go_then_hint(
        &shown,
        "(400 BadRequest): metadata.managedFields must be nil",
        "is it the live object?",
    );
    insta::assert_snapshot!("swapped", shown);
}

#[test]
fn yaml_1_1_values_in_string_fields_say_to_quote_them() {
    let diff = smd(&["diff", "--live", "none", "-f", YAML11, "--now", NOW]);
    assert!(diff.starts_with("exit: 2\n"), "{diff}");
    assert_go_then_hint(
        &diff,
        ".data.size: expected string, got &value.valueUnstructured{Value:1000}",
        "hint: .data.enabled is a string, but YAML read the manifest's value as the boolean true",
    );
    assert!(!diff.contains(".data.fine"), "{diff}");
    insta::assert_snapshot!("yaml11-diff", diff);
    let apply = smd(&["apply", "--live", "none", "-f", YAML11, "--now", NOW]);
    assert!(apply.contains("hint: .data.perm is a string"), "{apply}");
    let validate = smd(&["validate", YAML11]);
    insta::assert_snapshot!("yaml11-validate", validate);
}

#[test]
fn a_hint_escapes_what_it_quotes_from_input() {
    let manifest = "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c, namespace: default}\n\
                    data: {\"a\\e[2J\\u202e: expected string, got &value.valueUnstructured{Value:\u{e9}\": yes}\n";
    let shown = smd_with(
        &["diff", "--live", "none", "-f", "-", "--now", NOW],
        manifest,
    );
    assert!(shown.starts_with("exit: 2\n"), "{shown}");
    assert!(shown.contains("hint: "), "{shown}");
    assert!(
        !shown.contains('\u{1b}') && !shown.contains('\u{202e}'),
        "{shown}"
    );
}

#[test]
fn a_scale_manifest_needs_the_scale_subresource() {
    let shown = smd(&["diff", HPA_LIVE, "cli/tests/data/scale.yaml", "--now", NOW]);
    assert!(shown.starts_with("exit: 2\n"), "{shown}");
    assert!(shown.contains("pass --subresource scale"), "{shown}");
    insta::assert_snapshot!("scale-without-subresource", shown);
    // Through the subresource it is answered.
    let through = smd(&[
        "diff",
        HPA_LIVE,
        "cli/tests/data/scale.yaml",
        "--subresource",
        "scale",
        "--now",
        NOW,
    ]);
    assert!(!through.starts_with("exit: 2\n"), "{through}");
    // The other way round: the Deployment itself through the scale subresource.
    let deployment = smd(&[
        "diff",
        HPA_LIVE,
        HPA_APPLIED,
        "--subresource",
        "scale",
        "--now",
        NOW,
    ]);
    assert_go_then_hint(
        &deployment,
        "(400 BadRequest): invalid object type: apps/v1, Kind=Deployment",
        "drop --subresource scale",
    );
    insta::assert_snapshot!("deployment-through-scale", deployment);
}

#[test]
fn now_names_the_format_with_an_example() {
    let shown = smd(&["apply", HPA_LIVE, HPA_APPLIED, "--now", "yesterday"]);
    assert!(shown.starts_with("exit: 2\n"), "{shown}");
    assert!(shown.contains("--now 2026-01-01T00:00:00Z"), "{shown}");
    insta::assert_snapshot!("now", shown);
}

#[test]
fn stdin_given_twice_keeps_kubectls_words_and_says_what_to_do() {
    let shown = smd_with(&["diff", "-", "-"], "{}");
    assert_go_then_hint(
        &shown,
        "standard input cannot be used for multiple arguments",
        "save one of the inputs to a file",
    );
    insta::assert_snapshot!("stdin-twice", shown);
    let flags = smd_with(&["diff", "-f", "-", "--live", "-"], "{}");
    assert!(
        flags.contains("save one of the inputs to a file"),
        "{flags}"
    );
}

#[test]
fn an_unknown_manager_lists_the_managers_present() {
    let shown = smd(&["fields", HPA_LIVE, "--manager", "kubectl-client-side-apply"]);
    assert!(shown.starts_with("exit: 2\n"), "{shown}");
    assert!(
        shown.contains("\"kubectl\", \"horizontal-pod-autoscaler\", \"kube-controller-manager\""),
        "{shown}"
    );
    insta::assert_snapshot!("unknown-manager", shown);
}

#[test]
fn an_unknown_manager_is_one_no_object_of_the_input_has() {
    // The dump's first object lacks kubectl's entry, its second has it: no error.
    let live = std::fs::read_to_string(root().join(HPA_LIVE)).unwrap();
    let csa = std::fs::read_to_string(root().join("examples/client-side-to-server-side/live.yaml"))
        .unwrap();
    let stream = format!("{csa}\n---\n{live}");
    let shown = smd_with(&["fields", "-", "--manager", "kubectl"], &stream);
    assert!(shown.starts_with("exit: 0\n"), "{shown}");
    assert!(shown.contains("kubectl (Apply"), "{shown}");
    let none = smd_with(&["fields", "-", "--manager", "nobody"], &stream);
    assert!(none.starts_with("exit: 2\n"), "{none}");
    assert!(none.contains("\"kubectl-client-side-apply\""), "{none}");
    assert!(none.contains("\"horizontal-pod-autoscaler\""), "{none}");
}

#[test]
fn an_object_without_managed_fields_in_a_stream_is_a_warning() {
    let live = std::fs::read_to_string(root().join(HPA_LIVE)).unwrap();
    let applied = std::fs::read_to_string(root().join(HPA_APPLIED)).unwrap();
    let stream = format!("{applied}\n---\n{live}");
    for command in ["blame", "fields"] {
        let shown = smd_with(&[command, "-"], &stream);
        assert!(shown.starts_with("exit: 0\n"), "{shown}");
        assert!(
            shown.contains("smd: warning: <stdin>: document 1"),
            "{shown}"
        );
        assert!(shown.contains("kubectl (Apply"), "{shown}");
        insta::assert_snapshot!(format!("no-managed-fields-in-a-stream-{command}"), shown);
    }
}

#[test]
fn blame_and_fields_without_managed_fields_say_how_to_export_them() {
    for command in ["blame", "fields"] {
        let shown = smd(&[command, HPA_APPLIED]);
        assert!(shown.starts_with("exit: 2\n"), "{shown}");
        assert!(
            shown.contains("`kubectl get -o yaml --show-managed-fields`"),
            "{shown}"
        );
        insta::assert_snapshot!(format!("no-managed-fields-{command}"), shown);
    }
}
