//! The parts of a schema: type definitions, type references, atoms (scalar, list, map), struct
//! fields, list keys, element relationships and unions.
//!
//! Every part is immutable data behind accessors, built with `new` and `with_*` methods. The
//! model keeps what Go's `schema` package keeps, including values Go does not interpret (an
//! unknown scalar name, an unknown element relationship), so a schema reads and writes back
//! unchanged and fails later exactly where Go fails.

use std::fmt;
use std::hash::BuildHasher;
use std::sync::{Arc, OnceLock};

use compact_str::CompactString;

use smd_value::Value;

use crate::schema::TypeId;

/// The kind of value a scalar type accepts.
///
/// Go keeps any string here; only the four names below have a meaning, and a value checked
/// against any other scalar fails with `unexpected scalar type in schema: NAME`.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Scalar {
    /// `numeric`: an int or a float.
    Numeric,
    /// `string`.
    String,
    /// `boolean`.
    Boolean,
    /// `untyped`: any scalar (number, string or boolean).
    Untyped,
    /// Any other name, kept as written (the empty string included).
    Other(Box<str>),
}

impl Scalar {
    /// The scalar of this name: one of the four known ones, or [`Scalar::Other`].
    pub fn from_name(name: &str) -> Scalar {
        match name {
            "numeric" => Scalar::Numeric,
            "string" => Scalar::String,
            "boolean" => Scalar::Boolean,
            "untyped" => Scalar::Untyped,
            other => Scalar::Other(other.into()),
        }
    }

    /// The name as written in a schema.
    pub fn as_str(&self) -> &str {
        match self {
            Scalar::Numeric => "numeric",
            Scalar::String => "string",
            Scalar::Boolean => "boolean",
            Scalar::Untyped => "untyped",
            Scalar::Other(name) => name,
        }
    }
}

impl fmt::Display for Scalar {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// How the elements of a container (map or list) relate to each other, which decides how they
/// are owned and merged.
///
/// Go keeps any string here. What a value means depends on the container:
/// * maps: only [`Atomic`](ElementRelationship::Atomic) is special (the map is one leaf);
///   every other value, unknown ones included, means separable (each entry on its own);
/// * lists: [`Atomic`](ElementRelationship::Atomic) is one leaf,
///   [`Associative`](ElementRelationship::Associative) is a set (scalar elements) or a map keyed
///   by [`ListType::keys`] (map elements); anything else is positional (items by index).
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
#[non_exhaustive]
pub enum ElementRelationship {
    /// Nothing stated (the empty string): separable for maps, positional for lists.
    #[default]
    Unspecified,
    /// `atomic`: the container is a single leaf, owned and replaced as a whole.
    Atomic,
    /// `associative`: list items are identified by their value or their keys.
    Associative,
    /// `separable`: entries are independent (the default for maps).
    Separable,
    /// Any other name, kept as written (`granular` in some upstream schemas).
    Other(Box<str>),
}

impl ElementRelationship {
    /// The relationship of this name; the empty string is
    /// [`Unspecified`](ElementRelationship::Unspecified).
    pub fn from_name(name: &str) -> ElementRelationship {
        match name {
            "" => ElementRelationship::Unspecified,
            "atomic" => ElementRelationship::Atomic,
            "associative" => ElementRelationship::Associative,
            "separable" => ElementRelationship::Separable,
            other => ElementRelationship::Other(other.into()),
        }
    }

    /// The name as written in a schema (empty for
    /// [`Unspecified`](ElementRelationship::Unspecified)).
    pub fn as_str(&self) -> &str {
        match self {
            ElementRelationship::Unspecified => "",
            ElementRelationship::Atomic => "atomic",
            ElementRelationship::Associative => "associative",
            ElementRelationship::Separable => "separable",
            ElementRelationship::Other(name) => name,
        }
    }
}

impl fmt::Display for ElementRelationship {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A named type of a schema.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct TypeDef {
    /// Shared with the references to it where the reader can.
    name: Arc<str>,
    atom: Atom,
}

impl TypeDef {
    /// A type named `name` whose values are described by `atom`.
    pub fn new(name: impl AsRef<str>, atom: Atom) -> TypeDef {
        TypeDef::new_shared(Arc::from(name.as_ref()), atom)
    }

    /// A type named `name`, sharing the name's text.
    pub(crate) fn new_shared(name: Arc<str>, atom: Atom) -> TypeDef {
        TypeDef { name, atom }
    }

