//! Tests of the reader against what Go does.
//!
//! Every expected message here was printed by Go (json-iterator v1.1.12 and structured-merge-diff
//! v6.4.2) for the same input. `go_offset` is the `#N` Go prints in its last context: the read
//! position when it is below 10 (Go's window starts at the beginning of its buffer then), 10 for
//! any position from 10 on.
//!
//! SMD's `fieldsV1` parser and `DeserializePathElement` are not part of the reader, so the tests
//! drive the reader through small stand-ins for them ([`path_element`], [`set_from_json`]) that
//! follow Go's control flow step by step; they double as the example of how to port that flow.

use std::borrow::Cow;

use super::{NextKind, Reader, SET_FROM_JSON_BUFFER, State};
use crate::{Error, ErrorKind, Location, MAX_DEPTH, Value};

mod corpus;
mod upstream;

/// One input and the error Go gives for it.
struct Case {
    name: &'static str,
    input: &'static [u8],
    message: &'static str,
    go_offset: Option<usize>,
}

// ---- Stand-ins for SMD's code on top of json-iterator ---------------------------------------------

/// What `DeserializePathElement` makes of a key, in a form the tests can compare.
#[derive(Debug)]
enum PathElement {
    Field(Vec<u8>),
    Value(Value),
    Key(Vec<(String, Value)>),
    Index(i64),
}

#[derive(Debug)]
enum PathElementError {
    /// `ErrUnknownPathElementType`: the key is dropped with its subtree.
    Unknown,
    Failed(Error),
}

fn failure(message: String) -> PathElementError {
    PathElementError::Failed(Error::new(ErrorKind::Json, message, Location::Unknown))
}

/// SMD's `DeserializePathElement`.
fn path_element(key: &[u8]) -> Result<PathElement, PathElementError> {
    let [kind, separator, rest @ ..] = key else {
        return Err(failure("key must be 2 characters long:".to_owned()));
    };
    if *separator != b':' {
        let text = String::from_utf8_lossy(key);
        return Err(failure(format!("missing colon: {text}")));
    }
    match kind {
        b'f' => Ok(PathElement::Field(rest.to_vec())),
        b'v' => {
            let mut reader = Reader::new(rest);
            let value = reader.read_value();
            if let Some(e) = reader.error() {
                return Err(PathElementError::Failed(e.clone()));
            }
            reader.expect_end().map_err(PathElementError::Failed)?;
            Ok(PathElement::Value(value))
        }
        b'k' => {
            let mut reader = Reader::new(rest);
            let mut fields = Vec::new();
            reader.read_object_cb(|reader, name| {
                let value = reader.read_value();
                if let Some(e) = reader.error().cloned() {
                    reader.set_error(e);
                    return false;
                }
                fields.push((String::from_utf8_lossy(&name).into_owned(), value));
                true
            });
            reader.expect_end().map_err(PathElementError::Failed)?;
            fields.sort_by(|a, b| a.0.cmp(&b.0));
            Ok(PathElement::Key(fields))
        }
        b'i' => atoi(rest).map(PathElement::Index).map_err(failure),
        _ => Err(PathElementError::Unknown),
    }
}

/// Go's `strconv.Atoi`, for the printable keys the tests use: a sign, then digits, refused at
/// the first byte that is not a digit or that makes the number overflow, whichever comes first.
fn atoi(text: &[u8]) -> Result<i64, String> {
    let quoted = String::from_utf8_lossy(text)
        .replace('\\', "\\\\")
        .replace('"', "\\\"");
    let error = |why: &str| format!("strconv.Atoi: parsing \"{quoted}\": {why}");
    let (negative, digits) = match text {
        [b'-', rest @ ..] => (true, rest),
        [b'+', rest @ ..] => (false, rest),
        _ => (false, text),
    };
    if digits.is_empty() {
        return Err(error("invalid syntax"));
    }
    let mut magnitude: u64 = 0;
    for &byte in digits {
        if !byte.is_ascii_digit() {
            return Err(error("invalid syntax"));
        }
        magnitude = magnitude
            .checked_mul(10)
            .and_then(|m| m.checked_add(u64::from(byte - b'0')))
            .ok_or_else(|| error("value out of range"))?;
    }
    let limit = if negative {
        1u64 << 63
    } else {
        (1u64 << 63) - 1
    };
    if magnitude > limit {
        return Err(error("value out of range"));
    }
    Ok(if negative {
        0i64.wrapping_sub_unsigned(magnitude)
    } else {
        magnitude as i64
    })
}

