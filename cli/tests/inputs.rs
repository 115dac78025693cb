//! kubectl's input conventions (issue 14, item 1), run through the binary: `-f` with files,
//! directories, `-R` and `-`; `-n` defaulting and kubectl's refusal; cluster-scoped kinds;
//! `--live` from several files, Lists and directories; pairing by identity alone.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};

const NOW: &str = "2026-06-01T12:00:00Z";

/// Runs `smd args` in `dir` with `stdin`: exit code, stdout, stderr.
fn smd_in(dir: &Path, args: &[&str], stdin: &str) -> (i32, String, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_smd"))
        .args(args)
        .current_dir(dir)
        .env_remove("KUBECTL_EXTERNAL_DIFF")
        .env_remove("NO_COLOR")
        // -f without --live would read the live objects from the user's cluster: none here.
        .env("KUBECONFIG", "no-such-kubeconfig")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(stdin.as_bytes())
        .unwrap();
    let output = child.wait_with_output().unwrap();
    (
        output.status.code().unwrap_or(-1),
        String::from_utf8(output.stdout).unwrap(),
        String::from_utf8(output.stderr).unwrap(),
    )
}

fn shown(result: (i32, String, String)) -> String {
    let (code, out, err) = result;
    format!("exit: {code}\n--- stdout\n{out}--- stderr\n{err}")
}

/// A fresh directory holding `files` (relative name, contents).
fn tree(files: &[(&str, &str)]) -> tempfile::TempDir {
    let dir = tempfile::Builder::new()
        .prefix("smd-inputs-")
        .tempdir()
        .unwrap();
    for (name, contents) in files {
        let path = dir.path().join(name);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, contents).unwrap();
    }
    dir
}

fn configmap(name: &str, namespace: Option<&str>, data: &str) -> String {
    let ns = namespace.map_or(String::new(), |n| format!(", namespace: {n}"));
    format!("apiVersion: v1\nkind: ConfigMap\nmetadata: {{name: {name}{ns}}}\ndata: {{{data}}}\n")
}

/// A live ConfigMap as `kubectl get -o yaml --show-managed-fields` prints one: kubectl owns
/// `data.a`.
fn live_configmap(name: &str, namespace: &str) -> String {
    format!(
        "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: {name}\n  namespace: {namespace}\n  \
         uid: 00000000-0000-4000-8000-000000000001\n  resourceVersion: \"7\"\n  \
         creationTimestamp: \"2026-01-01T00:00:00Z\"\n  managedFields:\n  - apiVersion: v1\n    \
         fieldsType: FieldsV1\n    fieldsV1: {{\"f:data\": {{\"f:a\": {{}}}}}}\n    \
         manager: kubectl\n    operation: Apply\n    time: \"2026-01-01T00:00:01Z\"\ndata: {{a: \"1\"}}\n"
    )
}

/// The same live ConfigMap as an item of a `List` (indented by two).
fn as_item(object: &str) -> String {
    let mut out = String::new();
    for (i, line) in object.lines().enumerate() {
        out.push_str(if i == 0 { "- " } else { "  " });
        out.push_str(line);
        out.push('\n');
    }
    out
}

