//! `smd schema lint`: lists and maps whose Server-Side Apply behaviour is probably not what the
//! author meant. Each file is first converted exactly as `smd schema convert` converts it (the
//! same recognition, conversion and validation), so whatever convert or the API server refuses,
//! lint refuses with the same words; only then are the schemas read as written (OpenAPI
//! definitions, or each version's `openAPIV3Schema` in a CRD) for warnings, so a finding names
//! the place to edit.

use super::source::{Source, is_crd, read_tree};
use crate::input;
use crate::{Failure, Outcome, Status};
use smd::fieldpath::{Map, Value};
use std::io::Write;
use std::path::PathBuf;

/// One finding: where, what, and what to do.
#[derive(Debug, PartialEq, Eq)]
struct Warning {
    pointer: String,
    message: String,
    hint: String,
}

pub(crate) fn run(files: &[PathBuf], out: &mut dyn Write) -> Result<Status, Outcome> {
    let mut status = Status::Ok;
    for path in files {
        let input = input::read(Some(path))?;
        Source::read(&input)?.into_schema(&input.name)?;
        let documents =
            read_tree(&input.bytes).map_err(|e| Failure::new(format!("{}: {e}", input.name)))?;
        let several = documents.len() > 1;
        for (i, document) in documents.iter().enumerate() {
            let place = if several {
                format!("{} (document {})", input.name, i + 1)
            } else {
                input.name.clone()
            };
            let warnings =
                lint_document(document).map_err(|e| Failure::new(format!("{place}: {e}")))?;
            for w in warnings {
                status = Status::Warnings;
                writeln!(out, "{place}: {}: warning: {}", w.pointer, w.message)?;
                writeln!(out, "  hint: {}", w.hint)?;
            }
        }
    }
    Ok(status)
}

/// The findings of one document: an OpenAPI v2/v3 document or a CRD.
fn lint_document(document: &Value) -> Result<Vec<Warning>, String> {
    let Some(top) = document.as_map() else {
        return Err("not an OpenAPI document or a CustomResourceDefinition".into());
    };
    let mut linter = Linter {
        definitions: None,
        openapi: true,
        warnings: Vec::new(),
    };
    if is_crd(document) {
        linter.openapi = false;
        let versions = top
            .get("spec")
            .and_then(Value::as_map)
            .and_then(|s| s.get("versions"))
            .and_then(Value::as_list)
            .unwrap_or_default();
        for (i, version) in versions.iter().enumerate() {
            let schema = version
                .as_map()
                .and_then(|v| v.get("schema"))
                .and_then(Value::as_map)
                .and_then(|s| s.get("openAPIV3Schema"));
            if let Some(schema) = schema {
                let pointer = format!("#/spec/versions/{i}/schema/openAPIV3Schema");
                linter.walk(schema, &pointer);
            }
        }
        return Ok(linter.warnings);
    }
    let (definitions, base) = if let Some(d) = top.get("definitions") {
        (d, "#/definitions")
    } else if let Some(d) = top
        .get("components")
        .and_then(Value::as_map)
        .and_then(|c| c.get("schemas"))
    {
        (d, "#/components/schemas")
    } else if top.contains_key("swagger") || top.contains_key("openapi") {
        return Ok(Vec::new());
    } else {
        return Err(
            "not an OpenAPI document (swagger, definitions / openapi, components) or a \
                    CustomResourceDefinition"
                .into(),
        );
    };
    let Some(definitions) = definitions.as_map() else {
        return Ok(Vec::new());
    };
    linter.definitions = Some(definitions);
    for (name, schema) in definitions.iter() {
        if !is_list_kind(schema) {
            linter.walk(schema, &format!("{base}/{}", escape(name)));
        }
    }
    Ok(linter.warnings)
}

struct Linter<'a> {
    /// The document's named schemas, to see through a `$ref`.
    definitions: Option<&'a Map>,
    /// An OpenAPI document (where the patch strategy counts), not a CRD.
    openapi: bool,
    warnings: Vec<Warning>,
}

