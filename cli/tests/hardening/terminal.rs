//! Issue 11, item 7 (and the fieldsv1 part of 15): text from input never reaches the terminal
//! raw. Names, namespaces, manager names, label keys and values carry escape sequences, bidi
//! overrides and line breaks meant to clear the screen and print a fake verdict.

use crate::{Scratch, has_terminal_control};

/// A ConfigMap whose every name is an attack: clear the screen, home the cursor, and a line
/// break that would start a fake "is valid" line; a right-to-left override in a label key.
const HOSTILE: &str = r#"apiVersion: v1
kind: ConfigMap
metadata:
  name: "web\e[2J\e[H"
  namespace: "ns\nx.yaml: document 1 (line 1): ConfigMap default/fake is valid"
  labels:
    "app\u202etxt.exe": "\e]0;owned\a"
    "line\nbreak": v
  managedFields:
  - apiVersion: v1
    fieldsType: FieldsV1
    fieldsV1:
      f:metadata:
        f:labels:
          f:app: {}
          "f:line\nbreak": {}
      f:data:
        "f:k\e[8m": {}
    manager: "kubectl\e[2J\nfake-manager"
    operation: Apply
    time: "2026-01-01T00:00:00Z"
data:
  "k\e[8m": "v\u0085\u2028"
"#;

/// The manifest for the same object, by another manager.
const MANIFEST: &str = r#"apiVersion: v1
kind: ConfigMap
metadata:
  name: "web\e[2J\e[H"
  namespace: "ns\nx.yaml: document 1 (line 1): ConfigMap default/fake is valid"
  labels:
    "line\nbreak": changed
data:
  "k\e[8m": "new\e[31m"
"#;

/// No control character, and no line a person would read as smd's verdict on another object.
fn assert_clean(what: &str, text: &str) {
    assert!(!has_terminal_control(text), "{what}: {text:?}");
    for line in text.lines() {
        assert!(
            !line.starts_with("x.yaml") && !line.starts_with("fake-manager"),
            "{what}: a line starts with input text: {line:?}\n{text}"
        );
    }
}

#[test]
fn every_subcommand_escapes_names_and_values() {
    let s = Scratch::new();
    s.file("live.yaml", HOSTILE);
    s.file("applied.yaml", MANIFEST);
    let runs = [
        ("validate", s.smd(&["validate", "live.yaml"])),
        ("blame", s.smd(&["blame", "live.yaml"])),
        ("fields", s.smd(&["fields", "live.yaml"])),
        (
            "fields -o fieldsv1",
            s.smd(&["fields", "live.yaml", "-o", "fieldsv1"]),
        ),
        ("fields --sizes", s.smd(&["fields", "live.yaml", "--sizes"])),
        (
            "diff",
            s.smd(&[
                "diff",
                "live.yaml",
                "applied.yaml",
                "--manager",
                "m",
                "--now",
                "2026-01-02T00:00:00Z",
            ]),
        ),
        (
            "diff --force-conflicts",
            s.smd(&[
                "diff",
                "live.yaml",
                "applied.yaml",
                "--manager",
                "m",
                "--force-conflicts",
            ]),
        ),
        (
            "diff -o yaml",
            s.smd(&[
                "diff",
                "live.yaml",
                "applied.yaml",
                "--manager",
                "m",
                "-o",
                "yaml",
            ]),
        ),
        (
            "diff -o json",
            s.smd(&[
                "diff",
                "live.yaml",
                "applied.yaml",
                "--manager",
                "m",
                "-o",
                "json",
            ]),
        ),
        (
            "apply",
            s.smd(&[
                "apply",
                "live.yaml",
                "applied.yaml",
                "--manager",
                "m",
                "--force-conflicts",
            ]),
        ),
        (
            "apply -o json",
            s.smd(&[
                "apply",
                "live.yaml",
                "applied.yaml",
                "--manager",
                "m",
                "--force-conflicts",
                "-o",
                "json",
            ]),
        ),
    ];
    for (what, run) in &runs {
        // Exit 2: the registry refuses these names and labels, as a real server does; the
        // refusal quotes them, so it is checked like any other output.
        assert!(
            run.code == 0 || run.code == 1 || run.code == 2 || run.code == 3,
            "{what}: {run:?}"
        );
        assert_clean(what, &run.stdout);
        assert_clean(what, &run.stderr);
    }
    // The server refuses a manager name with a control character (422), in words that are
    // escaped on the way out.
    let run = s.smd(&[
        "diff",
        "live.yaml",
        "applied.yaml",
        "--manager",
        "m\u{1b}[2J",
    ]);
    assert_eq!(run.code, 2, "{run:?}");
    assert_clean("diff --manager", &run.stderr);
    // The escapes are visible: a reader sees that the name holds an escape sequence.
    let validate = &runs[0].1;
    assert!(
        validate.stdout.contains(r"web\u001b[2J\u001b[H"),
        "{validate:?}"
    );
    assert!(validate.stdout.contains(r"ns\u000ax.yaml"), "{validate:?}");
}

