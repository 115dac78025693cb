//! A versioned value turned into the shape of its internal Go type, as the scheme's
//! conversion fills it: each internal field from the versioned field of the same Go name (the
//! generated conversions copy fields by name), embedded structs followed on either side (the
//! internal `PodTemplateSpec` embeds `ObjectMeta` where `v1` names it `metadata`).
//!
//! What the hand-written conversions of v1.37.2 change that a message can show:
//! - `apiVersion` and `kind` (`metav1.TypeMeta`) are empty in every internal value: the
//!   conversion to the internal version clears the object's (`setTargetKind`), and the one
//!   nested object that keeps them in `v1`, a StatefulSet's volume claim template, loses them
//!   in `Convert_v1_StatefulSetSpec_To_apps_StatefulSetSpec`.
//! - events.k8s.io `Event`s name six fields otherwise than the internal core `Event`
//!   ([`RENAMES`]).
//! - A DaemonSet's `deprecated.daemonset.template.generation` and a Deployment's
//!   `deprecated.deployment.rollback.to` annotations become `Spec.TemplateGeneration` and
//!   `Spec.RollbackTo` and leave the annotations (whole objects only: a spec alone does not
//!   carry them).
//! - autoscaling/v1's `targetCPUUtilizationPercentage` is the internal CPU utilization metric.
//! - Any other field the internal type has and the versioned one lacks keeps Go's zero value
//!   (`smd-scheme internal-types` pairs the types; the core `PodSpec` and its parts match
//!   field for field in this release). Not done: autoscaling/v1's metrics, behavior, status
//!   and default metric kept in annotations (a whole v1 HorizontalPodAutoscaler), a
//!   PodCertificateRequest's key bytes.

use smd_fieldpath::Value;
use smd_fieldpath::value::Map;

use crate::builtin::gotypes::{Field, GoTypes, Shape, TypeDef};

/// Internal fields a hand-written conversion fills from a versioned field of another name:
/// (versioned type, internal Go field, versioned Go field).
const RENAMES: &[(&str, &str, &str)] = &[
    ("io.k8s.api.events.v1.Event", "InvolvedObject", "Regarding"),
    ("io.k8s.api.events.v1.Event", "Source", "DeprecatedSource"),
    ("io.k8s.api.events.v1.Event", "Message", "Note"),
    (
        "io.k8s.api.events.v1.Event",
        "FirstTimestamp",
        "DeprecatedFirstTimestamp",
    ),
    (
        "io.k8s.api.events.v1.Event",
        "LastTimestamp",
        "DeprecatedLastTimestamp",
    ),
    ("io.k8s.api.events.v1.Event", "Count", "DeprecatedCount"),
];

/// Annotations a hand-written conversion turns into an internal `Spec` field holding the
/// annotation's integer: (versioned type, annotation, internal spec field, the integer's
/// place in it: a field of a struct, or the field itself).
const ANNOTATION_FIELDS: &[(&str, &str, &str, Option<&str>)] = &[
    (
        "io.k8s.api.apps.v1.DaemonSet",
        "deprecated.daemonset.template.generation",
        "TemplateGeneration",
        None,
    ),
    (
        "io.k8s.api.apps.v1.Deployment",
        "deprecated.deployment.rollback.to",
        "RollbackTo",
        Some("Revision"),
    ),
];

/// Nesting deeper than this is left as Go's zero value (the readers cap objects lower).
const MAX_DEPTH: usize = smd_fieldpath::MAX_DEPTH;

/// `value`, of the versioned struct `v` of `versioned`, with the keys and nesting of the
/// internal struct `i` of `internal`.
pub(super) fn to_internal(
    versioned: &GoTypes,
    internal: &GoTypes,
    v: usize,
    i: usize,
    value: &Value,
) -> Value {
    Converter {
        versioned,
        internal,
    }
    .structure(v, i, value, 0)
}

struct Converter<'a> {
    versioned: &'a GoTypes,
    internal: &'a GoTypes,
}

