//! A schema: its named types, indexed by name once, and resolution of type references to atoms.

use std::hash::BuildHasher;
use std::sync::OnceLock;
use std::sync::atomic::{AtomicU64, Ordering};

use crate::model::{Atom, Binding, ElementRelationship, ListType, MapType, Scalar, StructField};
use crate::model::{TypeDef, TypeRef, Union};

/// The position of a named type in its [`Schema`]: a reference resolves through it without a
/// lookup by name.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct TypeId(u32);

impl TypeId {
    /// The position in [`Schema::types`].
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// Two schemas given to [`Schema::union`] define a type differently.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("type {name} is defined differently by parts {} and {}", parts.0, parts.1)]
pub struct UnionError {
    /// The type's name.
    pub name: String,
    /// The positions of the first part defining it and of the part defining it differently.
    pub parts: (usize, usize),
}

/// Identities of built schemas, so that a reference bound by one schema is never taken for a
/// reference bound by another.
static NEXT_SCHEMA: AtomicU64 = AtomicU64::new(1);

/// A list of named types, immutable once built.
///
/// Building a schema indexes the type names (for equal names the last one wins, as in Go) and
/// binds every named reference inside it to its target, so that [`Schema::resolve`] on them is
/// an array access. Nothing is checked: like Go's, a schema may refer to names it does not
/// define (those references do not resolve) and may refer to itself.
#[derive(Debug, Clone)]
pub struct Schema {
    types: Vec<TypeDef>,
    by_name: NameIndex,
    identity: u64,
    /// Per type: whether every value is valid as it (see [`Schema::accepts_anything`]).
    /// Computed on first use, as is the next one: converting or reading a schema does not
    /// need them, and a schema read only to be written never does.
    accepts_anything: OnceLock<Vec<bool>>,
    /// Per type: whether its lists are all atomic or associative (see
    /// [`Schema::names_list_items`]).
    names_list_items: OnceLock<Vec<bool>>,
}

impl PartialEq for Schema {
    /// Equal when the types are equal, in the same order.
    fn eq(&self, other: &Schema) -> bool {
        self.types == other.types
    }
}

impl Default for Schema {
    fn default() -> Schema {
        Schema::new(Vec::new())
    }
}

impl Schema {
    /// A schema of these types, in this order.
    pub fn new(mut types: Vec<TypeDef>) -> Schema {
        // A TypeId is 32 bits; no real schema comes near 4 billion types.
        types.truncate(u32::MAX as usize);
        let by_name = NameIndex::new(&types);
        let identity = NEXT_SCHEMA.fetch_add(1, Ordering::Relaxed);
        for i in 0..types.len() {
            // The atom is taken out while its references are bound: the index reads the
            // types' names, the atom's own type's included.
            let Some(t) = types.get_mut(i) else { break };
            let mut atom = std::mem::take(t.atom_mut());
            bind_atom(&mut atom, &by_name, &types, identity);
            if let Some(t) = types.get_mut(i) {
                *t.atom_mut() = atom;
            }
        }
        Schema {
            types,
            by_name,
            identity,
            accepts_anything: OnceLock::new(),
            names_list_items: OnceLock::new(),
        }
    }

    /// The union of `parts`: every type of every part, sorted by name. A name several parts
    /// define must be defined identically by all (the CRD schemas smd builds each carry a copy
    /// of `ObjectMeta`, for example); otherwise the error names the type and the parts.
    ///
    /// ```
    /// use smd_schema::{Atom, Scalar, Schema, TypeDef};
    /// let a = Schema::new(vec![TypeDef::new("a", Atom::scalar(Scalar::String))]);
    /// let b = Schema::new(vec![TypeDef::new("b", Atom::scalar(Scalar::Numeric))]);
    /// let both = Schema::union([a, b]).unwrap();
    /// assert!(both.find("a").is_some() && both.find("b").is_some());
    /// ```
    pub fn union(parts: impl IntoIterator<Item = Schema>) -> Result<Schema, UnionError> {
        let mut by_name: std::collections::BTreeMap<String, (usize, TypeDef)> =
            std::collections::BTreeMap::new();
        for (part, schema) in parts.into_iter().enumerate() {
            for t in schema.types {
                match by_name.get(t.name()) {
                    Some((first, seen)) if *seen != t => {
                        return Err(UnionError {
                            name: t.name().to_owned(),
                            parts: (*first, part),
                        });
                    }
                    Some(_) => {}
                    None => {
                        by_name.insert(t.name().to_owned(), (part, t));
                    }
                }
            }
        }
        Ok(Schema::new(by_name.into_values().map(|(_, t)| t).collect()))
    }

