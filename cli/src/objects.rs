//! Kubernetes objects read from the command line's files: YAML streams or JSON, `kind: List`
//! unpacked, each object with where it came from, read the way the API server reads a request
//! body (`1.0` is the integer 1).

use std::fmt;
use std::path::PathBuf;

use smd::fieldpath::yaml::Documents;
use smd::fieldpath::{Location, Value};
use smd::managedfields::normalize_numbers;
use smd_schema::gvk::GroupVersionKind;

use super::Failure;
use super::input;
use super::json::{Duplicate, JsonError};
use super::stream::{Piece, Stream, StreamError};
use super::terminal::escape;

/// Where an object came from: the file (or `<stdin>`), its document, and its item when the
/// document is a `List`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Origin {
    pub(crate) file: String,
    /// 1-based; 0: not from a file (a cluster's object, `file` saying which).
    pub(crate) document: usize,
    /// 1-based line where the document starts (0: not known, JSON).
    pub(crate) line: usize,
    /// 1-based item of a `List` document.
    pub(crate) item: Option<usize>,
}

impl fmt::Display for Origin {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.document == 0 {
            return write!(f, "{}", escape(&self.file));
        }
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

/// What pairs a manifest with its live object (the library's, `smd::preview::Identity`).
pub(crate) use smd::preview::Identity;

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
        Identity::of(&self.value)
    }
}

/// Field validation as kubectl's `--validate` asks the API server for it
/// (`fieldValidation=Strict|Warn|Ignore`); for input, it decides what a key set twice in a
/// manifest does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) enum Validation {
    /// Refused with the server's 400 (kubectl's default).
    #[default]
    Strict,
    /// The server's warning; the last value wins.
    Warn,
    /// Silent; the last value wins.
    Ignore,
}

/// `--validate`'s value as kubectl reads it: `strict`, `warn`, `ignore`, or a boolean as Go's
/// `strconv.ParseBool` reads one (true is strict, false is ignore).
pub(crate) fn parse_validation(text: &str) -> Result<Validation, String> {
    match text {
        "strict" | "1" | "t" | "T" | "true" | "TRUE" | "True" => Ok(Validation::Strict),
        "warn" => Ok(Validation::Warn),
        "ignore" | "0" | "f" | "F" | "false" | "FALSE" | "False" => Ok(Validation::Ignore),
        _ => Err(format!(
            "invalid - validate option {:?}; must be one of: strict (or true), warn, ignore (or false)",
            text
        )),
    }
}

/// One document read, and the keys it sets twice. Their lines are the input's: for the first
/// document of a file they are the lines the API server names for a request holding the file
/// as it is; later documents are numbered on, so that the line is the place to edit.
pub(crate) struct Document {
    pub(crate) origin: Origin,
    pub(crate) value: Value,
    pub(crate) duplicates: Vec<Duplicate>,
}

/// yaml.v2's strict decoding errors for a document's repeated keys.
pub(crate) fn duplicate_lines(duplicates: &[Duplicate]) -> Vec<String> {
    duplicates
        .iter()
        .map(|d| format!("line {}: key {} already set in map", d.line, d.key))
        .collect()
}

/// Every object of the inputs at `paths` (`-` or none: stdin), in order; large streams are
/// read on up to `jobs` threads. A key set twice is refused: no API server prints an object
/// so, and `validate`, `blame` and `fields` answer for what a server holds.
pub(crate) fn read_all(paths: &[PathBuf], jobs: usize) -> Result<Vec<Object>, Failure> {
    let mut out = Vec::new();
    let stdin = [PathBuf::from("-")];
    let paths = if paths.is_empty() { &stdin[..] } else { paths };
    for path in paths {
        read_documents(path, jobs, &mut |document| {
            let document = document?;
            if !document.duplicates.is_empty() {
                return Err(Failure::new(format!(
                    "{}: a key is set twice (yaml: unmarshal errors:\n  {})",
                    document.origin,
                    duplicate_lines(&document.duplicates).join("\n  ")
                )));
            }
            unpack(document, &mut out)
        })?;
    }
    Ok(out)
}

