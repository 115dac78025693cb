//! OpenAPI schema objects as kube-openapi's `spec.Schema` holds them after Go's strict JSON
//! reader: the parts `schemaconv` reads, and a check of every other part's JSON type (Go
//! refuses a document whose `maxLength` is `1.5` or whose `allOf` is an object).

use std::fmt::Write;

use smd_value::{MAX_DEPTH, Value};

use super::error::ReadError;
use super::node::Node;
use super::reference;

/// One schema object.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct SpecSchema {
    /// The `$ref`, normalized as Go's `Ref.String()` prints it; empty when there is none.
    pub(crate) reference: String,
    /// The first `type` (Go keeps a list; only the first counts), empty when there is none.
    pub(crate) ty: String,
    pub(crate) format: String,
    pub(crate) nullable: bool,
    /// The `default`, every number a float64 (absent or null: none).
    pub(crate) default: Option<Value>,
    /// `items`: `None` when absent or null; `Some(None)` when present but not one schema
    /// object (a list of schemas, or any other JSON value).
    pub(crate) items: Option<Option<Box<SpecSchema>>>,
    pub(crate) all_of: Vec<SpecSchema>,
    /// `properties`, in document order (Go keeps a map; the names are unique).
    pub(crate) properties: Vec<(String, SpecSchema)>,
    pub(crate) additional_properties: Option<Additional>,
    pub(crate) extensions: Extensions,
}

/// `additionalProperties`: a schema (which also means "allowed") or a boolean.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Additional {
    Schema(Box<SpecSchema>),
    Allows(bool),
}

/// The extensions `schemaconv` and the type converter read, as Go holds them (`interface{}`
/// values; a JSON null is a present nil). Keys are case-sensitive, as in Go's lookups.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct Extensions {
    pub(crate) preserve_unknown_fields: Option<Value>,
    pub(crate) list_type: Option<Value>,
    pub(crate) list_map_keys: Option<Value>,
    pub(crate) map_type: Option<Value>,
    pub(crate) patch_strategy: Option<Value>,
    pub(crate) patch_merge_key: Option<Value>,
    pub(crate) group_version_kind: Option<Value>,
}

/// Reads schema objects, keeping the JSON pointer of the node at hand for messages.
pub(crate) struct Reader {
    path: Path,
    /// Defaults keep integers as integers: a CRD's defaults reach schemaconv in memory,
    /// decoded by apimachinery's JSON (integers as int64), not through kube-openapi's reader.
    pub(crate) int_defaults: bool,
    /// The schemas around the node at hand, at most [`MAX_DEPTH`]: a schema level is at least
    /// one map of the document, so only a document built in memory can reach it.
    depth: usize,
}

impl Reader {
    pub(crate) fn new() -> Reader {
        Reader {
            path: Path::default(),
            int_defaults: false,
            depth: 0,
        }
    }

    /// The JSON pointer (as a URI fragment) of the node at hand.
    pub(crate) fn pointer(&self) -> String {
        self.path.pointer()
    }

    fn error(&self, message: impl Into<String>) -> ReadError {
        ReadError::new(self.pointer(), message.into())
    }

    fn wrong(&self, node: &Node, expected: &str) -> ReadError {
        self.error(format!("expected {expected}, got a JSON {}", node.kind()))
    }

    pub(crate) fn at<T>(
        &mut self,
        segment: &str,
        f: impl FnOnce(&mut Reader) -> Result<T, ReadError>,
    ) -> Result<T, ReadError> {
        self.path.push(segment);
        let result = f(self);
        self.path.pop();
        result
    }

    /// A map of schemas (`definitions`, `properties`): null is an empty map; a null member is
    /// an empty schema, unless `null_members` refuses it (`components.schemas` holds pointers,
    /// and Go's converter dereferences them).
    pub(crate) fn schema_map(
        &mut self,
        node: &Node,
        null_members: bool,
    ) -> Result<Vec<(String, SpecSchema)>, ReadError> {
        match node {
            Node::Null => Ok(Vec::new()),
            Node::Obj(members) => {
                let mut out = Vec::with_capacity(members.len());
                for (name, member) in members {
                    self.path.push(name);
                    if !null_members && *member == Node::Null {
                        return Err(
                            self.error("a null schema (Go's converter dereferences it and panics)")
                        );
                    }
                    out.push((name.to_string(), SpecSchema::default()));
                    if let Some((_, s)) = out.last_mut() {
                        self.schema_into(member, s)?;
                    }
                    self.path.pop();
                }
                Ok(out)
            }
            other => Err(self.wrong(other, "an object of schemas")),
        }
    }

    /// A schema, boxed.
    fn boxed(&mut self, node: &Node) -> Result<Box<SpecSchema>, ReadError> {
        let mut s = Box::default();
        self.schema_into(node, &mut s)?;
        Ok(s)
    }