#[test]
fn directories_are_read_as_kubectl_reads_them() {
    let dir = tree(&[
        ("m/b.yaml", &configmap("b", None, "k: v")),
        (
            "m/a.json",
            r#"{"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "a"}}"#,
        ),
        ("m/notes.txt", "not: read"),
        (
            "m/B.YAML",
            "not: read either (extensions are compared as they are)",
        ),
        ("m/sub/c.yml", &configmap("c", None, "k: v")),
        ("m/sub/deeper/d.yaml", &configmap("d", Some("team"), "k: v")),
    ]);
    // A link back up: followed by no walk (Go's filepath.Walk does not follow links either).
    #[cfg(unix)]
    std::os::unix::fs::symlink("..", dir.path().join("m/sub/loop")).unwrap();
    let flat = smd_in(dir.path(), &["validate", "-f", "m"], "");
    assert_eq!(flat.0, 0, "{}", flat.2);
    let recursive = smd_in(dir.path(), &["validate", "-f", "m", "-R"], "");
    assert_eq!(recursive.0, 0, "{}", recursive.2);
    insta::assert_snapshot!(
        "validate-directory",
        format!("{}\n-R:\n{}", shown(flat), shown(recursive))
    );
    // The same manifests through diff: every one a create, in the walk's order.
    let diff = smd_in(
        dir.path(),
        &["diff", "-R", "-f", "m", "--live", "none", "--now", NOW],
        "",
    );
    assert_eq!(diff.0, 1, "{}", diff.2);
    insta::assert_snapshot!("diff-directory-recursive", shown(diff));
    // A comma-separated -f, as pflag splits it, reads the same files as two flags.
    let commas = smd_in(dir.path(), &["validate", "-f", "m/b.yaml,m/sub/c.yml"], "");
    let two = smd_in(
        dir.path(),
        &["validate", "-f", "m/b.yaml", "-f", "m/sub/c.yml"],
        "",
    );
    assert_eq!(commas, two);
    assert_eq!(commas.0, 0, "{}", commas.2);
    // A path that does not exist is a pattern, expanded as Go's filepath.Glob expands it.
    let pattern = smd_in(
        dir.path(),
        &["validate", "-f", "m/*/*.y*ml", "-f", "m/[ab].*"],
        "",
    );
    assert_eq!(
        pattern,
        (
            0,
            "m/sub/c.yml: document 1 (line 1): ConfigMap/c is valid\n\
             m/a.json: document 1 (line 1): ConfigMap/a is valid\n\
             m/b.yaml: document 1 (line 1): ConfigMap/b is valid\n"
                .to_owned(),
            String::new()
        )
    );
}

#[test]
fn stdin_namespaces_and_the_live_dump() {
    // A dump as `kubectl get -A -o yaml` prints it: a List across namespaces, and a second
    // file with one more object; the manifests come on stdin.
    let dump = format!(
        "apiVersion: v1\nkind: List\nmetadata: {{resourceVersion: \"\"}}\nitems:\n{}{}",
        as_item(&live_configmap("web", "team")),
        as_item(&live_configmap("web", "default")),
    );
    let dir = tree(&[
        ("live/dump.yaml", &dump),
        ("live/more.yaml", &live_configmap("db", "team")),
        ("other.yaml", &live_configmap("cache", "team")),
    ]);
    let manifests = format!(
        "{}---\n{}---\n{}",
        configmap("web", None, "a: \"2\""),
        configmap("db", Some("team"), "a: \"1\""),
        configmap("new", None, "a: \"1\""),
    );
    // -n team: the namespace-less manifests are team's, and pair with team's objects.
    let run = smd_in(
        dir.path(),
        &[
            "diff",
            "-n",
            "team",
            "-f",
            "-",
            "--live",
            "live",
            "--live",
            "other.yaml",
            "--now",
            NOW,
        ],
        &manifests,
    );
    assert_eq!(run.0, 1, "{}", run.2);
    assert!(run.1.contains("# apply to ConfigMap team/web"), "{}", run.1);
    assert!(run.1.contains("# create ConfigMap team/new"), "{}", run.1);
    insta::assert_snapshot!("diff-namespace-stdin-dump", shown(run));
    // Without -n: `default`'s web is the one paired; a manifest naming team keeps team.
    let default = smd_in(
        dir.path(),
        &["diff", "-f", "-", "--live", "live", "--now", NOW],
        &manifests,
    );
    assert!(
        default.1.contains("# apply to ConfigMap default/web"),
        "{}",
        default.1
    );
    assert!(
        default.1.contains("# apply to ConfigMap team/db"),
        "{}",
        default.1
    );
    // -n other: a manifest naming team is refused with kubectl's words.
    let refused = smd_in(
        dir.path(),
        &[
            "diff", "-n", "other", "-f", "-", "--live", "live", "--now", NOW,
        ],
        &manifests,
    );
    // That manifest is the run's bad input (exit 2); the others are still answered.
    assert_eq!(refused.0, 2);
    assert!(!refused.1.contains("team/db"), "{}", refused.1);
    assert!(refused.1.contains("1 bad input"), "{}", refused.1);
    insta::assert_snapshot!("diff-namespace-mismatch", shown(refused));
}

