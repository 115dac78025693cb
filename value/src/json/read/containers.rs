//! Objects and arrays: json-iterator's `ReadMapCB`, `ReadObjectCB` and `ReadArrayCB` as steps
//! (open, next entry), so that the callback-driven readers SMD calls and the reader's own
//! non-recursive walks (`Skip`, `Read`) share one account of what each byte does.

use std::borrow::Cow;

use super::{NextKind, Reader, byte_text, into_string};
use crate::{Map, Value};

/// Which of json-iterator's two object readers a loop over entries stands for: they differ in
/// their names in messages and in what a missing `:` does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Flavor {
    /// `ReadMapCB`: a missing `:` ends the object with an error.
    Map,
    /// `ReadObjectCB`: a missing `:` is reported and the entry is read anyway.
    Object,
}

/// One step through a container: another entry (with its key, for objects), or the end, with
/// the `bool` the Go method returns.
#[derive(Debug)]
enum Step<K> {
    Next(K),
    End(bool),
}

impl<'a> Reader<'a> {
    /// Go's `ReadMapCB`: reads an object (or `null`, which reads as no entries), calling `entry`
    /// with each raw key when the reader is positioned at its value. The callback must consume
    /// the value; returning `false` stops the object there and makes this return `false`. Returns
    /// what Go returns: `false` when the object was refused or stopped, `true` otherwise (also
    /// after an error inside a value, if the object itself closed).
    pub fn read_map_cb(&mut self, entry: impl FnMut(&mut Self, Cow<'a, [u8]>) -> bool) -> bool {
        self.entries_cb(Flavor::Map, entry)
    }

    /// Go's `ReadObjectCB`, as `DeserializePathElement` reads `k:{…}`: like
    /// [`Reader::read_map_cb`] but with its own wording, and a key without `:` after it is
    /// reported and its value read anyway.
    pub fn read_object_cb(&mut self, entry: impl FnMut(&mut Self, Cow<'a, [u8]>) -> bool) -> bool {
        self.entries_cb(Flavor::Object, entry)
    }

    fn entries_cb(
        &mut self,
        flavor: Flavor,
        mut entry: impl FnMut(&mut Self, Cow<'a, [u8]>) -> bool,
    ) -> bool {
        let mut step = self.open_object(flavor);
        loop {
            match step {
                Step::Next(key) => {
                    if !entry(self, key) {
                        self.decrement_depth();
                        return false;
                    }
                    step = self.next_entry(flavor);
                }
                Step::End(ok) => return ok,
            }
        }
    }

    /// The start of `ReadMapCB`/`ReadObjectCB`: `{` and the first key, `{}`, or `null`.
    fn open_object(&mut self, flavor: Flavor) -> Step<Cow<'a, [u8]>> {
        let name = flavor.name();
        let byte = self.next_token();
        if byte == b'n' {
            self.expect_literal("ull");
            return Step::End(true);
        }
        if byte != b'{' {
            let message = format!("expect {{ or n, but found {}", byte_text(byte));
            self.report_error(name, &message);
            return Step::End(false);
        }
        if !self.increment_depth() {
            return Step::End(false);
        }
        match self.next_token() {
            b'"' => {
                self.unread_byte();
                // Go's ReadMapCB words a missing colon with the byte it last looked at: the
                // opening quote of the first key, a comma for the others.
                self.entry_key(flavor, b'"')
            }
            b'}' => Step::End(self.decrement_depth()),
            other => {
                let message = format!("expect \" after {{, but found {}", byte_text(other));
                self.report_error(name, &message);
                self.decrement_depth();
                Step::End(false)
            }
        }
    }

    /// After an entry's value: `,` and the next key, or the closing `}`.
    fn next_entry(&mut self, flavor: Flavor) -> Step<Cow<'a, [u8]>> {
        match self.next_token() {
            b',' => self.entry_key(flavor, b','),
            b'}' => Step::End(self.decrement_depth()),
            _ => {
                self.report_error(flavor.name(), "object not ended with }");
                self.decrement_depth();
                Step::End(false)
            }
        }
    }

    /// A key and its colon. `seen` is the byte Go's `ReadMapCB` names if the colon is missing.
    fn entry_key(&mut self, flavor: Flavor, seen: u8) -> Step<Cow<'a, [u8]>> {
        let key = self.read_string();
        let colon = self.next_token();
        if colon == b':' {
            return Step::Next(key);
        }
        match flavor {
            Flavor::Map => {
                let message = format!("expect : after object field, but found {}", byte_text(seen));
                self.report_error("ReadMapCB", &message);
                self.decrement_depth();
                Step::End(false)
            }
            Flavor::Object => {
                let message = format!(
                    "expect : after object field, but found {}",
                    byte_text(colon)
                );
                self.report_error("ReadObject", &message);
                Step::Next(key)
            }
        }
    }

    /// The start of Go's `ReadArrayCB`: `Next` when an element follows.
    fn open_array(&mut self) -> Step<()> {
        let byte = self.next_token();
        if byte == b'n' {
            self.expect_literal("ull");
            return Step::End(true);
        }
        if byte != b'[' {
            let message = format!("expect [ or n, but found {}", byte_text(byte));
            self.report_error("ReadArrayCB", &message);
            return Step::End(false);
        }
        if !self.increment_depth() {
            return Step::End(false);
        }
        if self.next_token() == b']' {
            return Step::End(self.decrement_depth());
        }
        self.unread_byte();
        Step::Next(())
    }