impl<'a> Linter<'a> {
    fn walk(&mut self, schema: &'a Value, pointer: &str) {
        let Some(s) = schema.as_map() else { return };
        let text = |k: &str| s.get(k).and_then(Value::as_str);
        let ty = text("type").unwrap_or_default();
        if ty == "array" || (ty.is_empty() && s.contains_key("items")) {
            self.list(s, pointer);
        }
        if text("x-kubernetes-map-type") == Some("atomic") {
            return;
        }
        if let Some(properties) = s.get("properties").and_then(Value::as_map) {
            for (name, member) in properties.iter() {
                self.walk(member, &format!("{pointer}/properties/{}", escape(name)));
            }
        }
        if let Some(values) = s.get("additionalProperties") {
            if values.as_map().is_some() {
                let values_pointer = format!("{pointer}/additionalProperties");
                if !s.contains_key("x-kubernetes-map-type") && self.is_struct(values) {
                    self.warnings.push(Warning {
                        pointer: pointer.to_owned(),
                        message: "map of objects without x-kubernetes-map-type: it is granular, \
                                  so each value is merged field by field and several managers \
                                  may own the fields of one value"
                            .into(),
                        hint: "if a value must be replaced whole, add \
                               `x-kubernetes-map-type: atomic` to the value schema \
                               (additionalProperties); add `x-kubernetes-map-type: granular` to \
                               the map to say field-by-field merging is intended"
                            .into(),
                    });
                }
                self.walk(values, &values_pointer);
            }
        }
    }

    fn list(&mut self, s: &'a Map, pointer: &str) {
        let text = |k: &str| s.get(k).and_then(Value::as_str);
        let items = s.get("items");
        match s.get("x-kubernetes-list-type") {
            None => {
                let merge = self.openapi
                    && text("x-kubernetes-patch-strategy")
                        .is_some_and(|p| p.split(',').any(|p| p == "merge"));
                if !merge {
                    let hint = if items.is_some_and(|i| self.is_object(i)) {
                        "the items are objects: add `x-kubernetes-list-type: map` and \
                         `x-kubernetes-list-map-keys: [...]` naming the fields that identify an \
                         item (required or defaulted), so each item is merged and owned on its \
                         own; or `x-kubernetes-list-type: atomic` if the replace is intended"
                    } else {
                        "add `x-kubernetes-list-type: set` if the items are unique scalars (each \
                         one is owned on its own), or `x-kubernetes-list-type: atomic` if the \
                         replace is intended"
                    };
                    self.warnings.push(Warning {
                        pointer: pointer.to_owned(),
                        message: "list without x-kubernetes-list-type: it is atomic, so every \
                                  apply replaces the whole list and two managers setting it \
                                  conflict"
                            .into(),
                        hint: hint.into(),
                    });
                    return;
                }
            }
            Some(Value::String(t)) if t == "atomic" => return,
            Some(Value::String(t)) if t == "map" => self.keys(s, pointer),
            Some(_) => {}
        }
        if let Some(items) = items {
            self.walk(items, &format!("{pointer}/items"));
        }
    }

    /// Each list-map key must be in every item: required, or filled in by a default.
    fn keys(&mut self, s: &'a Map, pointer: &str) {
        let Some(keys) = s.get("x-kubernetes-list-map-keys").and_then(Value::as_list) else {
            return;
        };
        let Some(item) = s.get("items").and_then(|i| self.deref(i)) else {
            return;
        };
        let required: Vec<&str> = item
            .get("required")
            .and_then(Value::as_list)
            .unwrap_or_default()
            .iter()
            .filter_map(Value::as_str)
            .collect();
        let properties = item.get("properties").and_then(Value::as_map);
        for key in keys.iter().filter_map(Value::as_str) {
            let defaulted = properties
                .and_then(|p| p.get(key))
                .and_then(|k| self.deref(k))
                .is_some_and(|k| k.contains_key("default"));
            if !required.contains(&key) && !defaulted {
                self.warnings.push(Warning {
                    pointer: pointer.to_owned(),
                    message: format!(
                        "list-map key `{key}` is neither required nor defaulted: an item \
                         without it cannot be merged, and the apply is refused"
                    ),
                    hint: format!("add `{key}` to the items' `required`, or give it a `default`"),
                });
            }
        }
    }

