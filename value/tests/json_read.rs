//! `Value::from_json_floats` against Go's `value.FromJSON`: every expectation here was printed
//! by Go (structured-merge-diff v6.4.2 over json-iterator v1.1.12).

use smd_value::Value;

/// Number texts and Go's reading of each, made by `data/gen_jsoniter_floats.go`.
const FLOATS: &str = include_str!("data/jsoniter_floats.txt");

/// The escaping of the Go side: `\\`, printable ASCII, `\xNN`.
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

/// Go's side prints floats by their bits and maps with sorted keys.
fn dump(value: &Value) -> String {
    match value {
        Value::Null => "n".to_owned(),
        Value::Bool(b) => if *b { "t" } else { "f" }.to_owned(),
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

#[test]
fn floats_match_go_bit_for_bit() {
    let mut failures = Vec::new();
    let mut count = 0;
    for line in FLOATS.lines() {
        let (input, expected) = line.split_once('\t').unwrap_or((line, ""));
        let input = unescape(input);
        let got = match Value::from_json_floats(&input) {
            Ok(Value::Float(f)) => format!("OK\t{:016x}", f.to_bits()),
            Ok(other) => format!("OK\t{other:?}"),
            Err(e) => format!("ERR\t{}", escape(e.message().as_bytes())),
        };
        if got != expected {
            failures.push(format!(
                "{:?}: got {got:?}, Go {expected:?}",
                escape(&input)
            ));
        }
        count += 1;
    }
    assert!(count > 9000, "only {count} lines");
    assert!(
        failures.is_empty(),
        "{} of {count} differ:\n{}",
        failures.len(),
        failures
            .iter()
            .take(30)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n")
    );
}

/// `value/value_test.go TestFromJSONValid`: the inputs and what Go reads them as.
#[test]
fn valid_documents_read_as_go_reads_them() {
    for (name, input, expected) in FROM_JSON_VALID {
        let got = Value::from_json_floats(input).map(|v| dump(&v));
        assert_eq!(got.as_deref(), Ok(*expected), "{name}");
    }
}

/// Go's exponent stops growing at five digits, so a long run of zeros is not made up for.
#[test]
fn exponent_digits_stop_counting_as_in_go() {
    // Go reads this as 0 (the true value is 1e9); checked with value.FromJSON.
    let text = format!("0.{}1e100000", "0".repeat(99_990));
    let got = Value::from_json_floats(text.as_bytes()).map(|v| v.as_f64());
    assert_eq!(got, Ok(Some(0.0)));
}

const FROM_JSON_VALID: &[(&str, &[u8], &str)] = &[
    ("bareNull", b"null", "n"),
    ("bareTrue", b"true", "t"),
    ("bareFalse", b"false", "f"),
    ("bareNumber", b"42", "d4045000000000000"),
    ("bareString", b"\"x\"", "s\"x\""),
    ("bareEmptyString", b"\"\"", "s\"\""),
    ("bareEmptyObject", b"{}", "{}"),
    ("bareEmptyArray", b"[]", "[]"),
    ("leadingSpaceBeforeNumber", b"  42", "d4045000000000000"),
    ("leadingTabBeforeBool", b"\ttrue", "t"),
    ("leadingNewlineBeforeString", b"\n\"x\"", "s\"x\""),
    ("leadingMixedBeforeObject", b" \t\n{\"a\":1}", "{\"a\":d3ff0000000000000}"),
    ("leadingMixedBeforeArray", b" \t\n[1,2]", "[d3ff0000000000000,d4000000000000000]"),
    ("leadingMixedBeforeNull", b" \t\nnull", "n"),
    ("trailingSpaceAfterNumber", b"42  ", "d4045000000000000"),
    ("trailingTabAfterBool", b"false\t", "f"),
    ("trailingNewlineAfterString", b"\"x\"\n", "s\"x\""),
    ("trailingMixedAfterObject", b"{\"a\":1} \t\n", "{\"a\":d3ff0000000000000}"),
    ("trailingMixedAfterArray", b"[1,2] \t\n\r", "[d3ff0000000000000,d4000000000000000]"),
    ("surroundingWhitespace", b" \t\n {\"a\":1} \t\n", "{\"a\":d3ff0000000000000}"),
    ("surroundingWhitespaceAroundNull", b" null ", "n"),
    ("surroundingWhitespaceAroundBool", b" true ", "t"),
    ("multiByteLatin", b"{\"I\xc3\xb1t\xc3\xabrn\xc3\xa2ti\xc3\xb4n\xc3\xa0liz\xc3\xa6ti\xc3\xb8n\":1}", "{\"I\\xc3\\xb1t\\xc3\\xabrn\\xc3\\xa2ti\\xc3\\xb4n\\xc3\\xa0liz\\xc3\\xa6ti\\xc3\\xb8n\":d3ff0000000000000}"),
    ("cyrillic", b"{\"\xd0\x97\xd0\xb4\xd1\x80\xd0\xb0\xd0\xb2\xd1\x81\xd1\x82\xd0\xb2\xd1\x83\xd0\xb9\xd1\x82\xd0\xb5\":1}", "{\"\\xd0\\x97\\xd0\\xb4\\xd1\\x80\\xd0\\xb0\\xd0\\xb2\\xd1\\x81\\xd1\\x82\\xd0\\xb2\\xd1\\x83\\xd0\\xb9\\xd1\\x82\\xd0\\xb5\":d3ff0000000000000}"),
    ("unifiedChars", b"{\"\xe3\x81\x93\xe3\x82\x93\xe3\x81\xab\xe3\x81\xa1\xe3\x81\xaf\xe4\xb8\x96\xe7\x95\x8c\":1}", "{\"\\xe3\\x81\\x93\\xe3\\x82\\x93\\xe3\\x81\\xab\\xe3\\x81\\xa1\\xe3\\x81\\xaf\\xe4\\xb8\\x96\\xe7\\x95\\x8c\":d3ff0000000000000}"),
    ("multiByteUnicode", b"{\"\xf0\x9f\x98\x82\xf0\x9f\x92\x9d\xf0\x9f\x90\xb9\xf0\x9f\x8c\x87\xe2\x9b\x94\":1}", "{\"\\xf0\\x9f\\x98\\x82\\xf0\\x9f\\x92\\x9d\\xf0\\x9f\\x90\\xb9\\xf0\\x9f\\x8c\\x87\\xe2\\x9b\\x94\":d3ff0000000000000}"),
    ("escapedAsciiKey", b"{\"\\u0041\":1}", "{\"A\":d3ff0000000000000}"),
    ("escapedLatin", b"{\"\\u00c5\":1}", "{\"\\xc3\\x85\":d3ff0000000000000}"),
    ("escapedMultiBytePair", b"{\"\\uD83D\\uDE02\":1}", "{\"\\xf0\\x9f\\x98\\x82\":d3ff0000000000000}"),
    ("byteOrderMark", b"{\"\xff\xfe\": 1}", "{\"\\xef\\xbf\\xbd\\xef\\xbf\\xbd\":d3ff0000000000000}"),
];