    /// After an array element: `,` and another element, or the closing `]`.
    fn next_element(&mut self) -> Step<()> {
        match self.next_token() {
            b',' => Step::Next(()),
            b']' => Step::End(self.decrement_depth()),
            other => {
                let message = format!("expect ] in the end, but found {}", byte_text(other));
                self.report_error("ReadArrayCB", &message);
                self.decrement_depth();
                Step::End(false)
            }
        }
    }

    // ---- Skipping ------------------------------------------------------------------------------

    /// Go's `Skip`: passes over one value. Its checks are json-iterator's skipping checks, which
    /// differ from its reading checks (numbers in particular, see the number module). Nested
    /// containers are walked with an explicit stack, in the order Go's recursion takes.
    pub fn skip(&mut self) {
        let mut open: Vec<Container> = Vec::new();
        loop {
            if let Some(container) = self.skip_one() {
                open.push(container);
                continue;
            }
            // The value is done: move on in the containers around it, closing the finished ones.
            loop {
                let Some(&container) = open.last() else {
                    return;
                };
                let more = match container {
                    Container::Array => matches!(self.next_element(), Step::Next(())),
                    Container::Object => matches!(self.next_entry(Flavor::Object), Step::Next(_)),
                };
                if more {
                    break;
                }
                open.pop();
            }
        }
    }

    /// Skips a scalar, or opens a container and returns it when its first value comes next.
    fn skip_one(&mut self) -> Option<Container> {
        let byte = self.next_token();
        match byte {
            b'"' => self.skip_string(),
            b'n' => self.expect_literal("ull"),
            b't' => self.expect_literal("rue"),
            b'f' => self.expect_literal("alse"),
            b'0' => {
                self.unread_byte();
                self.check_float32();
            }
            b'-' | b'1'..=b'9' => self.skip_number(),
            b'[' => {
                self.unread_byte();
                return matches!(self.open_array(), Step::Next(())).then_some(Container::Array);
            }
            b'{' => {
                self.unread_byte();
                return matches!(self.open_object(Flavor::Object), Step::Next(_))
                    .then_some(Container::Object);
            }
            other => {
                // Go formats the byte with %v: its decimal value.
                let message = format!("do not know how to skip: {other}");
                self.report_error("Skip", &message);
            }
        }
        None
    }

    // ---- Reading values ------------------------------------------------------------------------

    /// Go's `Read()`: one value of any kind, every number as a float (`Value::Float`), objects
    /// as maps (a repeated key keeps its first place and takes its last value). After a failure
    /// the value is meaningless (`Value::Null`) and reading stops; see the module documentation.
    pub fn read_value(&mut self) -> Value {
        let mut open: Vec<Building> = Vec::new();
        loop {
            let mut value = match self.next_kind() {
                NextKind::String => Value::String(into_string(self.read_string())),
                NextKind::Number => Value::Float(self.read_float64()),
                NextKind::Bool => Value::Bool(self.read_bool()),
                NextKind::Null => {
                    self.expect_literal("null");
                    Value::Null
                }
                NextKind::Array => match self.open_array() {
                    Step::Next(()) => {
                        open.push(Building::List(Vec::new()));
                        continue;
                    }
                    Step::End(_) => Value::List(Vec::new()),
                },
                NextKind::Object => match self.open_object(Flavor::Map) {
                    Step::Next(key) => {
                        open.push(Building::Map(Map::new(), into_string(key)));
                        continue;
                    }
                    Step::End(_) => Value::Map(Map::new()),
                },
                NextKind::Invalid => {
                    self.report_error("Read", "unexpected value type: 0");
                    Value::Null
                }
            };
            // Put the value where it belongs, completing every container it was the last of.
            loop {
                if self.failed() {
                    return Value::Null;
                }
                let Some(top) = open.last_mut() else {
                    return value;
                };
                let more = match top {
                    Building::List(items) => {
                        items.push(value);
                        matches!(self.next_element(), Step::Next(()))
                    }
                    Building::Map(map, key) => {
                        map.insert(std::mem::take(key), value);
                        match self.next_entry(Flavor::Map) {
                            Step::Next(next) => {
                                *key = into_string(next);
                                true
                            }
                            Step::End(_) => false,
                        }
                    }
                };
                if more {
                    break;
                }
                value = match open.pop() {
                    Some(Building::List(items)) => Value::List(items),
                    Some(Building::Map(map, _)) => Value::Map(map),
                    None => Value::Null,
                };
            }
        }
    }
}

impl Flavor {
    fn name(self) -> &'static str {
        match self {
            Flavor::Map => "ReadMapCB",
            Flavor::Object => "ReadObjectCB",
        }
    }
}

/// A container `skip` is inside of.
#[derive(Debug, Clone, Copy)]
enum Container {
    Array,
    Object,
}

/// A container `read_value` is filling: a map remembers the key whose value comes next.
#[derive(Debug)]
enum Building {
    List(Vec<Value>),
    Map(Map, String),
}