/// SMD's `Set.FromJSON` over a byte reader, recording what `readIterV1` does with each key in
/// the words of the Go oracle's trace: `.` member mark, `u` unknown kind skipped, `e` bad key
/// reported and skipped, `(<key>` … `)` a path element with `m` (member) and `c` (children).
fn set_from_json(input: &[u8]) -> (Result<(), Error>, String) {
    let mut reader = Reader::buffered(input, SET_FROM_JSON_BUFFER);
    let mut trace = Vec::new();
    read_set(&mut reader, &mut trace);
    let result = match reader.current_error() {
        Some(e) => Err(e),
        None => reader.expect_end(),
    };
    (result, trace.join(" "))
}

/// SMD's `readIterV1`: (has children, is a member).
fn read_set(reader: &mut Reader<'_>, trace: &mut Vec<String>) -> (bool, bool) {
    let mut children = false;
    let mut member = false;
    reader.read_map_cb(|reader, key| {
        if *key == *b"." {
            member = true;
            trace.push(".".to_owned());
            reader.skip();
            return true;
        }
        match path_element(&key) {
            Err(PathElementError::Unknown) => {
                trace.push("u".to_owned());
                reader.skip();
            }
            Err(PathElementError::Failed(e)) => {
                trace.push("e".to_owned());
                reader.report_nested(
                    "parsing key as path element",
                    e.message(),
                    e.kind() == ErrorKind::Limit,
                );
                reader.skip();
            }
            Ok(_) => {
                trace.push(format!("({}", escape(&key)));
                let (grandchildren, child_member) = read_set(reader, trace);
                if child_member {
                    trace.push("m".to_owned());
                    children = true;
                }
                if grandchildren {
                    trace.push("c".to_owned());
                    children = true;
                }
                trace.push(")".to_owned());
            }
        }
        true
    });
    (children, member || !children)
}

// ---- Helpers ---------------------------------------------------------------------------------------

/// The escaping of the Go oracle's output: `\\`, printable ASCII, `\xNN`.
fn escape(bytes: &[u8]) -> String {
    let mut out = String::new();
    for &b in bytes {
        match b {
            b'\\' => out.push_str("\\\\"),
            0x20..=0x7e => out.push(char::from(b)),
            _ => out.push_str(&format!("\\x{b:02x}")),
        }
    }
    out
}

/// The Go oracle's dump of a value: floats by their bits, map keys sorted.
fn dump(value: &Value) -> String {
    match value {
        Value::Null => "n".to_owned(),
        Value::Bool(true) => "t".to_owned(),
        Value::Bool(false) => "f".to_owned(),
        Value::Int(i) => format!("int{i}"),
        Value::Float(f) => format!("d{:016x}", f.to_bits()),
        Value::String(s) => format!("s\"{}\"", escape(s.as_bytes())),
        Value::List(items) => {
            let items: Vec<String> = items.iter().map(dump).collect();
            format!("[{}]", items.join(","))
        }
        Value::Map(map) => {
            let mut entries: Vec<(&str, &Value)> = map.iter().collect();
            entries.sort_by(|a, b| a.0.cmp(b.0));
            let entries: Vec<String> = entries
                .iter()
                .map(|(k, v)| format!("\"{}\":{}", escape(k.as_bytes()), dump(v)))
                .collect();
            format!("{{{}}}", entries.join(","))
        }
    }
}

