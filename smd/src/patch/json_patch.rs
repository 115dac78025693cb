//! JSON patch (RFC 6902) as the API server applies an `application/json-patch+json` body:
//! `gopkg.in/evanphx/json-patch.v4` v4.13.0's `DecodePatch`, the server's limit on operations,
//! then `Apply` with the server's settings (negative indices on, copies limited in all to
//! `JSONPatchMaxCopyBytes`, 3 MiB).
//!
//! json-patch departs from the RFC in ways clients can see, and so does this: a path's first
//! segment is ignored (`a/b` is `/b`), `replace` of a missing member adds it, `copy` of a
//! missing member copies `null`, `test` of a missing member passes when the value is `null` or
//! absent, `-1` names the last item (and, for `add`, the end), and the index is read by Go's
//! `strconv.Atoi` (`+1`, `01`).

use super::PatchError;
use super::node::{NIL_DEREFERENCE, NIL_MAP_WRITE, Node, panic};
use super::strconv::atoi;
use smd_fieldpath::{Map, Value};

/// The most operations the server takes in one JSON patch (`maxJSONPatchOperations`).
pub const MAX_OPERATIONS: usize = 10_000;

/// The most bytes the `copy` operations of one patch may add in all (the server's
/// `JSONPatchMaxCopyBytes`, which it sets as json-patch's `AccumulatedCopySizeLimit`).
pub const MAX_COPY_BYTES: usize = 3 * 1024 * 1024;

/// `patch`, a list of RFC 6902 operations, applied to `original` as the API server applies an
/// `application/json-patch+json` body to the current object.
///
/// The operations run in order on one copy of the object; the first that fails fails the
/// patch. Objects of the result have their keys sorted, as Go writes them.
///
/// Numbers and strings are compared by `test` in the text Go writes for them: json-patch compares
/// the patch's own spelling, which a [`Value`] no longer has (`1.0` and `1` differ in Go).
///
/// # Errors
///
/// [`PatchError::Decode`] when `patch` is not a list of objects (400),
/// [`PatchError::TooManyOperations`] beyond [`MAX_OPERATIONS`] (413), [`PatchError::Apply`]
/// when an operation fails (422, json-patch's words), [`PatchError::ServerPanic`] where Go's
/// code panics (500), [`PatchError::TooDeep`] beyond smd's nesting limit.
pub fn json(original: &Value, patch: &Value) -> Result<Value, PatchError> {
    let operations = decode(patch)?;
    if operations.len() > MAX_OPERATIONS {
        return Err(PatchError::TooManyOperations {
            max: MAX_OPERATIONS,
            got: operations.len(),
        });
    }
    let mut doc = match original {
        Value::Map(_) | Value::List(_) => Node::from_value(original, 0)?,
        Value::Null => Node::NullText,
        other => {
            return Err(PatchError::apply(format!(
                "json: cannot unmarshal {} into Go value of type jsonpatch.partialDoc",
                json_kind(other)
            )));
        }
    };
    let mut copied = 0usize;
    for operation in operations {
        apply(&mut doc, operation, &mut copied)?;
    }
    doc.to_value(0)
}

/// `encoding/json`'s name for the kind of a JSON value in its type errors.
fn json_kind(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "bool",
        Value::Int(_) | Value::Float(_) => "number",
        Value::String(_) => "string",
        Value::List(_) => "array",
        Value::Map(_) => "object",
    }
}

/// `DecodePatch`: a list whose items are objects (or `null`, an operation of no kind).
fn decode(patch: &Value) -> Result<Vec<Option<&Map>>, PatchError> {
    let items = match patch {
        Value::Null => return Ok(Vec::new()),
        Value::List(items) => items,
        other => {
            return Err(PatchError::Decode {
                message: format!(
                    "json: cannot unmarshal {} into Go value of type jsonpatch.Patch",
                    json_kind(other)
                ),
            });
        }
    };
    items
        .iter()
        .map(|item| match item {
            Value::Null => Ok(None),
            Value::Map(map) => Ok(Some(map)),
            other => Err(PatchError::Decode {
                message: format!(
                    "json: cannot unmarshal {} into Go value of type jsonpatch.Operation",
                    json_kind(other)
                ),
            }),
        })
        .collect()
}