/// Every document of `bytes` (YAML stream or JSON, read as objects are), empty documents left
/// out, as plain values; an error names the document but not the input.
pub(crate) fn values(bytes: &[u8]) -> Result<Vec<Value>, String> {
    let stream = Stream::new(bytes, input::document_limit());
    let mut out = Vec::new();
    documents_of("", stream, 1, BATCHING, &mut |d| {
        out.push(d?.value);
        Ok(())
    })
    .map_err(|Failure(message)| message.strip_prefix(": ").unwrap_or(&message).to_owned())?;
    Ok(out)
}

/// The objects of `bytes` read on `jobs` threads in batches of `batching`, each with its
/// origin text and repeated keys; the error's text when reading stops (for the fuzz target).
pub(crate) fn objects_of(
    bytes: &[u8],
    jobs: usize,
    batching: Batching,
) -> Result<Vec<(String, Value, usize)>, String> {
    let mut out = Vec::new();
    let mut repeated = Vec::new();
    let stream = Stream::new(bytes, input::document_limit());
    documents_of("input", stream, jobs, batching, &mut |document| {
        let document = document?;
        // Each object carries the number of repeated keys of its document.
        let count = document.duplicates.len();
        unpack(document, &mut out)?;
        repeated.resize(out.len(), count);
        Ok(())
    })
    .map_err(|Failure(message)| message)?;
    Ok(out
        .into_iter()
        .zip(repeated)
        .map(|(o, d)| (o.origin.to_string(), o.value, d))
        .collect())
}

/// The objects of a document (a `List`'s items, each on its own), each checked, numbers as
/// JSON decoding makes them: a bad item is that item's answer, not its neighbours'.
pub(crate) fn objects_in(document: Document) -> Vec<Result<Object, Failure>> {
    let Document {
        origin, mut value, ..
    } = document;
    normalize_numbers(&mut value);
    if !is_list(&value) {
        return vec![checked(origin, value)];
    }
    let items = match value.as_map_mut().and_then(|m| m.remove("items")) {
        Some(Value::List(items)) => items,
        _ => Vec::new(),
    };
    items
        .into_iter()
        .enumerate()
        .map(|(j, item)| {
            let origin = Origin {
                item: Some(j + 1),
                ..origin.clone()
            };
            checked(origin, item)
        })
        .collect()
}

/// An object (or a `List`'s items) of a document, checked, numbers as JSON decoding makes them.
fn unpack(document: Document, out: &mut Vec<Object>) -> Result<(), Failure> {
    let Document {
        origin, mut value, ..
    } = document;
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
    Ok(())
}

/// When YAML pieces are read on several threads: gathered until `batch_bytes`, then read at
/// once when the batch holds at least `parallel_bytes`. A parameter so that the fuzz target can
/// drive small inputs through the parallel path.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Batching {
    pub(crate) parallel_bytes: usize,
    pub(crate) batch_bytes: usize,
}

/// Below 1 MiB of YAML, pieces are read on one thread; batches of 8 MiB bound what a stream
/// holds in memory besides its values (less in unit tests, which read several batches in
/// little time).
pub(crate) const BATCHING: Batching = if cfg!(test) {
    Batching {
        parallel_bytes: 64 << 10,
        batch_bytes: 256 << 10,
    }
} else {
    Batching {
        parallel_bytes: 1 << 20,
        batch_bytes: 8 << 20,
    }
};

/// Documents of a batch's streams: 64 KiB read on one thread, batches of 1 MiB, so that the
/// values held at once stay a few tens of MB whatever the stream's size.
pub(crate) const STREAMING: Batching = Batching {
    parallel_bytes: 64 << 10,
    batch_bytes: 1 << 20,
};

/// What is done with each document as it is read, or with the error that a document gives
/// instead (a document that does not read; then, for a stream that cannot go on, the error
/// that stops it). An error returned stops the reading: readers that want every document
/// answered return `Ok` and go on with the next.
type Each<'e> = dyn FnMut(Result<Document, Failure>) -> Result<(), Failure> + 'e;

/// The documents of the input at `path` (`-`: stdin), empty ones left out, each given to `each`
/// in order.
fn read_documents(path: &std::path::Path, jobs: usize, each: &mut Each<'_>) -> Result<(), Failure> {
    let (name, stream) = input::stream(Some(path))?;
    documents_of(&name, stream, jobs, BATCHING, each)
}

