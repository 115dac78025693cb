//! What the API server refuses of a custom resource beyond its metadata: the values its CRD's
//! schema allows (kube-openapi's validator on the version's `openAPIV3Schema`: types,
//! formats, `enum`, bounds, lengths, `pattern`, `required`, compositions), ratcheted on
//! updates as a 1.37 server ratchets them (an error in a part the update left unchanged is
//! dropped); the scale subresource's replica counts and selector; embedded resources checked as
//! resources; and the uniqueness of set items and map-list keys; then, where none of those
//! blocks them, the `x-kubernetes-validations` rules (`rules`).
//!
//! | module | what |
//! |---|---|
//! | `schema.rs` | `Node`: a schema as the validator reads it |
//! | `walk.rs` | the validator, node by node, with ratcheting |
//! | `equal.rs` | what ratcheting calls unchanged |
//! | `failure.rs` | kube-openapi's errors as the server's field errors |
//! | `formats.rs` | the string formats a CRD may use, checked as Go checks them |
//! | `pattern.rs` | Go's RE2 `pattern`s on the `regex` crate |
//! | `lists.rs` | duplicate set items and map-list keys |
//! | `embedded.rs` | embedded resources' `apiVersion`, `kind` and metadata |
//! | `scale.rs` | the scale subresource's paths |

mod embedded;
pub(crate) mod equal;
mod failure;
pub(crate) mod formats;
mod lists;
pub(crate) mod pattern;
mod scale;
pub(crate) mod schema;
mod walk;

pub(crate) use equal::Correlation;
pub(crate) use schema::Node;

use smd_fieldpath::Value;

use super::rules::Rules;
use crate::validation::{BadValue, ErrorType, FieldError, FieldPath};
use scale::Scale;

/// One served version's validation: its schema, the status subresource's part of it, and
/// the scale subresource's paths.
#[derive(Debug, Default)]
pub struct Validation {
    schema: Option<Node>,
    status: Option<Node>,
    scale: Option<Scale>,
    rules: Option<Rules>,
}

/// A validation's refusals, and the warnings of the rules' errors that ratcheting forgave.
#[derive(Debug, Default)]
pub struct Checked {
    /// The field errors.
    pub errors: Vec<FieldError>,
    /// The warnings, in the server's words (`spec.x: Invalid value: ...`).
    pub warnings: Vec<String>,
}

impl Validation {
    /// The validation of `version` of `crd` (an `apiextensions.k8s.io/v1`
    /// `CustomResourceDefinition` the server accepted).
    pub fn of_version(crd: &Value, version: &str) -> Validation {
        let Some(served) = get(crd, &["spec", "versions"])
            .and_then(Value::as_list)
            .and_then(|vs| {
                vs.iter()
                    .find(|v| get(v, &["name"]).and_then(Value::as_str) == Some(version))
            })
        else {
            return Validation::default();
        };
        let raw = get(served, &["schema", "openAPIV3Schema"]).filter(|s| s.as_map().is_some());
        let schema = raw.map(Node::read);
        let rules = raw.and_then(Rules::read);
        let subresources = get(served, &["subresources"]);
        let status = subresources
            .and_then(|s| get(s, &["status"]))
            .filter(|s| !s.is_null())
            .and_then(|_| raw.and_then(|r| get(r, &["properties", "status"])))
            .map(Node::read);
        let scale = subresources.and_then(|s| get(s, &["scale"])).and_then(|s| {
            let text = |k: &str| get(s, &[k]).and_then(Value::as_str).map(str::to_owned);
            Some(Scale {
                spec_replicas: text("specReplicasPath")?,
                status_replicas: text("statusReplicasPath")?,
                label_selector: text("labelSelectorPath"),
            })
        });
        Validation {
            schema,
            status,
            scale,
            rules,
        }
    }

    /// A create's checks (`customResourceStrategy.Validate` after the metadata's): the schema,
    /// the scale paths, embedded resources, duplicates.
    pub fn validate_create(&self, object: &Value) -> Vec<FieldError> {
        let mut errs = self.against_schema(object, None);
        errs.extend(self.scale_checks(object, true));
        errs.extend(self.embedded(object));
        errs.extend(self.duplicates(object));
        errs
    }

