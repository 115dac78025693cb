//! Reading SMD's schema YAML: Go's `typed.NewParser`, which checks the document against the
//! schema of schemas and then decodes it into the model with yaml.v2.
//!
//! Both happen in one walk over the decoded document here. The checks are those Go's typed
//! validation makes against `schemaschema.go`, in its words; the decoding follows yaml.v2's
//! struct decoding of what the checks let through (a null is the zero value: an empty string,
//! `false`, no list, no map part, the zero type reference).

use std::collections::HashSet;
use std::fmt::Write;
use std::sync::Arc;

use smd_value::Value;

use super::gofmt;
use crate::error::{Error, Problem, Result};
use crate::model::{Atom, ElementRelationship, ListType, MapType, Scalar, StructField};
use crate::model::{TypeDef, TypeRef, Union, UnionField};
use crate::schema::Schema;

/// Reads a schema from its YAML text, checking it as Go's `typed.NewParser` does.
pub(crate) fn from_str(text: &str) -> Result<Schema> {
    from_value(&first_document(text)?)
}

/// Reads a schema from a decoded YAML document.
pub(crate) fn from_value(document: &Value) -> Result<Schema> {
    read(document, Reader::schema).map(Schema::new)
}

/// Reads a type reference (`{namedType: x, elementRelationship: atomic}`) from its YAML text,
/// checked as the schema of schemas checks one inside a schema.
pub(crate) fn type_ref_from_str(text: &str) -> Result<TypeRef> {
    let document = first_document(text)?;
    read(&document, Reader::type_ref)
}

fn first_document(text: &str) -> Result<Value> {
    // yaml.Unmarshal decodes the first document of the stream and never looks at the rest.
    match smd_value::yaml::Documents::new(text).next() {
        None => Ok(Value::Null),
        Some(Ok(document)) => Ok(document.value),
        Some(Err(e)) => Err(Error::from_yaml(e)),
    }
}

fn read<'v, T>(
    document: &'v Value,
    part: impl FnOnce(&mut Reader<'v>, &'v Value) -> T,
) -> Result<T> {
    let mut reader = Reader {
        path: Vec::new(),
        problems: Vec::new(),
        names: Names::default(),
    };
    let out = part(&mut reader, document);
    if reader.problems.is_empty() {
        Ok(out)
    } else {
        Err(Error::invalid(reader.problems))
    }
}

struct Reader<'v> {
    /// The path of the value being read, written out as Go prints it only for a problem.
    path: Vec<Segment<'v>>,
    problems: Vec<Problem>,
    /// The names of referred types, each kept once and shared by every reference to it
    /// (hashed with foldhash seeded per process: names come from documents).
    names: Names<'v>,
}

type Names<'v> = hashbrown::HashMap<&'v str, Arc<str>, foldhash::fast::RandomState>;

/// One step of a path in the document, as Go prints it.
#[derive(Clone, Copy)]
enum Segment<'a> {
    /// `.name`
    Field(&'a str),
    /// `[3]`
    Index(usize),
    /// `[name="x"]`: the key field and its value.
    Key(&'static str, &'a Value),
}

/// What a keyed list's items are identified by.
struct Keyed {
    /// The key field (`name` or `fieldName`).
    key: &'static str,
    /// Go's `%q` of the list's keys, for the message about an item with no key.
    quoted: &'static str,
}

const BY_NAME: Keyed = Keyed {
    key: "name",
    quoted: r#"["name"]"#,
};
const BY_FIELD_NAME: Keyed = Keyed {
    key: "fieldName",
    quoted: r#"["fieldName"]"#,
};

impl<'v> Reader<'v> {
    fn problem(&mut self, message: String) {
        let mut path = String::new();
        for segment in &self.path {
            // Writing to a String cannot fail.
            let _ = match segment {
                Segment::Field(name) => write!(path, ".{name}"),
                Segment::Index(i) => write!(path, "[{i}]"),
                Segment::Key(name, value) => write!(path, "[{name}={value}]"),
            };
        }
        self.problems.push(Problem::new(path, message));
    }

