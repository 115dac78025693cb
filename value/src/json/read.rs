//! The JSON reader, [`Reader`]: json-iterator's `Iterator` emulated operation by operation.

mod containers;
mod number;
mod string;
#[cfg(test)]
mod tests;

use std::borrow::Cow;

use crate::{Error, ErrorKind, Location, MAX_DEPTH, Result, Value};

/// The buffer size of the iterator that `fieldpath.Set.FromJSON` reads through: json-iterator
/// reads its `io.Reader` in chunks of this size, and a few of its fast paths look only within the
/// current chunk, so acceptance can depend on where a chunk ends (see [`Reader::buffered`]).
pub const SET_FROM_JSON_BUFFER: usize = 4096;

/// What the error slot of a [`Reader`] holds: Go's `iter.Error`.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum State {
    /// No error (`iter.Error == nil`).
    Clean,
    /// A read ran past the end of the input (`iter.Error == io.EOF`). SMD treats this as the
    /// normal end of a document; a later reported error replaces it.
    Eof,
    /// The first real error; nothing replaces it except [`Reader::set_error`].
    Failed(Error),
}

/// What the next value starts with, as json-iterator's `WhatIsNext` tells it (`ValueType`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum NextKind {
    /// Anything else, including the end of the input (`InvalidValue`, printed as `0`).
    Invalid,
    /// `"`.
    String,
    /// `-` or a digit.
    Number,
    /// `n`.
    Null,
    /// `t` or `f`.
    Bool,
    /// `[`.
    Array,
    /// `{`.
    Object,
}

/// A JSON reader that accepts, refuses and words its errors exactly as json-iterator
/// (`github.com/json-iterator/go` v1.1.12, `ConfigCompatibleWithStandardLibrary`) does for Go's
/// structured-merge-diff: `value.FromJSON` and the `fieldsV1` parser read through it.
///
/// # The model: an emulated iterator, not a validating parser
///
/// json-iterator is not a strict JSON parser: it reads what its caller asks for, token by token,
/// and how lenient it is depends on which method the caller uses (skipping a number validates it
/// differently from reading one; `null` is accepted where a key is expected in some places but not
/// others). SMD's parser relies on that exact behaviour, so this reader does not parse JSON and
/// then compare; it reproduces the iterator: a read position, an error slot and the same
/// operations ([`Reader::read_map_cb`] is `ReadMapCB`, [`Reader::skip`] is `Skip`, ...), each
/// moving the position and filling the error slot as the Go method does. Code written against
/// json-iterator is ported by calling the same operations in the same order.
///
/// ## Errors are kept, not returned (Go's `iter.Error`)
///
/// The error slot is clean (`iter.Error == nil`), at the end (`io.EOF`: some read ran past the
/// end; not yet a failure, and the next reported error replaces it) or failed (any other error).
/// The first failure sticks: reporting an error does nothing once the reader has failed, exactly
/// as `ReportError` does. Operations do **not** stop after a failure: like Go's they go on moving
/// through the input (a callback still runs, a key is still read), only the checks that Go guards
/// on `iter.Error` behave differently (an unread becomes a no-op, a string's slow path stops).
/// This is what makes SMD's parser return the same partially filled set next to its error;
/// mirror Go's code line by line and the same happens.
/// The one exception is [`Reader::read_value`]: what it does after a failure is never observable
/// in SMD (its callers discard the value and return the error), so it stops at the first failure.
///
/// Porting Go code means: `iter.ReadMapCB(cb)` is [`Reader::read_map_cb`] with a closure that
/// returns `bool` as Go's does; `iter.Error != nil && iter.Error != io.EOF` is
/// [`Reader::error`] being `Some`; `return iter.Error` is [`Reader::current_error`];
/// `iter.ReportError(op, err.Error())` is [`Reader::report_nested`]; `iter.Error = err` is
/// [`Reader::set_error`]; `Set.FromJSON`'s reader is [`Reader::buffered`] with
/// [`SET_FROM_JSON_BUFFER`]. The unit tests port `readIterV1`, `Set.FromJSON` and
/// `DeserializePathElement` this way (`tests::set_from_json`, `tests::path_element`) and check
/// them, traces of what happens after an error included, against Go.
///
/// ## Error text and location
///
/// An error's [`Error::message`] is json-iterator's text up to where Go appends its context
/// (`", error found in #N byte of ...|…|..., bigger context ...|…|..."`), e.g.
/// `ReadMapCB: expect { or n, but found [`. Its location is [`Location::Byte`] of the read
/// position (`iter.head`, counted from the start of the whole input) at the moment Go reported
/// it; Go prints that same position relative to a 10-byte window. Errors that Go assigns instead
/// of reporting (`strconv.ParseFloat: parsing "1e400": value out of range`, math/big's errors)
/// carry no context in Go; they get the position too. Where Go would put a byte that is not valid
/// UTF-8 into a message (`found \xff`), the message has U+FFFD.
///
/// ## Deviations from Go
///
/// * Nesting deeper than [`crate::MAX_DEPTH`] (1000; json-iterator allows 10,000) is refused with
///   an [`ErrorKind::Limit`] error worded as json-iterator's own (`incrementDepth: exceeded max
///   depth`). Reading and skipping use no recursion of their own, so depth costs no stack.
/// * String *values* and map keys inside a [`Value`] become Rust `String`s: bytes that are not
///   valid UTF-8 are replaced by U+FFFD (Go keeps them). Object keys handed to the callbacks of
///   [`Reader::read_map_cb`] and [`Reader::read_object_cb`] are the raw bytes, exactly as Go has
///   them.
#[derive(Debug)]
pub struct Reader<'a> {
    input: &'a [u8],
    /// The read position (Go's `head`), as an offset into the whole input.
    head: usize,
    /// The end of the bytes Go has in its buffer (Go's `tail`), as an offset into the input.
    tail: usize,
    /// The size of Go's buffer when it reads from an `io.Reader`; `None` when it reads a byte
    /// slice, which it holds whole.
    chunk: Option<usize>,
    depth: usize,
    state: State,
}