    /// An update's checks (`customResourceStrategy.ValidateUpdate` after the metadata's),
    /// ratcheted against `old`, the object the update replaces (at the same version). A
    /// duplicate is refused only where `old` had none.
    pub fn validate_update(&self, object: &Value, old: &Value) -> Vec<FieldError> {
        let mut errs = self.against_schema(object, Some(old));
        errs.extend(self.scale_checks(object, true));
        errs.extend(self.embedded(object));
        if self.duplicates(old).is_empty() {
            errs.extend(self.duplicates(object));
        }
        errs
    }

    /// A status update's checks (`statusStrategy.ValidateUpdate`): the status against its
    /// schema, ratcheted, and the scale's status paths.
    pub fn validate_status_update(&self, object: &Value, old: &Value) -> Vec<FieldError> {
        let mut errs = Vec::new();
        if let (Some(schema), Some(status)) = (&self.status, get(object, &["status"])) {
            let mut walk = walk::Walk::new("");
            walk.node(
                schema,
                status,
                Some(get(old, &["status"]).unwrap_or(&Value::Null)),
                false,
            );
            errs = failure::field_errors(walk.out, Some(&FieldPath::new("status")));
        }
        errs.extend(self.scale_checks(object, false));
        let fresh = self.duplicates(object);
        if !fresh.is_empty() && self.duplicates(old).is_empty() {
            errs.extend(fresh);
        }
        errs
    }

    /// `errors` (the strategy's so far: metadata, then the checks above), then the rules'
    /// errors and warnings, unless one of `errors` is of a kind that stops them
    /// (`hasBlockingErr`: the rules would read a value of the wrong shape).
    pub fn with_rules(
        &self,
        mut errors: Vec<FieldError>,
        object: &Value,
        old: Option<&Value>,
    ) -> Checked {
        let Some(rules) = &self.rules else {
            return Checked {
                errors,
                warnings: Vec::new(),
            };
        };
        let blocking = errors.iter().any(|e| {
            matches!(
                e.kind,
                ErrorType::NotSupported
                    | ErrorType::Required
                    | ErrorType::TooLong
                    | ErrorType::TooMany
                    | ErrorType::TypeInvalid
            )
        });
        if blocking {
            errors.push(FieldError::invalid(
                &FieldPath::new("<nil>"),
                BadValue::null(),
                "some validation rules were not checked because the object was invalid; correct the existing errors to complete validation",
            ));
            return Checked {
                errors,
                warnings: Vec::new(),
            };
        }
        let verdict = rules.check(self.schema.as_ref(), object, old);
        errors.extend(verdict.errors);
        Checked {
            errors,
            warnings: verdict.warnings,
        }
    }

    fn against_schema(&self, object: &Value, old: Option<&Value>) -> Vec<FieldError> {
        let Some(schema) = &self.schema else {
            return Vec::new();
        };
        let mut walk = walk::Walk::new("");
        walk.node(schema, object, old, true);
        failure::field_errors(walk.out, None)
    }

    fn scale_checks(&self, object: &Value, spec: bool) -> Vec<FieldError> {
        let Some(scale) = &self.scale else {
            return Vec::new();
        };
        let mut errs = if spec { scale.spec(object) } else { Vec::new() };
        errs.extend(scale.status(object));
        errs
    }

    fn embedded(&self, object: &Value) -> Vec<FieldError> {
        self.schema
            .as_ref()
            .map(|s| embedded::embedded(s, object))
            .unwrap_or_default()
    }

    fn duplicates(&self, object: &Value) -> Vec<FieldError> {
        self.schema
            .as_ref()
            .map(|s| lists::duplicates(s, object))
            .unwrap_or_default()
    }
}

fn get<'a>(value: &'a Value, path: &[&str]) -> Option<&'a Value> {
    path.iter().try_fold(value, |v, k| v.as_map()?.get(k))
}