fn path_element_dump(element: &PathElement) -> String {
    match element {
        PathElement::Field(name) => format!("f:{}", escape(name)),
        PathElement::Value(v) => format!("v:{}", dump(v)),
        PathElement::Key(fields) => {
            let fields: Vec<String> = fields
                .iter()
                .map(|(n, v)| format!("{}={}", escape(n.as_bytes()), dump(v)))
                .collect();
            format!("k:{}", fields.join(";"))
        }
        PathElement::Index(i) => format!("i:{i}"),
    }
}

/// The error's position must be what Go prints as `#N` (see the module documentation).
fn offset_agrees(error: &Error, go_offset: Option<usize>, buffer_start: usize) -> bool {
    let Some(go) = go_offset else {
        return true;
    };
    match error.location() {
        Location::Byte(at) => {
            let at = at - buffer_start;
            if go < 10 { at == go } else { at >= 10 }
        }
        _ => false,
    }
}

/// A failed case's description, `None` when Go and the reader agree.
fn check_error(
    what: &str,
    got: Result<(), &Error>,
    message: &str,
    go_offset: Option<usize>,
) -> Option<String> {
    match got {
        Ok(()) => Some(format!("{what}: accepted, Go says {message:?}")),
        Err(e) if e.message() != message => {
            Some(format!("{what}: {:?}, Go says {message:?}", e.message()))
        }
        Err(e) if !offset_agrees(e, go_offset, 0) => Some(format!(
            "{what}: at {:?}, Go says #{go_offset:?}",
            e.location()
        )),
        Err(_) => None,
    }
}

// ---- Behaviour pinned by hand (each checked against Go) ------------------------------------------

fn floats(input: &str) -> Result<Value, Error> {
    Value::from_json_floats(input.as_bytes())
}

fn message(input: &str) -> String {
    match floats(input) {
        Ok(v) => format!("ok {}", dump(&v)),
        Err(e) => e.message().to_owned(),
    }
}

#[test]
fn numbers_are_floats() {
    assert_eq!(dump(&floats("42").unwrap_or_default()), "d4045000000000000");
    assert_eq!(
        floats("9007199254740993").ok().and_then(|v| v.as_f64()),
        Some(9007199254740992.0)
    );
    let negative_zero = floats("-0").ok().and_then(|v| v.as_f64()).unwrap_or(1.0);
    assert!(negative_zero == 0.0 && negative_zero.is_sign_negative());
    assert_eq!(message("-+1"), "ok dbff0000000000000");
    assert_eq!(
        message("1e400"),
        "strconv.ParseFloat: parsing \"1e400\": value out of range"
    );
    assert_eq!(
        message("-1e400"),
        "strconv.ParseFloat: parsing \"1e400\": value out of range"
    );
    assert_eq!(message("01"), "readFloat64: leading zero is invalid");
    assert_eq!(message("--1"), "readFloat64SlowPath: -- is not valid");
    assert_eq!(
        message("1.e5"),
        "readFloat64SlowPath: missing digit after dot"
    );
    assert_eq!(
        message("1.2.3"),
        "strconv.ParseFloat: parsing \"1.2.3\": invalid syntax"
    );
    assert_eq!(message("[-]"), "readFloat64: empty number");
    assert_eq!(message("-.5"), "readFloat64: leading dot is invalid");
}

