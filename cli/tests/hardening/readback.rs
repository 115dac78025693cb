//! Item 13: whatever `smd apply` writes, smd reads back. The stored object carries
//! managedFields whose `fieldsV1` nests five levels deeper than the paths it names (the object,
//! `metadata`, `managedFields`, the entry, the `fieldsV1` map), so an object near the readers'
//! nesting limit used to apply fine and come out unreadable.

use super::{Run, Scratch};

/// A CRD whose custom resources hold anything, so a manifest can nest as deep as it likes.
const CRD: &str = "apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: deeps.example.com
spec:
  group: example.com
  names: {kind: Deep, plural: deeps}
  scope: Namespaced
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema: {type: object, x-kubernetes-preserve-unknown-fields: true}
";

/// A `Deep` whose leaf lies at a path of `elements` elements (`.spec.a.a…`), so the manifest
/// nests `elements` levels deep.
fn deep(elements: usize) -> String {
    let mut spec = "x".to_string();
    for _ in 1..elements {
        spec = format!("{{a: {spec}}}");
    }
    format!(
        "apiVersion: example.com/v1\nkind: Deep\nmetadata: {{name: d, namespace: default}}\nspec: {spec}\n"
    )
}

/// How deeply a JSON text nests its objects and arrays.
fn json_depth(text: &str) -> usize {
    let (mut depth, mut deepest, mut in_string, mut escaped) = (0usize, 0, false, false);
    for c in text.chars() {
        match (in_string, escaped, c) {
            (true, true, _) => escaped = false,
            (true, false, '\\') => escaped = true,
            (true, false, '"') => in_string = false,
            (true, false, _) => {}
            (false, _, '"') => in_string = true,
            (false, _, '{' | '[') => {
                depth += 1;
                deepest = deepest.max(depth);
            }
            (false, _, '}' | ']') => depth = depth.saturating_sub(1),
            (false, _, _) => {}
        }
    }
    deepest
}

/// A run, short enough for an assertion message: the exit code and the start of stderr.
fn brief(run: &Run) -> String {
    let stderr: String = run.stderr.chars().take(300).collect();
    format!("exit {}: {stderr}", run.code)
}

fn apply(scratch: &Scratch, args: &[&str]) -> Run {
    let mut all = vec!["apply"];
    all.extend_from_slice(args);
    all.extend_from_slice(&[
        "--crd",
        "crd.yaml",
        "--manager",
        "m",
        "--now",
        "2026-01-02T00:00:00Z",
    ]);
    scratch.smd(&all)
}

#[test]
fn what_apply_writes_reads_back() {
    let scratch = Scratch::new();
    scratch.file("crd.yaml", CRD);
    let mut applied = 0;
    // From well inside the limit to the deepest manifest the reader takes (1000 levels).
    for elements in [990, 994, 995, 996, 997, 1000] {
        scratch.file("deep.yaml", deep(elements));
        let run = apply(&scratch, &["deep.yaml"]);
        if run.code != 0 {
            // Refusing is fine, if smd says that the limit is its own.
            assert_eq!(run.code, 2, "{elements}: {run:?}");
            assert!(run.stdout.is_empty(), "{elements}: {run:?}");
            assert!(
                run.stderr.contains("smd's limit"),
                "{elements}: {}",
                run.stderr
            );
            continue;
        }
        applied += 1;
        scratch.file("stored.yaml", &run.stdout);
        let validate = scratch.smd(&["validate", "stored.yaml", "--crd", "crd.yaml"]);
        assert_eq!(
            validate.code, 0,
            "{elements}: validate: {}",
            validate.stderr
        );
        for output in ["paths", "fieldsv1"] {
            let fields = scratch.smd(&["fields", "stored.yaml", "-o", output]);
            assert_eq!(
                fields.code, 0,
                "{elements}: fields -o {output}: {}",
                fields.stderr
            );
        }
        let again = apply(&scratch, &["stored.yaml", "deep.yaml"]);
        assert_eq!(again.code, 0, "{elements}: apply to it: {}", brief(&again));
        // The JSON output nests as deep: within the readers' limit too, and read back.
        let json = apply(&scratch, &["deep.yaml", "-o", "json"]);
        assert_eq!(json.code, 0, "{elements}: -o json: {}", brief(&json));
        let depth = json_depth(&json.stdout);
        assert!(
            depth <= smd::fieldpath::MAX_DEPTH,
            "{elements}: -o json nests {depth} levels"
        );
        scratch.file("stored.json", &json.stdout);
        let validate = scratch.smd(&["validate", "stored.json", "--crd", "crd.yaml"]);
        assert_eq!(
            validate.code, 0,
            "{elements}: validate -o json: {}",
            validate.stderr
        );
    }
    // Not vacuous: the deepest objects that fit are applied and read back.
    assert!(applied >= 3, "only {applied} depths applied");
}

#[test]
fn json_depth_counts_nesting_outside_strings() {
    assert_eq!(json_depth(r#"{"a":[{"b":"[{"}],"c":"\\\"{"}"#), 3);
}

#[test]
fn the_refusal_names_smds_limit() {
    let scratch = Scratch::new();
    scratch.file("crd.yaml", CRD);
    scratch.file("deep.yaml", deep(1000));
    let run = apply(&scratch, &["deep.yaml"]);
    assert_eq!(run.code, 2, "{}", brief(&run));
    assert!(run.stdout.is_empty());
    assert!(run.stderr.contains("deep.yaml"), "{}", brief(&run));
    assert!(run.stderr.contains("smd's limit"), "{}", brief(&run));
}