    /// The name (may be empty: Go does not require one).
    pub fn name(&self) -> &str {
        &self.name
    }

    /// What values of this type may be.
    pub fn atom(&self) -> &Atom {
        &self.atom
    }

    pub(crate) fn atom_mut(&mut self) -> &mut Atom {
        &mut self.atom
    }
}

/// What a value may be: any combination of a scalar, a list and a map.
///
/// A value is checked against the part that matches its kind; an atom with several parts
/// (Kubernetes' untyped `__untyped_atomic_` has all three) accepts each kind in its own way. An
/// atom with no part accepts nothing.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Atom {
    scalar: Option<Scalar>,
    list: Option<Box<ListType>>,
    map: Option<Box<MapType>>,
}

impl Atom {
    /// An atom that is only this scalar.
    pub fn scalar(scalar: Scalar) -> Atom {
        Atom::default().with_scalar(scalar)
    }

    /// An atom that is only this list.
    pub fn list(list: ListType) -> Atom {
        Atom::default().with_list(list)
    }

    /// An atom that is only this map.
    pub fn map(map: MapType) -> Atom {
        Atom::default().with_map(map)
    }

    /// This atom, also accepting scalars of `scalar`.
    pub fn with_scalar(mut self, scalar: Scalar) -> Atom {
        self.scalar = Some(scalar);
        self
    }

    /// This atom, also accepting lists of `list`.
    pub fn with_list(mut self, list: ListType) -> Atom {
        self.list = Some(Box::new(list));
        self
    }

    /// This atom, also accepting maps of `map`.
    pub fn with_map(mut self, map: MapType) -> Atom {
        self.map = Some(Box::new(map));
        self
    }

    /// This atom with the list part of `list` (if any): joins parts without moving them
    /// through the stack, for the conversion's deep recursion.
    pub(crate) fn join_list(mut self, list: Atom) -> Atom {
        self.list = list.list;
        self
    }

    /// This atom with the map part of `map` (if any).
    pub(crate) fn join_map(mut self, map: Atom) -> Atom {
        self.map = map.map;
        self
    }

    /// The scalar part.
    pub fn as_scalar(&self) -> Option<&Scalar> {
        self.scalar.as_ref()
    }

    /// The list part.
    pub fn as_list(&self) -> Option<&ListType> {
        self.list.as_deref()
    }

    /// The map part.
    pub fn as_map(&self) -> Option<&MapType> {
        self.map.as_deref()
    }

    /// Whether no part is set (no value is accepted).
    pub fn is_empty(&self) -> bool {
        self.scalar.is_none() && self.list.is_none() && self.map.is_none()
    }

    /// Every type reference inside this atom, for binding.
    pub(crate) fn for_each_ref_mut(&mut self, f: &mut dyn FnMut(&mut TypeRef)) {
        if let Some(list) = &mut self.list {
            f(&mut list.element_type);
        }
        if let Some(map) = &mut self.map {
            f(&mut map.element_type);
            for field in &mut map.fields {
                f(&mut field.ty);
            }
        }
    }
}

/// A reference to a type: by name, or an inlined atom; with an optional override of the
/// referred container's element relationship.
///
/// When a name is set, the inlined atom is ignored (as in Go). References inside a
/// [`Schema`](crate::Schema) are bound to their target when the schema is built, so resolving
/// them is an index, not a lookup by name.
#[derive(Debug, Clone, Default)]
pub struct TypeRef {
    named: Option<NamedType>,
    inlined: Atom,
    element_relationship: Option<ElementRelationship>,
    nullable: bool,
}

/// The name in a [`TypeRef`], and what it was bound to.
#[derive(Debug, Clone)]
pub(crate) struct NamedType {
    /// Shared: a schema names the same types over and over.
    pub(crate) name: Arc<str>,
    pub(crate) binding: Binding,
}

/// Where a named reference points, once its schema is built.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Binding {
    /// Not inside a schema yet: resolved by name.
    Unbound,
    /// Bound by the schema with this identity: the type (`None`: no type of that name).
    Bound { schema: u64, target: Option<TypeId> },
}

impl PartialEq for TypeRef {
    /// Equal when they say the same thing; what a name was bound to does not count.
    fn eq(&self, other: &TypeRef) -> bool {
        self.named_type() == other.named_type()
            && self.inlined == other.inlined
            && self.element_relationship == other.element_relationship
            && self.nullable == other.nullable
    }
}