impl<'a> Reader<'a> {
    /// A reader over a byte slice: Go's `ParseBytes` / `BorrowIterator(input)`, as used by
    /// `value.FromJSON` and `DeserializePathElement`.
    pub fn new(input: &'a [u8]) -> Self {
        Reader {
            input,
            head: 0,
            tail: input.len(),
            chunk: None,
            depth: 0,
            state: State::Clean,
        }
    }

    /// A reader that sees the input the way Go's `Parse(cfg, bytes.NewReader(input), size)` does:
    /// in consecutive chunks of `size` bytes. `Set.FromJSON` reads this way with
    /// [`SET_FROM_JSON_BUFFER`]; the difference shows where a chunk ends inside a string or a
    /// number (a raw control character or a leading zero that the in-chunk fast path would
    /// refuse is accepted by the slow path that crosses chunks).
    pub fn buffered(input: &'a [u8], size: usize) -> Self {
        Reader {
            tail: 0,
            chunk: Some(size.max(1)),
            ..Reader::new(input)
        }
    }

    /// The read position: an offset into the input.
    #[cfg(test)]
    pub(crate) fn position(&self) -> usize {
        self.head
    }

    /// The error slot (Go's `iter.Error`).
    #[cfg(test)]
    pub(crate) fn state(&self) -> &State {
        &self.state
    }

    /// Whether no error, not even end of input, was recorded (`iter.Error == nil`).
    pub(crate) fn is_clean(&self) -> bool {
        matches!(self.state, State::Clean)
    }

    /// Whether a read ran past the end and nothing worse happened (`iter.Error == io.EOF`).
    #[cfg(test)]
    pub(crate) fn at_eof(&self) -> bool {
        matches!(self.state, State::Eof)
    }

    /// The recorded failure, if any (`iter.Error != nil && iter.Error != io.EOF`).
    pub fn error(&self) -> Option<&Error> {
        match &self.state {
            State::Failed(e) => Some(e),
            State::Clean | State::Eof => None,
        }
    }

    /// Whether the reader has failed.
    pub(crate) fn failed(&self) -> bool {
        matches!(self.state, State::Failed(_))
    }

    /// `iter.Error` as a value, for code that returns it whatever it is: `None` when clean,
    /// Go's `io.EOF` (message `EOF`) at end of input, or the failure.
    pub fn current_error(&self) -> Option<Error> {
        match &self.state {
            State::Clean => None,
            State::Eof => Some(Error::new(
                ErrorKind::Json,
                "EOF",
                Location::Byte(self.head),
            )),
            State::Failed(e) => Some(e.clone()),
        }
    }