    /// The types, in document order.
    pub fn types(&self) -> &[TypeDef] {
        &self.types
    }

    /// The type at `id`.
    pub fn get(&self, id: TypeId) -> Option<&TypeDef> {
        self.types.get(id.index())
    }

    /// The id of the type named `name` (the last one, if several have that name).
    pub fn find(&self, name: &str) -> Option<TypeId> {
        self.by_name.find(&self.types, name)
    }

    /// The type named `name` (Go's `FindNamedType`).
    pub fn find_named_type(&self, name: &str) -> Option<&TypeDef> {
        self.find(name).and_then(|id| self.get(id))
    }

    /// A reference to the type named `name`, bound to this schema (a later [`resolve`] is an
    /// array access). Unknown names give a reference that does not resolve.
    ///
    /// [`resolve`]: Schema::resolve
    pub fn type_ref(&self, name: &str) -> TypeRef {
        let mut tr = TypeRef::named(name);
        if let Some(named) = tr.named_mut() {
            named.binding = Binding::Bound {
                schema: self.identity,
                target: self.find(name),
            };
        }
        tr
    }

    /// The atom `tr` refers to, with its override of the element relationship applied: Go's
    /// `Resolve`.
    ///
    /// * A named reference resolves to its type's atom; an unknown name does not resolve. When
    ///   a name is set, the inlined atom is ignored.
    /// * Otherwise it resolves to the inlined atom (which may be empty).
    /// * An override applies to the map part if there is one, else to the list part; an atom
    ///   with neither (scalar only, or empty) does not resolve when an override is given.
    ///
    /// References bound to this schema resolve without a lookup by name; others (built with
    /// [`TypeRef::named`], or bound to another schema) are looked up by name.
    pub fn resolve<'a>(&'a self, tr: &'a TypeRef) -> Option<ResolvedAtom<'a>> {
        let atom = match tr.named_ref() {
            Some(named) => {
                let id = match named.binding {
                    Binding::Bound { schema, target } if schema == self.identity => target,
                    _ => self.find(&named.name),
                }?;
                self.get(id)?.atom()
            }
            None => tr.inlined_atom(),
        };
        let overridden = match tr.element_relationship() {
            None => Overridden::Nothing,
            Some(_) if atom.as_map().is_some() => Overridden::Map,
            Some(_) if atom.as_list().is_some() => Overridden::List,
            Some(_) => return None,
        };
        Some(ResolvedAtom {
            atom,
            relationship: tr.element_relationship(),
            overridden,
        })
    }
}

impl Schema {
    /// Whether every value is valid as `tr` (only references to this schema's own types are
    /// known so): a type with an untyped scalar, a list that is not associative and a map
    /// whose entries are typed, all of whose element and field types accept anything too.
    /// Checking a value against such a type finds nothing, whatever the value; the deduced
    /// type of `fieldsV1` is one, and every stored object carries a few of those.
    pub fn accepts_anything(&self, tr: &TypeRef) -> bool {
        let per_type = self
            .accepts_anything
            .get_or_init(|| closure(&self.types, self.identity, &ACCEPTS_ANYTHING));
        self.holds(per_type, tr, &ACCEPTS_ANYTHING)
    }

    /// Whether every list reachable from `tr` is atomic or associative (only references to
    /// this schema's own types are known so): every item of a granular list is named by its
    /// key or value, never by its position. A merge of a checked value into nothing then
    /// finds no error and rebuilds the value as it is.
    pub fn names_list_items(&self, tr: &TypeRef) -> bool {
        let per_type = self
            .names_list_items
            .get_or_init(|| closure(&self.types, self.identity, &NAMES_LIST_ITEMS));
        self.holds(per_type, tr, &NAMES_LIST_ITEMS)
    }