#[test]
fn strings_keep_go_decoding() {
    assert_eq!(
        message(r#""\ud800""#),
        format!("ok s\"{}\"", escape("\u{fffd}".as_bytes()))
    );
    assert_eq!(
        message(r#""\uD83D\uDE02""#),
        format!("ok s\"{}\"", escape("😂".as_bytes()))
    );
    // A high surrogate followed by an escape that is not \u keeps both.
    assert_eq!(
        message(r#""\ud800\n""#),
        format!("ok s\"{}\\x0a\"", escape("\u{fffd}".as_bytes()))
    );
    // Two high surrogates: both replaced, the second not paired with what follows.
    assert_eq!(
        message(r#""\ud800\ud800\udc00""#),
        format!("ok s\"{}\"", escape("\u{fffd}\u{fffd}\u{fffd}".as_bytes()))
    );
    assert_eq!(
        message("\"a\u{1}\""),
        "ReadString: invalid control character found: 1"
    );
    // After an escape the slow path takes over and lets control characters through.
    assert_eq!(message("\"\\n\u{1}\""), "ok s\"\\x0a\\x01\"");
    assert_eq!(
        message(r#""\u00zz""#),
        "readU4: expects 0~9 or a~f, but found z"
    );
}

#[test]
fn keys_are_raw_bytes() {
    let input = b"{\"a\\u0041\":1, \"\xff\":2}";
    let mut reader = Reader::new(input);
    let mut keys = Vec::new();
    let ok = reader.read_map_cb(|reader, key| {
        keys.push(key.into_owned());
        reader.skip();
        true
    });
    assert!(ok && reader.is_clean());
    assert_eq!(keys, [b"aA".to_vec(), b"\xff".to_vec()]);
    // Keys without escapes are borrowed from the input.
    let mut reader = Reader::new(b"{\"plain\":null}");
    reader.read_map_cb(|reader, key| {
        assert!(matches!(key, Cow::Borrowed(b"plain")));
        reader.read_null()
    });
}

#[test]
fn errors_stick_and_end_of_input_does_not() {
    let mut reader = Reader::new(b"[1");
    assert_eq!(reader.next_kind(), NextKind::Array);
    reader.report_error("first", "one");
    reader.report_error("second", "two");
    assert_eq!(reader.error().map(Error::message), Some("first: one"));
    reader.set_error(Error::new(ErrorKind::Json, "assigned", Location::Unknown));
    assert_eq!(reader.error().map(Error::message), Some("assigned"));

    // A number that runs to the end of the input leaves io.EOF, which a report replaces.
    let mut reader = Reader::new(b"1.5e3");
    assert_eq!(reader.read_float64(), 1500.0);
    assert_eq!(reader.state(), &State::Eof);
    assert!(reader.at_eof() && reader.position() == 5);
    assert_eq!(
        reader.current_error().map(|e| e.message().to_owned()),
        Some("EOF".to_owned())
    );
    reader.report_error("x", "y");
    assert_eq!(reader.error().map(Error::message), Some("x: y"));
}

/// The keys an object callback sees when it skips every value, the verdict and the error, as
/// Go's oracle prints them for `ReadObjectCB`/`ReadMapCB` with `Skip` as the callback.
fn keys_and_error(input: &[u8], object: bool) -> (bool, Vec<Vec<u8>>, Option<String>) {
    let mut reader = Reader::new(input);
    let mut keys = Vec::new();
    let callback = |reader: &mut Reader<'_>, key: Cow<'_, [u8]>| {
        keys.push(key.into_owned());
        reader.skip();
        true
    };
    let verdict = if object {
        reader.read_object_cb(callback)
    } else {
        reader.read_map_cb(callback)
    };
    (
        verdict,
        keys,
        reader.error().map(|e| e.message().to_owned()),
    )
}

#[test]
fn reading_goes_on_after_an_error_as_go_does() {
    // ReadObjectCB reports a missing colon and still calls back; the skip that follows starts
    // at the comma, fails silently, and the object ends there.
    let (verdict, keys, error) = keys_and_error(br#"{"a" 1,"b":2}"#, true);
    assert!(!verdict);
    assert_eq!(keys, [b"a".to_vec()]);
    assert_eq!(
        error.as_deref(),
        Some("ReadObject: expect : after object field, but found 1")
    );
    // ReadMapCB names the comma, not what it found instead of the colon.
    let (verdict, keys, error) = keys_and_error(br#"{"a":1,"b" 2}"#, false);
    assert!(!verdict);
    assert_eq!(keys, [b"a".to_vec()]);
    assert_eq!(
        error.as_deref(),
        Some("ReadMapCB: expect : after object field, but found ,")
    );
    // After the first key, `null` reads as an empty key.
    for object in [true, false] {
        let (verdict, keys, error) = keys_and_error(br#"{"a":1,null:2}"#, object);
        assert!(verdict && error.is_none());
        assert_eq!(keys, [b"a".to_vec(), Vec::new()]);
    }
}

#[test]
fn depth_is_limited() {
    let nested = |depth: usize| format!("{}{}", "[".repeat(depth), "]".repeat(depth));
    assert!(floats(&nested(MAX_DEPTH)).is_ok());
    let error = floats(&nested(MAX_DEPTH + 1)).err();
    assert_eq!(error.as_ref().map(Error::kind), Some(ErrorKind::Limit));
    assert_eq!(
        error.as_ref().map(Error::message),
        Some("incrementDepth: exceeded max depth")
    );

    // A million levels fail fast and without recursion, reading and skipping.
    let deep = "[".repeat(1_000_000);
    assert_eq!(
        floats(&deep).err().map(|e| e.kind()),
        Some(ErrorKind::Limit)
    );
    let deep_objects = "{\"a\":".repeat(1_000_000);
    let mut reader = Reader::new(deep_objects.as_bytes());
    reader.skip();
    assert_eq!(reader.error().map(Error::kind), Some(ErrorKind::Limit));
    let (result, _) = set_from_json(format!("{{\".\":{deep}}}").as_bytes());
    assert_eq!(result.err().map(|e| e.kind()), Some(ErrorKind::Limit));

    // A parser on top that recurses once per level (as SMD's readIterV1 does) stays within the
    // limit and within a test thread's stack.
    let fields = |depth: usize| format!("{}{}", "{\"f:a\":".repeat(depth), "}".repeat(depth));
    let (result, _) = set_from_json(fields(MAX_DEPTH - 1).replace(":}", ":{}}").as_bytes());
    assert!(result.is_ok(), "{result:?}");
    let (result, _) = set_from_json(fields(MAX_DEPTH + 1).replace(":}", ":{}}").as_bytes());
    assert_eq!(result.err().map(|e| e.kind()), Some(ErrorKind::Limit));
}

/// Arbitrary bytes, read every way and through buffers of every small size (which puts a
/// buffer boundary inside nearly every token), must never panic or hang.
#[test]
fn arbitrary_input_is_survived() {
    const ALPHABET: &[u8] = b"{}[],:\"\\ \n\rnulltrefas-0123456789.eE+u\x01\xff\xc3fkvi.";
    let mut state: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut next = move || {
        state = state
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (state >> 33) as usize
    };
    for _ in 0..20_000 {
        let len = next() % 48;
        let input: Vec<u8> = (0..len)
            .map(|_| ALPHABET[next() % ALPHABET.len()])
            .collect();
        let _ = Value::from_json_floats(&input);
        let _ = path_element(&input);
        let _ = set_from_json(&input);
        for size in 1..5 {
            let mut reader = Reader::buffered(&input, size);
            reader.skip();
            let mut reader = Reader::buffered(&input, size);
            reader.read_object_cb(|reader, _| {
                reader.read_value();
                reader.skip();
                true
            });
            let mut reader = Reader::buffered(&input, size);
            read_set(&mut reader, &mut Vec::new());
            let _ = reader.expect_end();
        }
    }
}

/// Large documents read in linear time (a quadratic step would take minutes here).
#[test]
fn large_input_reads_in_linear_time() {
    let entries: Vec<String> = (0..200_000)
        .map(|i| format!("\"f:k{i}\":{{\".\":[1.5,\"x\\n\",null]}}"))
        .collect();
    let document = format!("{{{}}}", entries.join(","));
    let (result, _) = set_from_json(document.as_bytes());
    assert!(result.is_ok(), "{result:?}");
    let values = format!(
        "[{}]",
        vec!["{\"a\":\"\\u00e9\",\"b\":-1e-3}"; 200_000].join(",")
    );
    assert!(Value::from_json_floats(values.as_bytes()).is_ok());
    let long_string = format!("\"{}\\n{}\"", "a".repeat(2_000_000), "b".repeat(2_000_000));
    assert!(Value::from_json_floats(long_string.as_bytes()).is_ok());
}
