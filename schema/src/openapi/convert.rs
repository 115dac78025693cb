//! The port of kube-openapi's `schemaconv.ToSchemaFromOpenAPI(models, false)`: OpenAPI schema
//! objects to SMD types, with every marker it reads and the messages it reports.
//!
//! References are never followed (a reference becomes a named type), so recursion follows the
//! nesting of the document only, which the reader bounds.

use smd_fieldpath::Value;

use super::error::{Error, Problem, problem};
use super::gofmt;
use super::reference::last_segment;
use super::spec::{Additional, Extensions, SpecSchema, pointer};
use crate::{Atom, ElementRelationship, ListType, MapType, Scalar, Schema, StructField};
use crate::{TypeDef, TypeRef};

/// The name of the type of untyped values owned as a whole.
pub const UNTYPED_ATOMIC: &str = "__untyped_atomic_";
/// The name of the type of untyped values whose maps are granular.
pub const UNTYPED_DEDUCED: &str = "__untyped_deduced_";

const QUANTITY: &str = "io.k8s.apimachinery.pkg.api.resource.Quantity";
const RAW_EXTENSION: &str = "io.k8s.apimachinery.pkg.runtime.RawExtension";

/// Converts named definitions; `base` is the JSON pointer path of the map holding them.
pub(crate) fn to_schema(
    definitions: &[(String, SpecSchema)],
    base: &[&str],
) -> Result<Schema, Error> {
    let mut c = Converter {
        path: base.iter().map(|s| (*s).to_owned()).collect(),
        problems: Vec::new(),
    };
    let mut types = Vec::with_capacity(definitions.len() + 2);
    for (name, spec) in definitions {
        // A definition that is only a reference is skipped.
        if !spec.reference.is_empty() {
            continue;
        }
        let atom = if name == QUANTITY {
            Atom::scalar(Scalar::Untyped)
        } else if name == RAW_EXTENSION {
            untyped_atom()
        } else {
            c.path.push(name.clone());
            let atom = c.visit(spec, name, false);
            c.path.pop();
            atom
        };
        types.push(TypeDef::new(name.clone(), atom));
    }
    if !c.problems.is_empty() {
        return Err(Error::convert(c.problems));
    }
    // Go appends the two common types after the definitions (in map order); the canonical
    // order sorts by name, stably, so that a definition with a common type's name stays first
    // (and the common type, later, wins lookups as it does in Go).
    types.push(TypeDef::new(UNTYPED_ATOMIC, untyped_atom()));
    types.push(TypeDef::new(UNTYPED_DEDUCED, deduced_atom()));
    types.sort_by(|a, b| a.name().cmp(b.name()));
    Ok(Schema::new(types))
}

fn untyped_atom() -> Atom {
    Atom::scalar(Scalar::Untyped)
        .with_list(
            ListType::new(TypeRef::named(UNTYPED_ATOMIC))
                .with_element_relationship(ElementRelationship::Atomic),
        )
        .with_map(
            MapType::new()
                .with_element_type(TypeRef::named(UNTYPED_ATOMIC))
                .with_element_relationship(ElementRelationship::Atomic),
        )
}

fn deduced_atom() -> Atom {
    Atom::scalar(Scalar::Untyped)
        .with_list(
            ListType::new(TypeRef::named(UNTYPED_ATOMIC))
                .with_element_relationship(ElementRelationship::Atomic),
        )
        .with_map(
            MapType::new()
                .with_element_type(TypeRef::named(UNTYPED_DEDUCED))
                .with_element_relationship(ElementRelationship::Separable),
        )
}

struct Converter {
    /// The JSON pointer path of the schema at hand.
    path: Vec<String>,
    problems: Vec<Problem>,
}

impl Converter {
    fn report(&mut self, scope: &str, message: String) {
        self.problems
            .push(problem(pointer(&self.path), scope, message));
    }

    fn at<T>(&mut self, segments: &[&str], f: impl FnOnce(&mut Converter) -> T) -> T {
        let depth = self.path.len();
        self.path.extend(segments.iter().map(|s| (*s).to_owned()));
        let result = f(self);
        self.path.truncate(depth);
        result
    }

    /// Go's `visitSpec`: a schema opts itself and its inlined descendants into preserving
    /// unknown fields.
    fn visit(&mut self, spec: &SpecSchema, scope: &str, preserve: bool) -> Atom {
        let preserve =
            preserve || spec.extensions.preserve_unknown_fields == Some(Value::Bool(true));
        self.parse_schema(spec, scope, preserve)
    }

    fn parse_schema(&mut self, spec: &SpecSchema, scope: &str, preserve: bool) -> Atom {
        match spec.ty.as_str() {
            "" => {
                // Go evaluates the list before the map.
                let list = self.parse_list(spec, scope, preserve);
                let map = self.parse_object(spec, scope, preserve);
                Atom::scalar(Scalar::Untyped).with_list(list).with_map(map)
            }
            "object" => Atom::map(self.parse_object(spec, scope, preserve)),
            "array" => Atom::list(self.parse_list(spec, scope, preserve)),
            "integer" | "number" => Atom::scalar(Scalar::Numeric),
            "boolean" => Atom::scalar(Scalar::Boolean),
            "string" => Atom::scalar(match spec.format.as_str() {
                "" | "byte" => Scalar::String,
                _ => Scalar::Untyped,
            }),
            other => {
                self.report(scope, format!("unrecognized type: '{other}'"));
                Atom::scalar(Scalar::Untyped)
            }
        }
    }

