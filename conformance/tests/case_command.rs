//! The `case` command: a case beside the oracle's answer, field sets as paths per manager, a
//! verdict, and errors that name what is missing.
#![allow(clippy::expect_used)]

use std::process::{Command, Output};

fn case(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_case"))
        .args(args)
        .output()
        .expect("the case binary runs")
}

fn stdout(output: &Output) -> String {
    String::from_utf8(output.stdout.clone()).expect("UTF-8 output")
}

/// The lines of `text` between the line starting with `from` and the next starting with `to`.
fn section<'a>(text: &'a str, from: &str, to: &str) -> Vec<&'a str> {
    text.lines()
        .skip_while(|l| !l.starts_with(from))
        .skip(1)
        .take_while(|l| !l.starts_with(to))
        .collect()
}

/// `wanted` appear in `lines` in this order (trimmed), each right after the one before.
fn has_run(lines: &[&str], wanted: &[&str]) -> bool {
    let trimmed: Vec<&str> = lines.iter().map(|l| l.trim()).collect();
    trimmed.windows(wanted.len()).any(|w| w == wanted)
}

/// Go's answer to the third apply of `two-appliers-conflict` (team-b forces `.spec.replicas`
/// away from team-a, which keeps `.spec.selector`) as the golden holds it:
/// `{"f:spec":{"f:selector":{}}}` for team-a, `{"f:spec":{"f:replicas":{}}}` for team-b.
#[test]
fn a_fieldmanager_case_shows_paths_per_manager_for_go_and_smd() {
    let output = case(&["fieldmanager/deployment.yaml", "two-appliers-conflict"]);
    assert_eq!(output.status.code(), Some(0), "{output:?}");
    let text = stdout(&output);
    assert!(text.starts_with("fieldmanager/deployment.yaml::two-appliers-conflict\n"));
    // The case as its file has it.
    let inputs = section(&text, "== the case", "== Go's answer");
    assert!(inputs.contains(&"- name: two-appliers-conflict"), "{text}");
    assert!(inputs.contains(&"    force: true"), "{text}");
    let answer_has_paths = |answer: &[&str]| {
        has_run(
            answer,
            &[
                "managedFields: (paths per manager)",
                "team-a (Apply apps/v1, 2026-01-01T00:00:01Z)",
                ".spec.selector",
                "team-b (Apply apps/v1, 2026-01-01T00:00:03Z)",
                ".spec.replicas",
            ],
        )
    };
    let go = section(&text, "== Go's answer", "== smd's answer");
    let smd = section(&text, "== smd's answer", "== verdict");
    assert!(answer_has_paths(&go), "{text}");
    assert!(answer_has_paths(&smd), "{text}");
    for answer in [&go, &smd] {
        assert!(
            !answer.iter().any(|l| l.contains("f:spec")),
            "fieldsV1 shown as such: {text}"
        );
    }
    assert!(text.ends_with("== verdict: smd agrees with Go\n"), "{text}");
}

/// The golden of a real-server case keeps each entry's fieldsV1 as the server's bytes (an
/// escaped JSON string): the command shows its paths.
#[test]
fn a_real_server_case_shows_the_servers_fields_as_paths() {
    let output = case(&["apiserver/configmap.yaml::cm-apply-force"]);
    assert_eq!(output.status.code(), Some(0), "{output:?}");
    let text = stdout(&output);
    let answers = section(&text, "== the real kube-apiserver's answers", "== smd");
    assert!(
        has_run(
            &answers,
            &[
                "managedFields: (paths per manager)",
                "kubectl (Apply v1, <step 1>)",
                ".data.b",
                "helm (Apply v1, <step 2>)",
                ".data.a",
            ]
        ),
        "{text}"
    );
    assert!(!text.contains("f:data"), "{text}");
    let steps = section(&text, "== smd, step by step", "== verdict");
    assert!(steps.contains(&"step 1: agrees"), "{text}");
    assert!(steps.contains(&"step 2: agrees"), "{text}");
    assert!(text.ends_with("== verdict: smd agrees with the server on every step\n"));
}

#[test]
fn the_two_ways_to_name_a_case_print_the_same() {
    let one = case(&["fieldmanager/configmap.yaml::cm-apply-update-apply"]);
    let two = case(&[
        "conformance/scenarios/fieldmanager/configmap.yaml",
        "cm-apply-update-apply",
    ]);
    assert_eq!(one.status.code(), Some(0));
    assert_eq!(stdout(&one), stdout(&two));
}

#[test]
fn a_missing_case_is_an_error_naming_the_file_and_the_case() {
    let output = case(&["fieldmanager/configmap.yaml", "no-such-case"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(output.stdout.is_empty());
    let err = String::from_utf8_lossy(&output.stderr);
    assert!(
        err.starts_with("case: fieldmanager/configmap.yaml: no case named \"no-such-case\" ("),
        "{err}"
    );
    // It lists what the file has.
    assert!(err.contains("cm-apply-update-apply"), "{err}");

    let output = case(&["apiserver/configmap.yaml", "no-such-case"]);
    assert_eq!(output.status.code(), Some(2));
    let err = String::from_utf8_lossy(&output.stderr);
    assert!(
        err.starts_with("case: apiserver/configmap.yaml: no case named \"no-such-case\""),
        "{err}"
    );
}

#[test]
fn a_missing_file_is_an_error_naming_the_file() {
    let output = case(&["fieldmanager/no-such-file.yaml", "a-case"]);
    assert_eq!(output.status.code(), Some(2));
    let err = String::from_utf8_lossy(&output.stderr);
    assert!(
        err.starts_with("case: no scenario file fieldmanager/no-such-file.yaml ("),
        "{err}"
    );
    // A bare file name that two suites have: both are offered.
    let output = case(&["configmap.yaml", "a-case"]);
    let err = String::from_utf8_lossy(&output.stderr);
    assert!(
        err.contains("did you mean fieldmanager/configmap.yaml, apiserver/configmap.yaml?"),
        "{err}"
    );
    assert_eq!(case(&[]).status.code(), Some(2));
}

/// A listed deviation prints its reason and where smd differs, and is not a failure.
#[test]
fn a_known_deviation_says_so() {
    let output = case(&["patch/json.yaml::test-number-spelling"]);
    assert_eq!(output.status.code(), Some(0), "{output:?}");
    let text = stdout(&output);
    assert!(
        text.contains("== verdict: smd differs from Go, a known deviation (KNOWN_DEVIATIONS): "),
        "{text}"
    );
}

/// `double-quoted-escapes` reads `\e`, `\0`, `\a`, NEL and the line separators from YAML
/// escapes: Go's answer holds them raw, and none reaches the terminal.
#[test]
fn control_characters_from_a_case_are_escaped() {
    let output = case(&["value/yaml.yaml", "double-quoted-escapes"]);
    assert_eq!(output.status.code(), Some(0), "{output:?}");
    let text = stdout(&output);
    let controls: Vec<char> = text
        .chars()
        .filter(|&c| c != '\n' && smd_fieldpath::is_terminal_control(c))
        .collect();
    assert!(controls.is_empty(), "{controls:?} in {text}");
    let go = section(&text, "== Go's answer", "== smd's answer").join("\n");
    for escaped in ["\\u001b", "\\u0000", "\\u0007", "\\u0085", "\\u2028"] {
        assert!(go.contains(escaped), "{escaped} not in {go}");
    }
}
