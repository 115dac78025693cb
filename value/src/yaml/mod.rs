//! YAML as Kubernetes reads it: text to [`Value`] with the semantics of go-yaml v2
//! (`go.yaml.in/yaml/v2` v2.4.2, YAML 1.1) decoding into `interface{}`, which is what Go's
//! structured-merge-diff and Kubernetes use.
//!
//! ```
//! use smd_value::yaml;
//!
//! let value = yaml::from_str("
//! name: web
//! replicas: 010      # octal in YAML 1.1
//! paused: off        # a boolean in YAML 1.1
//! ports: [80, 0x1bb]
//! ")?;
//! let map = value.as_map().unwrap();
//! assert_eq!(map.get("name").and_then(|v| v.as_str()), Some("web"));
//! assert_eq!(map.get("replicas").and_then(|v| v.as_int()), Some(8));
//! assert_eq!(map.get("paused").and_then(|v| v.as_bool()), Some(false));
//! assert_eq!(map.get("ports").and_then(|v| v.as_list()).map(|l| l.len()), Some(2));
//!
//! let docs = yaml::documents("a: 1\n---\nb: 2\n")?;
//! assert_eq!(docs.len(), 2);
//! assert!(yaml::from_str("a: 1\n---\nb: 2\n").is_err()); // one document expected
//! # Ok::<(), smd_value::Error>(())
//! ```
//!
//! # Scalars (YAML 1.1, as yaml.v2 resolves them)
//!
//! A plain (unquoted) scalar is, by its exact text:
//! * null: empty, `~`, `null`, `Null`, `NULL`;
//! * a boolean: `y Y yes Yes YES true True TRUE on On ON` and
//!   `n N no No NO false False FALSE off Off OFF` (no other spellings: `yEs` is a string);
//! * an int: what Go's `strconv.ParseInt(s, 0, 64)` reads once every `_` is removed: decimal
//!   with an optional sign, `0x`/`0o`/`0b` prefixes in either case, and a leading `0` for octal
//!   (`010` is 8, `1_000` is 1000, `0x_1f` is 31);
//! * a float: `.inf`, `-.Inf`, `.nan` and their other two spellings, or text matching
//!   `[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?` (so `1e3` and `1.` are floats, and `08`
//!   is the float 8); a float too large for float64 (`1e400`) stays a string, as in yaml.v2;
//! * a string otherwise, timestamps (`2001-12-14`) included.
//!
//! An integer beyond int64 that fits in uint64 (`9223372036854775808`, `0xffffffffffffffff`) is
//! an error here: yaml.v2 gives a `uint64`, which Go's structured-merge-diff cannot hold (it is
//! an invalid value there). Beyond uint64 it is a float, as in yaml.v2 (unless hexadecimal,
//! octal or binary, then a string).
//!
//! Quoted and block scalars are strings. Tags are yaml.v2's: `!!str` makes a string; `!!int`,
//! `!!float`, `!!bool`, `!!null` and `!!timestamp` require the text to resolve to that kind
//! (`!!float` also takes an int), else the document is refused ("cannot decode !!str `abc` as a
//! !!int"); `!!binary` decodes base64 to a string (which must be UTF-8 here, as strings are);
//! any other tag, and any tag on a map or a list, is ignored.
//!
//! # Maps
//!
//! * **Keys become strings.** yaml.v2 keeps non-string keys (Go's value package then ignores
//!   them); Kubernetes' sigs.k8s.io/yaml turns them into strings, and so does this reader: an
//!   int key is its decimal text (`0x10: a` has the key `"16"`), a boolean `"true"` or
//!   `"false"` (so `on: x` has the key `"true"`), a float Go's `FormatFloat(f, 'g', -1, 32)`
//!   (`1.5`, `1e+06`; `.inf`, `-.inf`, `.nan`). A null key (`~: x`, `null: x`, `: x`) is an
//!   error, as sigs.k8s.io/yaml refuses it, and so is a map or a list as a key.
//! * **Duplicate keys**: the last value wins, as yaml.v2 sets the Go map entry again; the key
//!   keeps the place of its first occurrence. Keys that are equal once made strings (`1` and
//!   `"1"`) are duplicates [`Documents`] lists them ([`Document::duplicates`]), for
//!   callers that answer as yaml.v2's strict decoding does.
//! * **Merge keys** `<<` (plain, or tagged `!!merge`; a quoted `"<<"` is an ordinary key) take a
//!   map, an alias to a map, or a sequence of those. As in yaml.v2, the merged entries are set
//!   where the `<<` is written: they replace the keys before it and are replaced by keys after
//!   it; within a sequence, earlier maps win. Anything else is an error.
//!
//! # Anchors and aliases
//!
//! An alias is a copy of its anchor's value, which must be complete (an alias inside the value
//! it refers to is an error) and in the same document; the last definition of a name before the
//! alias counts. Expansion is bounded, so that a "billion laughs" document is refused quickly
//! and in little memory, with an [`ErrorKind::Limit`](crate::ErrorKind::Limit) error:
//! * yaml.v2's own rule, counted as yaml.v2 counts (every node decoded, and every node decoded
//!   again through an alias): once more than 100 aliased and 1000 decoded nodes are seen, the
//!   aliased share may not exceed 99%, lowered linearly from 400,000 decoded nodes to 10% at
//!   4,000,000 ("document contains excessive aliasing"), so documents yaml.v2 accepts are
//!   accepted;
//! * and, as values here own their strings where Go shares them, aliases may copy at most
//!   16 MiB of scalar text per document.
//!
//! # Limits and errors
//!
//! Maps and lists may nest [`MAX_DEPTH`](crate::MAX_DEPTH) levels deep, aliases included;
//! deeper is an [`ErrorKind::Limit`](crate::ErrorKind::Limit) error, found before the input is
//! read further. Every other failure is an [`ErrorKind::Yaml`](crate::ErrorKind::Yaml) error.
//! Errors have a [`Location::Text`](crate::Location::Text): 1-based line and column (in
//! characters), and the byte offset. Their messages are this reader's own (yaml.v2 rarely
//! gives a position), in its words where it has some, and start in lower case.
//!
//! # Input
//!
//! Text is UTF-8; bytes given to [`from_slice`] may also be UTF-16 after a byte-order mark, as
//! yaml.v2 reads them (error positions then refer to the decoded text). As in yaml.v2, control
//! characters are refused anywhere (everything but tab, line feed, carriage return, printable
//! ASCII, U+0085, U+00A0–U+D7FF, U+E000–U+FFFD and U+10000 and beyond), and so is a `%YAML`
//! directive other than `%YAML 1.1`.
//!
//! # Syntax
//!
//! The syntax is read by granit-parser, a YAML 1.2 parser, with libyaml's choices where it has
//! options (a block scalar ending the input without a line break gets none; a byte-order mark
//! inside a document is content). yaml.v2 uses libyaml, a YAML 1.1 parser, so what YAML 1.2
//! allows and libyaml refuses is refused here too where it can be told exactly: an empty key
//! without `?` (`: v`), the escapes `\/` and `\uD800`–`\uDFFF` (even paired), directives other
//! than `%YAML` and `%TAG`, a `...` before the first document, and a tab where a key may
//! start (at the start of a line, after `-` or `?`).
//!
//! Known differences remain in corners no Kubernetes manifest should reach:
//! * U+0085, U+2028 and U+2029 are not line breaks here, as they are in YAML 1.1;
//! * the escape `\'` in a double-quoted scalar, and a `#` right after a block scalar header
//!   (`|#`) or a closing quote, are refused here and accepted by libyaml;
//! * a tab on a line with no token, a top-level block scalar whose content starts in column 1,
//!   and a byte-order mark at the start of a later line are accepted here and refused (or read
//!   as content) by libyaml;
//! * error messages and their positions are this reader's own.