/// An operation's string member (`path`, `from`), or why it has none: json-patch's
/// `missing` text when it is absent or `null`, `encoding/json`'s when it is not a string.
fn member<'a>(operation: Option<&'a Map>, name: &str, missing: &str) -> Result<&'a str, String> {
    match operation.and_then(|op| op.get(name)) {
        None | Some(Value::Null) => Err(format!("{missing}: missing value")),
        Some(Value::String(s)) => Ok(s),
        Some(other) => Err(format!(
            "json: cannot unmarshal {} into Go value of type string",
            json_kind(other)
        )),
    }
}

fn path_of(operation: Option<&Map>) -> Result<&str, String> {
    member(operation, "path", "operation missing path field")
}

fn from_of(operation: Option<&Map>) -> Result<&str, String> {
    member(operation, "from", "operation, missing from field")
}

fn operand(operation: Option<&Map>) -> Result<Node, PatchError> {
    Node::from_operand(operation.and_then(|op| op.get("value")))
}

fn fail(message: String) -> PatchError {
    PatchError::apply(message)
}

fn apply(doc: &mut Node, operation: Option<&Map>, copied: &mut usize) -> Result<(), PatchError> {
    let kind = match operation.and_then(|op| op.get("op")) {
        Some(Value::String(s)) => s.as_str(),
        _ => "unknown",
    };
    match kind {
        "add" => {
            let path = path_of(operation)
                .map_err(|_| fail("add operation failed to decode path: missing value".into()))?;
            let Some((container, key)) = find_container(doc, path) else {
                return Err(fail(format!(
                    "add operation does not apply: doc is missing path: \"{path}\": missing value"
                )));
            };
            add(container, &key, operand(operation)?)
                .map_err(|e| e.in_context(|m| format!("error in add for path: '{path}': {m}")))
        }
        "remove" => {
            let path = path_of(operation).map_err(|_| {
                fail("remove operation failed to decode path: missing value".into())
            })?;
            let Some((container, key)) = find_container(doc, path) else {
                return Err(fail(format!(
                    "remove operation does not apply: doc is missing path: \"{path}\": missing value"
                )));
            };
            remove(container, &key)
                .map(drop)
                .map_err(|m| fail(format!("error in remove for path: '{path}': {m}")))
        }
        "replace" => {
            let path = path_of(operation)
                .map_err(|m| fail(format!("replace operation failed to decode path: {m}")))?;
            if path.is_empty() {
                return match operation.and_then(|op| op.get("value")) {
                    None => Err(panic(NIL_DEREFERENCE)),
                    Some(value @ (Value::Map(_) | Value::List(_))) => {
                        *doc = Node::from_value(value, 0)?;
                        Ok(())
                    }
                    Some(_) => Err(fail(
                        "replace operation value must be object or array: %!w(<nil>)".into(),
                    )),
                };
            }
            let Some((container, key)) = find_container(doc, path) else {
                return Err(fail(format!(
                    "replace operation does not apply: doc is missing path: {path}: missing value"
                )));
            };
            if get(container, &key).is_err() {
                return Err(fail(format!(
                    "replace operation does not apply: doc is missing key: {path}: missing value"
                )));
            }
            set(container, &key, operand(operation)?)
        }
        "move" => {
            let from = from_of(operation)
                .map_err(|m| fail(format!("move operation failed to decode from: {m}")))?;
            let Some((container, key)) = find_container(doc, from) else {
                return Err(fail(format!(
                    "move operation does not apply: doc is missing from path: {from}: missing value"
                )));
            };
            get(container, &key)
                .map_err(|m| fail(format!("error in move for path: '{key}': {m}")))?;
            let value = remove(container, &key)
                .map_err(|m| fail(format!("error in move for path: '{key}': {m}")))?;
            let path = path_of(operation)
                .map_err(|m| fail(format!("move operation failed to decode path: {m}")))?;
            let Some((container, key)) = find_container(doc, path) else {
                return Err(fail(format!(
                    "move operation does not apply: doc is missing destination path: {path}: missing value"
                )));
            };
            add(container, &key, value)
                .map_err(|e| e.in_context(|m| format!("error in move for path: '{path}': {m}")))
        }
        "test" => {
            let path = path_of(operation)
                .map_err(|m| fail(format!("test operation failed to decode path: {m}")))?;
            let failed = || fail(format!("testing value {path} failed: test failed"));
            let expected = operation.and_then(|op| op.get("value"));
            if path.is_empty() {
                if expected.is_none() {
                    return Err(panic(NIL_DEREFERENCE));
                }
                return if doc.equal(&operand(operation)?, 1)? {
                    Ok(())
                } else {
                    Err(failed())
                };
            }
            let Some((container, key)) = find_container(doc, path) else {
                return Err(fail(format!(
                    "test operation does not apply: is missing path: {path}: missing value"
                )));
            };
            let actual = get(container, &key)
                .map_err(|m| fail(format!("error in test for path: '{path}': {m}")))?;
            let same = match (actual, expected) {
                (None, None | Some(Value::Null)) => true,
                (None, Some(_)) | (Some(_), None) => false,
                (Some(actual), Some(_)) => actual.equal(&operand(operation)?, 1)?,
            };
            if same { Ok(()) } else { Err(failed()) }
        }
        "copy" => {
            let from = from_of(operation)
                .map_err(|m| fail(format!("copy operation failed to decode from: {m}")))?;
            let Some((container, key)) = find_container(doc, from) else {
                return Err(fail(format!(
                    "copy operation does not apply: doc is missing from path: {from}: missing value"
                )));
            };
            let value = match get(container, &key)
                .map_err(|m| fail(format!("error in copy for from: '{from}': {m}")))?
            {
                Some(node) => node.clone(),
                None => Node::Nil,
            };
            let path = path_of(operation)
                .map_err(|_| fail("copy operation failed to decode path: missing value".into()))?;
            let Some((container, key)) = find_container(doc, path) else {
                return Err(fail(format!(
                    "copy operation does not apply: doc is missing destination path: {path}: missing value"
                )));
            };
            let (copy, size) = value.deep_copy()?;
            *copied = copied.saturating_add(size);
            if *copied > MAX_COPY_BYTES {
                return Err(fail(format!(
                    "Unable to complete the copy, the accumulated size increase of copy is {copied}, exceeding the limit {MAX_COPY_BYTES}"
                )));
            }
            add(container, &key, copy)
                .map_err(|e| e.in_context(|m| format!("error while adding value during copy: {m}")))
        }
        other => Err(fail(format!("Unexpected kind: {other}"))),
    }
}