    /// Go's `makeOpenAPIRef`: a named reference (a `$ref`, or a single-element `allOf` of
    /// one), or the schema converted inline.
    fn make_ref(&mut self, spec: &SpecSchema, scope: &str, preserve: bool) -> TypeRef {
        let mut reference = spec.reference.as_str();
        if reference.is_empty() {
            if let [only] = spec.all_of.as_slice() {
                reference = only.reference.as_str();
            }
        }
        let name = last_segment(reference);
        if !name.is_empty() {
            let relationship = self.map_relationship(&spec.extensions, scope);
            let tr = TypeRef::named(name).with_nullable(spec.nullable);
            return match relationship {
                Some(r) => tr.with_element_relationship(r),
                None => tr,
            };
        }
        let inner = format!("inlined in {scope}");
        let atom = self.visit(spec, &inner, preserve);
        TypeRef::inlined(atom).with_nullable(spec.nullable)
    }

    fn parse_object(&mut self, spec: &SpecSchema, scope: &str, preserve: bool) -> MapType {
        let mut fields = Vec::with_capacity(spec.properties.len());
        for (name, member) in &spec.properties {
            let ty = self.at(&["properties", name], |c| {
                c.make_ref(member, scope, preserve)
            });
            let mut field = StructField::new(name.clone(), ty);
            if let Some(d) = &member.default {
                field = field.with_default(d.clone());
            }
            fields.push(field);
        }
        // Go iterates a map: the canonical order is by name.
        fields.sort_by(|a, b| a.name().cmp(b.name()));
        let element_type = match &spec.additional_properties {
            None if preserve || spec.properties.is_empty() => TypeRef::named(UNTYPED_DEDUCED),
            None => TypeRef::default(),
            Some(Additional::Schema(s)) => self.at(&["additionalProperties"], |c| {
                c.make_ref(s, scope, preserve)
            }),
            Some(Additional::Allows(true)) => TypeRef::named(UNTYPED_DEDUCED),
            Some(Additional::Allows(false)) => TypeRef::default(),
        };
        let relationship = self
            .map_relationship(&spec.extensions, scope)
            .unwrap_or_default();
        MapType::new()
            .with_fields(fields)
            .with_element_type(element_type)
            .with_element_relationship(relationship)
    }

    fn parse_list(&mut self, spec: &SpecSchema, scope: &str, preserve: bool) -> ListType {
        let (relationship, keys) = self.list_relationship(&spec.extensions, scope);
        let element_type = match &spec.items {
            Some(Some(item)) => self.at(&["items"], |c| c.make_ref(item, scope, preserve)),
            Some(None) => {
                self.report(
                    scope,
                    "structural schema arrays must have exactly one member subtype".into(),
                );
                TypeRef::named(UNTYPED_DEDUCED)
            }
            None => {
                if !spec.ty.is_empty() {
                    self.report(scope, "`items` must be specified on arrays".into());
                }
                TypeRef::named(UNTYPED_ATOMIC)
            }
        };
        ListType::new(element_type)
            .with_element_relationship(relationship)
            .with_keys(keys)
    }

    /// Go's `getListElementRelationship`: `x-kubernetes-list-type`, else the patch strategy,
    /// else atomic.
    fn list_relationship(
        &mut self,
        ext: &Extensions,
        scope: &str,
    ) -> (ElementRelationship, Vec<String>) {
        use ElementRelationship::{Associative, Atomic};
        if let Some(list_type) = &ext.list_type {
            return match list_type.as_str() {
                Some("atomic") => (Atomic, Vec::new()),
                Some("set") => (Associative, Vec::new()),
                Some("map") => match &ext.list_map_keys {
                    None => {
                        self.report(scope, "missing map keys".into());
                        (Associative, Vec::new())
                    }
                    Some(Value::List(keys)) => (
                        Associative,
                        keys.iter()
                            .filter_map(|k| k.as_str().map(str::to_owned))
                            .collect(),
                    ),
                    Some(other) => {
                        let text = gofmt::go_syntax(other);
                        self.report(scope, format!("uninterpreted map keys: {text}"));
                        (Associative, Vec::new())
                    }
                },
                _ => {
                    let text = gofmt::plain(list_type);
                    self.report(scope, format!("unknown list type {text}"));
                    (Atomic, Vec::new())
                }
            };
        }
        if let Some(strategy) = &ext.patch_strategy {
            return match strategy.as_str() {
                Some("merge" | "merge,retainKeys") => match &ext.patch_merge_key {
                    None => (Associative, Vec::new()),
                    Some(Value::String(key)) => (Associative, vec![key.clone()]),
                    Some(other) => {
                        let text = gofmt::go_syntax(other);
                        self.report(scope, format!("uninterpreted merge key: {text}"));
                        (Associative, Vec::new())
                    }
                },
                Some("retainKeys") => (Atomic, Vec::new()),
                _ => {
                    let text = gofmt::plain(strategy);
                    self.report(scope, format!("unknown patch strategy {text}"));
                    (Atomic, Vec::new())
                }
            };
        }
        (Atomic, Vec::new())
    }

    /// Go's `getMapElementRelationship`: `None` when unset (or unknown, which is reported).
    fn map_relationship(&mut self, ext: &Extensions, scope: &str) -> Option<ElementRelationship> {
        let map_type = ext.map_type.as_ref()?;
        match map_type.as_str() {
            Some("atomic") => Some(ElementRelationship::Atomic),
            Some("granular") => Some(ElementRelationship::Separable),
            _ => {
                let text = gofmt::plain(map_type);
                self.report(scope, format!("unknown map type {text}"));
                None
            }
        }
    }
}