mod binary;
mod build;
mod compat;
mod emit;
mod input;
mod number;
mod order;
mod plan;
mod resolve;
mod scalar;
mod stream;
mod syntax;
mod timestamp;

use std::fmt;

use crate::{Result, Value};
pub use emit::{to_string, to_string_sorted};
pub use order::sorted;
use stream::Stream;

/// Reads a YAML text holding one document.
///
/// An empty text, or one with only comments, is [`Value::Null`] (as yaml.v2's `Unmarshal`
/// gives `nil`). A text with more than one document is an error naming the line where the
/// second one starts: its content is not silently dropped. Use [`documents`] for streams.
pub fn from_str(text: &str) -> Result<Value> {
    input::check_characters(text)?;
    let mut stream = Stream::new(text);
    let value = match stream.next_document()? {
        Some(document) => document.value,
        None => return Ok(Value::Null),
    };
    stream.expect_end()?;
    Ok(value)
}

/// Reads YAML bytes holding one document: [`from_str`] of their text.
///
/// Bytes that are not UTF-8 (or UTF-16 after its byte-order mark) are an error naming the
/// position of the first bad byte.
pub fn from_slice(bytes: &[u8]) -> Result<Value> {
    from_str(&input::decode(bytes)?)
}

/// Reads every document of a YAML stream, as yaml.v2's `Decoder` yields them: none for an empty
/// text (or only comments), and [`Value::Null`] for each empty document (`---\n---\n` is two).
///
/// The first failing document fails the whole stream.
pub fn documents(text: &str) -> Result<Vec<Value>> {
    Documents::new(text)
        .map(|document| document.map(|d| d.value))
        .collect()
}