/// A failed write: json-patch's words, or Go's panic.
enum WriteError {
    Message(String),
    Panic(&'static str),
}

impl WriteError {
    fn in_context(self, context: impl FnOnce(&str) -> String) -> PatchError {
        match self {
            WriteError::Message(m) => fail(context(&m)),
            WriteError::Panic(reason) => panic(reason),
        }
    }
}

/// RFC 6901's unescaping, in one pass as Go's `strings.Replacer` does it.
fn unescape(segment: &str) -> String {
    if !segment.contains('~') {
        return segment.to_owned();
    }
    let mut out = String::with_capacity(segment.len());
    let mut rest = segment;
    while let Some(i) = rest.find('~') {
        out.push_str(&rest[..i]);
        let after = &rest[i + 1..];
        if let Some(tail) = after.strip_prefix('1') {
            out.push('/');
            rest = tail;
        } else if let Some(tail) = after.strip_prefix('0') {
            out.push('~');
            rest = tail;
        } else {
            out.push('~');
            rest = after;
        }
    }
    out.push_str(rest);
    out
}

/// json-patch's `findObject`: the container that holds the path's last segment, and that
/// segment. The first segment is skipped whatever it is; every segment between must name a
/// container (an object, an array, or a copied `null`).
fn find_container<'a>(doc: &'a mut Node, path: &str) -> Option<(&'a mut Node, String)> {
    let mut segments = path.split('/');
    segments.next()?;
    let mut key = unescape(segments.next()?);
    let mut container = doc;
    for segment in segments {
        container = child_container(container, &key)?;
        key = unescape(segment);
    }
    Some((container, key))
}