    fn holds(&self, per_type: &[bool], tr: &TypeRef, property: &Property) -> bool {
        match tr.named_ref().map(|n| n.binding) {
            Some(Binding::Bound {
                schema,
                target: Some(id),
            }) if schema == self.identity => {
                per_type.get(id.index()).copied().unwrap_or(false)
                    && self
                        .get(id)
                        .is_some_and(|t| property.keeps_override(tr, t.atom()))
            }
            Some(_) => false,
            // An inlined type (a map of strings, a list of a named type) is looked at here,
            // the named types it refers to through what was computed for them.
            None => {
                let mut targets = Targets::new();
                property.keeps_override(tr, tr.inlined_atom())
                    && property.atom_has(
                        &self.types,
                        tr.inlined_atom(),
                        self.identity,
                        &mut targets,
                        0,
                    )
                    && targets
                        .iter()
                        .all(|&t| per_type.get(t).copied().unwrap_or(false))
            }
        }
    }
}

/// The named types an atom refers to, by position.
type Targets = smallvec::SmallVec<[usize; 8]>;

/// A property of types that holds of a type when its own atom has it and every type it
/// refers to has it too.
struct Property {
    /// What the atom itself must be, its references aside.
    atom: fn(&Atom) -> bool,
    /// Which relationships a list may have.
    list: fn(&ElementRelationship) -> bool,
}

const ACCEPTS_ANYTHING: Property = Property {
    atom: |atom| {
        matches!(atom.as_scalar(), Some(Scalar::Untyped))
            && atom.as_list().is_some()
            && atom
                .as_map()
                .is_some_and(|m| !m.element_type_ref().is_zero())
    },
    list: |r| *r != ElementRelationship::Associative,
};

const NAMES_LIST_ITEMS: Property = Property {
    atom: |_| true,
    list: |r| {
        matches!(
            r,
            ElementRelationship::Atomic | ElementRelationship::Associative
        )
    },
};

impl Property {
    /// Whether a reference's override of the element relationship keeps the property of the
    /// atom it names: the override applies to the map part if there is one, else to the list.
    fn keeps_override(&self, tr: &TypeRef, atom: &Atom) -> bool {
        match tr.element_relationship() {
            Some(r) if atom.as_map().is_none() && atom.as_list().is_some() => (self.list)(r),
            _ => true,
        }
    }

    /// Whether `atom` has the property, given that the named types it refers to (added to
    /// `targets`) do.
    fn atom_has(
        &self,
        types: &[TypeDef],
        atom: &Atom,
        identity: u64,
        targets: &mut Targets,
        depth: usize,
    ) -> bool {
        // Inlined atoms nest as deep as the document did; past the readers' limit, say no.
        if depth > smd_value::MAX_DEPTH || !(self.atom)(atom) {
            return false;
        }
        let reference =
            |tr: &TypeRef, targets: &mut Targets| self.ref_has(types, tr, identity, targets, depth);
        if let Some(list) = atom.as_list()
            && !((self.list)(list.element_relationship())
                && reference(list.element_type(), targets))
        {
            return false;
        }
        if let Some(map) = atom.as_map() {
            let element = map.element_type_ref();
            if !element.is_zero() && !reference(element, targets) {
                return false;
            }
            if !map
                .fields()
                .iter()
                .all(|f| reference(f.type_ref(), targets))
            {
                return false;
            }
        }
        true
    }