impl TypeRef {
    /// A reference to the type named `name`.
    pub fn named(name: impl AsRef<str>) -> TypeRef {
        TypeRef::named_shared(Arc::from(name.as_ref()))
    }

    /// A reference to the type named `name`, sharing the name's text.
    pub(crate) fn named_shared(name: Arc<str>) -> TypeRef {
        TypeRef {
            named: Some(NamedType {
                name,
                binding: Binding::Unbound,
            }),
            ..TypeRef::default()
        }
    }

    /// An inlined type.
    pub fn inlined(atom: Atom) -> TypeRef {
        TypeRef {
            inlined: atom,
            ..TypeRef::default()
        }
    }

    /// This reference, overriding the element relationship of the map (or, if the referred atom
    /// has no map, the list) it resolves to. Resolving fails if the atom has neither.
    pub fn with_element_relationship(mut self, relationship: ElementRelationship) -> TypeRef {
        self.element_relationship = Some(relationship);
        self
    }

    /// This reference, with the `nullable` flag (kept and compared, with no effect in
    /// structured-merge-diff v6.4.2).
    pub fn with_nullable(mut self, nullable: bool) -> TypeRef {
        self.nullable = nullable;
        self
    }

    /// This reference, with `atom` inlined (ignored while a name is set).
    pub fn with_inlined(mut self, atom: Atom) -> TypeRef {
        self.inlined = atom;
        self
    }

    /// The name of the referred type, if it is referred to by name.
    pub fn named_type(&self) -> Option<&str> {
        self.named.as_ref().map(|n| &*n.name)
    }

    /// The inlined atom (empty when the reference is by name).
    pub fn inlined_atom(&self) -> &Atom {
        &self.inlined
    }

    /// The override of the element relationship, if any.
    pub fn element_relationship(&self) -> Option<&ElementRelationship> {
        self.element_relationship.as_ref()
    }

    /// The `nullable` flag.
    pub fn nullable(&self) -> bool {
        self.nullable
    }

    /// Whether this is the zero reference (no name, nothing inlined, no override, not
    /// nullable): what an absent `elementType` is.
    pub fn is_zero(&self) -> bool {
        self.named.is_none()
            && self.inlined.is_empty()
            && self.element_relationship.is_none()
            && !self.nullable
    }

    pub(crate) fn named_mut(&mut self) -> Option<&mut NamedType> {
        self.named.as_mut()
    }

    pub(crate) fn named_ref(&self) -> Option<&NamedType> {
        self.named.as_ref()
    }

    pub(crate) fn inlined_mut(&mut self) -> &mut Atom {
        &mut self.inlined
    }
}

/// A map: declared fields, the type of any other entry, and the relationship of its entries.
#[derive(Debug, Clone, Default)]
pub struct MapType {
    fields: Vec<StructField>,
    /// Positions into `fields` by name, the last declaration of a name (Go's lookup finds
    /// that one); only for maps with more fields than a scan of their lengths is worth.
    /// Built by the first lookup that needs it: most map types of a schema are never looked
    /// into, and building a schema should not pay for their indexes.
    index: OnceLock<FieldIndex>,
    unions: Vec<Union>,
    element_type: TypeRef,
    element_relationship: ElementRelationship,
}

impl PartialEq for MapType {
    fn eq(&self, other: &MapType) -> bool {
        self.fields == other.fields
            && self.unions == other.unions
            && self.element_type == other.element_type
            && self.element_relationship == other.element_relationship
    }
}

impl MapType {
    /// A map with no declared fields, no element type (so no entry is allowed) and the default
    /// (separable) relationship.
    pub fn new() -> MapType {
        MapType::default()
    }

    /// This map with these declared fields, in this (canonical) order.
    pub fn with_fields(mut self, fields: Vec<StructField>) -> MapType {
        self.fields = fields;
        self.index = OnceLock::new();
        self
    }

    /// This map with these unions (inert in structured-merge-diff v6.4.2).
    pub fn with_unions(mut self, unions: Vec<Union>) -> MapType {
        self.unions = unions;
        self
    }

    /// This map, typing every entry that is not a declared field by `element_type`.
    pub fn with_element_type(mut self, element_type: TypeRef) -> MapType {
        self.element_type = element_type;
        self
    }