#[test]
fn cluster_scoped_kinds_take_no_namespace() {
    let live = "apiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRole\nmetadata:\n  \
                name: reader\n  uid: 00000000-0000-4000-8000-000000000002\n  \
                resourceVersion: \"3\"\n  creationTimestamp: \"2026-01-01T00:00:00Z\"\n  \
                managedFields:\n  - apiVersion: rbac.authorization.k8s.io/v1\n    \
                fieldsType: FieldsV1\n    fieldsV1: {\"f:rules\": {}}\n    manager: kubectl\n    \
                operation: Apply\n    time: \"2026-01-01T00:00:01Z\"\nrules:\n- apiGroups: [\"\"]\n  \
                resources: [pods]\n  verbs: [get]\n";
    // The manifest names a namespace a ClusterRole cannot have: -n neither refuses it nor
    // stops it pairing with the live object.
    let manifest = "apiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRole\nmetadata:\n  \
                    name: reader\n  namespace: stray\nrules:\n- apiGroups: [\"\"]\n  \
                    resources: [pods]\n  verbs: [get, list]\n";
    let dir = tree(&[("live.yaml", live), ("role.yaml", manifest)]);
    let run = smd_in(
        dir.path(),
        &[
            "diff",
            "-n",
            "team",
            "-f",
            "role.yaml",
            "--live",
            "live.yaml",
            "--now",
            NOW,
        ],
        "",
    );
    assert_eq!(run.0, 1, "{}", run.2);
    assert!(
        run.1
            .contains("# apply to ClusterRole.rbac.authorization.k8s.io/reader"),
        "{}",
        run.1
    );
    insta::assert_snapshot!("diff-cluster-scoped", shown(run));
}

#[test]
fn pairing_depends_on_identity_alone() {
    let settings = live_configmap("settings", "default");
    let other = live_configmap("other", "default");
    let manifest = configmap("settings", None, "a: \"2\"");
    let dir = tree(&[
        ("one/settings.yaml", &settings),
        ("stream.yaml", &format!("{other}---\n{settings}")),
        (
            "list.yaml",
            &format!(
                "apiVersion: v1\nkind: List\nitems:\n{}{}",
                as_item(&other),
                as_item(&settings)
            ),
        ),
        ("split/a.yaml", &other),
        ("split/b.yaml", &settings),
        ("manifest.yaml", &manifest),
        ("named-other.yaml", &configmap("renamed", None, "a: \"1\"")),
    ]);
    let diff = |live: &[&str]| {
        let mut args = vec!["diff", "-f", "manifest.yaml", "--now", NOW];
        for l in live {
            args.extend(["--live", l]);
        }
        smd_in(dir.path(), &args, "")
    };
    // One object per file, a stream, a List, a directory, or the positional form: the same
    // answer, the namespace-less manifest paired with default's object every time.
    let first = diff(&["one/settings.yaml"]);
    assert_eq!(first.0, 1, "{}", first.2);
    assert!(
        first.1.contains("# apply to ConfigMap default/settings"),
        "{}",
        first.1
    );
    for layout in [
        vec!["stream.yaml"],
        vec!["list.yaml"],
        vec!["split"],
        vec!["split/a.yaml", "split/b.yaml"],
    ] {
        assert_eq!(diff(&layout), first, "{layout:?}");
    }
    let positional = smd_in(
        dir.path(),
        &["diff", "stream.yaml", "manifest.yaml", "--now", NOW],
        "",
    );
    assert!(positional.1.starts_with(&first.1), "{}", positional.1);
    // A LIVE file holding one object of another name is no pair: the manifest is a create,
    // and the live object is reported and left alone.
    let positional = smd_in(
        dir.path(),
        &[
            "diff",
            "one/settings.yaml",
            "named-other.yaml",
            "--now",
            NOW,
        ],
        "",
    );
    assert_eq!(positional.0, 1, "{}", positional.2);
    insta::assert_snapshot!("diff-no-pair-by-count", shown(positional));
}

