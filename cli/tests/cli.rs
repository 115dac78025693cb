//! The `smd` binary, run as a user runs it: every subcommand's output is an insta snapshot
//! (colors on and off), exit codes and the words of refusals are checked.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// The workspace root: paths in snapshots are relative to it.
fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// Runs `smd args` in the workspace root with `stdin`: (exit code, stdout, stderr).
fn smd_with(args: &[&str], stdin: &str, env: &[(&str, &str)]) -> (i32, String, String) {
    let mut command = Command::new(env!("CARGO_BIN_EXE_smd"));
    command
        .args(args)
        .current_dir(root())
        .env_remove("KUBECTL_EXTERNAL_DIFF")
        .env_remove("NO_COLOR")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    for (k, v) in env {
        command.env(k, v);
    }
    let mut child = command.spawn().unwrap();
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

fn smd(args: &[&str]) -> (i32, String, String) {
    smd_with(args, "", &[])
}

/// Exit code, stdout and stderr as one text for a snapshot.
fn shown(result: (i32, String, String)) -> String {
    let (code, out, err) = result;
    format!("exit: {code}\n--- stdout\n{out}--- stderr\n{err}")
}

const HPA_LIVE: &str = "examples/deployment-hpa/live.yaml";
const HPA_APPLIED: &str = "examples/deployment-hpa/applied.yaml";
const NOW: &str = "2026-06-01T12:00:00Z";

#[test]
fn diff_shows_the_hpa_conflict_and_exits_3() {
    let result = smd(&[
        "diff",
        HPA_LIVE,
        HPA_APPLIED,
        "--manager",
        "kubectl",
        "--now",
        NOW,
    ]);
    assert_eq!(result.0, 3, "{}", result.2);
    assert!(
        result.1.contains(
            r#"Apply failed with 1 conflict: conflict with "horizontal-pod-autoscaler" with subresource "scale" using apps/v1: .spec.replicas"#
        ),
        "{}",
        result.1
    );
    insta::assert_snapshot!("diff-hpa-conflict", shown(result));
}

#[test]
fn diff_in_color() {
    let result = smd(&[
        "diff",
        HPA_LIVE,
        HPA_APPLIED,
        "--manager",
        "kubectl",
        "--now",
        NOW,
        "--color",
        "always",
    ]);
    assert!(result.1.contains("\x1b[31m-"), "{}", result.1);
    insta::assert_snapshot!("diff-hpa-color", shown(result));
}

#[test]
fn diff_forced_changes_exit_1() {
    let result = smd(&[
        "diff",
        HPA_LIVE,
        HPA_APPLIED,
        "--field-manager",
        "kubectl",
        "--force-conflicts",
        "--now",
        NOW,
    ]);
    assert_eq!(result.0, 1, "{}", result.2);
    insta::assert_snapshot!("diff-hpa-forced", shown(result));
    // --force is kubectl's old spelling.
    let old = smd(&[
        "diff",
        HPA_LIVE,
        HPA_APPLIED,
        "--manager",
        "kubectl",
        "--force",
        "--now",
        NOW,
    ]);
    assert_eq!(old.0, 1);
}

#[test]
fn diff_of_the_live_object_against_itself_exits_0() {
    // Re-applying exactly what kubectl owns changes nothing.
    let result = smd(&[
        "diff",
        HPA_LIVE,
        HPA_LIVE,
        "--manager",
        "kubectl",
        "--now",
        NOW,
    ]);
    // The live object carries managedFields, which a manifest may not.
    assert_eq!(result.0, 2, "{}", result.1);
    assert!(
        result.2.contains("metadata.managedFields must be nil"),
        "{}",
        result.2
    );
    assert!(result.1.is_empty());
}

#[test]
fn diff_json_and_yaml_reports() {
    let json = smd(&[
        "diff",
        HPA_LIVE,
        HPA_APPLIED,
        "--manager",
        "kubectl",
        "--now",
        NOW,
        "-o",
        "json",
    ]);
    assert_eq!(json.0, 3);
    let report: serde_json::Value = serde_json::from_str(&json.1).unwrap();
    assert_eq!(report["apiVersion"], "smd/v2");
    assert_eq!(report["kind"], "DiffReport");
    assert_eq!(report["items"][0]["conflicts"][0]["path"], ".spec.replicas");
    assert_eq!(report["items"][0]["conflicts"][0]["live"], 5);
    assert_eq!(report["items"][0]["conflicts"][0]["applied"], 3);
    insta::assert_snapshot!("diff-hpa-json", json.1);
    let yaml = smd(&[
        "diff",
        HPA_LIVE,
        HPA_APPLIED,
        "--manager",
        "kubectl",
        "--now",
        NOW,
        "-o",
        "yaml",
    ]);
    let back = smd::fieldpath::yaml::from_str(&yaml.1).unwrap();
    assert_eq!(back, smd::fieldpath::Value::from(report));
}

#[test]
fn diff_pairs_documents_and_reports_the_unmatched() {
    let result = smd(&[
        "diff",
        "cli/tests/data/configmaps-live.yaml",
        "cli/tests/data/configmaps.yaml",
        "--manager",
        "kubectl",
        "--now",
        NOW,
    ]);
    assert_eq!(result.0, 1, "{}", result.2);
    insta::assert_snapshot!("diff-pairs", shown(result));
}

#[test]
fn diff_reads_live_from_stdin() {
    let live = std::fs::read_to_string(root().join("cli/tests/data/configmaps-live.yaml")).unwrap();
    let result = smd_with(
        &[
            "diff",
            "-",
            "cli/tests/data/configmaps.yaml",
            "--manager",
            "kubectl",
            "--now",
            NOW,
        ],
        &live,
        &[],
    );
    assert_eq!(result.0, 1, "{}", result.2);
    assert!(
        result.1.contains("Kept (no longer in the manifest"),
        "{}",
        result.1
    );
}

#[test]
fn diff_create_with_one_file() {
    let result = smd(&[
        "diff",
        "cli/tests/data/configmaps.yaml",
        "--manager",
        "kubectl",
        "--now",
        NOW,
    ]);
    assert_eq!(result.0, 1, "{}", result.2);
    insta::assert_snapshot!("diff-create", shown(result));
}

#[test]
fn external_diff_program_is_used() {
    let result = smd_with(
        &[
            "diff",
            HPA_LIVE,
            HPA_APPLIED,
            "--manager",
            "kubectl",
            "--now",
            NOW,
            "--force-conflicts",
        ],
        "",
        &[("KUBECTL_EXTERNAL_DIFF", "diff -u -N")],
    );
    assert_eq!(result.0, 1, "{}", result.2);
    assert!(result.1.contains("-  replicas: 5"), "{}", result.1);
    assert!(result.1.contains("+  replicas: 3"), "{}", result.1);
    // kubectl's directories (LIVE-XXXXXX, MERGED-XXXXXX) and file names.
    assert!(
        result.1.contains("/LIVE-") && result.1.contains("/MERGED-"),
        "{}",
        result.1
    );
    assert!(
        result.1.contains("/apps.v1.Deployment.default.web"),
        "{}",
        result.1
    );
}

#[test]
fn apply_prints_the_stored_object_or_refuses() {
    let refused = smd(&[
        "apply",
        HPA_LIVE,
        HPA_APPLIED,
        "--manager",
        "kubectl",
        "--now",
        NOW,
    ]);
    assert_eq!(refused.0, 3);
    assert!(refused.1.is_empty(), "nothing half-written: {}", refused.1);
    insta::assert_snapshot!("apply-refused", shown(refused));
    let forced = smd(&[
        "apply",
        HPA_LIVE,
        HPA_APPLIED,
        "--manager",
        "kubectl",
        "--now",
        NOW,
        "--force-conflicts",
    ]);
    assert_eq!(forced.0, 0, "{}", forced.2);
    insta::assert_snapshot!("apply-forced", shown(forced));
    let json = smd(&[
        "apply",
        HPA_LIVE,
        HPA_APPLIED,
        "--manager",
        "kubectl",
        "--now",
        NOW,
        "--force-conflicts",
        "-o",
        "json",
    ]);
    let object: serde_json::Value = serde_json::from_str(&json.1).unwrap();
    assert_eq!(object["spec"]["replicas"], 3);
}

#[test]
fn blame_annotates_every_owned_line() {
    let result = smd(&["blame", HPA_LIVE, "--color", "never"]);
    assert_eq!(result.0, 0, "{}", result.2);
    insta::assert_snapshot!("blame-hpa", shown(result));
    let colored = smd(&["blame", HPA_LIVE, "--color", "always"]);
    insta::assert_snapshot!("blame-hpa-color", shown(colored));
    // Set members (`v:` elements) and a block scalar: each line its own owners.
    let members = smd(&[
        "blame",
        "cli/tests/data/set-members.yaml",
        "--color",
        "never",
    ]);
    assert!(
        members
            .1
            .contains("one (Apply)                       |   - a.example.com/x"),
        "{}",
        members.1
    );
    insta::assert_snapshot!("blame-set-members", shown(members));
    // Keyed items of the CRD example: each listener line names its owners.
    let crd = smd(&[
        "blame",
        "examples/crd-instance/live.yaml",
        "--color",
        "never",
    ]);
    insta::assert_snapshot!("blame-crd", shown(crd));
}

#[test]
fn fields_as_paths_fieldsv1_and_sizes() {
    // Go's order: whole paths as `Set.Iterate` walks them; the default is a tree.
    insta::assert_snapshot!(
        "fields-paths",
        shown(smd(&["fields", HPA_LIVE, "--order", "go"]))
    );
    insta::assert_snapshot!("fields-tree", shown(smd(&["fields", HPA_LIVE])));
    insta::assert_snapshot!(
        "fields-fieldsv1-kubectl",
        shown(smd(&[
            "fields",
            HPA_LIVE,
            "--manager",
            "kubectl",
            "-o",
            "fieldsv1"
        ]))
    );
    insta::assert_snapshot!("fields-sizes", shown(smd(&["fields", HPA_LIVE, "--sizes"])));
}

#[test]
fn validate_accepts_and_names_each_problem() {
    let ok = smd(&["validate", HPA_LIVE, HPA_APPLIED]);
    assert_eq!(ok.0, 0, "{}", ok.2);
    let bad = smd(&["validate", "cli/tests/data/invalid.yaml"]);
    assert_eq!(bad.0, 2);
    assert!(bad.1.is_empty());
    insta::assert_snapshot!("validate-invalid", shown(bad));
}

#[test]
fn refusals_carry_the_api_servers_words() {
    let cases: [(&str, Vec<&str>); 5] = [
        (
            "refuse-managed-fields-in-manifest",
            vec![
                "diff",
                "cli/tests/data/with-managed-fields.yaml",
                "--manager",
                "kubectl",
            ],
        ),
        (
            "refuse-empty-manager",
            vec!["diff", HPA_LIVE, HPA_APPLIED, "--manager", ""],
        ),
        (
            "refuse-unknown-kind",
            vec![
                "diff",
                "cli/tests/data/unknown-kind.yaml",
                "--manager",
                "kubectl",
            ],
        ),
        (
            "refuse-version-mismatch",
            vec![
                "diff",
                HPA_LIVE,
                "cli/tests/data/deployment-v1beta2.yaml",
                "--manager",
                "kubectl",
            ],
        ),
        (
            "refuse-missing-file",
            vec!["diff", "no/such/file.yaml", "--manager", "kubectl"],
        ),
    ];
    for (name, args) in cases {
        let mut args = args;
        args.extend(["--now", NOW]);
        let result = smd(&args);
        assert_eq!(result.0, 2, "{name}: {}", result.2);
        assert!(
            result.1.is_empty(),
            "{name}: nothing on stdout: {}",
            result.1
        );
        insta::assert_snapshot!(name, shown(result));
    }
    let long = "m".repeat(129);
    let result = smd(&[
        "diff",
        HPA_LIVE,
        HPA_APPLIED,
        "--manager",
        &long,
        "--now",
        NOW,
    ]);
    assert_eq!(result.0, 2);
    assert!(
        result
            .2
            .contains("fieldManager: Too long: may not be more than 128 bytes"),
        "{}",
        result.2
    );
}

#[test]
fn help_teaches() {
    let (code, out, _) = smd(&["--help"]);
    assert_eq!(code, 0);
    assert!(out.contains("admission webhooks"), "{out}");
    insta::assert_snapshot!("help", out);
    let (code, out, _) = smd(&["diff", "--help"]);
    assert_eq!(code, 0);
    insta::assert_snapshot!("help-diff", out);
}

/// Every manifest of `examples/sequences.yaml`, applied with `smd apply` to its example's live
/// object, gives what Go's field manager gave (`gogen examples` wrote the result, or checked
/// the error): the same managedFields entries and every value Go stored (smd adds what the
/// API server's decoding and defaulting add, which Go's imitation of the endpoint does not),
/// or the same refusal.
#[test]
fn examples_apply_as_go_applied_them() {
    use smd::fieldpath::{Value, yaml};
    let text = std::fs::read_to_string(root().join("examples/sequences.yaml")).unwrap();
    let spec = yaml::from_str(&text).unwrap();
    let get = |v: &Value, k: &str| v.as_map().and_then(|m| m.get(k)).cloned();
    let mut checked = 0;
    for example in get(&spec, "examples").unwrap().as_list().unwrap() {
        let name = get(example, "name").unwrap().as_str().unwrap().to_owned();
        let dir = format!("examples/{name}");
        let crds: Vec<String> = get(example, "crdFiles")
            .map(|l| {
                l.as_list()
                    .unwrap()
                    .iter()
                    .map(|f| format!("{dir}/{}", f.as_str().unwrap()))
                    .collect()
            })
            .unwrap_or_default();
        for apply in get(example, "applies").unwrap().as_list().unwrap() {
            let manifest = format!(
                "{dir}/{}",
                get(apply, "manifest").unwrap().as_str().unwrap()
            );
            let manager = get(apply, "manager").unwrap().as_str().unwrap().to_owned();
            let force = get(apply, "force")
                .and_then(|f| f.as_bool())
                .unwrap_or(false);
            let live = format!("{dir}/live.yaml");
            // Go applied at the step after the sequence; the result's newest entry time is it.
            let now = match get(apply, "result") {
                Some(result) => {
                    let path = root().join(&dir).join(result.as_str().unwrap());
                    let object = yaml::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
                    let times = smd::managedfields::entries(&object)
                        .unwrap()
                        .unwrap_or_default()
                        .into_iter()
                        .filter_map(|e| e.time)
                        .max()
                        .unwrap();
                    Some((object, times.to_string()))
                }
                None => None,
            };
            let time = now.as_ref().map_or(NOW.to_owned(), |(_, t)| t.clone());
            let mut args = vec![
                "apply",
                &live,
                &manifest,
                "--manager",
                &manager,
                "--now",
                &time,
            ];
            if force {
                args.push("--force-conflicts");
            }
            for crd in &crds {
                args.extend(["--crd", crd]);
            }
            let (code, out, err) = smd(&args);
            match (now, get(apply, "error")) {
                (Some((expected, _)), _) => {
                    assert_eq!(code, 0, "{name} {manifest}: {err}");
                    let ours = yaml::from_str(&out).unwrap();
                    // Go's imitation of the endpoint neither decodes nor defaults; the API
                    // server does both, and smd with it (checked against the real server by
                    // the real-server and scheme goldens). So the entries must be Go's exactly,
                    // and every value Go stored must be stored as it is: smd may only add.
                    assert_eq!(
                        smd::managedfields::entries(&ours).unwrap(),
                        smd::managedfields::entries(&expected).unwrap(),
                        "{name} {manifest} as {manager}: smd's entries\n{out}"
                    );
                    if let Some(path) = first_value_not_kept(&expected, &ours, "") {
                        panic!(
                            "{name} {manifest} as {manager}: {path} differs from Go's: smd stores\n{out}"
                        );
                    }
                }
                (None, Some(error)) => {
                    assert_eq!(code, 3, "{name} {manifest}: {out}{err}");
                    assert!(
                        err.contains(error.as_str().unwrap()),
                        "{name} {manifest}: Go says {error}, smd: {err}"
                    );
                }
                (None, None) => panic!("{name}: an apply with neither result nor error"),
            }
            checked += 1;
        }
    }
    assert!(checked >= 9, "only {checked} example applies");
}

/// The first path (other than `metadata.managedFields`) where `ours` does not hold `expected`'s
/// value: a map may have more keys, everything else must be equal.
fn first_value_not_kept(
    expected: &smd::fieldpath::Value,
    ours: &smd::fieldpath::Value,
    at: &str,
) -> Option<String> {
    match (expected, ours) {
        (smd::fieldpath::Value::Map(e), smd::fieldpath::Value::Map(o)) => {
            e.iter().find_map(|(k, v)| {
                let path = format!("{at}.{k}");
                if path == ".metadata.managedFields" {
                    return None;
                }
                match o.get(k) {
                    Some(w) => first_value_not_kept(v, w, &path),
                    None => Some(path),
                }
            })
        }
        (smd::fieldpath::Value::List(e), smd::fieldpath::Value::List(o)) if e.len() == o.len() => e
            .iter()
            .zip(o.iter())
            .enumerate()
            .find_map(|(i, (v, w))| first_value_not_kept(v, w, &format!("{at}[{i}]"))),
        _ => (expected != ours).then(|| at.to_owned()),
    }
}

/// A live object whose managedFields the API server cannot read gets the server's behaviour
/// (a time that does not parse hides the whole list: the apply conflicts with
/// `before-first-apply`), with a warning naming the entry.
#[test]
fn corrupt_managed_fields_get_the_servers_behaviour_and_a_warning() {
    let live = std::fs::read_to_string(root().join(HPA_LIVE)).unwrap();
    let corrupt = live.replacen("time: \"2026-01-01T00:00:01Z\"", "time: yesterday", 1);
    assert_ne!(corrupt, live);
    let result = smd_with(
        &[
            "diff",
            "-",
            HPA_APPLIED,
            "--manager",
            "kubectl",
            "--now",
            NOW,
        ],
        &corrupt,
        &[],
    );
    assert_eq!(result.0, 3, "{}", result.2);
    assert!(
        result.1.contains("conflicts with \"before-first-apply\""),
        "{}",
        result.1
    );
    assert!(
        result
            .2
            .contains("metadata.managedFields[0]: time: parsing time \"yesterday\""),
        "{}",
        result.2
    );
    // An entry it cannot decode refuses the apply, naming the entry.
    let undecodable = live.replacen("operation: Apply", "operation: Patch", 1);
    let result = smd_with(
        &[
            "diff",
            "-",
            HPA_APPLIED,
            "--manager",
            "kubectl",
            "--now",
            NOW,
        ],
        &undecodable,
        &[],
    );
    assert_eq!(result.0, 2, "{}", result.1);
    insta::assert_snapshot!("refuse-undecodable-entry", shown(result));
}

#[test]
fn a_stale_resource_version_is_refused_as_the_server_refuses_it() {
    // The live value is the manifest's: the server checks the version after applying, so a
    // field conflict would be answered first.
    let live = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: settings\n  namespace: default\n  resourceVersion: \"7\"\ndata:\n  LOG_LEVEL: debug\n";
    let (code, out, err) = smd_with(
        &[
            "diff",
            "-",
            "cli/tests/data/configmap-stale-version.yaml",
            "--manager",
            "kubectl",
            "--now",
            NOW,
        ],
        live,
        &[],
    );
    assert_eq!(code, 2, "{out}{err}");
    assert!(out.is_empty(), "{out}");
    // kube-apiserver v1.37.2's words (conformance/apiserver/scenarios/requests.yaml,
    // req-apply-stale-version).
    assert!(
        err.contains(
            "cli/tests/data/configmap-stale-version.yaml: document 1 (line 2): the API server \
             would refuse this apply (409 Conflict): Operation cannot be fulfilled on configmaps \
             \"settings\": the object has been modified; please apply your changes to the latest \
             version and try again"
        ),
        "{err}"
    );
}

#[test]
fn a_manifest_at_another_version_is_converted_as_the_server_converts() {
    // The real server's answer (autoscaling-policy.json, hpa-v1-apply-over-v2 step 2): the v1
    // CPU target is v2's metrics list, which the v2 applier owns.
    let refused = smd(&[
        "apply",
        "cli/tests/data/hpa-v2-live.yaml",
        "cli/tests/data/hpa-v1-manifests.yaml",
        "--manager",
        "legacy",
        "--now",
        NOW,
    ]);
    assert_eq!(refused.0, 3, "{}", refused.2);
    assert!(
        refused
            .2
            .contains("Apply failed with 1 conflict: conflict with \"kubectl\": .spec.metrics"),
        "{}",
        refused.2
    );
    // Values the v2 applier set, applied at v1: no conflict; the object as a v1 read shows it
    // (hpa-v1-read-of-v2 step 2): the CPU metric as the target, the memory one in the
    // annotation, managedFields entries at their own versions.
    let (code, out, err) = smd(&[
        "apply",
        "cli/tests/data/hpa-v2-live.yaml",
        "cli/tests/data/hpa-v1-shared.yaml",
        "--manager",
        "legacy",
        "--now",
        NOW,
        "-o",
        "json",
    ]);
    assert_eq!(code, 0, "{err}");
    let object: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(object["apiVersion"], "autoscaling/v1");
    assert_eq!(object["spec"]["targetCPUUtilizationPercentage"], 60);
    assert_eq!(
        object["metadata"]["annotations"]["autoscaling.alpha.kubernetes.io/metrics"],
        "[{\"type\":\"Resource\",\"resource\":{\"name\":\"memory\",\"targetAverageValue\":\"1536Mi\"}}]"
    );
    let versions: Vec<&str> = object["metadata"]["managedFields"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["apiVersion"].as_str().unwrap())
        .collect();
    assert_eq!(versions, ["autoscaling/v1", "autoscaling/v2"]);
}

#[test]
fn a_webhook_conversion_is_refused_with_the_export_command() {
    let (code, out, err) = smd(&[
        "diff",
        "cli/tests/data/thing-v1-live.yaml",
        "cli/tests/data/thing-v1alpha1.yaml",
        "--crd",
        "cli/tests/data/thing-webhook-crd.yaml",
        "--manager",
        "kubectl",
        "--now",
        NOW,
    ]);
    assert_eq!(code, 2, "{out}{err}");
    assert!(
        err.contains(
            "cli/tests/data/thing-v1alpha1.yaml: document 1 (line 2): conversion webhook for \
             w.example.com/Thing cannot be called offline: the object is stored at another \
             version of things.w.example.com; export it at v1alpha1 with `kubectl get \
             things.v1alpha1.w.example.com t -n apps -o yaml --show-managed-fields`"
        ),
        "{err}"
    );
    // The live object's own version needs no webhook.
    let (code, _, err) = smd(&[
        "diff",
        "cli/tests/data/thing-v1-live.yaml",
        "cli/tests/data/thing-v1.yaml",
        "--crd",
        "cli/tests/data/thing-webhook-crd.yaml",
        "--manager",
        "kubectl",
        "--now",
        NOW,
    ]);
    assert_eq!(code, 1, "a change: {err}");
}