fn child_container<'a>(container: &'a mut Node, key: &str) -> Option<&'a mut Node> {
    let child = match container {
        Node::Map(members) => members.get_mut(key)?,
        Node::List(items) => {
            let i = index(items.len(), key).ok()?;
            items.get_mut(i)?
        }
        _ => return None,
    };
    child.is_container().then_some(child)
}

fn invalid_index(i: i64) -> String {
    format!("Unable to access invalid index: {i}: invalid index referenced")
}

/// An existing item's position: `Atoi`, negative from the end.
fn index(len: usize, key: &str) -> Result<usize, String> {
    let i = atoi(key)?;
    let n = i64::try_from(len).unwrap_or(i64::MAX);
    let at = if i < 0 { i + n } else { i };
    if at < 0 || at >= n {
        return Err(invalid_index(i));
    }
    usize::try_from(at).map_err(|_| invalid_index(i))
}

/// `container.get(key)`: the node (`None` for nil), or why the key names nothing.
fn get<'a>(container: &'a Node, key: &str) -> Result<Option<&'a Node>, String> {
    match container {
        Node::Map(members) => Ok(members.get(key).filter(|n| !n.is_nil())),
        Node::List(items) => {
            let i = index(items.len(), key)?;
            Ok(items.get(i).filter(|n| !n.is_nil()))
        }
        _ => Ok(None),
    }
}

fn add(container: &mut Node, key: &str, value: Node) -> Result<(), WriteError> {
    match container {
        Node::Map(members) => {
            members.insert(key.to_owned(), value);
            Ok(())
        }
        Node::List(items) => {
            if key == "-" {
                items.push(value);
                return Ok(());
            }
            let i = atoi(key).map_err(|e| {
                WriteError::Message(format!("value was not a proper array index: '{key}': {e}"))
            })?;
            // The new array is one longer; its last position is the end.
            let n = i64::try_from(items.len())
                .unwrap_or(i64::MAX)
                .saturating_add(1);
            if i >= n || i < -n {
                return Err(WriteError::Message(invalid_index(i)));
            }
            let at = usize::try_from(if i < 0 { i + n } else { i })
                .map_err(|_| WriteError::Message(invalid_index(i)))?;
            items.insert(at.min(items.len()), value);
            Ok(())
        }
        _ => Err(WriteError::Panic(NIL_MAP_WRITE)),
    }
}

/// `replace`'s write, after [`get`] found the key.
fn set(container: &mut Node, key: &str, value: Node) -> Result<(), PatchError> {
    match container {
        Node::Map(members) => {
            members.insert(key.to_owned(), value);
            Ok(())
        }
        Node::List(items) => {
            let i = index(items.len(), key).map_err(fail)?;
            if let Some(slot) = items.get_mut(i) {
                *slot = value;
            }
            Ok(())
        }
        _ => Err(panic(NIL_MAP_WRITE)),
    }
}

fn remove(container: &mut Node, key: &str) -> Result<Node, String> {
    match container {
        Node::Map(members) => members
            .remove(key)
            .ok_or_else(|| format!("Unable to remove nonexistent key: {key}: missing value")),
        Node::List(items) => {
            let i = index(items.len(), key)?;
            if i < items.len() {
                Ok(items.remove(i))
            } else {
                Err(invalid_index(i64::try_from(i).unwrap_or(i64::MAX)))
            }
        }
        _ => Err(format!(
            "Unable to remove nonexistent key: {key}: missing value"
        )),
    }
}