#[test]
fn colors_on_let_only_smds_own_codes_through() {
    let s = Scratch::new();
    s.file("live.yaml", HOSTILE);
    s.file("applied.yaml", MANIFEST);
    for args in [
        &[
            "diff",
            "live.yaml",
            "applied.yaml",
            "--manager",
            "m",
            "--color",
            "always",
        ][..],
        &["blame", "live.yaml", "--color", "always"][..],
        &["fields", "live.yaml", "--color", "always"][..],
    ] {
        let run = s.smd(args);
        // smd's own codes: diff's, and blame's and fields' palette.
        let own = [
            "\x1b[0m", "\x1b[1m", "\x1b[2m", "\x1b[31m", "\x1b[32m", "\x1b[33m", "\x1b[34m",
            "\x1b[35m", "\x1b[36m", "\x1b[91m", "\x1b[92m", "\x1b[93m", "\x1b[94m", "\x1b[95m",
            "\x1b[96m",
        ];
        let mut rest = run.stdout.clone();
        for code in own {
            rest = rest.replace(code, "");
        }
        assert!(
            own.iter().any(|code| run.stdout.contains(code)),
            "{args:?}: colors are on: {run:?}"
        );
        assert_clean(&format!("{args:?}"), &rest);
        assert_clean(&format!("{args:?}"), &run.stderr);
    }
}

#[test]
fn invalid_objects_and_usage_errors_are_escaped_too() {
    let s = Scratch::new();
    s.file(
        "bad.yaml",
        "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: \"x\\e[2J\"\ndata:\n  \"a\\nb\\e[2J\": 1\n",
    );
    let run = s.smd(&["validate", "bad.yaml"]);
    assert_eq!(run.code, 2, "{run:?}");
    assert_clean("validate", &run.stderr);
    let run = s.smd(&["diff", "--bogus\u{1b}[2J"]);
    assert_eq!(run.code, 2, "{run:?}");
    assert_clean("usage", &run.stderr);
    let run = s.smd(&["diff", "missing\u{1b}[2J\nfake.yaml", "--manager", "m"]);
    assert_eq!(run.code, 2, "{run:?}");
    assert_clean("missing file", &run.stderr);
}

#[test]
fn fieldsv1_errors_print_no_raw_bytes() {
    let s = Scratch::new();
    s.file("set.json", b"{\"f:a\0\x1b[2J\": {}, \"\0\": 1}".as_slice());
    let run = s.smd(&["fieldsv1", "paths", "set.json"]);
    assert_eq!(run.code, 2, "{run:?}");
    assert_clean("fieldsv1 paths", &run.stderr);
    s.file("ok.json", r#"{"f:a\u001b[2J": {}, "f:b\u202e\n": {}}"#);
    for sub in ["paths", "fmt"] {
        let run = s.smd(&["fieldsv1", sub, "ok.json"]);
        assert_eq!(run.code, 0, "{run:?}");
        assert_clean(sub, &run.stdout);
    }
}