/// The documents of the input at `path` (`-`: stdin) read for a batch that answers each: in
/// small batches ([`STREAMING`]), so that what is held in memory stays small, and with the
/// documents that do not read given to `each` as errors.
pub(crate) fn each_document(
    path: &std::path::Path,
    jobs: usize,
    each: &mut Each<'_>,
) -> Result<(), Failure> {
    let (name, stream) = input::stream(Some(path))?;
    documents_of(&name, stream, jobs, STREAMING, each)
}

/// The documents of a stream, read piece by piece; YAML pieces gathered in batches and each
/// batch read on up to `jobs` threads, so the result is the serial reading's.
fn documents_of<R: std::io::Read>(
    name: &str,
    mut stream: Stream<R>,
    jobs: usize,
    batching: Batching,
    each: &mut Each<'_>,
) -> Result<(), Failure> {
    let mut reading = Reading {
        name,
        count: 0,
        each,
    };
    let mut batch: Vec<Piece> = Vec::new();
    let mut batch_bytes = 0;
    loop {
        let (piece, stop) = match stream.next_piece() {
            Ok(piece) => (piece, None),
            Err(e) => (None, Some(e)),
        };
        let end = piece.is_none();
        // A JSON piece is read already: it goes on at once, with the YAML before it.
        let mut json = false;
        if let Some(piece) = piece {
            match &piece {
                Piece::Yaml { text, .. } => batch_bytes += text.len(),
                Piece::Json { .. } => json = true,
            }
            batch.push(piece);
        }
        if end || json || batch_bytes >= batching.batch_bytes {
            let parallel = jobs > 1 && batch_bytes >= batching.parallel_bytes;
            reading.batch(std::mem::take(&mut batch), if parallel { jobs } else { 1 })?;
            batch_bytes = 0;
        }
        if let Some(e) = stop {
            let failure = reading.stream_failure(e);
            return (reading.each)(Err(failure));
        }
        if end {
            return Ok(());
        }
    }
}

/// A piece read: its documents (line, value, repeated keys), lines counted in the input, and
/// the error that stopped it, if one did.
type PieceRead = (Vec<(usize, Value, Vec<Duplicate>)>, Option<String>);

/// The documents of one piece.
fn read_piece(piece: Piece) -> PieceRead {
    match piece {
        Piece::Json {
            value,
            duplicates,
            line,
        } => {
            let duplicates = duplicates
                .into_iter()
                .map(|d| Duplicate {
                    line: d.line + line - 1,
                    key: d.key,
                })
                .collect();
            (vec![(line, value, duplicates)], None)
        }
        Piece::Yaml {
            text,
            line: first,
            json_error,
        } => {
            let mut documents = Vec::new();
            for document in Documents::new(&text) {
                match document {
                    Ok(d) => {
                        let duplicates = d
                            .duplicates
                            .into_iter()
                            .map(|d| Duplicate {
                                line: d.line + first - 1,
                                key: d.key,
                            })
                            .collect();
                        documents.push((d.line + first - 1, d.value, duplicates));
                    }
                    Err(e) => {
                        // kubectl reports the JSON error when the YAML it switched to fails too.
                        let message = match (&json_error, documents.is_empty()) {
                            (Some((json, line)), true) => json_message(json, *line),
                            _ => match e.location() {
                                Location::Text { line, column, .. } => format!(
                                    "line {} column {column}: {}",
                                    line + first - 1,
                                    e.message()
                                ),
                                _ => e.to_string(),
                            },
                        };
                        return (documents, Some(message));
                    }
                }
            }
            (documents, None)
        }
    }
}

/// A JSON error of a document starting at `line`, with its line and column in the input.
fn json_message(error: &JsonError, line: usize) -> String {
    format!(
        "line {} column {}: {}",
        error.line + line - 1,
        error.column,
        error.message
    )
}

/// Documents as they are read, numbered across the pieces of a stream.
struct Reading<'a> {
    name: &'a str,
    /// Documents read so far, empty ones included.
    count: usize,
    each: &'a mut Each<'a>,
}

