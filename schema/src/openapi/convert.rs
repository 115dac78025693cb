//! The port of kube-openapi's `schemaconv.ToSchemaFromOpenAPI(models, false)`: OpenAPI schema
//! objects to SMD types, with every marker it reads and the messages it reports.
//!
//! References are never followed (a reference becomes a named type), so recursion follows the
//! nesting of the document only, which the reader bounds.

use std::fmt;
use std::sync::Arc;

use smd_value::Value;

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
pub(crate) fn to_schema<'a>(
    definitions: &'a [(String, SpecSchema)],
    base: &[&'a str],
) -> Result<Schema, Error> {
    let mut c = Converter {
        path: base.to_vec(),
        problems: Vec::new(),
        names: Names::default(),
        definitions: hashbrown::HashMap::with_capacity_and_hasher(
            definitions.len(),
            foldhash::fast::RandomState::default(),
        ),
    };
    for (name, _) in definitions {
        c.definitions.insert(name, Arc::from(name.as_str()));
    }
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
            c.path.push(name);
            let atom = c.visit(spec, Scope::named(name), false);
            c.path.pop();
            atom
        };
        let name = match c.definitions.get(name.as_str()) {
            Some(shared) => shared.clone(),
            None => Arc::from(name.as_str()),
        };
        types.push(TypeDef::new_shared(name, atom));
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

/// A field of a map type, with the default of its schema.
#[inline(never)]
fn field(name: &str, ty: TypeRef, member: &SpecSchema) -> StructField {
    let field = StructField::new(name, ty);
    match &member.default {
        Some(d) => field.with_default(d.clone()),
        None => field,
    }
}

/// The element type of an object whose `additionalProperties` is not a schema.
#[inline(never)]
fn plain_element_type(additional: &Option<Additional>, preserve: bool, no_fields: bool) -> TypeRef {
    match additional {
        None if preserve || no_fields => TypeRef::named(UNTYPED_DEDUCED),
        Some(Additional::Allows(true)) => TypeRef::named(UNTYPED_DEDUCED),
        None | Some(Additional::Allows(false) | Additional::Schema(_)) => TypeRef::default(),
    }
}

/// The atom of a list type.
#[inline(never)]
fn list_type(element_type: TypeRef, relationship: ElementRelationship, keys: Vec<String>) -> Atom {
    Atom::list(
        ListType::new(element_type)
            .with_element_relationship(relationship)
            .with_keys(keys),
    )
}

/// Whether a schema opts into preserving unknown fields.
#[inline(never)]
fn preserves(ext: &Extensions) -> bool {
    ext.preserve_unknown_fields == Some(Value::Bool(true))
}

/// Where a schema is, as Go's problems name it: a definition's name, or `inlined in ` that
/// many times before it. Only a problem writes it out: most schemas have none.
#[derive(Debug, Clone, Copy)]
struct Scope<'a> {
    name: &'a str,
    inlined: usize,
}

impl<'a> Scope<'a> {
    fn named(name: &'a str) -> Scope<'a> {
        Scope { name, inlined: 0 }
    }

    /// The scope of a schema inlined in this one.
    fn inlined(self) -> Scope<'a> {
        Scope {
            inlined: self.inlined + 1,
            ..self
        }
    }
}

impl fmt::Display for Scope<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for _ in 0..self.inlined {
            f.write_str("inlined in ")?;
        }
        f.write_str(self.name)
    }
}

#[inline(never)]
fn inlined_ref(atom: Atom, nullable: bool) -> TypeRef {
    TypeRef::inlined(atom).with_nullable(nullable)
}

struct Converter<'a> {
    /// The JSON pointer path of the schema at hand.
    path: Vec<&'a str>,
    problems: Vec<Problem>,
    names: Names<'a>,
    /// The definitions' names, shared by the types and the references to them.
    definitions: hashbrown::HashMap<&'a str, Arc<str>, foldhash::fast::RandomState>,
}

/// The names of referred types by reference (`None`: the reference names no type), each kept
/// once and shared by every reference to it. References come from documents, so the table
/// hashes with foldhash seeded per process.
type Names<'a> = hashbrown::HashMap<&'a str, Option<Arc<str>>, foldhash::fast::RandomState>;

impl<'a> Converter<'a> {
    fn report(&mut self, scope: Scope<'_>, message: String) {
        self.problems
            .push(problem(pointer(&self.path), &scope.to_string(), message));
    }

    /// Go's `visitSpec`: a schema opts itself and its inlined descendants into preserving
    /// unknown fields.
    ///
    /// Inlined schemas nest as deep as the document, so the functions on the way down (this
    /// one, `parse_schema`, `parse_object`, `parse_list`, `make_ref`) keep small frames,
    /// unoptimised builds included: what holds no schema is built out of line.
    fn visit(&mut self, spec: &'a SpecSchema, scope: Scope<'_>, preserve: bool) -> Atom {
        let preserve = preserve || preserves(&spec.extensions);
        self.parse_schema(spec, scope, preserve)
    }

    fn parse_schema(&mut self, spec: &'a SpecSchema, scope: Scope<'_>, preserve: bool) -> Atom {
        match spec.ty.as_str() {
            "object" => self.parse_object(spec, scope, preserve),
            "array" => self.parse_list(spec, scope, preserve),
            "" => self.untyped(spec, scope, preserve),
            _ => self.scalar(spec, scope),
        }
    }

