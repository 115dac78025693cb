//! Kubernetes objects read from the command line's files: YAML streams or JSON, `kind: List`
//! unpacked, each object with where it came from, read the way the API server reads a request
//! body (`1.0` is the integer 1).

use std::fmt;
use std::path::PathBuf;

use smd::fieldpath::Value;
use smd::fieldpath::yaml::Documents;
use smd::managedfields::normalize_numbers;
use smd_schema::gvk::GroupVersionKind;

use super::Failure;
use super::input::{self, Input};
use super::terminal::escape;

/// Where an object came from: the file (or `<stdin>`), its document, and its item when the
/// document is a `List`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Origin {
    pub(crate) file: String,
    /// 1-based.
    pub(crate) document: usize,
    /// 1-based line where the document starts (0: not known, JSON).
    pub(crate) line: usize,
    /// 1-based item of a `List` document.
    pub(crate) item: Option<usize>,
}

impl fmt::Display for Origin {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: document {}", escape(&self.file), self.document)?;
        if self.line > 0 {
            write!(f, " (line {})", self.line)?;
        }
        if let Some(item) = self.item {
            write!(f, ", item {item}")?;
        }
        Ok(())
    }
}

/// One object and its origin.
#[derive(Debug, Clone)]
pub(crate) struct Object {
    pub(crate) origin: Origin,
    pub(crate) value: Value,
}

/// What pairs a manifest with its live object: group, kind, namespace and name (the version
/// may differ: the API server serves every version of a kind).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(crate) struct Identity {
    pub(crate) group: String,
    pub(crate) kind: String,
    pub(crate) namespace: String,
    pub(crate) name: String,
}

impl fmt::Display for Identity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let kind = if self.group.is_empty() {
            escape(&self.kind).into_owned()
        } else {
            format!("{}.{}", escape(&self.kind), escape(&self.group))
        };
        let name = escape(&self.name);
        if self.namespace.is_empty() {
            write!(f, "{kind}/{name}")
        } else {
            write!(f, "{kind} {}/{name}", escape(&self.namespace))
        }
    }
}

impl Object {
    pub(crate) fn gvk(&self) -> GroupVersionKind {
        GroupVersionKind::from_api_version(self.text(&["apiVersion"]), self.text(&["kind"]))
    }

    /// The string at `path`, or `""`.
    pub(crate) fn text(&self, path: &[&str]) -> &str {
        let mut at = &self.value;
        for key in path {
            match at.as_map().and_then(|m| m.get(key)) {
                Some(v) => at = v,
                None => return "",
            }
        }
        at.as_str().unwrap_or_default()
    }

    pub(crate) fn identity(&self) -> Identity {
        let gvk = self.gvk();
        Identity {
            group: gvk.group,
            kind: gvk.kind,
            namespace: self.text(&["metadata", "namespace"]).to_owned(),
            name: self.text(&["metadata", "name"]).to_owned(),
        }
    }
}

/// Every object of the inputs at `paths` (`-` or none: stdin), in order; large streams are
/// read on up to `jobs` threads.
pub(crate) fn read_all(paths: &[PathBuf], jobs: usize) -> Result<Vec<Object>, Failure> {
    let mut out = Vec::new();
    if paths.is_empty() {
        out.extend(read(&input::read(None)?, jobs)?);
    }
    for path in paths {
        out.extend(read(&input::read(Some(path))?, jobs)?);
    }
    Ok(out)
}

/// Below this size a stream is read on one thread.
const PARALLEL_BYTES: usize = 1 << 20;

/// The documents of a YAML stream, read in parallel: the text is cut at its document markers
/// (a line `---`, which YAML does not allow inside any scalar) and the parts read at once. `None`
/// when the stream cannot be cut safely (directives, `...` markers) or a part fails to read: the
/// caller then reads it whole, for exact error positions.
fn parallel_documents(text: &str, jobs: usize) -> Option<Vec<(usize, Value)>> {
    if jobs <= 1 || text.len() < PARALLEL_BYTES {
        return None;
    }
    let mut parts: Vec<(usize, &str)> = Vec::new();
    let (mut start, mut start_line, mut offset) = (0, 1, 0);
    for (i, line) in text.split_inclusive('\n').enumerate() {
        let bare = line.trim_end_matches(['\n', '\r']);
        if bare.starts_with('%') || bare == "..." || bare.starts_with("... ") {
            return None;
        }
        if bare == "---" && offset > start {
            parts.push((start_line, &text[start..offset]));
            start = offset;
            start_line = i + 1;
        }
        offset += line.len();
    }
    parts.push((start_line, &text[start..]));
    let read = super::parallel::map(parts, jobs, |(line, part)| {
        let documents: Result<Vec<_>, _> = Documents::new(part).collect();
        documents.map(|docs| {
            docs.into_iter()
                .map(|d| (d.line + line - 1, d.value))
                .collect::<Vec<_>>()
        })
    });
    let mut out = Vec::new();
    for part in read {
        out.extend(part.ok()?);
    }
    Some(out)
}

