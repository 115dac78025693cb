//! `KUBECTL_EXTERNAL_DIFF` (issue 11, items 1–3): the files handed to the program stay inside
//! two fresh private directories whatever the objects are named, and the program runs once per
//! run, as kubectl runs it.

use super::{Run, Scratch, smd_in};

/// A program that records how it was called (in `$LOG`) and exits `$EXIT` (default 1),
/// printing nothing.
const RECORDER: &str = r#"#!/bin/sh
echo run >> "$LOG/runs"
printf '%s\n' "$@" > "$LOG/args"
stat -c '%a %n' "$1" "$2" "$1"/* "$2"/* > "$LOG/modes"
ls -A "$1" > "$LOG/live-files"
ls -A "$2" > "$LOG/merged-files"
exit "${EXIT:-1}"
"#;

/// Three objects the manager `ci` applied, each applied again with a changed value.
const LIVE: &str = r#"apiVersion: v1
kind: ConfigMap
metadata:
  name: a
  namespace: default
  managedFields:
  - manager: ci
    operation: Apply
    apiVersion: v1
    time: "2026-01-01T00:00:00Z"
    fieldsType: FieldsV1
    fieldsV1:
      f:data: {f:k: {}}
data:
  k: old
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: b
  namespace: default
  managedFields:
  - manager: ci
    operation: Apply
    apiVersion: v1
    time: "2026-01-01T00:00:00Z"
    fieldsType: FieldsV1
    fieldsV1:
      f:data: {f:k: {}}
data:
  k: old
---
apiVersion: v1
kind: Namespace
metadata:
  name: c
  labels:
    k: old
  managedFields:
  - manager: ci
    operation: Apply
    apiVersion: v1
    time: "2026-01-01T00:00:00Z"
    fieldsType: FieldsV1
    fieldsV1:
      f:metadata: {f:labels: {f:k: {}}}
"#;

const APPLIED: &str = "\
apiVersion: v1
kind: ConfigMap
metadata:
  name: a
  namespace: default
data:
  k: new
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: b
  namespace: default
data:
  k: new
---
apiVersion: v1
kind: Namespace
metadata:
  name: c
  labels:
    k: new
";

struct Setup {
    scratch: Scratch,
    program: String,
    log: String,
    tmp: String,
}

fn setup() -> Setup {
    let scratch = Scratch::new();
    let program = scratch.file("recorder.sh", RECORDER);
    make_executable(&program);
    scratch.file("log/.keep", "");
    scratch.file("tmp/.keep", "");
    scratch.file("live.yaml", LIVE);
    scratch.file("applied.yaml", APPLIED);
    let at = |p: &str| scratch.path().join(p).display().to_string();
    Setup {
        program: program.display().to_string(),
        log: at("log"),
        tmp: at("tmp"),
        scratch,
    }
}

fn make_executable(path: &std::path::Path) {
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755)).unwrap();
}

impl Setup {
    fn diff(&self, args: &[&str], program: &str, exit: &str) -> Run {
        let mut all = vec!["diff", "--manager", "ci", "--now", "2026-06-01T12:00:00Z"];
        all.extend_from_slice(args);
        smd_in(
            self.scratch.path(),
            &all,
            b"",
            &[
                ("KUBECTL_EXTERNAL_DIFF", program),
                ("LOG", &self.log),
                ("EXIT", exit),
                ("TMPDIR", &self.tmp),
            ],
        )
    }
    fn log(&self, name: &str) -> String {
        std::fs::read_to_string(self.scratch.path().join("log").join(name)).unwrap_or_default()
    }
}

/// A schema declaring a kind whose name climbs out of any directory, and a manifest of it.
const EVIL_SCHEMA: &str = r#"{"openapi":"3.0.0","info":{"title":"x","version":"1"},"paths":{},
 "components":{"schemas":{"io.x.Evil":{"type":"object",
   "x-kubernetes-group-version-kind":[{"group":"","version":".","kind":"KIND"}],
   "properties":{"apiVersion":{"type":"string"},"kind":{"type":"string"},
     "metadata":{"type":"object","properties":{"name":{"type":"string"}}},
     "data":{"type":"string"}}}}}}"#;

#[test]
fn a_kind_naming_a_path_writes_nothing_outside_the_temp_dirs() {
    let s = setup();
    let target = s.scratch.path().join("pwned");
    std::fs::create_dir(&target).unwrap();
    // `..` enough to reach `/` from any temp dir, then down to the target.
    let kind = format!("/{}{}/", "../".repeat(40), target.display());
    s.scratch
        .file("schema.json", EVIL_SCHEMA.replace("KIND", &kind));
    s.scratch.file(
        "evil.yaml",
        format!("apiVersion: \".\"\nkind: \"{kind}\"\nmetadata:\n  name: x\ndata: chosen by the manifest\n"),
    );
    let run = s.diff(&["evil.yaml", "--schema", "schema.json"], &s.program, "1");
    let written: Vec<_> = std::fs::read_dir(&target).unwrap().collect();
    assert!(
        written.is_empty(),
        "a file was written outside the temp dir: {written:?}\n{run:?}"
    );
    assert_eq!(run.code, 1, "{run:?}");
    assert_eq!(s.log("runs"), "run\n");
    let files = s.log("merged-files");
    assert_eq!(files.lines().count(), 1, "{files}");
    assert!(!files.contains('/'), "{files}");
    assert!(files.starts_with("..%2F..%2F"), "{files}");
}

#[test]
fn a_name_too_long_for_a_file_is_an_error_about_the_name() {
    let s = setup();
    // The longest name the registry takes (a 253-byte DNS subdomain): with the kind and the
    // namespace it is over a file name's 255 bytes.
    let name = "a".repeat(253);
    s.scratch.file(
        "long.yaml",
        format!("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: {name}\n  namespace: default\ndata:\n  k: v\n"),
    );
    let run = s.diff(&["long.yaml"], &s.program, "1");
    assert_eq!(run.code, 2, "{run:?}");
    assert!(
        run.stderr.contains("long.yaml: document 1")
            && run.stderr.contains("cannot name this object's file")
            && run.stderr.contains("over the 255"),
        "{}",
        run.stderr
    );
    assert!(!run.stderr.contains("failed to run"), "{}", run.stderr);
    assert_eq!(s.log("runs"), "", "the program must not run");
}

#[test]
fn the_program_gets_two_fresh_private_directories_named_as_kubectl_names_them() {
    let s = setup();
    let run = s.diff(&["live.yaml", "applied.yaml"], &s.program, "1");
    assert_eq!(run.code, 1, "{run:?}");
    let args = s.log("args");
    let args: Vec<&str> = args.lines().collect();
    assert_eq!(args.len(), 2, "{args:?}");
    let base = |p: &str| {
        std::path::Path::new(p)
            .file_name()
            .unwrap()
            .to_string_lossy()
            .into_owned()
    };
    let (live, merged) = (base(args[0]), base(args[1]));
    let random = |name: &str, prefix: &str| {
        name.strip_prefix(prefix)
            .is_some_and(|rest| rest.len() == 6 && rest.bytes().all(|b| b.is_ascii_alphanumeric()))
    };
    assert!(random(&live, "LIVE-"), "{live}");
    assert!(random(&merged, "MERGED-"), "{merged}");
    for dir in &args {
        assert!(dir.starts_with(&s.tmp), "{dir} is not in TMPDIR {}", s.tmp);
        assert!(!std::path::Path::new(dir).exists(), "{dir} was left behind");
    }
    // Modes: directories 0700, files 0600.
    let modes = s.log("modes");
    let mut dirs = 0;
    let mut files = 0;
    for line in modes.lines() {
        let (mode, path) = line.split_once(' ').unwrap();
        if args.contains(&path) {
            assert_eq!(mode, "700", "{line}");
            dirs += 1;
        } else {
            assert_eq!(mode, "600", "{line}");
            files += 1;
        }
    }
    assert_eq!((dirs, files), (2, 6), "{modes}");
    // kubectl's names: no group part for the core group, an empty namespace part for a
    // cluster-scoped object.
    let names = "v1.ConfigMap.default.a\nv1.ConfigMap.default.b\nv1.Namespace..c\n";
    assert_eq!(s.log("live-files"), names);
    assert_eq!(s.log("merged-files"), names);
    // Fresh names each run.
    let first = args.join(" ");
    s.diff(&["live.yaml", "applied.yaml"], &s.program, "1");
    assert_ne!(s.log("args").lines().collect::<Vec<_>>().join(" "), first);
}

#[test]
fn the_program_runs_once_for_all_objects() {
    let s = setup();
    let run = s.diff(&["live.yaml", "applied.yaml"], &s.program, "1");
    assert_eq!(run.code, 1, "{run:?}");
    assert_eq!(s.log("runs"), "run\n", "{run:?}");
}

#[test]
fn extra_words_are_passed_after_the_directories_as_kubectl_filters_them() {
    let s = setup();
    let program = format!("{} -N --color=always --label=/etc/passwd  -u", s.program);
    let run = s.diff(&["live.yaml", "applied.yaml"], &program, "1");
    assert_eq!(run.code, 1, "{run:?}");
    let args = s.log("args");
    let args: Vec<&str> = args.lines().collect();
    assert_eq!(
        args.get(2..),
        Some(&["-N", "--color=always", "-u"][..]),
        "{args:?}"
    );
}

#[test]
fn the_programs_exit_status_is_passed_on_and_above_one_is_an_error() {
    let s = setup();
    // 0: the program found nothing to show; smd passes it on, as kubectl does.
    let run = s.diff(&["live.yaml", "applied.yaml"], &s.program, "0");
    assert_eq!(run.code, 0, "{run:?}");
    let run = s.diff(&["live.yaml", "applied.yaml"], &s.program, "1");
    assert_eq!(run.code, 1, "{run:?}");
    let run = s.diff(&["live.yaml", "applied.yaml"], &s.program, "2");
    assert_eq!(run.code, 2, "{run:?}");
    assert!(run.stdout.is_empty(), "{run:?}");
    assert!(
        run.stderr.contains("failed to run") && run.stderr.contains("exit status 2"),
        "{}",
        run.stderr
    );
}

#[test]
fn a_program_that_prints_nothing_does_not_mean_no_change() {
    let s = setup();
    let run = s.diff(&["live.yaml", "applied.yaml"], &s.program, "1");
    assert_eq!(run.code, 1, "{run:?}");
    assert!(!run.stdout.contains("would not change"), "{}", run.stdout);
    // The rest of the report stays, per object.
    assert_eq!(
        run.stdout.matches("# apply to").count(),
        3,
        "{}",
        run.stdout
    );
}

#[test]
fn conflicts_exit_3_whatever_the_program_says() {
    let s = setup();
    s.scratch.file(
        "owned.yaml",
        "apiVersion: v1
kind: ConfigMap
metadata:
  name: a
  namespace: default
  managedFields:
  - manager: operator
    operation: Update
    apiVersion: v1
    time: \"2026-01-01T00:00:00Z\"
    fieldsType: FieldsV1
    fieldsV1:
      f:data:
        f:k: {}
data:
  k: old
",
    );
    s.scratch.file(
        "one.yaml",
        "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n  namespace: default\ndata:\n  k: new\n",
    );
    for exit in ["0", "1"] {
        let run = s.diff(&["owned.yaml", "one.yaml"], &s.program, exit);
        assert_eq!(run.code, 3, "{run:?}");
    }
}