    /// This map with this relationship between its entries.
    pub fn with_element_relationship(mut self, relationship: ElementRelationship) -> MapType {
        self.element_relationship = relationship;
        self
    }

    /// The declared fields, in declaration order.
    pub fn fields(&self) -> &[StructField] {
        &self.fields
    }

    /// The declared field named `name` (the last one, if declared twice).
    pub fn find_field(&self, name: &str) -> Option<&StructField> {
        self.find_field_bytes(name.as_bytes())
    }

    /// [`MapType::find_field`] of a name given as bytes (a path element's field name, which
    /// need not be UTF-8 and then names no field).
    pub fn find_field_bytes(&self, name: &[u8]) -> Option<&StructField> {
        if self.fields.len() > INDEXED_FIELDS {
            let index = self.index.get_or_init(|| FieldIndex::new(&self.fields));
            index.find(&self.fields, name)
        } else {
            self.fields.iter().rev().find(|f| f.name.as_bytes() == name)
        }
    }

    /// The unions.
    pub fn unions(&self) -> &[Union] {
        &self.unions
    }

    /// The type of entries that are not declared fields, or `None` when such entries are not
    /// allowed (Go's zero `TypeRef`).
    pub fn element_type(&self) -> Option<&TypeRef> {
        (!self.element_type.is_zero()).then_some(&self.element_type)
    }

    /// The element type as stored, the zero reference included.
    pub fn element_type_ref(&self) -> &TypeRef {
        &self.element_type
    }

    /// The relationship between entries, as written.
    pub fn element_relationship(&self) -> &ElementRelationship {
        &self.element_relationship
    }

    /// Whether the map is one leaf (only [`ElementRelationship::Atomic`] makes it so).
    pub fn is_atomic(&self) -> bool {
        self.element_relationship == ElementRelationship::Atomic
    }
}

/// Above this many fields a map type's fields are found by hash, below by a scan.
const INDEXED_FIELDS: usize = 8;

/// Positions of fields by the hash of their names.
#[derive(Clone)]
struct FieldIndex {
    table: hashbrown::HashTable<u32>,
    hasher: foldhash::fast::RandomState,
}

impl std::fmt::Debug for FieldIndex {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("FieldIndex")
    }
}

impl FieldIndex {
    fn new(fields: &[StructField]) -> FieldIndex {
        let hasher = foldhash::fast::RandomState::default();
        let mut table = hashbrown::HashTable::with_capacity(fields.len());
        for (i, field) in fields.iter().enumerate() {
            let Ok(at) = u32::try_from(i) else { break };
            let hash = hasher.hash_one(field.name.as_bytes());
            let name_of = |j: &u32| {
                fields
                    .get(*j as usize)
                    .map_or(&b""[..], |f| f.name.as_bytes())
            };
            match table.find_mut(hash, |j| name_of(j) == field.name.as_bytes()) {
                // A later declaration of a name replaces the earlier one.
                Some(slot) => *slot = at,
                None => {
                    table.insert_unique(hash, at, |j| hasher.hash_one(name_of(j)));
                }
            }
        }
        FieldIndex { table, hasher }
    }

    fn find<'a>(&self, fields: &'a [StructField], name: &[u8]) -> Option<&'a StructField> {
        let hash = self.hasher.hash_one(name);
        let at = self.table.find(hash, |j| {
            fields
                .get(*j as usize)
                .is_some_and(|f| f.name.as_bytes() == name)
        })?;
        fields.get(*at as usize)
    }
}

/// A declared field of a map.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct StructField {
    /// Inline when short, as field names mostly are: a schema has thousands of them.
    name: CompactString,
    ty: TypeRef,
    default: Option<Value>,
}

impl StructField {
    /// A field named `name` of type `ty`, with no default.
    pub fn new(name: impl AsRef<str>, ty: TypeRef) -> StructField {
        StructField {
            name: CompactString::from(name.as_ref()),
            ty,
            default: None,
        }
    }

    /// This field with a default value, which structured-merge-diff uses only to fill in an
    /// absent key field of an associative list item. A null default is no default.
    pub fn with_default(mut self, default: Value) -> StructField {
        self.default = (!default.is_null()).then_some(default);
        self
    }

    /// The name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The type.
    pub fn type_ref(&self) -> &TypeRef {
        &self.ty
    }

