//! What installing smd relies on, run as a user runs it: `smd version` names the Kubernetes
//! release every other part of the project pins, the completion scripts and the man pages are
//! generated for every subcommand, and the help lists them.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::path::{Path, PathBuf};
use std::process::Command;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// Runs `smd args` in the workspace root: (exit code, stdout, stderr).
fn smd(args: &[&str]) -> (i32, String, String) {
    let output = Command::new(env!("CARGO_BIN_EXE_smd"))
        .args(args)
        .current_dir(root())
        .env_remove("NO_COLOR")
        .output()
        .unwrap();
    (
        output.status.code().unwrap_or(-1),
        String::from_utf8(output.stdout).unwrap(),
        String::from_utf8(output.stderr).unwrap(),
    )
}

/// The top-level subcommands a user can type.
const SUBCOMMANDS: [&str; 10] = [
    "diff",
    "apply",
    "blame",
    "fields",
    "validate",
    "fieldsv1",
    "schema",
    "version",
    "completions",
    "man",
];

/// The value of `prefix` on the line of `file` (relative to the workspace) that starts with it,
/// up to the end of the line, with quotes and a leading `v` taken off.
fn pinned(file: &str, prefix: &str) -> String {
    let text = std::fs::read_to_string(root().join(file)).unwrap();
    let line = text
        .lines()
        .map(str::trim)
        .find_map(|line| line.strip_prefix(prefix))
        .unwrap_or_else(|| panic!("{file} has no line starting with {prefix:?}"));
    line.trim()
        .trim_matches('"')
        .trim_start_matches('v')
        .to_owned()
}

#[test]
fn version_names_the_kubernetes_release_the_oracles_are_built_from() {
    let (code, out, err) = smd(&["version"]);
    assert_eq!((code, err.as_str()), (0, ""));
    insta::assert_snapshot!("version", out);
    // The embedded schema's generator and the real kube-apiserver build pin the release too:
    // the version smd names must be theirs.
    let ours = smd_schema::kubernetes::KUBERNETES_VERSION;
    assert_eq!(
        pinned("conformance/gogen/openapi.go", "kubernetesVersion ="),
        ours
    );
    assert_eq!(pinned("conformance/apiserver/build", "KUBERNETES="), ours);
    assert!(out.contains(&format!("Kubernetes v{ours}")), "{out}");
    assert!(
        out.starts_with(&format!("smd {}\n", env!("CARGO_PKG_VERSION"))),
        "{out}"
    );
}

#[test]
fn completions_for_every_shell_name_every_subcommand() {
    for shell in ["bash", "zsh", "fish", "powershell", "elvish"] {
        let (code, out, err) = smd(&["completions", shell]);
        assert_eq!((code, err.as_str()), (0, ""), "{shell}");
        for sub in SUBCOMMANDS {
            assert!(out.contains(sub), "{shell} completions lack {sub}");
        }
        // Flags of a subcommand are completed too.
        assert!(out.contains("force-conflicts"), "{shell}");
    }
    // The bash script is long: its head shows what it is and what it completes.
    let (_, bash, _) = smd(&["completions", "bash"]);
    let head: Vec<&str> = bash.lines().take(40).collect();
    insta::assert_snapshot!("completions-bash-head", head.join("\n"));
    let (code, _, err) = smd(&["completions", "tcsh"]);
    assert_eq!(code, 2);
    assert!(
        err.contains("possible values: bash, elvish, fish, powershell, zsh"),
        "{err}"
    );
}

#[test]
fn man_pages_for_smd_and_each_subcommand() {
    let (code, page, err) = smd(&["man"]);
    assert_eq!((code, err.as_str()), (0, ""));
    let version = env!("CARGO_PKG_VERSION");
    assert!(
        page.contains(&format!(".TH smd 1  \"smd {version}\"")),
        "{page}"
    );
    for sub in SUBCOMMANDS {
        assert!(
            page.contains(&format!("smd\\-{sub}(1)")),
            "smd(1) lacks {sub}"
        );
    }
    // clap's `help` subcommand has no page: smd(1) must not point at one.
    assert!(!page.contains("smd\\-help(1)"), "{page}");
    // The page carries the long help's words, such as what an offline answer cannot know.
    assert!(page.contains("admission webhooks"), "{page}");

    for sub in SUBCOMMANDS {
        let (code, page, err) = smd(&["man", sub]);
        assert_eq!((code, err.as_str()), (0, ""), "{sub}");
        assert!(
            page.contains(&format!(".TH smd-{sub} 1  \"smd {version}\"")),
            "{sub}: {page}"
        );
    }
    let (_, diff, _) = smd(&["man", "diff"]);
    assert!(diff.contains("\\-\\-force\\-conflicts"), "{diff}");
    let (code, convert, _) = smd(&["man", "schema", "convert"]);
    assert_eq!(code, 0);
    assert!(convert.contains(".TH smd-schema-convert 1"), "{convert}");

    let (code, out, err) = smd(&["man", "bogus"]);
    assert_eq!((code, out.as_str()), (2, ""));
    assert!(
        err.starts_with("smd: man: no subcommand bogus; there are: diff, apply"),
        "{err}"
    );
    let (code, _, err) = smd(&["man", "version", "x"]);
    assert_eq!(code, 2);
    assert!(err.contains("`smd-version` has no subcommands"), "{err}");
}
