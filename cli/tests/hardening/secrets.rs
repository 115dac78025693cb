//! Secret values (issue 11, item 4): `diff` and `blame` mask them as `kubectl diff` does, in
//! every output (text, JSON, YAML, the conflicts, the external program's files), unless
//! `--show-secrets`.

use super::{Run, Scratch, smd_in};

/// A live Secret: `password` is another manager's, `same` is kept; the client-side apply
/// annotation holds a copy of the password.
const LIVE: &str = r#"apiVersion: v1
kind: Secret
metadata:
  name: db
  namespace: default
  annotations:
    kubectl.kubernetes.io/last-applied-configuration: '{"apiVersion":"v1","data":{"password":"TElWRS1TRUNSRVQtMQ=="},"kind":"Secret","metadata":{"name":"db","namespace":"default"}}'
  managedFields:
  - manager: operator
    operation: Update
    apiVersion: v1
    time: "2026-01-01T00:00:00Z"
    fieldsType: FieldsV1
    fieldsV1:
      f:data:
        f:password: {}
        f:same: {}
      f:metadata:
        f:annotations:
          .: {}
          f:kubectl.kubernetes.io/last-applied-configuration: {}
      f:type: {}
type: Opaque
data:
  password: TElWRS1TRUNSRVQtMQ==
  same: U0FNRS1TRUNSRVQtMg==
"#;

/// The manifest changes the password (a conflict), keeps `same`, adds `added` and a
/// `stringData` token.
const APPLIED: &str = "apiVersion: v1
kind: Secret
metadata:
  name: db
  namespace: default
type: Opaque
data:
  password: TUFOSUZFU1QtU0VDUkVULTM=
  same: U0FNRS1TRUNSRVQtMg==
  added: QURERUQtU0VDUkVULTQ=
stringData:
  token: STRINGDATA-SECRET-5
";

/// Every secret value above (base64 as written, the stringData plain text, and that text in
/// base64, as the API server folds `stringData` into `data`).
const VALUES: [&str; 6] = [
    "TElWRS1TRUNSRVQtMQ==",
    "U0FNRS1TRUNSRVQtMg==",
    "TUFOSUZFU1QtU0VDUkVULTM=",
    "QURERUQtU0VDUkVULTQ=",
    "STRINGDATA-SECRET-5",
    "U1RSSU5HREFUQS1TRUNSRVQtNQ==",
];

/// A program that prints both directories' files, as `cat` would.
const CAT: &str = "#!/bin/sh\ncat \"$1\"/* \"$2\"/*\nexit 1\n";

fn scratch() -> Scratch {
    let s = Scratch::new();
    s.file("live.yaml", LIVE);
    s.file("applied.yaml", APPLIED);
    s
}

fn smd(s: &Scratch, args: &[&str], env: &[(&str, &str)]) -> Run {
    smd_in(s.path(), args, b"", env)
}

fn leaked(run: &Run) -> Vec<&'static str> {
    VALUES
        .into_iter()
        .filter(|v| run.stdout.contains(v) || run.stderr.contains(v))
        .collect()
}

const DIFF: [&str; 7] = [
    "diff",
    "live.yaml",
    "applied.yaml",
    "--manager",
    "ci",
    "--now",
    "2026-06-01T12:00:00Z",
];

#[test]
fn diff_masks_secret_values_in_every_format() {
    let s = scratch();
    for format in ["diff", "json", "yaml"] {
        for force in [false, true] {
            let mut args = DIFF.to_vec();
            args.extend(["-o", format]);
            if force {
                args.push("--force-conflicts");
            }
            let run = smd(&s, &args, &[]);
            assert!(matches!(run.code, 1 | 3), "{run:?}");
            assert_eq!(
                leaked(&run),
                Vec::<&str>::new(),
                "-o {format}: {}",
                run.stdout
            );
            assert!(
                run.stdout.contains("*** (before)"),
                "-o {format}: {}",
                run.stdout
            );
            assert!(
                run.stdout.contains("*** (after)"),
                "-o {format}: {}",
                run.stdout
            );
        }
    }
}

#[test]
fn the_conflict_section_masks_the_live_and_manifest_values() {
    let s = scratch();
    let run = smd(&s, &DIFF, &[]);
    assert_eq!(run.code, 3, "{run:?}");
    let conflicts = run.stdout.split("Conflicts (").nth(1).unwrap_or_default();
    assert!(conflicts.contains(".data.password"), "{}", run.stdout);
    assert!(
        conflicts.contains(r#"live:     "*** (before)""#)
            && conflicts.contains(r#"manifest: "*** (after)""#),
        "{conflicts}"
    );
}

#[test]
fn the_external_programs_files_hold_no_secret_value() {
    let s = scratch();
    let program = s.file("cat.sh", CAT);
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&program, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    let program = program.display().to_string();
    let run = smd(&s, &DIFF, &[("KUBECTL_EXTERNAL_DIFF", &program)]);
    assert_eq!(run.code, 3, "{run:?}");
    assert!(
        run.stdout.contains("password: '*** (before)'"),
        "{}",
        run.stdout
    );
    assert_eq!(leaked(&run), Vec::<&str>::new(), "{}", run.stdout);
}

#[test]
fn blame_masks_secret_values() {
    let s = scratch();
    let run = smd(&s, &["blame", "live.yaml"], &[]);
    assert_eq!(run.code, 0, "{run:?}");
    assert!(run.stdout.contains("password: '***'"), "{}", run.stdout);
    assert_eq!(leaked(&run), Vec::<&str>::new(), "{}", run.stdout);
}

#[test]
fn show_secrets_shows_them() {
    let s = scratch();
    let mut args = DIFF.to_vec();
    args.push("--show-secrets");
    let run = smd(&s, &args, &[]);
    assert_eq!(run.code, 3, "{run:?}");
    // The stringData token is in data by then, base64 (the server folds it in).
    for value in [
        "TElWRS1TRUNSRVQtMQ==",
        "TUFOSUZFU1QtU0VDUkVULTM=",
        "U1RSSU5HREFUQS1TRUNSRVQtNQ==",
    ] {
        assert!(run.stdout.contains(value), "{value}: {}", run.stdout);
    }
    let run = smd(&s, &["blame", "live.yaml", "--show-secrets"], &[]);
    assert_eq!(run.code, 0, "{run:?}");
    assert!(
        run.stdout.contains("TElWRS1TRUNSRVQtMQ=="),
        "{}",
        run.stdout
    );
}

#[test]
fn other_kinds_are_not_masked() {
    let s = Scratch::new();
    s.file(
        "cm.yaml",
        "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\n  namespace: default\ndata:\n  k: PLAIN-VALUE\n",
    );
    let run = smd(&s, &["diff", "cm.yaml", "--manager", "ci"], &[]);
    assert_eq!(run.code, 1, "{run:?}");
    assert!(run.stdout.contains("PLAIN-VALUE"), "{}", run.stdout);
}