    /// Reads a schema object into `s` (null leaves it empty).
    ///
    /// Schemas nest as deep as the document (up to the readers' `MAX_DEPTH`), so the functions
    /// on the way down (this one, [`Reader::member`] and the readers of the parts holding
    /// schemas) keep small frames, unoptimised builds included: schemas are filled in place or
    /// boxed, never moved through the stack, and every part that holds no schema is read out of
    /// line, in [`Reader::leaf`].
    fn schema_into(&mut self, node: &Node, s: &mut SpecSchema) -> Result<(), ReadError> {
        let members = match node {
            Node::Null => return Ok(()),
            Node::Obj(members) => members,
            other => return Err(self.wrong(other, "a schema object")),
        };
        if self.depth >= MAX_DEPTH {
            return Err(self.too_deep());
        }
        self.depth += 1;
        for (key, value) in members {
            self.path.push(key);
            self.member(s, key, value)?;
            self.path.pop();
        }
        self.depth -= 1;
        Ok(())
    }

    #[inline(never)]
    fn too_deep(&self) -> ReadError {
        self.error(format!(
            "schemas nest deeper than {} levels (smd's limit, not the API server's)",
            MAX_DEPTH
        ))
    }

    /// One member of a schema object; the path ends with its key.
    fn member(&mut self, s: &mut SpecSchema, key: &str, value: &Node) -> Result<(), ReadError> {
        match key {
            "items" => match value {
                Node::Null => s.items = None,
                Node::Obj(_) => s.items = Some(Some(self.boxed(value)?)),
                Node::Arr(_) => {
                    self.schema_list(value, &mut Vec::new())?;
                    s.items = Some(None);
                }
                _ => s.items = Some(None),
            },
            "allOf" => {
                s.all_of.clear();
                self.schema_list(value, &mut s.all_of)?;
            }
            "oneOf" | "anyOf" => self.schema_list(value, &mut Vec::new())?,
            "not" => drop(self.boxed(value)?),
            "properties" => s.properties = self.schema_map(value, true)?,
            "patternProperties" | "definitions" => drop(self.schema_map(value, true)?),
            "additionalProperties" => s.additional_properties = self.schema_or_bool(value)?,
            "additionalItems" => drop(self.schema_or_bool(value)?),
            "dependencies" => self.dependencies(value)?,
            _ => self.leaf(s, key, value)?,
        }
        Ok(())
    }

    /// A member that holds no schema.
    #[inline(never)]
    fn leaf(&mut self, s: &mut SpecSchema, key: &str, value: &Node) -> Result<(), ReadError> {
        match key {
            "$ref" => {
                if let Node::Str(text) = value {
                    s.reference = reference::normalize(text).map_err(|e| self.error(e))?;
                }
            }
            "type" => {
                s.ty = match value {
                    Node::Null => String::new(),
                    Node::Str(t) => t.to_string(),
                    Node::Arr(items) => {
                        let mut first = None;
                        for (i, item) in items.iter().enumerate() {
                            let t = self.at(&i.to_string(), |r| r.string(item))?;
                            first.get_or_insert(t);
                        }
                        first.unwrap_or_default()
                    }
                    other => return Err(self.wrong(other, "a string or an array of strings")),
                }
            }
            "format" => s.format = self.string(value)?,
            "nullable" => s.nullable = self.boolean(value)?,
            "default" => {
                s.default = (*value != Node::Null).then(|| {
                    if self.int_defaults {
                        value.to_go_value()
                    } else {
                        value.to_value()
                    }
                })
            }
            "id" | "description" | "title" | "pattern" | "discriminator" => {
                self.string(value)?;
            }
            "exclusiveMaximum" | "exclusiveMinimum" | "uniqueItems" | "readOnly" => {
                self.boolean(value)?;
            }
            "maximum" | "minimum" | "multipleOf" => match value {
                Node::Null | Node::Int(_) | Node::UInt(_) | Node::Float(_) => {}
                other => return Err(self.wrong(other, "a number")),
            },
            "maxLength" | "minLength" | "maxItems" | "minItems" | "maxProperties"
            | "minProperties" => match value {
                Node::Null | Node::Int(_) => {}
                Node::UInt(_) | Node::Float(_) => {
                    return Err(self.error("expected an integer within int64"));
                }
                other => return Err(self.wrong(other, "an integer")),
            },
            "enum" => match value {
                Node::Null | Node::Arr(_) => {}
                other => return Err(self.wrong(other, "an array")),
            },
            "required" => self.strings(value)?,
            "externalDocs" => match value {
                Node::Null => {}
                Node::Obj(members) => {
                    for (k, v) in members {
                        if k == "description" || k == "url" {
                            self.at(k, |r| r.string(v))?;
                        }
                    }
                }
                other => return Err(self.wrong(other, "an object")),
            },
            "x-kubernetes-preserve-unknown-fields" => {
                s.extensions.preserve_unknown_fields = Some(value.to_value());
            }
            "x-kubernetes-list-type" => s.extensions.list_type = Some(value.to_value()),
            "x-kubernetes-list-map-keys" => s.extensions.list_map_keys = Some(value.to_value()),
            "x-kubernetes-map-type" => s.extensions.map_type = Some(value.to_value()),
            "x-kubernetes-patch-strategy" => s.extensions.patch_strategy = Some(value.to_value()),
            "x-kubernetes-patch-merge-key" => {
                s.extensions.patch_merge_key = Some(value.to_value());
            }
            "x-kubernetes-group-version-kind" => {
                s.extensions.group_version_kind = Some(value.to_value());
            }
            // Everything else (example, $schema, xml, other extensions) may be any JSON.
            _ => {}
        }
        Ok(())
    }