    /// A schema, or the definition its `$ref` names (one level: enough to see an object).
    fn deref(&self, schema: &'a Value) -> Option<&'a Map> {
        let s = schema.as_map()?;
        let reference = s.get("$ref").and_then(Value::as_str).or_else(|| {
            match s.get("allOf").and_then(Value::as_list) {
                Some([only]) => only.as_map()?.get("$ref")?.as_str(),
                _ => None,
            }
        });
        match reference {
            Some(r) => {
                let name = r.rsplit('/').next()?;
                self.definitions?.get(&unescape(name))?.as_map()
            }
            None => Some(s),
        }
    }

    /// Whether values of this schema are objects with fields (not scalars, lists or free-form
    /// maps).
    fn is_object(&self, schema: &'a Value) -> bool {
        let Some(s) = self.deref(schema) else {
            return false;
        };
        let ty = s.get("type").and_then(Value::as_str).unwrap_or_default();
        (ty == "object" || ty.is_empty())
            && s.get("properties")
                .and_then(Value::as_map)
                .is_some_and(|p| !p.is_empty())
    }

    /// An object schema ([`Linter::is_object`]) not already marked with a map type.
    fn is_struct(&self, schema: &'a Value) -> bool {
        self.is_object(schema)
            && self
                .deref(schema)
                .is_some_and(|s| !s.contains_key("x-kubernetes-map-type"))
            && schema
                .as_map()
                .is_none_or(|m| !m.contains_key("x-kubernetes-map-type"))
    }
}

/// A `…List` kind (its `metadata` is a `ListMeta`): the API server serves it, nobody applies
/// it, so its atomic `items` do not matter.
fn is_list_kind(schema: &Value) -> bool {
    let metadata = schema
        .as_map()
        .and_then(|s| s.get("properties"))
        .and_then(Value::as_map)
        .and_then(|p| p.get("metadata"))
        .and_then(Value::as_map);
    let reference = metadata.and_then(|m| {
        m.get("$ref").and_then(Value::as_str).or_else(|| {
            match m.get("allOf").and_then(Value::as_list) {
                Some([only]) => only.as_map()?.get("$ref")?.as_str(),
                _ => None,
            }
        })
    });
    reference.is_some_and(|r| r.ends_with(".ListMeta"))
}

/// A JSON pointer segment: `~` as `~0`, `/` as `~1`.
fn escape(name: &str) -> String {
    name.replace('~', "~0").replace('/', "~1")
}

fn unescape(segment: &str) -> String {
    segment.replace("~1", "/").replace("~0", "~")
}

#[cfg(test)]
mod tests {
    use crate::tests::{run_cli, temp_file};

