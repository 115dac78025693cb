//! `smd schema convert`: OpenAPI documents to SMD schema YAML or JSON.

use super::Format;
use super::load::load;
use super::source::index_document;
use crate::{Failure, Outcome, Status};
use smd::fieldpath::Value;
use smd_schema::Schema;
use std::io::Write;
use std::path::PathBuf;

pub(crate) fn run(
    inputs: &[PathBuf],
    format: Format,
    out: &mut dyn Write,
) -> Result<Status, Outcome> {
    let loaded = load(inputs)?;
    let text = match format {
        Format::Yaml => {
            let mut text = loaded.schema.to_yaml();
            if let Some(index) = loaded.gvk.as_ref().filter(|i| !i.is_empty()) {
                // A second document: structured-merge-diff reads the first only, and refuses
                // keys its schema of schemas does not declare.
                text.push_str("---\n");
                text.push_str(&smd::fieldpath::yaml::to_string(&index_document(index)));
            }
            text
        }
        Format::Json => {
            let mut text = to_json(&loaded.schema)?;
            if let Some(index) = loaded.gvk.as_ref().filter(|i| !i.is_empty()) {
                // A second JSON value of the stream, as YAML's second document.
                let index = pretty_json(&index_document(index))?;
                text.push_str(&index);
            }
            text
        }
    };
    out.write_all(text.as_bytes())?;
    Ok(Status::Ok)
}

/// The schema as JSON: SMD's schema document (the canonical YAML, read back as a value), keys
/// in the YAML's order, two-space indentation. `Schema::from_yaml` reads it too.
fn to_json(schema: &Schema) -> Result<String, Failure> {
    let value: Value = smd::fieldpath::yaml::from_str(&schema.to_yaml())
        .map_err(|e| Failure::new(format!("cannot write the schema as JSON: {e}")))?;
    pretty_json(&value)
}

/// A value as two-space indented JSON, with its line break.
fn pretty_json(value: &Value) -> Result<String, Failure> {
    let mut text = serde_json::to_string_pretty(value)
        .map_err(|e| Failure::new(format!("cannot write the schema as JSON: {e}")))?;
    text.push('\n');
    Ok(text)
}

#[cfg(test)]
mod tests {
    use crate::tests::{run_cli, temp_file};
    use smd_schema::Schema;

