//! An object stream cut into documents as kubectl's `-f` reading cuts it
//! (`k8s.io/apimachinery/pkg/util/yaml.YAMLOrJSONDecoder`), incrementally: never more than one
//! document (bounded by the per-document limit) and one read buffer are held.
//!
//! * **Sniffing.** When the first non-whitespace character within the first 4096 bytes is `{`,
//!   the stream may be JSON: JSON values are read one after another (`{…}{…}` and `{…}\n{…}`
//!   are streams of objects). When a value fails to read and at most one value was read
//!   before, the stream switches to YAML for good, at the end of the last value read (after its
//!   line's whitespace): `{…}\n---\n{…}` is one JSON object then a YAML stream, and a first
//!   document that is not JSON (`{a: 1}`) makes the whole stream YAML. After two values the
//!   stream is JSON, and a failure is an error (kubectl's rule).
//! * **YAML** is cut at lines starting with `---` followed by nothing but whitespace or a
//!   comment (YAML allows such a line inside no scalar), except where a directive (`%…`) or a
//!   document end (`...`) makes the next document depend on what comes before it: there the
//!   cut waits for the next `---`. A line starting with `---` followed by anything else
//!   (`--- {a: 1}`, `----`) is refused, as kubectl's reader refuses it.
//!   Each piece is read by the library's YAML reader, possibly several at once.

use std::io::Read;

use smd::fieldpath::Value;

use super::json::{self, Duplicate, JsonError};

/// How far kubectl looks for a `{` to take a stream for JSON.
const SNIFF_BYTES: usize = 4096;

/// How much is read at once.
const READ_BYTES: usize = 64 << 10;

/// A piece of a stream.
#[derive(Debug)]
pub(crate) enum Piece {
    /// One JSON document, read.
    Json {
        value: Value,
        duplicates: Vec<Duplicate>,
        /// 1-based line where it starts.
        line: usize,
    },
    /// YAML text holding any number of documents (usually one, starting with its `---`).
    Yaml {
        text: String,
        /// 1-based line of its first line.
        line: usize,
        /// When the stream switched to YAML here because a JSON value failed to read: that
        /// error, which kubectl reports when this YAML fails too.
        json_error: Option<(JsonError, usize)>,
    },
}

/// Why a stream stopped.
#[derive(Debug)]
pub(crate) enum StreamError {
    /// Bytes that are not UTF-8 text, at this offset.
    NotUtf8 { offset: usize },
    /// A document larger than the limit, starting at this line.
    TooLarge { line: usize },
    /// A line starting with `---` followed by more than a comment, which kubectl's reader
    /// refuses (`invalid Yaml document separator: …`); the line and what follows the `---`.
    Separator { line: usize, text: String },
    /// A JSON value that does not read in a stream known to be JSON (or where YAML fails too),
    /// with the line its document starts at.
    Json { error: JsonError, line: usize },
    /// Reading failed.
    Io(std::io::Error),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Mode {
    Sniff,
    Json,
    Yaml,
}

/// The documents of one input, read piece by piece.
pub(crate) struct Stream<R> {
    reader: R,
    limit: usize,
    buf: Vec<u8>,
    /// Where the unconsumed bytes start in `buf`.
    pos: usize,
    /// The offset in the whole input of `buf[0]`.
    base: usize,
    /// The line at `pos`.
    line: usize,
    /// An offset before `pos` that must stay in `buf` (where a JSON stream may switch to YAML).
    mark: Option<usize>,
    eof: bool,
    mode: Mode,
    /// JSON values read.
    count: usize,
    /// The JSON error that made the stream switch to YAML, until the first YAML piece.
    json_error: Option<(JsonError, usize)>,
}

impl<R: Read> Stream<R> {
    pub(crate) fn new(reader: R, limit: usize) -> Self {
        Stream {
            reader,
            limit,
            buf: Vec::new(),
            pos: 0,
            base: 0,
            line: 1,
            mark: None,
            eof: false,
            mode: Mode::Sniff,
            count: 0,
            json_error: None,
        }
    }

    /// Reads more input into `buf`; false at the end of the input.
    fn fill(&mut self) -> Result<bool, StreamError> {
        if self.eof {
            return Ok(false);
        }
        // Drop what is consumed once it is most of the buffer (amortized: each byte moves
        // at most once or twice).
        let keep = self.mark.unwrap_or(self.pos).min(self.pos);
        if keep > 0 && keep >= self.buf.len() / 2 {
            self.buf.drain(..keep);
            self.base += keep;
            self.pos -= keep;
            self.mark = self.mark.map(|m| m - keep);
        }
        let old = self.buf.len();
        self.buf.resize(old + READ_BYTES, 0);
        let n = loop {
            match self.reader.read(&mut self.buf[old..]) {
                Ok(n) => break n,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(e) => {
                    self.buf.truncate(old);
                    return Err(StreamError::Io(e));
                }
            }
        };
        self.buf.truncate(old + n);
        if n == 0 {
            self.eof = true;
        }
        Ok(n > 0)
    }