    /// Runs `f` with `segment` appended to the path.
    fn at<T>(&mut self, segment: Segment<'v>, f: impl FnOnce(&mut Reader<'v>) -> T) -> T {
        self.path.push(segment);
        let out = f(self);
        self.path.pop();
        out
    }

    /// The type named `name`, its text shared with the other references to it.
    fn named(&mut self, name: &'v str) -> TypeRef {
        let shared = self
            .names
            .entry(name)
            .or_insert_with(|| Arc::from(name))
            .clone();
        TypeRef::named_shared(shared)
    }

    /// The entries of a map-typed value (none for null), or a problem.
    fn map_entries(&mut self, v: &'v Value) -> Option<&'v smd_value::Map> {
        match v {
            Value::Map(m) => Some(m),
            Value::Null => None,
            other => {
                self.problem(format!("expected map, got {}", gofmt::plain(other)));
                None
            }
        }
    }

    /// Visits the entries of a map-typed value in document order, each with its path. An
    /// undeclared key (`visit` returns `false`) is a problem and ends the visit, as in Go.
    fn fields(
        &mut self,
        v: &'v Value,
        mut visit: impl FnMut(&mut Reader<'v>, &'v str, &'v Value) -> bool,
    ) {
        let Some(m) = self.map_entries(v) else {
            return;
        };
        for (key, item) in m.iter() {
            let declared = self.at(Segment::Field(key), |r| visit(r, key, item));
            if !declared {
                self.at(Segment::Field(key), |r| {
                    r.problem("field not declared in schema".to_owned());
                });
                return;
            }
        }
    }

    /// A `scalar: string` field: its text (empty for null).
    fn string(&mut self, v: &'v Value) -> Option<&'v str> {
        match v {
            Value::String(s) => Some(s),
            Value::Null => None,
            other => {
                self.problem(format!("expected string, got {}", gofmt::go_syntax(other)));
                None
            }
        }
    }

    /// A `scalar: boolean` field (false for null).
    fn boolean(&mut self, v: &Value) -> bool {
        match v {
            Value::Bool(b) => *b,
            Value::Null => false,
            other => {
                self.problem(format!("expected boolean, got {}", gofmt::plain(other)));
                false
            }
        }
    }

    /// The items of a list-typed value (none for null), or a problem.
    fn list_items(&mut self, v: &'v Value) -> &'v [Value] {
        match v {
            Value::List(items) => items,
            Value::Null => &[],
            other => {
                self.problem(format!("expected list, got {}", gofmt::plain(other)));
                &[]
            }
        }
    }

    /// An atomic list: every item read by `item` at its index.
    fn atomic_list<T>(
        &mut self,
        v: &'v Value,
        mut item: impl FnMut(&mut Reader<'v>, &'v Value) -> T,
    ) -> Vec<T> {
        let items = self.list_items(v);
        let mut out = Vec::with_capacity(items.len());
        for (i, v) in items.iter().enumerate() {
            out.push(self.at(Segment::Index(i), |r| item(r, v)));
        }
        out
    }

    /// An associative list keyed by one field: items must be maps holding the key field; an
    /// item that is not ends the list (Go cannot name the items after it). Duplicates are
    /// reported, and kept.
    fn keyed_list<T>(
        &mut self,
        v: &'v Value,
        keyed: &Keyed,
        mut item: impl FnMut(&mut Reader<'v>, &'v Value) -> T,
    ) -> Vec<T> {
        let items = self.list_items(v);
        let mut out = Vec::with_capacity(items.len());
        let mut seen_strings: HashSet<&str> = HashSet::with_capacity(items.len());
        let mut seen_others: Vec<&Value> = Vec::new();
        for (i, v) in items.iter().enumerate() {
            let key = match v {
                Value::Null => Err("associative list with keys may not have a null element"),
                Value::Map(m) => m.get(keyed.key).ok_or(""),
                _ => Err("associative list with keys may not have non-map elements"),
            };
            let key = match key {
                Ok(key) => key,
                Err(why) => {
                    let message = if why.is_empty() {
                        format!(
                            "element {i}: associative list with keys has an element that omits \
                             all key fields {} (and doesn't have default values for any key \
                             fields)",
                            keyed.quoted
                        )
                    } else {
                        format!("element {i}: {why}")
                    };
                    self.problem(message);
                    return out;
                }
            };
            let duplicate = match key {
                Value::String(s) => !seen_strings.insert(s),
                other => {
                    let dup = seen_others.contains(&other);
                    seen_others.push(other);
                    dup
                }
            };
            if duplicate {
                self.problem(format!("duplicate entries for key [{}={key}]", keyed.key));
            }
            out.push(self.at(Segment::Key(keyed.key, key), |r| item(r, v)));
        }
        out
    }

    /// The document: a map with `types`.
    fn schema(&mut self, v: &'v Value) -> Vec<TypeDef> {
        let mut types = Vec::new();
        self.fields(v, |r, key, v| match key {
            "types" => {
                types = r.keyed_list(v, &BY_NAME, Reader::type_def);
                true
            }
            _ => false,
        });
        types
    }

    fn type_def(&mut self, v: &'v Value) -> TypeDef {
        let mut name = "";
        let mut atom = AtomParts::default();
        self.fields(v, |r, key, v| {
            match key {
                "name" => name = r.string(v).unwrap_or_default(),
                other => return atom.read(r, other, v),
            }
            true
        });
        TypeDef::new(name, atom.build())
    }

    fn type_ref(&mut self, v: &'v Value) -> TypeRef {
        let mut named = None;
        let mut atom = AtomParts::default();
        let mut relationship = None;
        let mut nullable = false;
        self.fields(v, |r, key, v| {
            match key {
                "namedType" => named = r.string(v),
                "elementRelationship" => {
                    relationship = r.string(v).map(ElementRelationship::from_name);
                }
                "nullable" => nullable = r.boolean(v),
                other => return atom.read(r, other, v),
            }
            true
        });
        let mut tr = match named {
            Some(name) => self.named(name).with_inlined(atom.build()),
            None => TypeRef::inlined(atom.build()),
        };
        if let Some(relationship) = relationship {
            tr = tr.with_element_relationship(relationship);
        }
        tr.with_nullable(nullable)
    }

    fn map_type(&mut self, v: &'v Value) -> Option<MapType> {
        if v.is_null() {
            return None;
        }
        let (mut fields, mut unions) = (Vec::new(), Vec::new());
        let (mut element_type, mut er) = (TypeRef::default(), None);
        self.fields(v, |r, key, v| {
            match key {
                "fields" => fields = r.keyed_list(v, &BY_NAME, Reader::struct_field),
                "unions" => unions = r.atomic_list(v, Reader::union),
                "elementType" => element_type = r.type_ref(v),
                "elementRelationship" => er = r.string(v),
                _ => return false,
            }
            true
        });
        Some(
            MapType::new()
                .with_fields(fields)
                .with_unions(unions)
                .with_element_type(element_type)
                .with_element_relationship(relationship(er)),
        )
    }

    fn list_type(&mut self, v: &'v Value) -> Option<ListType> {
        if v.is_null() {
            return None;
        }
        let (mut element_type, mut er, mut keys) = (TypeRef::default(), None, Vec::new());
        self.fields(v, |r, key, v| {
            match key {
                "elementType" => element_type = r.type_ref(v),
                "elementRelationship" => er = r.string(v),
                "keys" => {
                    keys = r.atomic_list(v, |r, v| r.string(v).unwrap_or_default().to_owned());
                }
                _ => return false,
            }
            true
        });
        Some(
            ListType::new(element_type)
                .with_element_relationship(relationship(er))
                .with_keys(keys),
        )
    }

    /// The legacy `untyped` part: checked, then dropped (Go's model has no place for it).
    fn untyped(&mut self, v: &'v Value) {
        self.fields(v, |r, key, v| match key {
            "elementRelationship" => {
                r.string(v);
                true
            }
            _ => false,
        });
    }

    fn struct_field(&mut self, v: &'v Value) -> StructField {
        let mut name = "";
        let mut ty = TypeRef::default();
        let mut default = Value::Null;
        self.fields(v, |r, key, v| {
            match key {
                "name" => name = r.string(v).unwrap_or_default(),
                "type" => ty = r.type_ref(v),
                // `__untyped_atomic_` accepts every value.
                "default" => default = v.clone(),
                _ => return false,
            }
            true
        });
        StructField::new(name, ty).with_default(default)
    }

    fn union(&mut self, v: &'v Value) -> Union {
        let mut discriminator = None;
        let mut deduce = false;
        let mut fields = Vec::new();
        self.fields(v, |r, key, v| {
            match key {
                "discriminator" => discriminator = r.string(v),
                "deduceInvalidDiscriminator" => deduce = r.boolean(v),
                "fields" => fields = r.keyed_list(v, &BY_FIELD_NAME, Reader::union_field),
                _ => return false,
            }
            true
        });
        let mut union = Union::new(fields).with_deduce_invalid_discriminator(deduce);
        if let Some(d) = discriminator {
            union = union.with_discriminator(d);
        }
        union
    }

    fn union_field(&mut self, v: &'v Value) -> UnionField {
        let mut field_name = "";
        let mut value = "";
        self.fields(v, |r, key, v| {
            match key {
                "fieldName" => field_name = r.string(v).unwrap_or_default(),
                "discriminatorValue" => value = r.string(v).unwrap_or_default(),
                _ => return false,
            }
            true
        });
        UnionField::new(field_name, value)
    }
}

fn relationship(name: Option<&str>) -> ElementRelationship {
    name.map_or(
        ElementRelationship::Unspecified,
        ElementRelationship::from_name,
    )
}

/// The parts of an atom as they are read, from a type definition or a type reference.
#[derive(Default)]
struct AtomParts {
    scalar: Option<Scalar>,
    list: Option<ListType>,
    map: Option<MapType>,
}

impl AtomParts {
    /// Reads the entry `key` if it is an atom part (or the legacy `untyped`); `false` if the
    /// key is not declared.
    fn read<'v>(&mut self, r: &mut Reader<'v>, key: &str, v: &'v Value) -> bool {
        match key {
            "scalar" => self.scalar = r.string(v).map(Scalar::from_name),
            "list" => self.list = r.list_type(v),
            "map" => self.map = r.map_type(v),
            "untyped" => r.untyped(v),
            _ => return false,
        }
        true
    }

    fn build(self) -> Atom {
        let mut atom = Atom::default();
        if let Some(s) = self.scalar {
            atom = atom.with_scalar(s);
        }
        if let Some(l) = self.list {
            atom = atom.with_list(l);
        }
        if let Some(m) = self.map {
            atom = atom.with_map(m);
        }
        atom
    }
}
