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

/// Installed as `kubectl-smd` on PATH, kubectl runs it as `kubectl smd`: the help says so.
/// (A link, not a copy: running a file just written races with other tests' forks, which can
/// hold it open for writing: "text file busy".)
#[cfg(unix)]
#[test]
fn as_a_kubectl_plugin_the_help_says_kubectl_smd() {
    let dir = tempfile::tempdir().unwrap();
    let plugin = dir.path().join("kubectl-smd");
    std::os::unix::fs::symlink(env!("CARGO_BIN_EXE_smd"), &plugin).unwrap();
    let output = Command::new(&plugin)
        .args(["diff", "--help"])
        .output()
        .unwrap();
    let help = String::from_utf8(output.stdout).unwrap();
    assert!(output.status.success());
    assert!(help.contains("Usage: kubectl smd diff [OPTIONS]"), "{help}");
    let output = Command::new(&plugin).arg("version").output().unwrap();
    assert!(
        String::from_utf8(output.stdout)
            .unwrap()
            .starts_with("smd ")
    );
}

/// The krew manifest template is a krew `Plugin` whose every platform installs the binary as
/// `kubectl-smd`, and whose every placeholder `docs/install.md` explains.
#[test]
fn the_krew_manifest_template_installs_kubectl_smd() {
    use smd::fieldpath::{Value, yaml};
    let text = std::fs::read_to_string(root().join("dist/krew/smd.yaml")).unwrap();
    let manifest = yaml::from_str(&text).unwrap();
    let get = |v: &Value, path: &[&str]| -> Value {
        path.iter().fold(v.clone(), |v, key| {
            v.as_map()
                .and_then(|m| m.get(key))
                .cloned()
                .unwrap_or_else(|| panic!("no {key} in {path:?}"))
        })
    };
    let text_of = |v: &Value, path: &[&str]| get(v, path).as_str().unwrap().to_owned();
    assert_eq!(
        text_of(&manifest, &["apiVersion"]),
        "krew.googlecontainertools.github.com/v1alpha2"
    );
    assert_eq!(text_of(&manifest, &["kind"]), "Plugin");
    assert_eq!(text_of(&manifest, &["metadata", "name"]), "smd");
    assert_eq!(text_of(&manifest, &["spec", "version"]), "v${VERSION}");
    // The description names the minor release smd answers for.
    let minor: Vec<&str> = smd_schema::kubernetes::KUBERNETES_VERSION
        .split('.')
        .take(2)
        .collect();
    let description = text_of(&manifest, &["spec", "description"]);
    assert!(
        description.contains(&format!("(v{})", minor.join("."))),
        "{description}"
    );

    let platforms = get(&manifest, &["spec", "platforms"]);
    let platforms = platforms.as_list().unwrap();
    let mut seen = Vec::new();
    for platform in platforms {
        let os = text_of(platform, &["selector", "matchLabels", "os"]);
        let arch = text_of(platform, &["selector", "matchLabels", "arch"]);
        let bin = if os == "windows" {
            "kubectl-smd.exe"
        } else {
            "kubectl-smd"
        };
        assert_eq!(text_of(platform, &["bin"]), bin, "{os}/{arch}");
        let files = get(platform, &["files"]);
        let from: Vec<String> = files
            .as_list()
            .unwrap()
            .iter()
            .map(|f| text_of(f, &["from"]))
            .collect();
        assert_eq!(from, [bin, "LICENSE"], "{os}/{arch}");
        let sha = text_of(platform, &["sha256"]);
        assert_eq!(
            sha,
            format!("${{SHA256_{}_{}}}", os.to_uppercase(), arch.to_uppercase())
        );
        assert!(text_of(platform, &["uri"]).starts_with("${BASE_URL}/smd-v${VERSION}-"));
        seen.push(format!("{os}/{arch}"));
    }
    assert_eq!(
        seen,
        [
            "linux/amd64",
            "linux/arm64",
            "darwin/amd64",
            "darwin/arm64",
            "windows/amd64"
        ]
    );

    let install = std::fs::read_to_string(root().join("docs/install.md")).unwrap();
    // The placeholders of the manifest itself (its comment says `${...}` of them all).
    let body: String = text
        .lines()
        .filter(|line| !line.starts_with('#'))
        .collect::<Vec<_>>()
        .join("\n");
    let mut rest = body.as_str();
    let mut placeholders = 0;
    while let Some(at) = rest.find("${") {
        placeholders += 1;
        let end = rest[at..].find('}').unwrap() + at;
        let placeholder = &rest[at + 2..end];
        assert!(
            install.contains(placeholder),
            "docs/install.md does not explain ${{{placeholder}}}"
        );
        rest = &rest[end..];
    }
    assert!(placeholders > 10, "{placeholders}");
}
