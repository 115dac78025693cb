//! The reader against Go on the generated corpus `value/tests/data/jsoniter_cases.txt`
//! (random and mutated JSON, `fieldsV1` documents and path-element keys, and tokens placed
//! across json-iterator's 4096-byte buffer boundary), made by `gen_jsoniter_cases.go` next to
//! it; the generator's header describes the format.

use std::borrow::Cow;

use super::{
    PathElementError, Reader, SET_FROM_JSON_BUFFER, escape, offset_agrees, path_element,
    path_element_dump, set_from_json,
};
use crate::{Error, Value};

const CASES: &str = include_str!("../../../../tests/data/jsoniter_cases.txt");

/// What Go printed for one input: `OK` and a payload, or `ERR`, the offset, the message; then
/// a trace for the modes that have one.
struct Expected<'t> {
    ok: bool,
    offset: Option<usize>,
    text: &'t str,
    trace: &'t str,
}

fn parse_line(line: &str) -> Option<(&str, Vec<u8>, Expected<'_>)> {
    let mut fields = line.split('\t');
    let mode = fields.next()?;
    let input = unescape(fields.next()?);
    let expected = match fields.next()? {
        "OK" => Expected {
            ok: true,
            offset: None,
            text: fields.next().unwrap_or(""),
            trace: "",
        },
        _ => Expected {
            ok: false,
            offset: fields.next()?.parse().ok(),
            text: fields.next()?,
            trace: fields.next().unwrap_or(""),
        },
    };
    Some((mode, input, expected))
}

fn unescape(text: &str) -> Vec<u8> {
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    let mut at = 0;
    while at < bytes.len() {
        match (bytes[at], bytes.get(at + 1)) {
            (b'\\', Some(b'\\')) => {
                out.push(b'\\');
                at += 2;
            }
            (b'\\', _) => {
                let hex = text.get(at + 2..at + 4).unwrap_or("");
                out.push(u8::from_str_radix(hex, 16).unwrap_or(b'?'));
                at += 4;
            }
            (b, _) => {
                out.push(b);
                at += 1;
            }
        }
    }
    out
}

/// What the reader says, in the oracle's words: (ok, payload or message, error, trace).
struct Outcome {
    payload: Result<String, Error>,
    trace: String,
    /// Where Go's buffer may have started when it reported the error (a position at the end of
    /// one buffer is also the start of the next).
    buffer_starts: [usize; 2],
}

fn outcome(mode: &str, input: &[u8]) -> Outcome {
    let plain = |payload, trace| Outcome {
        payload,
        trace,
        buffer_starts: [0, 0],
    };
    match mode {
        "value" => plain(
            Value::from_json_floats(input).map(|v| super::dump(&v)),
            String::new(),
        ),
        "pe" => plain(
            match path_element(input) {
                Ok(element) => Ok(path_element_dump(&element)),
                Err(PathElementError::Failed(e)) => Err(e),
                Err(PathElementError::Unknown) => Err(Error::new(
                    crate::ErrorKind::Json,
                    "unknown path element type",
                    crate::Location::Unknown,
                )),
            },
            String::new(),
        ),
        "set" => {
            let (result, trace) = set_from_json(input);
            let at = match result.as_ref().map_err(Error::location) {
                Err(crate::Location::Byte(at)) => at,
                _ => 0,
            };
            let buffer = SET_FROM_JSON_BUFFER;
            Outcome {
                payload: result.map(|()| String::new()),
                trace,
                buffer_starts: [at / buffer * buffer, at.saturating_sub(1) / buffer * buffer],
            }
        }
        "skip" | "skipstream" => {
            let mut reader = if mode == "skip" {
                Reader::new(input)
            } else {
                Reader::buffered(input, SET_FROM_JSON_BUFFER)
            };
            reader.skip();
            let payload = match reader.error() {
                Some(e) => Err(e.clone()),
                None => Ok(reader.at_eof().to_string()),
            };
            plain(payload, String::new())
        }
        _ => {
            let mut reader = Reader::new(input);
            let mut keys = Vec::new();
            let callback = |reader: &mut Reader<'_>, key: Cow<'_, [u8]>| {
                keys.push(escape(&key));
                reader.skip();
                true
            };
            let verdict = if mode == "objkeys" {
                reader.read_object_cb(callback)
            } else {
                reader.read_map_cb(callback)
            };
            let trace = format!("{verdict} [{}]", keys.join(","));
            match reader.error() {
                Some(e) => plain(Err(e.clone()), trace),
                None => plain(Ok(trace), String::new()),
            }
        }
    }
}

/// A disagreement with Go, described; `None` when there is none.
fn disagreement(mode: &str, input: &[u8], expected: &Expected<'_>) -> Option<String> {
    let got = outcome(mode, input);
    let what = format!("{mode} {:?}", escape(input));
    match (&got.payload, expected.ok) {
        (Ok(payload), true) => {
            let trace_ok = mode != "set" || got.trace == expected.text;
            let payload_ok = mode == "set" || *payload == expected.text;
            (!trace_ok || !payload_ok).then(|| {
                format!(
                    "{what}: got {payload:?} {:?}, Go {:?}",
                    got.trace, expected.text
                )
            })
        }
        (Err(e), false) => {
            let message = escape(e.message().as_bytes());
            if message != expected.text || got.trace != expected.trace {
                Some(format!(
                    "{what}: got {message:?} {:?}, Go {:?} {:?}",
                    got.trace, expected.text, expected.trace
                ))
            } else if !got
                .buffer_starts
                .iter()
                .any(|&start| offset_agrees(e, expected.offset, start))
            {
                Some(format!(
                    "{what}: at {:?}, Go #{:?}",
                    e.location(),
                    expected.offset
                ))
            } else {
                None
            }
        }
        (Ok(payload), false) => Some(format!(
            "{what}: accepted ({payload}), Go {:?}",
            expected.text
        )),
        (Err(e), true) => Some(format!("{what}: {:?}, Go accepts", e.message())),
    }
}

#[test]
fn reader_agrees_with_go_on_the_corpus() {
    let mut failures = Vec::new();
    let mut count = 0;
    for line in CASES.lines() {
        count += 1;
        match parse_line(line) {
            Some((mode, input, expected)) => {
                failures.extend(disagreement(mode, &input, &expected));
            }
            None => failures.push(format!("unreadable line {count}")),
        }
    }
    assert!(count > 3000, "only {count} cases");
    assert!(
        failures.is_empty(),
        "{} of {count} disagree:\n{}",
        failures.len(),
        failures
            .iter()
            .take(25)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n")
    );
}
