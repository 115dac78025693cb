//! Issue 11, item 9: an error names the input it is about. A fault in the LIVE object was
//! reported against the manifest's file and document.

use crate::Scratch;

const MANIFEST: &str =
    "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\n  namespace: default\ndata:\n  a: x\n";

fn live(extra_top: &str, managed: &str) -> String {
    format!(
        "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\n  namespace: default\n  uid: 0d8f3a4e-0000-4000-8000-000000000001\n  managedFields:\n{managed}data:\n  a: old\n{extra_top}"
    )
}

const GOOD_ENTRY: &str = "  - apiVersion: v1\n    fieldsType: FieldsV1\n    fieldsV1: {f:data: {f:a: {}}}\n    manager: other\n    operation: Update\n";

#[test]
fn a_fault_in_the_live_object_names_the_live_file() {
    let s = Scratch::new();
    s.file("applied.yaml", MANIFEST);
    // A value of the wrong type: it survives the decoding a server would apply (which drops
    // unknown fields), so the typed live object fails.
    s.file("live-field.yaml", live("  b: 1\n", GOOD_ENTRY));
    s.file(
        "live-entry.yaml",
        live("", &format!("{GOOD_ENTRY}  - apiVersion: v1\n    fieldsType: FieldsV1\n    fieldsV1: {{f:data: {{f:a: {{}}}}}}\n    manager: broken\n    operation: Patch\n")),
    );
    for (file, words) in [
        ("live-field.yaml", "failed to create typed live object"),
        ("live-entry.yaml", ".metadata.managedFields[1]"),
    ] {
        for command in ["diff", "apply"] {
            let run = s.smd(&[command, file, "applied.yaml", "--manager", "m"]);
            assert_eq!(run.code, 2, "{command} {file}: {run:?}");
            // (A warning about the entry may come first.)
            assert!(
                run.stderr.lines().any(|line| line.starts_with(&format!(
                    "smd: {file}: document 1 (line 1): the live object ConfigMap default/c"
                ))),
                "{command} {file}: {}",
                run.stderr
            );
            assert!(
                run.stderr.contains(words),
                "{command} {file}: {}",
                run.stderr
            );
            assert!(
                run.stderr.contains("applied.yaml: document 1"),
                "{}",
                run.stderr
            );
        }
    }
}

#[test]
fn a_fault_in_the_manifest_names_the_manifest() {
    let s = Scratch::new();
    s.file("applied.yaml", format!("{MANIFEST}bogus: 1\n"));
    s.file("live.yaml", live("", GOOD_ENTRY));
    let run = s.smd(&["diff", "live.yaml", "applied.yaml", "--manager", "m"]);
    assert_eq!(run.code, 2, "{run:?}");
    assert!(
        run.stderr.starts_with(
            "smd: applied.yaml: document 1 (line 1): the API server would refuse this apply"
        ),
        "{}",
        run.stderr
    );
    assert!(
        run.stderr.contains("failed to create typed patch object"),
        "{}",
        run.stderr
    );
}