    /// Go's `ReportError(operation, message)`: records `"<operation>: <message>"` at the read
    /// position, unless the reader has already failed (end of input is replaced).
    pub(crate) fn report_error(&mut self, operation: &str, message: &str) {
        self.report(ErrorKind::Json, operation, message);
    }

    /// `ReportError(operation, inner.Error())` for an error from another reader or from a
    /// parser on top (SMD's `parsing key as path element: …`), given as its message and whether
    /// it stands for one of smd's limits rather than a refusal Go would make. Records
    /// `"<operation>: <inner message>"` at this reader's position, which is Go's text up to its
    /// first `, error found in #`, unless the reader has already failed; its kind is
    /// [`ErrorKind::Limit`] for a limit, [`ErrorKind::Json`] otherwise.
    pub fn report_nested(&mut self, operation: &str, inner_message: &str, limit: bool) {
        let kind = match limit {
            true => ErrorKind::Limit,
            false => ErrorKind::Json,
        };
        self.report(kind, operation, inner_message);
    }

    /// Go's `iter.Error = err`: replaces whatever the slot holds, a failure included.
    pub fn set_error(&mut self, error: Error) {
        self.state = State::Failed(error);
    }

    fn report(&mut self, kind: ErrorKind, operation: &str, message: &str) {
        if self.failed() {
            return;
        }
        let text = format!("{operation}: {message}");
        self.state = State::Failed(Error::new(kind, text, Location::Byte(self.head)));
    }

    /// An error assigned without context (Go's `iter.Error = err` after strconv or math/big).
    fn assign_error(&mut self, message: String) {
        let error = Error::new(ErrorKind::Json, message, Location::Byte(self.head));
        self.set_error(error);
    }

    // ---- Bytes and tokens -------------------------------------------------------------------

    /// Go's `loadMore`: refills the buffer from the reader, or marks end of input.
    fn load_more(&mut self) -> bool {
        if let Some(chunk) = self.chunk {
            if self.tail < self.input.len() {
                self.head = self.tail;
                self.tail = self.input.len().min(self.tail.saturating_add(chunk));
                return true;
            }
            // The reader reports io.EOF; unlike the byte-slice case the position stays.
            if self.is_clean() {
                self.state = State::Eof;
            }
            return false;
        }
        if self.is_clean() {
            self.head = self.tail;
            self.state = State::Eof;
        }
        false
    }

    /// Go's `readByte`: the next byte, or 0 at end of input.
    fn read_byte(&mut self) -> u8 {
        if self.head == self.tail && !self.load_more() {
            return 0;
        }
        let byte = self.input.get(self.head).copied().unwrap_or(0);
        self.head += 1;
        byte
    }

    /// Go's `unreadByte`: steps back one byte, but only while the error slot is empty. Every
    /// caller unreads the byte it just read, so this never crosses a buffer refill.
    fn unread_byte(&mut self) {
        if self.is_clean() {
            self.head = self.head.saturating_sub(1);
        }
    }

    /// Go's `nextToken`: the next byte that is not JSON whitespace, or 0 at end of input.
    fn next_token(&mut self) -> u8 {
        loop {
            let window = &self.input[self.head..self.tail];
            if let Some(at) = window.iter().position(|&b| !is_space(b)) {
                self.head += at + 1;
                return window[at];
            }
            if !self.load_more() {
                return 0;
            }
        }
    }

    /// Go's `skipThreeBytes`/`skipFourBytes`: the literal's remaining bytes must follow.
    fn expect_literal(&mut self, rest: &'static str) {
        let operation = if rest.len() == 3 {
            "skipThreeBytes"
        } else {
            "skipFourBytes"
        };
        for &expected in rest.as_bytes() {
            if self.read_byte() != expected {
                self.report_error(operation, &format!("expect {rest}"));
                return;
            }
        }
    }

    fn increment_depth(&mut self) -> bool {
        self.depth += 1;
        if self.depth <= MAX_DEPTH {
            return true;
        }
        self.report(ErrorKind::Limit, "incrementDepth", "exceeded max depth");
        false
    }

    fn decrement_depth(&mut self) -> bool {
        match self.depth.checked_sub(1) {
            Some(depth) => {
                self.depth = depth;
                true
            }
            None => {
                self.report_error("decrementDepth", "unexpected negative nesting");
                false
            }
        }
    }

    // ---- What comes next -----------------------------------------------------------------------