    const V2: &[u8] = br#"{"swagger": "2.0", "definitions": {
      "io.k8s.api.apps.v1.Deployment": {"type": "object",
        "x-kubernetes-group-version-kind": [{"group": "apps", "version": "v1", "kind": "Deployment"}],
        "properties": {"replicas": {"type": "integer"},
          "ports": {"type": "array", "x-kubernetes-list-type": "map",
                    "x-kubernetes-list-map-keys": ["port"],
                    "items": {"type": "object", "properties": {"port": {"type": "integer"}}}}}}}}"#;

    #[test]
    fn v2_json_to_yaml() {
        let file = temp_file(V2);
        let (code, out, err) = run_cli(&["schema", "convert", file.as_str()]);
        assert_eq!((code, err.as_str()), (0, ""));
        assert!(
            out.starts_with("types:\n- name: __untyped_atomic_\n"),
            "{out}"
        );
        let deployment = &out[out
            .find("- name: io.k8s.api.apps.v1.Deployment")
            .unwrap_or(0)..];
        assert_eq!(
            deployment,
            "- name: io.k8s.api.apps.v1.Deployment
  map:
    fields:
    - name: ports
      type:
        list:
          elementType:
            map:
              fields:
              - name: port
                type:
                  scalar: numeric
          elementRelationship: associative
          keys:
          - port
    - name: replicas
      type:
        scalar: numeric
---
gvkIndex:
- group: apps
  version: v1
  kind: Deployment
  type: io.k8s.api.apps.v1.Deployment
"
        );
    }

    #[test]
    fn v3_yaml_to_json_reads_back_as_the_same_schema() {
        let file = temp_file(
            b"openapi: 3.0.0\ncomponents:\n  schemas:\n    t:\n      type: object\n      \
              properties:\n        s: {type: array, items: {type: string}, x-kubernetes-list-type: set}\n",
        );
        let (code, json, err) = run_cli(&["schema", "convert", file.as_str(), "-o", "json"]);
        assert_eq!((code, err.as_str()), (0, ""));
        assert!(json.starts_with("{\n  \"types\": [\n"), "{json}");
        assert!(
            json.contains("\"elementRelationship\": \"associative\""),
            "{json}"
        );
        let (_, yaml, _) = run_cli(&["schema", "convert", file.as_str()]);
        assert_eq!(Schema::from_yaml(&json).ok(), Schema::from_yaml(&yaml).ok());
        assert!(Schema::from_yaml(&yaml).is_ok());
    }

    /// With a GVK index, `-o json` writes it as a second JSON value, and both forms read back
    /// as the same schema and index (what `--schema` needs to find kinds).
    #[test]
    fn the_gvk_index_survives_json() {
        let file = temp_file(
            br#"{"openapi": "3.0.0", "components": {"schemas": {"io.example.v1.Thing": {
              "type": "object", "properties": {"spec": {"type": "object"}},
              "x-kubernetes-group-version-kind": [{"group": "example.io", "version": "v1", "kind": "Thing"}]}}}}"#,
        );
        let (code, json, err) = run_cli(&["schema", "convert", file.as_str(), "-o", "json"]);
        assert_eq!((code, err.as_str()), (0, ""));
        assert!(json.contains("\n}\n{\n  \"gvkIndex\": ["), "{json}");
        let (_, yaml, _) = run_cli(&["schema", "convert", file.as_str()]);
        let read = |text: &str| {
            let input = crate::input::Input {
                name: "t".to_owned(),
                bytes: text.as_bytes().to_vec(),
            };
            super::super::source::Source::read(&input)
                .and_then(|s| s.into_schema("t"))
                .map_err(|crate::Failure(m)| m)
        };
        let (from_json, from_yaml) = (read(&json).unwrap(), read(&yaml).unwrap());
        assert_eq!(from_json.0, from_yaml.0);
        assert_eq!(format!("{:?}", from_json.1), format!("{:?}", from_yaml.1));
        assert!(
            format!("{:?}", from_json.1).contains("Thing"),
            "{:?}",
            from_json.1
        );
    }

    #[test]
    fn v3_documents_are_merged() {
        let a = temp_file(
            br#"{"openapi": "3.0.0", "components": {"schemas": {
              "a": {"type": "object", "properties": {"x": {"type": "string"}}},
              "shared": {"type": "string"}}}}"#,
        );
        let b = temp_file(
            br#"{"openapi": "3.0.0", "components": {"schemas": {
              "b": {"type": "object", "properties": {"y": {"type": "string"}}},
              "shared": {"type": "string"}}}}"#,
        );
        let (code, out, err) = run_cli(&["schema", "types", "--schema", a.as_str(), b.as_str()]);
        assert_eq!((code, err.as_str()), (0, ""));
        assert_eq!(out, "__untyped_atomic_\n__untyped_deduced_\na\nb\nshared\n");
        let (code, out, _) = run_cli(&["schema", "convert", a.as_str(), b.as_str()]);
        assert_eq!(code, 0);
        assert!(
            out.contains("- name: a\n") && out.contains("- name: b\n"),
            "{out}"
        );
    }

    #[test]
    fn a_type_defined_differently_names_both_files() {
        let a = temp_file(
            br#"{"openapi": "3.0.0", "components": {"schemas": {"t": {"type": "string"}}}}"#,
        );
        let b = temp_file(
            br#"{"openapi": "3.0.0", "components": {"schemas": {"t": {"type": "integer"}}}}"#,
        );
        let (code, out, err) = run_cli(&["schema", "convert", a.as_str(), b.as_str()]);
        assert_eq!((code, out.as_str()), (2, ""));
        assert_eq!(
            err,
            format!(
                "smd: cannot merge the OpenAPI documents: {}, {}: #/components/schemas/t: \
                 defined differently in two documents\n",
                a.as_str(),
                b.as_str()
            )
        );
    }

    #[test]
    fn conversion_errors_name_the_file_and_the_pointer() {
        let file = temp_file(
            br#"{"swagger": "2.0", "definitions": {"t": {"type": "object", "properties": {
              "l": {"type": "array", "items": {"type": "object"}, "x-kubernetes-list-type": "map"},
              "m": {"type": "object", "x-kubernetes-map-type": "granualr"}}}}}"#,
        );
        let (code, out, err) = run_cli(&["schema", "convert", file.as_str()]);
        assert_eq!((code, out.as_str()), (2, ""));
        assert_eq!(
            err,
            format!(
                "smd: {}: cannot convert the OpenAPI schemas: 2 problems\n  \
                 #/definitions/t/properties/l: missing map keys\n  \
                 #/definitions/t/properties/m: unknown map type granualr\n",
                file.as_str()
            )
        );
    }

    #[test]
    fn conversion_errors_after_a_merge_name_the_defining_file() {
        let a = temp_file(
            br#"{"openapi": "3.0.0", "components": {"schemas": {"ok": {"type": "string"}}}}"#,
        );
        let b = temp_file(
            br#"{"openapi": "3.0.0", "components": {"schemas": {"bad": {"type": "array"}}}}"#,
        );
        let (code, _, err) = run_cli(&["schema", "convert", a.as_str(), b.as_str()]);
        assert_eq!(code, 2);
        assert_eq!(
            err,
            format!(
                "smd: cannot convert the OpenAPI schemas: {}: #/components/schemas/bad: \
                 `items` must be specified on arrays\n",
                b.as_str()
            )
        );
    }

    #[test]
    fn v2_and_v3_do_not_mix() {
        let a = temp_file(br#"{"swagger": "2.0", "definitions": {}}"#);
        let b = temp_file(br#"{"openapi": "3.0.0", "components": {}}"#);
        let (code, _, err) = run_cli(&["schema", "convert", a.as_str(), b.as_str()]);
        assert_eq!(code, 2);
        assert_eq!(
            err,
            format!(
                "smd: {}: an OpenAPI v3 document cannot be merged with {}, an OpenAPI v2 document\n",
                b.as_str(),
                a.as_str()
            )
        );
    }

    const WIDGETS: &[u8] = b"apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: widgets.example.com}
spec:
  group: example.com
  names: {kind: Widget, plural: widgets}
  scope: Namespaced
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              ports:
                type: array
                x-kubernetes-list-type: map
                x-kubernetes-list-map-keys: [port]
                items:
                  type: object
                  required: [port]
                  properties:
                    port: {type: integer}
                    name: {type: string}
---
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: gadgets.example.com}
spec:
  group: example.com
  names: {kind: Gadget, plural: gadgets}
  scope: Cluster
  versions:
  - name: v1alpha1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          size: {x-kubernetes-int-or-string: true}
";

    #[test]
    fn crds_in_a_stream_are_converted_and_indexed() {
        let file = temp_file(WIDGETS);
        let (code, out, err) = run_cli(&["schema", "convert", file.as_str()]);
        assert_eq!((code, err.as_str()), (0, ""));
        let schema = Schema::from_yaml(&out).map_err(|e| e.to_string());
        let schema = schema.as_ref().map_err(String::as_str);
        let types: Vec<&str> = schema.map_or(Vec::new(), |s| {
            s.types().iter().map(|t| t.name()).collect::<Vec<_>>()
        });
        for name in [
            "com.example.v1.Widget",
            "com.example.v1alpha1.Gadget",
            "io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta",
        ] {
            assert!(types.contains(&name), "{name} missing from {types:?}");
        }
        assert!(types.windows(2).all(|w| w[0] < w[1]), "{types:?}");
        assert!(
            out.contains(
                "elementRelationship: associative\n                keys:\n                - port\n"
            ),
            "{out}"
        );
        let (code, out, err) = run_cli(&["schema", "types", "--gvk", "--schema", file.as_str()]);
        assert_eq!((code, err.as_str()), (0, ""));
        assert_eq!(
            out,
            "example.com/v1 Widget -> com.example.v1.Widget\n\
             example.com/v1alpha1 Gadget -> com.example.v1alpha1.Gadget\n"
        );
    }

    #[test]
    fn crds_from_several_files_are_united() {
        let text = String::from_utf8_lossy(WIDGETS);
        let (widgets, gadgets) = text.split_once("---\n").unwrap_or_default();
        let a = temp_file(widgets.as_bytes());
        let b = temp_file(gadgets.as_bytes());
        let (code, both, err) = run_cli(&["schema", "convert", a.as_str(), b.as_str()]);
        assert_eq!((code, err.as_str()), (0, ""));
        let stream = temp_file(WIDGETS);
        let (_, one, _) = run_cli(&["schema", "convert", stream.as_str()]);
        assert_eq!(both, one);
    }

    #[test]
    fn a_crd_the_api_server_refuses_names_every_reason() {
        let file = temp_file(
            b"apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: bad.example.com}
spec:
  group: example.com
  names: {kind: Bad, plural: bads}
  versions:
  - name: v1
    schema:
      openAPIV3Schema:
        type: object
        properties:
          untyped: {}
          list:
            type: array
            x-kubernetes-list-type: map
            x-kubernetes-list-map-keys: [id]
            items: {type: object, properties: {other: {type: string}}}
",
        );
        let (code, out, err) = run_cli(&["schema", "convert", file.as_str()]);
        assert_eq!((code, out.as_str()), (2, ""));
        assert!(
            err.starts_with(&format!(
                "smd: {}: CRD bad.example.com: the API server refuses this CRD: ",
                file.as_str()
            )),
            "{err}"
        );
        assert!(
            err.contains("#/spec/versions/0/schema/openAPIV3Schema/properties/untyped: "),
            "{err}"
        );
        assert!(
            err.contains("#/spec/versions/0/schema/openAPIV3Schema/properties/list"),
            "{err}"
        );
    }

    #[test]
    fn a_crd_and_a_type_defined_differently_are_refused() {
        let crds = temp_file(WIDGETS);
        let other = temp_file(
            br#"{"openapi": "3.0.0", "components": {"schemas": {
              "io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta": {"type": "string"}}}}"#,
        );
        let (code, _, err) = run_cli(&["schema", "convert", crds.as_str(), other.as_str()]);
        assert_eq!(code, 2);
        assert_eq!(
            err,
            format!(
                "smd: type io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta is defined \
                 differently by {}: CRD widgets.example.com and by {}\n",
                crds.as_str(),
                other.as_str()
            )
        );
    }

    #[test]
    fn an_smd_schema_is_written_back_canonically() {
        let file = temp_file(b"{\"types\": [{\"scalar\": \"string\", \"name\": \"s\"}]}");
        let (code, out, err) = run_cli(&["schema", "convert", file.as_str()]);
        assert_eq!((code, err.as_str()), (0, ""));
        assert_eq!(out, "types:\n- name: s\n  scalar: string\n");
    }

    #[test]
    fn other_documents_are_refused_with_the_reason() {
        let file = temp_file(b"apiVersion: v1\nkind: Pod\n");
        let (code, _, err) = run_cli(&["schema", "convert", file.as_str()]);
        assert_eq!(code, 2);
        assert_eq!(
            err,
            format!(
                "smd: {}: cannot read the OpenAPI document: #: neither an OpenAPI v2 document \
                 (swagger, definitions) nor a v3 one (openapi, components)\n",
                file.as_str()
            )
        );
        let bad = temp_file(b"{\"swagger\": \"2.0\", \"definitions\": {\"t\": {\"type\": 1}}}");
        let (code, _, err) = run_cli(&["schema", "convert", bad.as_str()]);
        assert_eq!(code, 2);
        assert!(err.contains(": #/definitions/t/type: "), "{err}");
    }
}
