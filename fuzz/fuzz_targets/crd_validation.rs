//! A custom resource validated by its CRD's schema (`smd::customresource::Validation`: the
//! OpenAPI v3 value validations, ratcheting, the scale paths, set and map-list duplicates), on
//! hostile schemas and objects. The input is three JSON texts separated by lines `%%`: the
//! version's `openAPIV3Schema` (any JSON: the validator must survive schemas the CRD checks
//! would refuse), the object, and the object an update replaces.
//!
//! Invariants: nothing panics; validating twice gives the same errors; ratcheting only drops
//! errors (each error of an update is one the create of the same object reports); a status
//! update reports only errors under `status` or at the scale's status paths, or duplicates.
//! The schema's `x-kubernetes-validations` rules (CEL) run on the create and the update alike:
//! twice the same errors and warnings, within the cost limits (seeds: the rules of
//! `crd-rules.yaml` among the real-server scenarios).
#![no_main]

use libfuzzer_sys::fuzz_target;
use smd::customresource::Validation;
use smd::fieldpath::Value;
use smd::validation::ErrorType;

fn crd(schema: &str) -> Option<Value> {
    let text = format!(
        r#"{{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition",
 "metadata":{{"name":"knobs.example.com"}},
 "spec":{{"group":"example.com","scope":"Namespaced",
  "names":{{"plural":"knobs","singular":"knob","kind":"Knob","listKind":"KnobList"}},
  "versions":[{{"name":"v1","served":true,"storage":true,
   "subresources":{{"status":{{}},"scale":{{"specReplicasPath":".spec.replicas",
    "statusReplicasPath":".status.replicas","labelSelectorPath":".status.selector"}}}},
   "schema":{{"openAPIV3Schema":{schema}}}}}]}}}}"#
    );
    Value::from_json(&text).ok()
}

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let mut parts = text.split("\n%%\n");
    let (Some(schema), Some(new)) = (parts.next(), parts.next()) else {
        return;
    };
    let Some(crd) = crd(schema) else {
        return;
    };
    let Ok(new) = Value::from_json(new) else {
        return;
    };
    let old = parts
        .next()
        .and_then(|o| Value::from_json(o).ok())
        .unwrap_or_else(|| new.clone());
    let validation = Validation::of_version(&crd, "v1");
    for old in [None, Some(&old)] {
        let ruled = validation.with_rules(Vec::new(), &new, old);
        let again = validation.with_rules(Vec::new(), &new, old);
        assert_eq!(ruled.errors, again.errors, "rules are not deterministic");
        assert_eq!(
            ruled.warnings, again.warnings,
            "rules' warnings are not deterministic"
        );
    }
    let created = validation.validate_create(&new);
    assert_eq!(
        created,
        validation.validate_create(&new),
        "validation is not deterministic"
    );
    let texts: Vec<String> = created.iter().map(ToString::to_string).collect();
    for e in validation.validate_update(&new, &old) {
        assert!(
            texts.contains(&e.to_string()),
            "ratcheting added an error: {e} (create: {texts:?})"
        );
    }
    for e in validation.validate_status_update(&new, &old) {
        // Duplicates are looked for in the whole object; every other check in the status.
        let whole_object = e.kind == ErrorType::Duplicate
            || e.detail == "must be an object for an array of list-type map";
        let field = e.field.as_str();
        assert!(
            whole_object || field.starts_with("status") || field.starts_with(".status."),
            "a status update reported {e}"
        );
    }
});