    /// The default value.
    pub fn default_value(&self) -> Option<&Value> {
        self.default.as_ref()
    }
}

/// A list: the type of its elements, their relationship, and the keys of an associative list
/// of maps.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ListType {
    element_type: TypeRef,
    element_relationship: ElementRelationship,
    keys: Vec<String>,
}

impl ListType {
    /// A list of `element_type`, with no relationship stated (positional) and no keys.
    pub fn new(element_type: TypeRef) -> ListType {
        ListType {
            element_type,
            ..ListType::default()
        }
    }

    /// This list with this relationship between its elements.
    pub fn with_element_relationship(mut self, relationship: ElementRelationship) -> ListType {
        self.element_relationship = relationship;
        self
    }

    /// This list with these key fields (each the name of a field of the element map type).
    pub fn with_keys(mut self, keys: Vec<String>) -> ListType {
        self.keys = keys;
        self
    }

    /// The element type (possibly the zero reference, which resolves to an empty atom).
    pub fn element_type(&self) -> &TypeRef {
        &self.element_type
    }

    /// The relationship between elements, as written.
    pub fn element_relationship(&self) -> &ElementRelationship {
        &self.element_relationship
    }

    /// The key field names, in schema order.
    pub fn keys(&self) -> &[String] {
        &self.keys
    }
}

/// A group of fields of which at most one should be set. Parsed and kept, but inert: unions have
/// no behaviour in structured-merge-diff v6.4.2.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Union {
    discriminator: Option<String>,
    deduce_invalid_discriminator: bool,
    fields: Vec<UnionField>,
}

impl Union {
    /// A union of `fields`, with no discriminator.
    pub fn new(fields: Vec<UnionField>) -> Union {
        Union {
            fields,
            ..Union::default()
        }
    }

    /// This union with a discriminator field.
    pub fn with_discriminator(mut self, discriminator: impl Into<String>) -> Union {
        self.discriminator = Some(discriminator.into());
        self
    }

    /// This union with the `deduceInvalidDiscriminator` flag.
    pub fn with_deduce_invalid_discriminator(mut self, deduce: bool) -> Union {
        self.deduce_invalid_discriminator = deduce;
        self
    }

    /// The name of the discriminator field.
    pub fn discriminator(&self) -> Option<&str> {
        self.discriminator.as_deref()
    }

    /// The `deduceInvalidDiscriminator` flag.
    pub fn deduce_invalid_discriminator(&self) -> bool {
        self.deduce_invalid_discriminator
    }

    /// The member fields.
    pub fn fields(&self) -> &[UnionField] {
        &self.fields
    }
}

/// A member of a [`Union`]: a field name and the discriminator value that selects it.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct UnionField {
    field_name: String,
    discriminator_value: String,
}

impl UnionField {
    /// The member `field_name`, selected by `discriminator_value`.
    pub fn new(
        field_name: impl Into<String>,
        discriminator_value: impl Into<String>,
    ) -> UnionField {
        UnionField {
            field_name: field_name.into(),
            discriminator_value: discriminator_value.into(),
        }
    }

    /// The field's name.
    pub fn field_name(&self) -> &str {
        &self.field_name
    }

    /// The discriminator value that selects it.
    pub fn discriminator_value(&self) -> &str {
        &self.discriminator_value
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn find_field_takes_the_last_declaration() {
        let string = || TypeRef::inlined(Atom::scalar(Scalar::String));
        let map = MapType::new().with_fields(vec![
            StructField::new("b", string()),
            StructField::new("a", string()),
            StructField::new("b", string()).with_default(Value::from("second")),
            StructField::new("", string()),
        ]);
        let b = map.find_field("b").and_then(StructField::default_value);
        assert_eq!(b, Some(&Value::from("second")));
        assert_eq!(map.find_field("a").map(StructField::name), Some("a"));
        assert_eq!(map.find_field("").map(StructField::name), Some(""));
        assert!(map.find_field("c").is_none());
        assert!(map.find_field("aa").is_none());
    }

    #[test]
    fn names_round_trip() {
        for name in ["numeric", "string", "boolean", "untyped", "", "foo"] {
            assert_eq!(Scalar::from_name(name).as_str(), name);
        }
        for name in ["", "atomic", "associative", "separable", "granular"] {
            assert_eq!(ElementRelationship::from_name(name).as_str(), name);
        }
    }
}