/// Reads every document of YAML bytes: [`documents`] of their text (see [`from_slice`]).
pub fn documents_from_slice(bytes: &[u8]) -> Result<Vec<Value>> {
    documents(&input::decode(bytes)?)
}

/// One document of a YAML stream.
#[derive(Debug, Clone)]
pub struct Document {
    /// Its value.
    pub value: Value,
    /// The 1-based line where it starts: its `---`, or its first content.
    pub line: usize,
    /// The keys it sets twice in one map (the last value wins), in the order met: what
    /// yaml.v2's strict decoding, and so the API server's `fieldValidation=Strict`, refuses.
    pub duplicates: Vec<Duplicate>,
}

/// A key set a second time in one map of a document.
///
/// A key written after a `<<` merge set it counts, as in yaml.v2's strict decoding; a merge
/// setting a key written before it, and the keys inside a value copied by an alias, are not
/// reported here (yaml.v2 counts those too).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Duplicate {
    /// The 1-based line of the repeated key's value, as yaml.v2 names it
    /// (`line 7: key "k" already set in map`).
    pub line: usize,
    /// The key as Go's `%#v` prints the value yaml.v2 decodes it to: `"k"`, `1`, `true`.
    pub key: String,
}

/// The documents of a YAML text, read one at a time, with the line where each starts.
///
/// After an error the iteration ends. A character that yaml.v2 does not allow anywhere in the
/// text is reported first, before any document.
///
/// ```
/// use smd_value::yaml::Documents;
///
/// let lines: Vec<usize> = Documents::new("a: 1\n---\nb: 2\n")
///     .map(|d| d.map(|d| d.line))
///     .collect::<Result<_, _>>()?;
/// assert_eq!(lines, [1, 2]);
/// # Ok::<(), smd_value::Error>(())
/// ```
///
/// A key set twice in one map is listed in [`Document::duplicates`]:
///
/// ```
/// use smd_value::yaml::Documents;
///
/// let document = Documents::new("a: 1\nb: 2\na: 3\n").next().unwrap()?;
/// assert_eq!(document.duplicates[0].line, 3);
/// assert_eq!(document.duplicates[0].key, "\"a\"");
/// # Ok::<(), smd_value::Error>(())
/// ```
pub struct Documents<'a> {
    stream: Stream<'a>,
    refused: Option<crate::Error>,
}

impl<'a> Documents<'a> {
    /// The documents of `text`.
    pub fn new(text: &'a str) -> Self {
        Documents {
            stream: Stream::new(text),
            refused: input::check_characters(text).err(),
        }
    }
}

impl Iterator for Documents<'_> {
    type Item = Result<Document>;

    fn next(&mut self) -> Option<Self::Item> {
        if let Some(e) = self.refused.take() {
            self.stream.stop();
            return Some(Err(e));
        }
        self.stream.next_document().transpose()
    }
}

impl std::iter::FusedIterator for Documents<'_> {}

impl fmt::Debug for Documents<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Documents").finish_non_exhaustive()
    }
}