    fn ref_has(
        &self,
        types: &[TypeDef],
        tr: &TypeRef,
        identity: u64,
        targets: &mut Targets,
        depth: usize,
    ) -> bool {
        match tr.named_ref().map(|n| n.binding) {
            Some(Binding::Bound {
                schema,
                target: Some(id),
            }) if schema == identity => {
                targets.push(id.index());
                types
                    .get(id.index())
                    .is_some_and(|t| self.keeps_override(tr, t.atom()))
            }
            Some(_) => false,
            None => {
                self.keeps_override(tr, tr.inlined_atom())
                    && self.atom_has(types, tr.inlined_atom(), identity, targets, depth + 1)
            }
        }
    }
}

/// `property` of every type: the types whose own atom has it, less every type that refers to
/// one that does not (through a reverse index, so in linear time).
fn closure(types: &[TypeDef], identity: u64, property: &Property) -> Vec<bool> {
    let mut holds = vec![true; types.len()];
    // The references of the types that hold so far, as (target, referrer) pairs: a type that
    // does not hold is refused already, whatever it refers to.
    let mut edges: Vec<(u32, u32)> = Vec::new();
    let mut refused = Vec::new();
    let mut targets = Targets::new();
    for (i, t) in types.iter().enumerate() {
        targets.clear();
        if property.atom_has(types, t.atom(), identity, &mut targets, 0) {
            for &target in &targets {
                if let (Ok(target), Ok(referrer)) = (u32::try_from(target), u32::try_from(i)) {
                    edges.push((target, referrer));
                }
            }
        } else {
            holds[i] = false;
            refused.push(i);
        }
    }
    // The referrers of each type, in one array: those of type t at starts[t]..starts[t + 1].
    let mut starts = vec![0usize; types.len() + 1];
    for &(target, _) in &edges {
        if let Some(n) = starts.get_mut(target as usize + 1) {
            *n += 1;
        }
    }
    for t in 1..starts.len() {
        starts[t] += starts[t - 1];
    }
    let mut referrers = vec![0u32; edges.len()];
    let mut next = starts.clone();
    for &(target, referrer) in &edges {
        if let Some(at) = next.get_mut(target as usize) {
            if let Some(slot) = referrers.get_mut(*at) {
                *slot = referrer;
            }
            *at += 1;
        }
    }
    while let Some(i) = refused.pop() {
        let range = starts.get(i).copied().unwrap_or(0)..starts.get(i + 1).copied().unwrap_or(0);
        for &referrer in referrers.get(range).unwrap_or_default() {
            let referrer = referrer as usize;
            if holds[referrer] {
                holds[referrer] = false;
                refused.push(referrer);
            }
        }
    }
    holds
}

/// The types by name: positions into the schema's types, hashed with foldhash seeded per
/// process (names come from documents, so colliding ones must not be choosable ahead of time).
#[derive(Clone)]
struct NameIndex {
    table: hashbrown::HashTable<TypeId>,
    hasher: foldhash::fast::RandomState,
}

impl std::fmt::Debug for NameIndex {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("NameIndex")
    }
}

impl NameIndex {
    /// The index of `types`; for equal names the last one wins, as in Go.
    fn new(types: &[TypeDef]) -> NameIndex {
        let hasher = foldhash::fast::RandomState::default();
        let mut table = hashbrown::HashTable::with_capacity(types.len());
        let name_of = |id: &TypeId| types.get(id.index()).map_or("", TypeDef::name);
        for (i, t) in types.iter().enumerate() {
            let Ok(i) = u32::try_from(i) else { break };
            let hash = hasher.hash_one(t.name());
            match table.find_mut(hash, |id| name_of(id) == t.name()) {
                Some(slot) => *slot = TypeId(i),
                None => {
                    table.insert_unique(hash, TypeId(i), |id| hasher.hash_one(name_of(id)));
                }
            }
        }
        NameIndex { table, hasher }
    }

    fn find(&self, types: &[TypeDef], name: &str) -> Option<TypeId> {
        let hash = self.hasher.hash_one(name);
        self.table
            .find(hash, |id| {
                types.get(id.index()).is_some_and(|t| t.name() == name)
            })
            .copied()
    }
}

fn bind_atom(atom: &mut Atom, by_name: &NameIndex, types: &[TypeDef], identity: u64) {
    atom.for_each_ref_mut(&mut |tr| bind_ref(tr, by_name, types, identity));
}