#[test]
fn input_errors_use_kubectls_words() {
    let dir = tree(&[
        ("m.yaml", &configmap("a", None, "k: v")),
        ("empty/notes.txt", "nothing to read"),
    ]);
    let cases: [&[&str]; 9] = [
        &["diff", "-f", "m.yaml"],
        &["diff", "-f", "[m.yaml", "--live", "none"],
        &["diff", "-f", "x*.yaml", "--live", "none"],
        &["diff", "-f", "-", "--live", "-"],
        &["diff", "-f", "m.yaml", "--live", "none", "--live", "m.yaml"],
        &["diff", "-f", "no/such.yaml", "--live", "none"],
        &["diff", "-f", "empty", "--live", "none"],
        &["validate", "-f", "m.yaml", "-f", "-", "-"],
        &["diff", "m.yaml", "-f", "m.yaml"],
    ];
    let mut text = String::new();
    for args in cases {
        let run = smd_in(dir.path(), args, "");
        assert_eq!(run.0, 2, "{args:?}: {}", run.2);
        assert!(run.1.is_empty(), "{args:?}");
        text.push_str(&format!("$ smd {}\n{}\n", args.join(" "), run.2));
    }
    insta::assert_snapshot!("input-errors", text);
}

#[test]
fn server_side_is_accepted_and_the_manager_defaults_to_kubectls() {
    let dir = tree(&[("m.yaml", &configmap("a", None, "k: v"))]);
    let plain = smd_in(
        dir.path(),
        &["apply", "-f", "m.yaml", "--live", "none", "--now", NOW],
        "",
    );
    let kubectl = smd_in(
        dir.path(),
        &[
            "apply",
            "--server-side",
            "--field-manager",
            "kubectl",
            "-f",
            "m.yaml",
            "--live",
            "none",
            "--now",
            NOW,
        ],
        "",
    );
    assert_eq!(plain.0, 0, "{}", plain.2);
    assert_eq!(plain, kubectl);
    assert!(plain.1.contains("manager: kubectl"), "{}", plain.1);
}

#[test]
fn a_namespace_less_live_object_is_where_the_command_works() {
    // Hand-written (kubectl get prints every namespaced object's namespace): taken as the
    // object kubectl would read in -n's namespace, else in default.
    let live = live_configmap("web", "x").replace("  namespace: x\n", "");
    let dir = tree(&[
        ("live.yaml", &live),
        ("team.yaml", &configmap("web", Some("team"), "a: \"1\"")),
    ]);
    let run = |args: &[&str]| smd_in(dir.path(), args, "");
    let paired = run(&[
        "diff",
        "-n",
        "team",
        "-f",
        "team.yaml",
        "--live",
        "live.yaml",
    ]);
    assert_eq!(paired.0, 0, "{}", paired.2);
    assert!(
        paired.1.contains("# apply to ConfigMap team/web"),
        "{}",
        paired.1
    );
    let created = run(&[
        "diff",
        "-f",
        "team.yaml",
        "--live",
        "live.yaml",
        "--now",
        NOW,
    ]);
    assert!(
        created.1.contains("# create ConfigMap team/web"),
        "{}",
        created.1
    );
}

#[test]
fn blame_fields_and_validate_take_f_and_n() {
    let dir = tree(&[
        ("live/web.yaml", &live_configmap("web", "team")),
        ("live/more/db.yaml", &live_configmap("db", "team")),
    ]);
    let run = |args: &[&str]| smd_in(dir.path(), args, "");
    let fields = run(&["fields", "-R", "-f", "live", "-n", "team"]);
    assert_eq!(fields.0, 0, "{}", fields.2);
    assert_eq!(
        fields
            .1
            .lines()
            .filter(|l| l.starts_with("# "))
            .collect::<Vec<_>>(),
        [
            "# ConfigMap team/db (live/more/db.yaml: document 1 (line 1))",
            "# ConfigMap team/web (live/web.yaml: document 1 (line 1))"
        ]
    );
    let blame = run(&["blame", "-f", "live", "-n", "other"]);
    assert_eq!(blame.0, 2);
    assert_eq!(
        blame.2,
        "smd: live/web.yaml: document 1 (line 1): the namespace from the provided object \"team\" \
         does not match the namespace \"other\". You must pass '--namespace=team' to perform this \
         operation.\n"
    );
    let validate = run(&["validate", "-f", "live/web.yaml", "-n", "team"]);
    assert_eq!(validate.0, 0, "{}", validate.2);
}