    /// The next piece, or `None` at the end of the input.
    pub(crate) fn next_piece(&mut self) -> Result<Option<Piece>, StreamError> {
        if self.mode == Mode::Sniff {
            while self.buf.len() < SNIFF_BYTES && self.fill()? {}
            let head = self
                .buf
                .get(..SNIFF_BYTES.min(self.buf.len()))
                .unwrap_or_default();
            // `unicode.IsSpace` over the bytes as UTF-8 (a cut character ends the look).
            let text = match std::str::from_utf8(head) {
                Ok(t) => t,
                Err(e) => std::str::from_utf8(&head[..e.valid_up_to()]).unwrap_or_default(),
            };
            self.mode = if text.trim_start().starts_with('{') {
                Mode::Json
            } else {
                Mode::Yaml
            };
        }
        match self.mode {
            Mode::Json => self.next_json(),
            _ => self.next_yaml(),
        }
    }

    /// Consumes `n` bytes from `pos`, counting their lines.
    fn consume(&mut self, n: usize) {
        let end = (self.pos + n).min(self.buf.len());
        let bytes = self.buf.get(self.pos..end).unwrap_or_default();
        self.line += bytes.iter().filter(|&&b| b == b'\n').count();
        self.pos = end;
    }

    fn next_json(&mut self) -> Result<Option<Piece>, StreamError> {
        self.mark = Some(self.pos);
        let last_line = self.line;
        // Whitespace before the value (JSON's own four characters); it counts toward the
        // next document's size.
        loop {
            let skip = self
                .buf
                .get(self.pos..)
                .unwrap_or_default()
                .iter()
                .take_while(|&&b| json::is_space(b))
                .count();
            self.consume(skip);
            if self.pos < self.buf.len() {
                break;
            }
            if self.pos - self.mark.unwrap_or(self.pos) > self.limit {
                return Err(StreamError::TooLarge { line: self.line });
            }
            if !self.fill()? {
                self.mark = None;
                return Ok(None);
            }
        }
        let line = self.line;
        let end = self.value_end()?;
        let Some(bytes) = self.buf.get(self.pos..end) else {
            return Ok(None);
        };
        let text = std::str::from_utf8(bytes).map_err(|e| StreamError::NotUtf8 {
            offset: self.base + self.pos + e.valid_up_to(),
        })?;
        match json::read_value(text, 0) {
            Ok(parsed) => {
                self.mark = None;
                self.consume(parsed.end);
                self.count += 1;
                Ok(Some(Piece::Json {
                    value: parsed.value,
                    duplicates: parsed.duplicates,
                    line,
                }))
            }
            Err(error) if self.count > 1 || !error.syntax => Err(StreamError::Json { error, line }),
            Err(error) => {
                // Back to the end of the last value; its line's whitespace is dropped (up to and
                // including the line break), then the rest is YAML.
                self.pos = self.mark.take().unwrap_or(self.pos);
                self.line = last_line;
                self.skip_line_space()?;
                self.mode = Mode::Yaml;
                self.json_error = Some((error, line));
                self.next_yaml()
            }
        }
    }

    /// After a JSON value that failed: whitespace (`unicode.IsSpace`) up to and including the
    /// first line break.
    fn skip_line_space(&mut self) -> Result<(), StreamError> {
        loop {
            let rest = self.buf.get(self.pos..).unwrap_or_default();
            let text = match std::str::from_utf8(rest) {
                Ok(t) => t,
                Err(e) => std::str::from_utf8(&rest[..e.valid_up_to()]).unwrap_or_default(),
            };
            let mut n = 0;
            let mut done = false;
            for c in text.chars() {
                if !c.is_whitespace() {
                    done = true;
                    break;
                }
                n += c.len_utf8();
                if c == '\n' {
                    done = true;
                    break;
                }
            }
            self.consume(n);
            if done || !self.fill()? {
                return Ok(());
            }
        }
    }

    /// Where the JSON value at `pos` ends: brackets balanced outside strings, a string's
    /// closing quote, or a scalar's first delimiter; reading more as needed, up to the limit.
    /// A value that is not well-formed ends somewhere; the reader then finds its error.
    fn value_end(&mut self) -> Result<usize, StreamError> {
        let first = self.buf.get(self.pos).copied().unwrap_or_default();
        let scalar = !matches!(first, b'{' | b'[' | b'"');
        let end = self.scan_value(first, scalar)?;
        if end - self.pos > self.limit {
            return Err(StreamError::TooLarge { line: self.line });
        }
        Ok(end)
    }