/// Binds `tr` and the references inside it. Recursion follows the nesting of inlined atoms in
/// the document (bounded by the reader's depth limit), never named references, so a schema that
/// refers to itself is walked once.
fn bind_ref(tr: &mut TypeRef, by_name: &NameIndex, types: &[TypeDef], identity: u64) {
    if let Some(named) = tr.named_mut() {
        named.binding = Binding::Bound {
            schema: identity,
            target: by_name.find(types, &named.name),
        };
    }
    bind_atom(tr.inlined_mut(), by_name, types, identity);
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Overridden {
    Nothing,
    Map,
    List,
}

/// The atom a [`TypeRef`] resolves to, seen through the reference's override of the element
/// relationship (Go returns a modified copy; this is a view, with no copy).
#[derive(Debug, Clone, Copy)]
pub struct ResolvedAtom<'a> {
    atom: &'a Atom,
    relationship: Option<&'a ElementRelationship>,
    overridden: Overridden,
}

impl<'a> ResolvedAtom<'a> {
    /// The atom as defined, without the override.
    pub fn atom(&self) -> &'a Atom {
        self.atom
    }

    /// The scalar part.
    pub fn scalar(&self) -> Option<&'a Scalar> {
        self.atom.as_scalar()
    }

    /// The list part, with the override applied if it applies to the list.
    pub fn list(&self) -> Option<ListView<'a>> {
        let list = self.atom.as_list()?;
        let relationship = match (self.overridden, self.relationship) {
            (Overridden::List, Some(r)) => r,
            _ => list.element_relationship(),
        };
        Some(ListView { list, relationship })
    }

    /// The map part, with the override applied if there is one.
    pub fn map(&self) -> Option<MapView<'a>> {
        let map = self.atom.as_map()?;
        let relationship = match (self.overridden, self.relationship) {
            (Overridden::Map, Some(r)) => r,
            _ => map.element_relationship(),
        };
        Some(MapView { map, relationship })
    }

    /// Whether no part is set: every value fails against this atom.
    pub fn is_empty(&self) -> bool {
        self.atom.is_empty()
    }
}

/// A resolved map: a [`MapType`] with the element relationship in force.
#[derive(Debug, Clone, Copy)]
pub struct MapView<'a> {
    map: &'a MapType,
    relationship: &'a ElementRelationship,
}

impl<'a> MapView<'a> {
    /// The map as defined (its own element relationship, not the one in force).
    pub fn definition(&self) -> &'a MapType {
        self.map
    }

    /// The element relationship in force.
    pub fn element_relationship(&self) -> &'a ElementRelationship {
        self.relationship
    }

    /// Whether the map is one leaf.
    pub fn is_atomic(&self) -> bool {
        *self.relationship == ElementRelationship::Atomic
    }

    /// The declared fields.
    pub fn fields(&self) -> &'a [StructField] {
        self.map.fields()
    }

    /// The declared field named `name`.
    pub fn find_field(&self, name: &str) -> Option<&'a StructField> {
        self.map.find_field(name)
    }

    /// [`MapView::find_field`] of a name given as bytes.
    pub fn find_field_bytes(&self, name: &[u8]) -> Option<&'a StructField> {
        self.map.find_field_bytes(name)
    }

    /// The type of undeclared entries, `None` when they are not allowed.
    pub fn element_type(&self) -> Option<&'a TypeRef> {
        self.map.element_type()
    }

    /// The unions.
    pub fn unions(&self) -> &'a [Union] {
        self.map.unions()
    }
}

/// A resolved list: a [`ListType`] with the element relationship in force.
#[derive(Debug, Clone, Copy)]
pub struct ListView<'a> {
    list: &'a ListType,
    relationship: &'a ElementRelationship,
}

