//! Issue 11, item 15: silent oddities. An empty input validated "fine" by saying nothing, and
//! `fields` listed entries that `blame` (and the API server) refuse to decode.

use crate::Scratch;

#[test]
fn validating_nothing_says_so() {
    let s = Scratch::new();
    s.file("empty.yaml", "# nothing here\n---\n---\n");
    let run = s.smd(&["validate", "empty.yaml"]);
    assert_eq!(run.code, 2, "{run:?}");
    assert_eq!(
        run.stderr,
        "smd: empty.yaml: no objects to validate (only empty documents)\n"
    );
    assert_eq!(run.stdout, "");
    let run = crate::smd_in(s.path(), &["validate"], b"", &[]);
    assert_eq!(run.code, 2, "{run:?}");
    assert!(
        run.stderr.starts_with("smd: <stdin>: no objects"),
        "{run:?}"
    );
}

#[test]
fn fields_and_blame_decode_managed_fields_alike() {
    let s = Scratch::new();
    s.file(
        "live.yaml",
        "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\n  managedFields:\n  - apiVersion: v1\n    fieldsType: FieldsV1\n    fieldsV1: {f:data: {f:a: {}}}\n    manager: m\n    operation: Patch\ndata:\n  a: x\n",
    );
    let blame = s.smd(&["blame", "live.yaml"]);
    assert_eq!(blame.code, 2, "{blame:?}");
    assert!(
        blame
            .stderr
            .contains("operation must be `Apply` or `Update`"),
        "{blame:?}"
    );
    for args in [
        &["fields", "live.yaml"][..],
        &["fields", "live.yaml", "-o", "fieldsv1"][..],
    ] {
        let fields = s.smd(args);
        assert_eq!(
            (fields.code, &fields.stderr),
            (2, &blame.stderr),
            "{args:?}"
        );
        assert_eq!(fields.stdout, "");
    }
}