    fn scan_value(&mut self, first: u8, scalar: bool) -> Result<usize, StreamError> {
        let mut at = self.pos;
        let (mut depth, mut in_string, mut escaped) = (0usize, false, false);
        loop {
            while let Some(&b) = self.buf.get(at) {
                at += 1;
                if in_string {
                    if escaped {
                        escaped = false;
                    } else if b == b'\\' {
                        escaped = true;
                    } else if b == b'"' {
                        in_string = false;
                        if first == b'"' {
                            return Ok(at);
                        }
                    }
                    continue;
                }
                if scalar {
                    if json::is_space(b) || b"{}[],:\"".contains(&b) {
                        return Ok(at - 1);
                    }
                    continue;
                }
                match b {
                    b'"' => in_string = true,
                    b'{' | b'[' => depth += 1,
                    b'}' | b']' => {
                        depth = depth.saturating_sub(1);
                        if depth == 0 {
                            return Ok(at);
                        }
                    }
                    _ => {}
                }
            }
            if at - self.pos > self.limit {
                return Err(StreamError::TooLarge { line: self.line });
            }
            let before = self.pos;
            if !self.fill()? {
                return Ok(self.buf.len());
            }
            // `fill` may have moved the buffer.
            at = at - before + self.pos;
        }
    }

    fn next_yaml(&mut self) -> Result<Option<Piece>, StreamError> {
        let start_line = self.line;
        // The piece is `buf[pos..cut]`; `scan` is the start of the next line to look at.
        let mut scan = self.pos;
        let mut line = self.line;
        let mut hold = false;
        // Where the search for the end of the line at `scan` goes on (a long line is searched
        // once, not again after each read).
        let mut searched = scan;
        let cut = loop {
            let rest = self.buf.get(searched..).unwrap_or_default();
            match rest.iter().position(|&b| b == b'\n') {
                Some(found) => {
                    let j = searched + found - scan;
                    searched = scan + j + 1;
                    let bare = self.buf.get(scan..scan + j).unwrap_or_default();
                    let bare = bare.strip_suffix(b"\r").unwrap_or(bare);
                    if let Some(marker) = separator(bare) {
                        // The document before goes on first; a bad marker is the next one's.
                        if scan > self.pos && !hold {
                            break scan;
                        }
                        marker.map_err(|text| StreamError::Separator { line, text })?;
                        hold = false;
                    } else if bare.starts_with(b"%") || bare == b"..." || bare.starts_with(b"... ")
                    {
                        hold = true;
                    }
                    scan += j + 1;
                    line += 1;
                    if scan - self.pos > self.limit {
                        return Err(StreamError::TooLarge { line: start_line });
                    }
                }
                None => {
                    if self.buf.len() - self.pos > self.limit {
                        return Err(StreamError::TooLarge { line: start_line });
                    }
                    let before = self.pos;
                    searched = self.buf.len();
                    if !self.fill()? {
                        // The last line, without a line break, is a separator too.
                        let last = self.buf.get(scan..).unwrap_or_default();
                        if let Some(Err(text)) = separator(last) {
                            if scan > self.pos {
                                break scan;
                            }
                            return Err(StreamError::Separator { line, text });
                        }
                        break self.buf.len();
                    }
                    scan = scan - before + self.pos;
                    searched = searched - before + self.pos;
                }
            }
        };
        if cut == self.pos {
            return Ok(None);
        }
        let bytes = self.buf.get(self.pos..cut).unwrap_or_default();
        let text = std::str::from_utf8(bytes)
            .map_err(|e| StreamError::NotUtf8 {
                offset: self.base + self.pos + e.valid_up_to(),
            })?
            .to_owned();
        self.pos = cut;
        self.line = line;
        Ok(Some(Piece::Yaml {
            text,
            line: start_line,
            json_error: self.json_error.take(),
        }))
    }
}

/// Whether `line` (without its line break) is a document separator as kubectl's YAML reader
/// sees one: `None` when it does not start with `---`; else `Ok` when only whitespace or a
/// comment follows, and `Err` with what follows otherwise (kubectl refuses the stream).
fn separator(line: &[u8]) -> Option<Result<(), String>> {
    let rest = line.strip_prefix(b"---")?;
    let rest = String::from_utf8_lossy(rest);
    let rest = rest.trim();
    if rest.is_empty() || rest.starts_with('#') {
        Some(Ok(()))
    } else {
        Some(Err(rest.to_owned()))
    }
}
