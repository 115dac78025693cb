//! Schema inputs (issue 14, item 6), run through the binary: `--schema` repeated with a real
//! cluster's OpenAPI v3 documents (one per group-version, recorded from kube-apiserver v1.37.2
//! by conformance/apiserver/record-openapi), `smd schema convert`'s output (types and GVK
//! index) as `--schema`, and `--crd` given a directory, a `List` and a stream.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::path::{Path, PathBuf};
use std::process::Command;

const NOW: &str = "2026-06-01T12:00:00Z";

fn data(name: &str) -> String {
    format!("{}/tests/data/{name}", env!("CARGO_MANIFEST_DIR"))
}

/// Runs `smd args`: exit code, stdout, stderr.
fn smd(args: &[&str]) -> (i32, String, String) {
    let output = Command::new(env!("CARGO_BIN_EXE_smd"))
        .args(args)
        .env_remove("KUBECTL_EXTERNAL_DIFF")
        .env("NO_COLOR", "1")
        .output()
        .unwrap();
    (
        output.status.code().unwrap_or(-1),
        String::from_utf8(output.stdout).unwrap(),
        String::from_utf8(output.stderr).unwrap(),
    )
}

fn shown(result: &(i32, String, String)) -> String {
    let (code, out, err) = result;
    format!("exit: {code}\n--- stdout\n{out}--- stderr\n{err}").replace(&data(""), "DATA/")
}

/// The cluster's documents for the core group and apps/v1, as `kubectl get --raw` gives them.
fn cluster_documents() -> [String; 2] {
    [
        data("openapi-v3/api-v1.json"),
        data("openapi-v3/apis-apps-v1.json"),
    ]
}

