//! Item 10: `smd schema lint` refuses, with `schema convert`'s words, every CRD that convert and
//! the API server refuse (it used to exit 0 with no output), the CRD version rules are the
//! server's, and a nesting limit that is smd's, not the server's, says so.

use crate::Scratch;

const HEAD: &str = "apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: widgets.example.com}
spec:
  group: example.com
  scope: Namespaced
  names: {plural: widgets, kind: Widget}
";

fn one_version(list_extra: &str) -> String {
    format!(
        "{HEAD}  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          l:
            type: array
            items: {{type: object, required: [a], properties: {{a: {{type: string}}}}}}
            {list_extra}
"
    )
}

/// Lint and convert of `crd` both exit 2 with the same message, which holds `words` (Go's text
/// from the API server's validation, as the conformance goldens record it).
fn refused_like_convert(crd: &str, words: &str) {
    let s = Scratch::new();
    s.file("crd.yaml", crd);
    let lint = s.smd(&["schema", "lint", "crd.yaml"]);
    let convert = s.smd(&["schema", "convert", "crd.yaml"]);
    assert_eq!(convert.code, 2, "convert: {convert:?}");
    assert_eq!(
        (lint.code, lint.stdout.as_str(), lint.stderr.as_str()),
        (2, "", convert.stderr.as_str()),
        "lint must refuse what convert refuses, in the same words"
    );
    assert!(
        lint.stderr
            .starts_with("smd: crd.yaml: CRD widgets.example.com: "),
        "{}",
        lint.stderr
    );
    assert!(lint.stderr.contains(words), "{}", lint.stderr);
}

#[test]
fn unknown_list_type() {
    refused_like_convert(
        &one_version("x-kubernetes-list-type: bogus"),
        "spec.validation.openAPIV3Schema.properties[l].x-kubernetes-list-type: Unsupported value: \
         \"bogus\": supported values: \"atomic\", \"set\", \"map\"",
    );
}

#[test]
fn list_map_without_keys() {
    refused_like_convert(
        &one_version("x-kubernetes-list-type: map"),
        "spec.validation.openAPIV3Schema.properties[l].x-kubernetes-list-map-keys: Required \
         value: must not be empty if x-kubernetes-list-type is map",
    );
}

#[test]
fn a_ref() {
    refused_like_convert(
        &one_version("$ref: '#/definitions/x'"),
        "spec.validation.openAPIV3Schema.properties[l].$ref: Forbidden: $ref is not supported",
    );
}

#[test]
fn no_versions() {
    refused_like_convert(
        &format!("{HEAD}  versions: []\n"),
        "spec.versions: Invalid value: []: must have exactly one version marked as storage version",
    );
}

fn version(name: &str, storage: bool) -> String {
    format!(
        "  - name: {name}
    served: true
    storage: {storage}
    schema:
      openAPIV3Schema: {{type: object}}
"
    )
}

#[test]
fn no_storage_version() {
    refused_like_convert(
        &format!("{HEAD}  versions:\n{}", version("v1", false)),
        "spec.versions: Invalid value: [{\"Name\":\"v1\",\"Served\":true,\"Storage\":false,\
         \"Deprecated\":false,\"DeprecationWarning\":null,\"Schema\":null,\"Subresources\":null,\
         \"AdditionalPrinterColumns\":null,\"SelectableFields\":null}]: must have exactly one \
         version marked as storage version",
    );
}

#[test]
fn two_storage_versions() {
    refused_like_convert(
        &format!(
            "{HEAD}  versions:\n{}{}",
            version("v1", true),
            version("v2", true)
        ),
        "status.storedVersions: Invalid value: [\"v1\"]: must have the storage version v2",
    );
}

#[test]
fn duplicate_version_names() {
    refused_like_convert(
        &format!(
            "{HEAD}  versions:\n{}{}",
            version("v1", true),
            version("v1", false)
        ),
        "\"SelectableFields\":null}]: must contain unique version names",
    );
}

#[test]
fn version_name_not_dns_1035() {
    refused_like_convert(
        &format!("{HEAD}  versions:\n{}", version("V1", true)),
        "spec.versions[0].name: Invalid value: \"V1\": a DNS-1035 label must consist of lower \
         case alphanumeric characters or '-'",
    );
}

/// A schema nested `levels` deep under `spec` (the API server accepts any depth).
fn nested(levels: usize) -> String {
    let mut schema = String::from("{type: string}");
    for _ in 0..levels {
        schema = format!("{{type: object, properties: {{a: {schema}}}}}");
    }
    format!(
        "{HEAD}  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec: {schema}
"
    )
}

#[test]
fn deep_schemas_are_refused_as_smds_limit_not_the_servers() {
    // The API server accepts this schema, and so does smd (see nesting.rs for the limit).
    let s = Scratch::new();
    s.file("deep.yaml", nested(150));
    let lint = s.smd(&["schema", "lint", "deep.yaml"]);
    assert_eq!((lint.code, lint.stderr.as_str()), (0, ""), "{lint:?}");

    // So is an OpenAPI document's 200 levels of maps (smd stopped at 128).
    let mut schema = String::from("{type: string}");
    for _ in 0..100 {
        schema = format!("{{type: object, properties: {{a: {schema}}}}}");
    }
    s.file(
        "openapi.yaml",
        format!("openapi: 3.0.0\ncomponents:\n  schemas:\n    t: {schema}\n"),
    );
    let lint = s.smd(&["schema", "lint", "openapi.yaml"]);
    assert_eq!((lint.code, lint.stderr.as_str()), (0, ""), "{lint:?}");
    let convert = s.smd(&["schema", "convert", "openapi.yaml"]);
    assert_eq!(convert.code, 0, "{convert:?}");

    // Past the reader's limit, the reader says the limit is smd's too.
    s.file("deepest.yaml", nested(600));
    let lint = s.smd(&["schema", "lint", "deepest.yaml"]);
    let convert = s.smd(&["schema", "convert", "deepest.yaml"]);
    assert_eq!(
        (lint.code, lint.stderr.as_str()),
        (2, convert.stderr.as_str())
    );
    assert!(
        lint.stderr.contains("(smd's limit, not the API server's)"),
        "{}",
        lint.stderr
    );
}