impl Reading<'_> {
    fn batch(&mut self, pieces: Vec<Piece>, jobs: usize) -> Result<(), Failure> {
        for (documents, error) in super::parallel::map(pieces, jobs, read_piece) {
            for (line, value, duplicates) in documents {
                self.count += 1;
                if value.is_null() {
                    continue;
                }
                (self.each)(Ok(Document {
                    origin: Origin {
                        file: self.name.to_owned(),
                        document: self.count,
                        line,
                        item: None,
                    },
                    value,
                    duplicates,
                }))?;
            }
            if let Some(message) = error {
                // The piece's next document is the one that does not read; the pieces after it
                // are cut at their own separators and go on.
                self.count += 1;
                (self.each)(Err(Failure::new(format!(
                    "{}: document {}: {message}",
                    escape(self.name),
                    self.count
                ))))?;
            }
        }
        Ok(())
    }

    fn stream_failure(&self, error: StreamError) -> Failure {
        let document = self.count + 1;
        // The name may come from a directory's listing: input, escaped like any.
        let name = escape(self.name);
        match error {
            StreamError::NotUtf8 { offset } => Failure::new(format!(
                "{}: not UTF-8 text: invalid UTF-8 at byte {offset}",
                name
            )),
            StreamError::Separator { line, text } => Failure::new(format!(
                "{}: document {document} (line {line}): invalid Yaml document separator: {text} \
                 (kubectl reads only a comment after `---`)",
                name
            )),
            StreamError::TooLarge { line } => {
                input::too_large(&format!("{}: document {document} (line {line})", name))
            }
            StreamError::Json { error, line } => Failure::new(format!(
                "{}: document {document} (line {line}): {}",
                name,
                json_message(&error, line)
            )),
            StreamError::Io(e) => Failure::new(format!("{name}: cannot read: {e}")),
        }
    }
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
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod tests {
    use super::*;

    /// The whole text read by the library's reader: documents with their lines.
    fn whole(text: &str) -> Vec<(usize, Value)> {
        Documents::new(text)
            .map(|d| d.map(|d| (d.line, d.value)))
            .collect::<Result<Vec<_>, _>>()
            .unwrap()
            .into_iter()
            .filter(|(_, v)| !v.is_null())
            .collect()
    }

    /// Every document of `text`, read with `limit` on `jobs` threads.
    fn collect(text: &str, limit: usize, jobs: usize) -> Result<Vec<Document>, Failure> {
        let mut out = Vec::new();
        documents_of(
            "t",
            Stream::new(text.as_bytes(), limit),
            jobs,
            BATCHING,
            &mut |d| {
                out.push(d?);
                Ok(())
            },
        )?;
        Ok(out)
    }

    fn streamed(text: &str, jobs: usize) -> Result<Vec<(usize, Value)>, String> {
        collect(text, 64 << 20, jobs)
            .map(|ds| ds.into_iter().map(|d| (d.origin.line, d.value)).collect())
            .map_err(|Failure(m)| m)
    }

    #[test]
    fn parallel_reading_equals_serial_reading() {
        let mut text = String::from("# a comment before the first document\n");
        let mut n = 0;
        while text.len() < 3 * BATCHING.batch_bytes {
            n += 1;
            text.push_str(&format!(
                "---\napiVersion: v1\nkind: ConfigMap\nmetadata: {{name: c{n}}}\ndata:\n  script: |\n    echo {n}\n    --- not a marker: indented\n"
            ));
            if n % 100 == 0 {
                text.push_str("---\n# an empty document\n---   # a comment\n{flow: document}\n");
            }
            if n % 1000 == 0 {
                // A directive: its document depends on what precedes it.
                text.push_str("...\n%YAML 1.1\n---\n{directive: document}\n");
            }
        }
        let expected = whole(&text);
        assert!(expected.len() > n, "{}", expected.len());
        assert_eq!(streamed(&text, 4).unwrap(), expected);
        assert_eq!(streamed(&text, 1).unwrap(), expected);
        // A document that does not read: the same error, with its place in the whole text.
        let broken = format!("{text}---\n[unclosed\n");
        let (parallel, serial) = (streamed(&broken, 4), streamed(&broken, 1));
        assert_eq!(parallel, serial);
        let lines = broken.lines().count();
        let e = serial.unwrap_err();
        assert!(e.contains(&format!("line {lines} ")), "{e} {lines}");
    }

    #[test]
    fn separators_are_kubectls() {
        // kubectl's reader refuses more than a comment after `---`, on any line, the last too.
        for text in ["a: 1\n--- {b: 2}\n", "a: 1\n----\n", "a: 1\n--- b"] {
            let e = streamed(text, 1).unwrap_err();
            assert!(
                e.starts_with("t: document 2 (line 2): invalid Yaml document separator: "),
                "{e}"
            );
        }
        let read = streamed("a: 1\n--- # two\nb: 2\n---\t\nc: 3\n", 1).unwrap();
        assert_eq!(read.iter().map(|(l, _)| *l).collect::<Vec<_>>(), [1, 2, 4]);
    }

    #[test]
    fn json_streams_switch_to_yaml_as_kubectl_does() {
        let one = r#"{"apiVersion": "v1", "kind": "A"}"#;
        // Back to back, then on further lines: a JSON stream.
        let read = streamed(&format!("{one}{one}\n\n {one}"), 1).unwrap();
        assert_eq!(read.iter().map(|(l, _)| *l).collect::<Vec<_>>(), [1, 1, 3]);
        // One object, then `---`: the rest is YAML.
        let read = streamed(&format!("{one}\n---\nkind: B\n---\n{one}\n"), 1).unwrap();
        assert_eq!(read.len(), 3);
        assert_eq!(read[1].0, 2);
        // Not JSON from the start (a YAML flow map, then YAML): YAML throughout.
        let read = streamed("{kind: A}\n---\nkind: B\n", 1).unwrap();
        assert_eq!(read.len(), 2);
        // Two objects make it JSON for good.
        let e = streamed(&format!("{one}\n{one}\n---\n"), 1).unwrap_err();
        assert_eq!(
            e,
            "t: document 3 (line 3): line 3 column 2: invalid character '-' in numeric literal"
        );
        // The YAML after a switch keeps the indentation of its first line (what Go gives).
        let read = streamed(&format!("{one}\n  foo: bar\n  baz: 1\n"), 1).unwrap();
        assert_eq!(read.len(), 2);
        assert_eq!(read[1].0, 2);
        // A number out of float64's range is no syntax error: no switch to YAML (which would
        // read it as a string), the object does not decode.
        let e = streamed("{\"x\": 1e400}", 1).unwrap_err();
        assert!(
            e.ends_with("json: cannot unmarshal number 1e400 into Go value of type float64"),
            "{e}"
        );
        // When the YAML fails too, kubectl's message is the JSON one.
        let e = streamed("{\"a\": [}\n", 1).unwrap_err();
        assert_eq!(
            e,
            "t: document 1: line 1 column 8: invalid character '}' looking for beginning of value"
        );
    }

    #[test]
    fn repeated_keys_are_numbered_in_the_input() {
        let text =
            "a: 1\na: 2\n---\n# c\nb:\n  x: 1\n  x: 2\n---\nm: &m {a: 1}\nn:\n  <<: *m\n  a: 2\n";
        let documents = collect(text, 1 << 20, 1).unwrap();
        let lines: Vec<Vec<usize>> = documents
            .iter()
            .map(|d| d.duplicates.iter().map(|d| d.line).collect())
            .collect();
        // A key set after a merge set it is one too (the API server refuses it).
        assert_eq!(lines, [vec![2], vec![7], vec![12]]);
    }

    #[test]
    fn documents_over_the_limit_are_refused() {
        let text = format!("a: 1\n---\nb: {}\n", "x".repeat(100));
        let e = collect(&text, 50, 1).err().unwrap();
        assert!(
            e.0.starts_with("t: document 2 (line 2): the document is larger than"),
            "{}",
            e.0
        );
        let json = format!("{{}}{{\"b\": \"{}\"}}", "x".repeat(100));
        let e = collect(&json, 50, 1).err().unwrap();
        assert!(
            e.0.starts_with("t: document 2 (line 1): the document"),
            "{}",
            e.0
        );
    }
}