impl<'a> ListView<'a> {
    /// The list as defined (its own element relationship, not the one in force).
    pub fn definition(&self) -> &'a ListType {
        self.list
    }

    /// The element relationship in force.
    pub fn element_relationship(&self) -> &'a ElementRelationship {
        self.relationship
    }

    /// The element type.
    pub fn element_type(&self) -> &'a TypeRef {
        self.list.element_type()
    }

    /// The key field names.
    pub fn keys(&self) -> &'a [String] {
        self.list.keys()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An untyped scalar, a list of `item` and a map of `entry`: accepts anything if they do.
    fn untyped(item: &str, entry: &str) -> Atom {
        Atom::scalar(Scalar::Untyped)
            .with_list(ListType::new(TypeRef::named(item)))
            .with_map(MapType::new().with_element_type(TypeRef::named(entry)))
    }

    #[test]
    fn accepts_anything_follows_every_reference() {
        let schema = Schema::new(vec![
            // Refers to itself only: accepts anything.
            TypeDef::new("deduced", untyped("deduced", "deduced")),
            // Its entries are strings.
            TypeDef::new("strings", untyped("deduced", "string")),
            TypeDef::new("string", Atom::scalar(Scalar::String)),
            // Two steps away from `strings`, through a cycle.
            TypeDef::new("a", untyped("b", "deduced")),
            TypeDef::new("b", untyped("a", "strings")),
            // No map part: a map value would not fit.
            TypeDef::new(
                "no-map",
                Atom::scalar(Scalar::Untyped).with_list(ListType::new(TypeRef::named("deduced"))),
            ),
            // Names a type that does not exist.
            TypeDef::new("dangling", untyped("deduced", "missing")),
        ]);
        let accepts = |name: &str| schema.accepts_anything(&schema.type_ref(name));
        assert!(accepts("deduced"));
        for refused in ["strings", "string", "a", "b", "no-map", "dangling"] {
            assert!(!accepts(refused), "{refused}");
        }
        // A reference built outside the schema is not known.
        assert!(!schema.accepts_anything(&TypeRef::named("deduced")));
    }

    #[test]
    fn names_list_items_wants_atomic_or_associative_lists() {
        let list = |relationship| {
            Atom::scalar(Scalar::Untyped).with_list(
                ListType::new(TypeRef::named("string")).with_element_relationship(relationship),
            )
        };
        let holder = |item: &str| {
            Atom::scalar(Scalar::Untyped).with_map(
                MapType::new().with_fields(vec![StructField::new("items", TypeRef::named(item))]),
            )
        };
        // A struct whose one field is an inlined map of `entry`.
        let inline_map_of = |entry: &str| {
            let inlined =
                Atom::default().with_map(MapType::new().with_element_type(TypeRef::named(entry)));
            Atom::default().with_map(
                MapType::new().with_fields(vec![StructField::new("m", TypeRef::inlined(inlined))]),
            )
        };
        let schema = Schema::new(vec![
            TypeDef::new("string", Atom::scalar(Scalar::String)),
            TypeDef::new("atomic", list(ElementRelationship::Atomic)),
            TypeDef::new("keyed", list(ElementRelationship::Associative)),
            TypeDef::new("positional", list(ElementRelationship::Separable)),
            TypeDef::new("holds-keyed", holder("keyed")),
            TypeDef::new("holds-positional", holder("positional")),
            TypeDef::new("inline-keyed", inline_map_of("holds-keyed")),
            TypeDef::new("inline-positional", inline_map_of("holds-positional")),
            TypeDef::new("inline-strings", inline_map_of("string")),
        ]);
        let names = |name: &str| schema.names_list_items(&schema.type_ref(name));
        for yes in ["string", "atomic", "keyed", "holds-keyed"] {
            assert!(names(yes), "{yes}");
        }
        for no in ["positional", "holds-positional"] {
            assert!(!names(no), "{no}");
        }
        // Inlined types are looked at where they are, their named types as computed (the
        // references inside a schema's own types are bound to it).
        let field = |name: &str| {
            schema
                .find_named_type(name)
                .and_then(|t| t.atom().as_map())
                .and_then(|m| m.fields().first())
                .map(|f| schema.names_list_items(f.type_ref()))
        };
        assert_eq!(field("inline-keyed"), Some(true));
        assert_eq!(field("inline-positional"), Some(false));
        assert_eq!(field("inline-strings"), Some(true));
        assert!(!schema.names_list_items(&TypeRef::inlined(list(ElementRelationship::Separable))));
        // An override makes the list of a list-only type what it says.
        let separable = schema
            .type_ref("keyed")
            .with_element_relationship(ElementRelationship::Separable);
        assert!(!schema.names_list_items(&separable));
    }
}