fn with_schemas<'a>(schemas: &'a [String], args: &[&'a str]) -> Vec<&'a str> {
    let mut all: Vec<&str> = args.to_vec();
    for s in schemas {
        all.extend(["--schema", s.as_str()]);
    }
    all
}

/// `smd schema convert` of the cluster's documents, written to a file in `dir`.
fn converted(dir: &Path) -> PathBuf {
    let [core, apps] = cluster_documents();
    let (code, out, err) = smd(&["schema", "convert", &core, &apps]);
    assert_eq!(code, 0, "{err}");
    let path = dir.join("cluster-schema.yaml");
    std::fs::write(&path, out).unwrap();
    path
}

#[test]
fn a_clusters_documents_type_a_batch_as_the_embedded_schema_does() {
    let live = data("co-owned-live.yaml");
    let applied = data("co-owned-applied.yaml");
    for command in [
        vec!["diff", &live, &applied, "--now", NOW],
        vec!["apply", &live, &applied, "--now", NOW],
        vec!["validate", &applied],
        vec!["blame", &live],
    ] {
        let embedded = smd(&command);
        let documents = cluster_documents();
        let cluster = smd(&with_schemas(&documents, &command));
        assert_eq!(shown(&cluster), shown(&embedded), "{command:?}");
        let dir = tempfile::tempdir().unwrap();
        let file = converted(dir.path()).display().to_string();
        let from_converted = smd(&with_schemas(&[file], &command));
        assert_eq!(shown(&from_converted), shown(&embedded), "{command:?}");
        if command[0] == "diff" {
            insta::assert_snapshot!("cluster-schema-diff", shown(&cluster));
        }
    }
}

#[test]
fn one_document_alone_does_not_know_the_other_groups_kinds() {
    let [core, _apps] = cluster_documents();
    let result = smd(&[
        "validate",
        &data("co-owned-applied.yaml"),
        "--schema",
        &core,
    ]);
    insta::assert_snapshot!("cluster-schema-core-only", shown(&result));
}

#[test]
fn a_converted_schema_carries_the_gvk_index_of_its_inputs() {
    let documents = cluster_documents();
    let dir = tempfile::tempdir().unwrap();
    let file = converted(dir.path()).display().to_string();
    let (code, from_documents, err) = smd(&with_schemas(&documents, &["schema", "types", "--gvk"]));
    assert_eq!(code, 0, "{err}");
    let (code, from_file, err) = smd(&["schema", "types", "--gvk", "--schema", &file]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(from_file, from_documents);
    assert!(from_file.contains("apps/v1 Deployment -> io.k8s.api.apps.v1.Deployment\n"));
    // Converted again, the file is written back as it is: types and index.
    let (code, again, err) = smd(&["schema", "convert", &file]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(again, std::fs::read_to_string(&file).unwrap());
    // As JSON: the types first (structured-merge-diff reads them alone), the index as a second
    // value of the stream; as --schema, the JSON file types kinds as the YAML file does.
    let (code, json, err) = smd(&["schema", "convert", &file, "-o", "json"]);
    assert_eq!(code, 0, "{err}");
    assert!(json.starts_with("{\n  \"types\": ["), "{json:.80}");
    assert!(json.contains("\n}\n{\n  \"gvkIndex\": ["));
    let json_file = dir.path().join("cluster-schema.json");
    std::fs::write(&json_file, &json).unwrap();
    let json_file = json_file.display().to_string();
    let (code, from_json, err) = smd(&["schema", "types", "--gvk", "--schema", &json_file]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(from_json, from_documents);
}

#[test]
fn a_damaged_index_is_refused_with_its_place() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("schema.yaml");
    std::fs::write(
        &path,
        "types:\n- name: s\n  scalar: string\n---\ngvkIndex:\n- {group: '', version: v1, kind: 5, type: s}\n",
    )
    .unwrap();
    let file = path.display().to_string();
    let result = smd(&["schema", "types", "--gvk", "--schema", &file]);
    insta::assert_snapshot!(
        "schema-damaged-index",
        shown(&result).replace(&file, "FILE")
    );
}

#[test]
fn crds_from_a_directory_a_list_and_a_stream_are_the_same_crds() {
    let crd = std::fs::read_to_string(data("thing-webhook-crd.yaml")).unwrap();
    let body: String = crd
        .lines()
        .filter(|l| !l.starts_with('#'))
        .map(|l| format!("  {l}\n"))
        .collect();
    let list = format!("apiVersion: v1\nkind: List\nitems:\n-{}", &body[1..]);
    let dir = tempfile::tempdir().unwrap();
    let nested = dir.path().join("crds/bases");
    std::fs::create_dir_all(&nested).unwrap();
    std::fs::write(nested.join("things.yaml"), &crd).unwrap();
    std::fs::write(
        nested.join("notes.txt"),
        "not read: not .yaml, .yml or .json",
    )
    .unwrap();
    let list_file = dir.path().join("list.yaml");
    std::fs::write(&list_file, &list).unwrap();
    let live = data("thing-v1-live.yaml");
    let applied = data("thing-v1.yaml");
    let command = [
        "diff",
        live.as_str(),
        applied.as_str(),
        "--now",
        NOW,
        "--crd",
    ];
    let from_file = smd(&[&command[..], &[data("thing-webhook-crd.yaml").as_str()]].concat());
    assert_eq!(from_file.0, 1, "{}", shown(&from_file));
    let crds_dir = dir.path().join("crds").display().to_string();
    let list_path = list_file.display().to_string();
    for crd_arg in [crds_dir.as_str(), list_path.as_str()] {
        let result = smd(&[&command[..], &[crd_arg]].concat());
        assert_eq!(shown(&result), shown(&from_file), "--crd {crd_arg}");
    }
}

#[test]
fn a_directory_without_crd_files_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("README"), "nothing").unwrap();
    let path = dir.path().display().to_string();
    let result = smd(&["validate", &data("thing-v1.yaml"), "--crd", &path]);
    insta::assert_snapshot!("crd-empty-directory", shown(&result).replace(&path, "DIR"));
}