    /// Go's `WhatIsNext`: the kind of the next value, without consuming it (unless the error slot
    /// is set, in which case Go's unread does nothing and the byte stays consumed).
    pub(crate) fn next_kind(&mut self) -> NextKind {
        let byte = self.next_token();
        self.unread_byte();
        match byte {
            b'"' => NextKind::String,
            b'-' | b'0'..=b'9' => NextKind::Number,
            b'n' => NextKind::Null,
            b't' | b'f' => NextKind::Bool,
            b'[' => NextKind::Array,
            b'{' => NextKind::Object,
            _ => NextKind::Invalid,
        }
    }

    /// Go's `ReadNil`: consumes `null` and says so, or leaves the next value alone.
    #[cfg(test)]
    pub(crate) fn read_null(&mut self) -> bool {
        if self.next_token() == b'n' {
            self.expect_literal("ull");
            return true;
        }
        self.unread_byte();
        false
    }

    /// Go's `ReadBool`.
    pub(crate) fn read_bool(&mut self) -> bool {
        match self.next_token() {
            b't' => {
                self.expect_literal("rue");
                true
            }
            b'f' => {
                self.expect_literal("alse");
                false
            }
            other => {
                let message = format!("expect t or f, but found {}", byte_text(other));
                self.report_error("ReadBool", &message);
                false
            }
        }
    }

    /// The check SMD makes after reading its one value (`WhatIsNext` then a look at
    /// `iter.Error`): only whitespace may follow. At end of input this is `Ok`; anything else
    /// is reported as `managedFields parsing: unexpected trailing data after JSON object` (at the
    /// trailing byte); an earlier failure is returned as it is.
    pub fn expect_end(&mut self) -> Result<()> {
        self.next_kind();
        match &self.state {
            State::Eof => Ok(()),
            State::Failed(e) => Err(e.clone()),
            State::Clean => {
                self.report_error(
                    "managedFields parsing",
                    "unexpected trailing data after JSON object",
                );
                Err(self
                    .error()
                    .cloned()
                    .unwrap_or_else(|| Error::new(ErrorKind::Json, "", Location::Byte(self.head))))
            }
        }
    }
}

/// JSON whitespace, as json-iterator knows it.
fn is_space(byte: u8) -> bool {
    matches!(byte, b' ' | b'\n' | b'\t' | b'\r')
}

/// How Go's `string([]byte{b})` reads in a message; a lone byte above ASCII is not UTF-8.
fn byte_text(byte: u8) -> char {
    if byte.is_ascii() {
        char::from(byte)
    } else {
        char::REPLACEMENT_CHARACTER
    }
}

/// A Go string's bytes as a Rust `String`, replacing what is not UTF-8.
fn into_string(bytes: Cow<'_, [u8]>) -> String {
    match bytes {
        Cow::Borrowed(b) => String::from_utf8_lossy(b).into_owned(),
        Cow::Owned(v) => String::from_utf8(v)
            .unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned()),
    }
}

impl Value {
    /// Reads a JSON document the way Go's structured-merge-diff `value.FromJSON` does:
    /// json-iterator's acceptance and error text, **every number as a float** (`42` becomes
    /// `Value::Float(42.0)`, and integers beyond 2^53 lose precision as in Go), whitespace around
    /// the value allowed, anything else after it refused.
    ///
    /// Differences from Go: nesting deeper than [`crate::MAX_DEPTH`] is refused with an
    /// [`ErrorKind::Limit`] error; string bytes that are not valid UTF-8 become U+FFFD.
    ///
    /// ```
    /// use smd_value::Value;
    /// let v = Value::from_json_floats(br#" {"replicas": 3, "tags": ["a", null]} "#).unwrap();
    /// let map = v.as_map().unwrap();
    /// assert_eq!(map.get("replicas").and_then(Value::as_f64), Some(3.0));
    /// assert!(map.get("replicas").unwrap().as_int().is_none());
    ///
    /// let err = Value::from_json_floats(b"[1,2,]").unwrap_err();
    /// assert_eq!(err.message(), "Read: unexpected value type: 0");
    /// ```
    pub fn from_json_floats(input: &[u8]) -> Result<Value> {
        let mut reader = Reader::new(input);
        let value = reader.read_value();
        if let Some(error) = reader.error() {
            return Err(error.clone());
        }
        reader.expect_end()?;
        Ok(value)
    }
}