    fn string(&mut self, node: &Node) -> Result<String, ReadError> {
        match node {
            Node::Null => Ok(String::new()),
            Node::Str(s) => Ok(s.to_string()),
            other => Err(self.wrong(other, "a string")),
        }
    }

    fn boolean(&mut self, node: &Node) -> Result<bool, ReadError> {
        match node {
            Node::Null => Ok(false),
            Node::Bool(b) => Ok(*b),
            other => Err(self.wrong(other, "a boolean")),
        }
    }

    fn strings(&mut self, node: &Node) -> Result<(), ReadError> {
        match node {
            Node::Null => Ok(()),
            Node::Arr(items) => {
                for (i, item) in items.iter().enumerate() {
                    self.at(&i.to_string(), |r| r.string(item))?;
                }
                Ok(())
            }
            other => Err(self.wrong(other, "an array of strings")),
        }
    }

    /// A list of schemas, appended to `out`.
    fn schema_list(&mut self, node: &Node, out: &mut Vec<SpecSchema>) -> Result<(), ReadError> {
        match node {
            Node::Null => Ok(()),
            Node::Arr(items) => {
                out.reserve(items.len());
                for (i, item) in items.iter().enumerate() {
                    self.path.push_index(i);
                    out.push(SpecSchema::default());
                    if let Some(s) = out.last_mut() {
                        self.schema_into(item, s)?;
                    }
                    self.path.pop();
                }
                Ok(())
            }
            other => Err(self.wrong(other, "an array of schemas")),
        }
    }

    fn schema_or_bool(&mut self, node: &Node) -> Result<Option<Additional>, ReadError> {
        match node {
            Node::Null => Ok(None),
            Node::Bool(b) => Ok(Some(Additional::Allows(*b))),
            Node::Obj(_) => Ok(Some(Additional::Schema(self.boxed(node)?))),
            other => Err(self.wrong(other, "a schema object or a boolean")),
        }
    }

    fn dependencies(&mut self, node: &Node) -> Result<(), ReadError> {
        match node {
            Node::Null => Ok(()),
            Node::Obj(members) => {
                for (k, v) in members {
                    self.path.push(k);
                    match v {
                        Node::Obj(_) => drop(self.boxed(v)?),
                        Node::Arr(_) => self.strings(v)?,
                        _ => {}
                    }
                    self.path.pop();
                }
                Ok(())
            }
            other => Err(self.wrong(other, "an object")),
        }
    }
}

/// A JSON pointer as a URI fragment: `#/definitions/io.k8s.api.core.v1.Pod/properties/spec`.
/// The segments of the path to the node at hand, in one buffer: a step down is no allocation.
#[derive(Debug, Default)]
struct Path {
    text: String,
    /// Where each segment starts in `text`.
    starts: Vec<usize>,
}

impl Path {
    fn push(&mut self, segment: &str) {
        self.starts.push(self.text.len());
        self.text.push_str(segment);
    }

    fn push_index(&mut self, i: usize) {
        self.starts.push(self.text.len());
        // Writing to a String cannot fail.
        let _ = write!(self.text, "{i}");
    }

    fn pop(&mut self) {
        if let Some(start) = self.starts.pop() {
            self.text.truncate(start);
        }
    }

    fn pointer(&self) -> String {
        let ends = self.starts.iter().skip(1).copied().chain([self.text.len()]);
        let segments: Vec<&str> = self
            .starts
            .iter()
            .zip(ends)
            .map(|(&start, end)| self.text.get(start..end).unwrap_or_default())
            .collect();
        pointer(&segments)
    }
}

pub(crate) fn pointer<S: AsRef<str>>(path: &[S]) -> String {
    let mut out = String::from("#");
    for segment in path {
        out.push('/');
        for c in segment.as_ref().chars() {
            match c {
                '~' => out.push_str("~0"),
                '/' => out.push_str("~1"),
                c => out.push(c),
            }
        }
    }
    out
}