impl Converter<'_> {
    fn structure(&self, v: usize, i: usize, value: &Value, depth: usize) -> Value {
        let mut out = Map::new();
        let Some(t) = self.internal.get(i) else {
            return Value::Map(out);
        };
        if depth > MAX_DEPTH {
            return Value::Map(out);
        }
        let versioned_name = self.versioned.get(v).map_or("", |t| t.name.as_str());
        for f in &t.flat {
            if f.via.last().is_some_and(|e| e == "TypeMeta") {
                continue;
            }
            let mut go_path: Vec<&str> = f.via.iter().map(String::as_str).collect();
            let renamed = RENAMES
                .iter()
                .find(|(ty, field, _)| {
                    *ty == versioned_name && *field == f.field.go && f.via.is_empty()
                })
                .map(|(_, _, from)| *from);
            go_path.push(renamed.unwrap_or(&f.field.go));
            let Some((item, shape)) = self.lookup(v, value, &go_path, 0) else {
                continue;
            };
            let converted = self.shaped(shape, &f.field.shape, item, depth + 1);
            out.insert(f.field.json.clone(), converted);
        }
        annotation_fields(versioned_name, &mut out);
        if versioned_name == "io.k8s.api.autoscaling.v1.HorizontalPodAutoscalerSpec" {
            cpu_target_metric(value, &mut out);
        }
        Value::Map(out)
    }

    /// The versioned value and shape at a path of Go field names from the struct `v`:
    /// an embedded struct's fields found in the same map, a named one's under its key.
    fn lookup<'v>(
        &'v self,
        v: usize,
        value: &'v Value,
        go_path: &[&str],
        depth: usize,
    ) -> Option<(&'v Value, &'v Shape)> {
        let (first, rest) = go_path.split_first()?;
        let TypeDef::Struct(fields) = &self.versioned.get(v)?.def else {
            return None;
        };
        if depth > 16 {
            return None;
        }
        if let Some(f) = fields.iter().find(|f| f.go == *first) {
            return self.descend(f, value, rest, depth);
        }
        // A field promoted from an embedded struct of the versioned type.
        fields
            .iter()
            .filter(|f| f.embedded)
            .find_map(|f| match f.shape {
                Shape::Named(e) => self.lookup(e, value, go_path, depth + 1),
                _ => None,
            })
    }

    fn descend<'v>(
        &'v self,
        f: &'v Field,
        value: &'v Value,
        rest: &[&str],
        depth: usize,
    ) -> Option<(&'v Value, &'v Shape)> {
        let here = if f.embedded {
            value
        } else {
            value.as_map()?.get(&f.json)?
        };
        if rest.is_empty() {
            return Some((here, &f.shape));
        }
        match strip_pointers(&f.shape) {
            Shape::Named(e) => self.lookup(*e, here, rest, depth + 1),
            _ => None,
        }
    }

    /// A versioned value of shape `from` in the internal shape `to`.
    fn shaped(&self, from: &Shape, to: &Shape, value: &Value, depth: usize) -> Value {
        if depth > MAX_DEPTH {
            return Value::Null;
        }
        match (strip_pointers(from), strip_pointers(to), value) {
            (Shape::Slice(a), Shape::Slice(b), Value::List(items)) => Value::List(
                items
                    .iter()
                    .map(|item| self.shaped(a, b, item, depth + 1))
                    .collect(),
            ),
            (Shape::Map(a), Shape::Map(b), Value::Map(m)) => {
                let mut out = Map::with_capacity(m.len());
                for (k, item) in m.iter() {
                    out.insert(k, self.shaped(a, b, item, depth + 1));
                }
                Value::Map(out)
            }
            (Shape::Named(a), Shape::Named(b), Value::Map(_))
                if self.is_struct(self.versioned, *a) && self.is_struct(self.internal, *b) =>
            {
                self.structure(*a, *b, value, depth + 1)
            }
            _ => value.clone(),
        }
    }

    fn is_struct(&self, types: &GoTypes, i: usize) -> bool {
        matches!(types.get(i).map(|t| &t.def), Some(TypeDef::Struct(_)))
    }
}

/// The annotations of [`ANNOTATION_FIELDS`] moved into the spec, as `strconv.ParseInt`
/// reads them (an unparsable one cannot reach a stored object: the conversion refuses it).
fn annotation_fields(versioned_name: &str, out: &mut Map) {
    for (ty, annotation, field, inner) in ANNOTATION_FIELDS {
        if *ty != versioned_name {
            continue;
        }
        let Some(Value::Map(annotations)) = out.get_mut("annotations") else {
            continue;
        };
        let Some(n) = annotations
            .get(annotation)
            .and_then(Value::as_str)
            .and_then(|t| t.parse::<i64>().ok())
        else {
            continue;
        };
        annotations.remove(annotation);
        let value = match inner {
            Some(name) => {
                let mut m = Map::new();
                m.insert(*name, Value::Int(n));
                Value::Map(m)
            }
            None => Value::Int(n),
        };
        if let Some(Value::Map(spec)) = out.get_mut("Spec") {
            spec.insert(*field, value);
        }
    }
}

/// autoscaling/v1's CPU target as the internal version's one metric: the CPU's average
/// utilization.
fn cpu_target_metric(value: &Value, out: &mut Map) {
    let Some(target) = value
        .as_map()
        .and_then(|m| m.get("targetCPUUtilizationPercentage"))
        .filter(|t| !t.is_null())
    else {
        return;
    };
    let mut goal = Map::new();
    goal.insert("Type", Value::String("Utilization".to_owned()));
    goal.insert("AverageUtilization", target.clone());
    let mut resource = Map::new();
    resource.insert("Name", Value::String("cpu".to_owned()));
    resource.insert("Target", Value::Map(goal));
    let mut metric = Map::new();
    metric.insert("Type", Value::String("Resource".to_owned()));
    metric.insert("Resource", Value::Map(resource));
    out.insert("Metrics", Value::List(vec![Value::Map(metric)]));
}

fn strip_pointers(shape: &Shape) -> &Shape {
    match shape {
        Shape::Pointer(inner) => strip_pointers(inner),
        other => other,
    }
}