/// The objects of one input: a JSON document, or a YAML stream whose empty documents are
/// skipped. Every object must be a map with `apiVersion` and `kind`.
pub(crate) fn read(input: &Input, jobs: usize) -> Result<Vec<Object>, Failure> {
    let text = std::str::from_utf8(&input.bytes)
        .map_err(|e| Failure::new(format!("{}: not UTF-8 text: {e}", input.name)))?;
    let first = text.trim_start().chars().next();
    let mut documents: Vec<(usize, Value)> = Vec::new();
    if first == Some('{') || first == Some('[') {
        let json: serde_json::Value = serde_json::from_str(text)
            .map_err(|e| Failure::new(format!("{}: not valid JSON: {e}", input.name)))?;
        documents.push((0, Value::from(json)));
    } else if let Some(parsed) = parallel_documents(text, jobs) {
        documents = parsed;
    } else {
        for document in Documents::new(text) {
            let document = document.map_err(|e| Failure::new(format!("{}: {e}", input.name)))?;
            documents.push((document.line, document.value));
        }
    }
    let mut out = Vec::new();
    for (i, (line, mut value)) in documents.into_iter().enumerate() {
        let origin = Origin {
            file: input.name.clone(),
            document: i + 1,
            line,
            item: None,
        };
        if value.is_null() {
            continue;
        }
        normalize_numbers(&mut value);
        if is_list(&value) {
            let items = value
                .as_map()
                .and_then(|m| m.get("items"))
                .and_then(Value::as_list)
                .unwrap_or_default();
            for (j, item) in items.iter().enumerate() {
                let origin = Origin {
                    item: Some(j + 1),
                    ..origin.clone()
                };
                out.push(checked(origin, item.clone())?);
            }
        } else {
            out.push(checked(origin, value)?);
        }
    }
    Ok(out)
}

/// `kind: List` (or `…List`) with `items`, as `kubectl get` prints several objects.
fn is_list(value: &Value) -> bool {
    let Some(map) = value.as_map() else {
        return false;
    };
    map.get("kind")
        .and_then(Value::as_str)
        .is_some_and(|k| k.ends_with("List"))
        && matches!(map.get("items"), Some(Value::List(_)))
}

fn checked(origin: Origin, value: Value) -> Result<Object, Failure> {
    let Some(map) = value.as_map() else {
        return Err(Failure::new(format!(
            "{origin}: a Kubernetes object must be a map, not {}",
            kind_word(&value)
        )));
    };
    for key in ["apiVersion", "kind"] {
        match map.get(key) {
            Some(Value::String(s)) if !s.is_empty() => {}
            _ => {
                return Err(Failure::new(format!(
                    "{origin}: .{key} is missing: every object needs apiVersion and kind"
                )));
            }
        }
    }
    Ok(Object { origin, value })
}

fn kind_word(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Int(_) | Value::Float(_) => "a number",
        Value::String(_) => "a string",
        Value::List(_) => "a list",
        Value::Map(_) => "a map",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The serial reading of a stream: documents with their lines.
    fn serial(text: &str) -> Vec<(usize, Value)> {
        Documents::new(text)
            .map(|d| d.map(|d| (d.line, d.value)))
            .collect::<Result<_, _>>()
            .unwrap_or_default()
    }

    #[test]
    fn parallel_reading_equals_serial_reading() {
        let mut text = String::from("# a comment before the first document\n");
        let mut n = 0;
        while text.len() < 2 * PARALLEL_BYTES {
            n += 1;
            text.push_str(&format!(
                "---\napiVersion: v1\nkind: ConfigMap\nmetadata: {{name: c{n}}}\ndata:\n  script: |\n    echo {n}\n    --- not a marker: indented\n"
            ));
            if n % 100 == 0 {
                text.push_str("---\n# an empty document\n--- {inline: document}\n");
            }
        }
        let parallel = parallel_documents(&text, 4).unwrap_or_default();
        assert!(parallel.len() > n, "{}", parallel.len());
        assert_eq!(parallel, serial(&text));
        // A directive makes the cut unsafe: read whole.
        assert!(parallel_documents(&format!("%YAML 1.1\n{text}"), 4).is_none());
        // A document that does not read: read whole, for the error's exact position.
        assert!(parallel_documents(&format!("{text}---\n[unclosed\n"), 4).is_none());
    }
}
