//! Live objects from a cluster (issue 14, item 2), the parts that need no server: with `-f` and
//! no `--live`, no usable kubeconfig is exit 2 saying what to pass instead; the cluster flags go
//! with `-f` alone. The reads themselves run against the real kube-apiserver in
//! `conformance/apiserver/read-only` (CI).

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::path::Path;
use std::process::{Command, Stdio};

/// Runs `smd args` in `dir` with `env` (HOME and KUBECONFIG set or removed as given).
fn smd_in(dir: &Path, args: &[&str], env: &[(&str, Option<&str>)]) -> String {
    let mut command = Command::new(env!("CARGO_BIN_EXE_smd"));
    command
        .args(args)
        .current_dir(dir)
        .env_remove("KUBECTL_EXTERNAL_DIFF")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    for (k, v) in env {
        match v {
            Some(v) => command.env(k, v),
            None => command.env_remove(k),
        };
    }
    let output = command.output().unwrap();
    format!(
        "exit: {}\n--- stdout\n{}--- stderr\n{}",
        output.status.code().unwrap_or(-1),
        String::from_utf8(output.stdout).unwrap(),
        String::from_utf8(output.stderr).unwrap()
    )
}

const MANIFEST: &str =
    "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: settings\ndata:\n  a: \"1\"\n";

/// A directory holding a manifest and an empty home.
fn workdir() -> tempfile::TempDir {
    let dir = tempfile::Builder::new()
        .prefix("smd-cluster-")
        .tempdir()
        .unwrap();
    std::fs::write(dir.path().join("cm.yaml"), MANIFEST).unwrap();
    std::fs::create_dir(dir.path().join("home")).unwrap();
    dir
}

#[test]
fn no_kubeconfig_at_all_is_exit_2_naming_live() {
    let dir = workdir();
    for command in ["diff", "apply"] {
        // HOME relative to the working directory: the snapshot names no temp path.
        let shown = smd_in(
            dir.path(),
            &[command, "-f", "cm.yaml"],
            &[("HOME", Some("home")), ("KUBECONFIG", None)],
        );
        insta::assert_snapshot!(format!("no-kubeconfig-{command}"), shown);
    }
}

#[test]
fn a_missing_kubeconfig_or_context_is_exit_2_naming_live() {
    let dir = workdir();
    // kubectl skips KUBECONFIG's missing files; none existing is no kubeconfig.
    let env = [
        ("HOME", Some("home")),
        ("KUBECONFIG", Some("missing.yaml:gone.yaml")),
    ];
    let shown = smd_in(dir.path(), &["diff", "-f", "cm.yaml"], &env);
    insta::assert_snapshot!("missing-kubeconfig-env", shown);
    let shown = smd_in(
        dir.path(),
        &["diff", "-f", "cm.yaml", "--kubeconfig", "gone.yaml"],
        &env,
    );
    insta::assert_snapshot!("missing-kubeconfig-flag", shown);
    std::fs::write(
        dir.path().join("config.yaml"),
        "apiVersion: v1\nkind: Config\nclusters: []\nusers: []\ncontexts: []\n",
    )
    .unwrap();
    let shown = smd_in(
        dir.path(),
        &[
            "diff",
            "-f",
            "cm.yaml",
            "--kubeconfig",
            "config.yaml",
            "--context",
            "prod",
        ],
        &env,
    );
    insta::assert_snapshot!("missing-context", shown);
}

#[test]
fn cluster_flags_go_with_f_alone() {
    let dir = workdir();
    for args in [
        &["diff", "cm.yaml", "--context", "prod"][..],
        &[
            "apply",
            "-f",
            "cm.yaml",
            "--live",
            "none",
            "--kubeconfig",
            "x",
        ][..],
    ] {
        let shown = smd_in(dir.path(), args, &[("KUBECONFIG", None)]);
        assert!(shown.starts_with("exit: 2\n"), "{args:?}: {shown}");
        assert!(
            shown.contains("--kubeconfig and --context read live objects from a cluster"),
            "{args:?}: {shown}"
        );
    }
}
