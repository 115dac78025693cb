//! Plain wording where the report misled (issue 14, item 5), run through the binary: an item
//! that goes is removed with what others set in it, and says so; an apply that changes only
//! ownership says so; a status apply names the fields the server ignores.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::process::Command;

const NOW: &str = "2026-06-01T12:00:00Z";

fn smd(args: &[&str]) -> (i32, String, String) {
    let output = Command::new(env!("CARGO_BIN_EXE_smd"))
        .args(args)
        .args(["--now", NOW, "--color", "never"])
        .current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
        .env_remove("KUBECTL_EXTERNAL_DIFF")
        .output()
        .unwrap();
    (
        output.status.code().unwrap_or(-1),
        String::from_utf8(output.stdout).unwrap(),
        String::from_utf8(output.stderr).unwrap(),
    )
}

fn report(args: &[&str]) -> smd::report::DiffReport {
    let mut args = args.to_vec();
    args.extend(["-o", "json"]);
    let (_, out, err) = smd(&args);
    serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}: {out}{err}"))
}

const LIVE: &str = "cli/tests/data/co-owned-live.yaml";

#[test]
fn an_item_goes_with_what_others_set_in_it() {
    let args = ["diff", LIVE, "cli/tests/data/co-owned-applied.yaml"];
    let (code, out, _) = smd(&args);
    assert_eq!(code, 1);
    let removed = out.split("\nRemoved").nth(1).unwrap();
    insta::assert_snapshot!("removed-co-owned", removed);
    let r = report(&args);
    let item = &r.items[1];
    assert_eq!(
        item.removed,
        [".spec.template.spec.containers[name=\"sidecar\"]"]
    );
    assert_eq!(item.removed_co_owned.len(), 1);
    assert_eq!(item.removed_co_owned[0].owners[0].manager, "injector");
    // What the section says: the sidecar, injector's env included, is not in the stored object.
    let stored = item.result.as_ref().unwrap();
    let containers = &stored["spec"]["template"]["spec"]["containers"];
    assert_eq!(containers.as_array().unwrap().len(), 1);
    assert_eq!(containers[0]["name"], "app");
}

#[test]
fn ownership_only_changes_are_said() {
    let args = [
        "diff",
        LIVE,
        "cli/tests/data/configmap-same-data.yaml",
        "--manager",
        "other",
    ];
    let (code, out, _) = smd(&args);
    // The stored object changes (its managedFields): exit 1, and the text says why.
    assert_eq!(code, 1);
    assert!(
        out.contains("# The object would not change: only ownership changes (below).\n"),
        "{out}"
    );
    assert!(
        out.contains("\"other\" (Apply) (new manager)\n    + .data.a\n"),
        "{out}"
    );
    let (_, same, _) = smd(&["diff", LIVE, "cli/tests/data/configmap-same-data.yaml"]);
    assert!(same.contains("# The object would not change.\n"), "{same}");
}

#[test]
fn a_status_apply_names_the_fields_it_ignores() {
    let args = [
        "diff",
        "examples/deployment-hpa/live.yaml",
        "cli/tests/data/deployment-status-apply.yaml",
        "--subresource",
        "status",
        "--manager",
        "ctl",
        "--force-conflicts",
    ];
    let (code, out, _) = smd(&args);
    assert_eq!(code, 1);
    assert!(
        out.contains(
            "# Through the status subresource the API server ignores the manifest's other \
             fields, and keeps the live values: .metadata.labels.extra, .spec.replicas\n"
        ),
        "{out}"
    );
    let r = report(&args);
    assert_eq!(
        r.items[0].ignored,
        [".metadata.labels.extra", ".spec.replicas"]
    );
    // What it says holds: the stored object keeps the live values.
    let stored = r.items[0].result.as_ref().unwrap();
    assert_eq!(stored["spec"]["replicas"], 5);
    assert!(stored["metadata"]["labels"].get("extra").is_none());
    assert_eq!(stored["status"]["observedGeneration"], 9);
}