    #[test]
    fn an_openapi_document() {
        let file = temp_file(
            br##"{"swagger": "2.0", "definitions": {
              "t": {"type": "object", "properties": {
                "tags": {"type": "array", "items": {"type": "string"}},
                "ports": {"type": "array", "items": {"$ref": "#/definitions/port"}},
                "merged": {"type": "array", "items": {"$ref": "#/definitions/port"},
                           "x-kubernetes-patch-strategy": "merge", "x-kubernetes-patch-merge-key": "port"},
                "keyed": {"type": "array", "items": {"$ref": "#/definitions/port"},
                          "x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": ["port", "protocol"]},
                "byName": {"type": "object", "additionalProperties": {"$ref": "#/definitions/port"}},
                "labels": {"type": "object", "additionalProperties": {"type": "string"}},
                "atomic": {"type": "object", "x-kubernetes-map-type": "atomic",
                           "properties": {"l": {"type": "array", "items": {"type": "string"}}}},
                "whole": {"type": "array", "x-kubernetes-list-type": "atomic",
                          "items": {"type": "array", "items": {"type": "string"}}}}},
              "port": {"type": "object", "required": ["port"], "properties": {
                "port": {"type": "integer"}, "protocol": {"type": "string"}}},
              "tList": {"type": "object", "properties": {
                "metadata": {"$ref": "#/definitions/io.k8s.apimachinery.pkg.apis.meta.v1.ListMeta"},
                "items": {"type": "array", "items": {"$ref": "#/definitions/t"}}}}}}"##,
        );
        let (code, out, err) = run_cli(&["schema", "lint", file.as_str()]);
        assert_eq!((code, err.as_str()), (1, ""));
        let f = file.as_str();
        assert_eq!(
            out,
            format!(
                "{f}: #/definitions/t/properties/tags: warning: list without x-kubernetes-list-type: \
                 it is atomic, so every apply replaces the whole list and two managers setting it conflict
  hint: add `x-kubernetes-list-type: set` if the items are unique scalars (each one is owned on \
                 its own), or `x-kubernetes-list-type: atomic` if the replace is intended
{f}: #/definitions/t/properties/ports: warning: list without x-kubernetes-list-type: it is \
                 atomic, so every apply replaces the whole list and two managers setting it conflict
  hint: the items are objects: add `x-kubernetes-list-type: map` and \
                 `x-kubernetes-list-map-keys: [...]` naming the fields that identify an item \
                 (required or defaulted), so each item is merged and owned on its own; or \
                 `x-kubernetes-list-type: atomic` if the replace is intended
{f}: #/definitions/t/properties/keyed: warning: list-map key `protocol` is neither required nor \
                 defaulted: an item without it cannot be merged, and the apply is refused
  hint: add `protocol` to the items' `required`, or give it a `default`
{f}: #/definitions/t/properties/byName: warning: map of objects without x-kubernetes-map-type: \
                 it is granular, so each value is merged field by field and several managers may \
                 own the fields of one value
  hint: if a value must be replaced whole, add `x-kubernetes-map-type: atomic` to the value \
                 schema (additionalProperties); add `x-kubernetes-map-type: granular` to the map \
                 to say field-by-field merging is intended
"
            )
        );
    }

    #[test]
    fn crds_in_a_stream_and_a_clean_file() {
        let crds = temp_file(
            br"apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: hosts.example.com}
spec:
  group: example.com
  scope: Namespaced
  names: {plural: hosts, kind: Host}
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
              hosts: {type: array, items: {type: string}, x-kubernetes-list-type: set}
---
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: rules.example.com}
spec:
  group: example.com
  scope: Namespaced
  names: {plural: rules, kind: Rule}
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
              rules:
                type: array
                x-kubernetes-patch-strategy: merge
                items: {type: object, properties: {name: {type: string}}}
",
        );
        let (code, out, _) = run_cli(&["schema", "lint", crds.as_str()]);
        assert_eq!(code, 1);
        let first = out.lines().next().unwrap_or_default();
        assert_eq!(
            first,
            format!(
                "{} (document 2): #/spec/versions/0/schema/openAPIV3Schema/properties/spec/\
                 properties/rules: warning: list without x-kubernetes-list-type: it is atomic, \
                 so every apply replaces the whole list and two managers setting it conflict",
                crds.as_str()
            ),
            "a CRD's list is atomic whatever its patch strategy"
        );
        assert_eq!(out.lines().count(), 2);

        let clean = temp_file(
            br#"{"openapi": "3.0.0", "components": {"schemas": {"s": {"type": "string"}}}}"#,
        );
        let (code, out, err) = run_cli(&["schema", "lint", clean.as_str()]);
        assert_eq!((code, out.as_str(), err.as_str()), (0, "", ""));
    }

    #[test]
    fn other_input_is_refused() {
        let pod = temp_file(b"apiVersion: v1\nkind: Pod\n");
        let (code, _, err) = run_cli(&["schema", "lint", pod.as_str()]);
        assert_eq!(code, 2);
        assert!(err.contains("neither an OpenAPI v2 document"), "{err}");
        let (_, _, convert) = run_cli(&["schema", "convert", pod.as_str()]);
        assert_eq!(
            err, convert,
            "lint refuses what convert refuses, in its words"
        );
        let broken = temp_file(b"{\"swagger\": ");
        let (code, _, err) = run_cli(&["schema", "lint", broken.as_str()]);
        assert_eq!(code, 2);
        assert!(
            err.starts_with(&format!("smd: {}: ", broken.as_str())),
            "{err}"
        );
    }
}