    /// The atom of a schema without a type: a list and a map of anything.
    #[inline(never)]
    fn untyped(&mut self, spec: &'a SpecSchema, scope: Scope<'_>, preserve: bool) -> Atom {
        // Go evaluates the list before the map.
        let list = self.parse_list(spec, scope, preserve);
        let map = self.parse_object(spec, scope, preserve);
        Atom::scalar(Scalar::Untyped).join_list(list).join_map(map)
    }

    /// The atom of a schema whose type is neither empty, `object` nor `array`.
    #[inline(never)]
    fn scalar(&mut self, spec: &'a SpecSchema, scope: Scope<'_>) -> Atom {
        match spec.ty.as_str() {
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
    fn make_ref(&mut self, spec: &'a SpecSchema, scope: Scope<'_>, preserve: bool) -> TypeRef {
        if let Some(tr) = self.named_ref(spec, scope) {
            return tr;
        }
        let atom = self.visit(spec, scope.inlined(), preserve);
        inlined_ref(atom, spec.nullable)
    }

    /// The named reference `spec` makes, if it is one.
    #[inline(never)]
    fn named_ref(&mut self, spec: &'a SpecSchema, scope: Scope<'_>) -> Option<TypeRef> {
        let mut reference = spec.reference.as_str();
        if reference.is_empty() {
            if let [only] = spec.all_of.as_slice() {
                reference = only.reference.as_str();
            }
        }
        if reference.is_empty() {
            return None;
        }
        // By the whole reference: finding its last segment costs more than hashing it.
        let shared = self
            .names
            .entry(reference)
            .or_insert_with(|| {
                let name = last_segment(reference);
                (!name.is_empty()).then(|| match self.definitions.get(name) {
                    Some(shared) => shared.clone(),
                    None => Arc::from(name),
                })
            })
            .clone()?;
        let relationship = self.map_relationship(&spec.extensions, scope);
        let tr = TypeRef::named_shared(shared).with_nullable(spec.nullable);
        Some(match relationship {
            Some(r) => tr.with_element_relationship(r),
            None => tr,
        })
    }

    /// The atom of an object: only a map.
    fn parse_object(&mut self, spec: &'a SpecSchema, scope: Scope<'_>, preserve: bool) -> Atom {
        let fields = self.fields(spec, scope, preserve);
        let element_type = match &spec.additional_properties {
            Some(Additional::Schema(s)) => {
                self.path.push("additionalProperties");
                let ty = self.make_ref(s, scope, preserve);
                self.path.pop();
                ty
            }
            other => plain_element_type(other, preserve, spec.properties.is_empty()),
        };
        self.map_type(fields, element_type, &spec.extensions, scope)
    }

    /// The fields of an object, in document order.
    #[inline(never)]
    fn fields(
        &mut self,
        spec: &'a SpecSchema,
        scope: Scope<'_>,
        preserve: bool,
    ) -> Vec<StructField> {
        let mut fields = Vec::with_capacity(spec.properties.len());
        for (name, member) in &spec.properties {
            let depth = self.path.len();
            self.path.push("properties");
            self.path.push(name);
            let ty = self.make_ref(member, scope, preserve);
            self.path.truncate(depth);
            fields.push(field(name, ty, member));
        }
        fields
    }

    /// The atom of an object's map type: its fields in the canonical order (Go iterates a
    /// map: by name), its element type and its relationship.
    #[inline(never)]
    fn map_type(
        &mut self,
        mut fields: Vec<StructField>,
        element_type: TypeRef,
        ext: &Extensions,
        scope: Scope<'_>,
    ) -> Atom {
        fields.sort_by(|a, b| a.name().cmp(b.name()));
        let relationship = self.map_relationship(ext, scope).unwrap_or_default();
        Atom::map(
            MapType::new()
                .with_fields(fields)
                .with_element_type(element_type)
                .with_element_relationship(relationship),
        )
    }

    /// The atom of a list: only a list.
    fn parse_list(&mut self, spec: &'a SpecSchema, scope: Scope<'_>, preserve: bool) -> Atom {
        // Go reads the relationship first: its problems come first.
        let (relationship, keys) = self.list_relationship(&spec.extensions, scope);
        let element_type = match &spec.items {
            Some(Some(item)) => {
                self.path.push("items");
                let ty = self.make_ref(item, scope, preserve);
                self.path.pop();
                ty
            }
            _ => self.plain_items(spec, scope),
        };
        list_type(element_type, relationship, keys)
    }

    /// The element type of a list whose `items` is not one schema.
    #[inline(never)]
    fn plain_items(&mut self, spec: &'a SpecSchema, scope: Scope<'_>) -> TypeRef {
        if spec.items.is_some() {
            self.report(
                scope,
                "structural schema arrays must have exactly one member subtype".into(),
            );
            TypeRef::named(UNTYPED_DEDUCED)
        } else {
            if !spec.ty.is_empty() {
                self.report(scope, "`items` must be specified on arrays".into());
            }
            TypeRef::named(UNTYPED_ATOMIC)
        }
    }

    /// Go's `getListElementRelationship`: `x-kubernetes-list-type`, else the patch strategy,
    /// else atomic.
    #[inline(never)]
    fn list_relationship(
        &mut self,
        ext: &Extensions,
        scope: Scope<'_>,
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
    fn map_relationship(
        &mut self,
        ext: &Extensions,
        scope: Scope<'_>,
    ) -> Option<ElementRelationship> {
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
