//! The YAML reader against yaml.v2's behaviour (each expectation below was checked against
//! go.yaml.in/yaml/v2 v2.4.2 decoding into `interface{}`, keys turned into strings as
//! sigs.k8s.io/yaml does), and its limits and errors.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "a test: failures must stop it loudly"
)]

use smd_value::{Error, ErrorKind, Location, MAX_DEPTH, Value, yaml};

/// A value as text: `null`, `true`, `8` (int), `8.0` / `1e21` / `NaN` (float, Rust's `{:?}`),
/// `"s"`, `[a, b]`, `{"k": v}` in the map's order. (`Value`'s `PartialEq` is not used here.)
fn canon(v: &Value) -> String {
    match v {
        Value::Null => "null".to_owned(),
        Value::Bool(b) => b.to_string(),
        Value::Int(i) => i.to_string(),
        Value::Float(f) => format!("{f:?}"),
        Value::String(s) => format!("{s:?}"),
        Value::List(items) => {
            let items: Vec<String> = items.iter().map(canon).collect();
            format!("[{}]", items.join(", "))
        }
        Value::Map(map) => {
            let entries: Vec<String> = map
                .iter()
                .map(|(k, v)| format!("{k:?}: {}", canon(v)))
                .collect();
            format!("{{{}}}", entries.join(", "))
        }
    }
}

/// The start of an input, for messages.
fn short(input: &str) -> String {
    let mut s: String = input.chars().take(80).collect();
    if s.len() < input.len() {
        s.push('…');
    }
    format!("{s:?}")
}

/// The start of a value's text, for messages.
fn short_value(v: &Value) -> String {
    canon(v).chars().take(80).collect()
}

#[track_caller]
fn ok(input: &str, expected: &str) {
    match yaml::from_str(input) {
        Ok(v) => assert!(
            canon(&v) == expected,
            "input {}: got {}",
            short(input),
            canon(&v)
        ),
        Err(e) => panic!("input {}: unexpected error {e}", short(input)),
    }
}

#[track_caller]
fn err(input: &str) -> Error {
    match yaml::from_str(input) {
        Ok(v) => panic!(
            "input {}: expected an error, got {}",
            short(input),
            short_value(&v)
        ),
        Err(e) => e,
    }
}

/// The line and column of an error.
fn at(e: &Error) -> (usize, usize) {
    match e.location() {
        Location::Text { line, column, .. } => (line, column),
        other => panic!("error {e} has no text location: {other:?}"),
    }
}

#[track_caller]
fn check_err(input: &str, kind: ErrorKind, line: usize, column: usize, message: &str) {
    let e = err(input);
    assert_eq!(e.kind(), kind, "input {input:?}: {e}");
    assert_eq!(at(&e), (line, column), "input {input:?}: {e}");
    assert!(
        e.message().contains(message),
        "input {input:?}: message {:?} lacks {message:?}",
        e.message()
    );
}

// --- scalars ---------------------------------------------------------------------------------

/// Plain scalars, resolved as yaml.v2's `resolve.go` does.
const SCALARS: &[(&str, &str)] = &[
    // Booleans: exactly these spellings.
    (
        "[y, Y, yes, Yes, YES, true, True, TRUE, on, On, ON]",
        "[true, true, true, true, true, true, true, true, true, true, true]",
    ),
    (
        "[n, N, no, No, NO, false, False, FALSE, off, Off, OFF]",
        "[false, false, false, false, false, false, false, false, false, false, false]",
    ),
    (
        "[yEs, tRUE, oN, oFF, nO, fALSE, t, f, ye, enable]",
        r#"["yEs", "tRUE", "oN", "oFF", "nO", "fALSE", "t", "f", "ye", "enable"]"#,
    ),
    // Null.
    ("[~, null, Null, NULL, ]", "[null, null, null, null]"),
    (
        "[nULL, nul, nil, None, '~', \"null\", '']",
        r#"["nULL", "nul", "nil", "None", "~", "null", ""]"#,
    ),
    ("a:\nb: \nc: \"\"", r#"{"a": null, "b": null, "c": ""}"#),
    // Ints: Go's ParseInt(s, 0, 64) after removing underscores.
    ("[0, -0, +0, 1, +1, -1, 42]", "[0, 0, 0, 1, 1, -1, 42]"),
    ("[010, 0777, 00, -010, 0o10, 0O10]", "[8, 511, 0, -8, 8, 8]"),
    (
        "[0x10, 0xff, 0XFF, -0x10, +0x1F]",
        "[16, 255, 255, -16, 31]",
    ),
    ("[0b101, -0b101, 0B11]", "[5, -5, 3]"),
    (
        "[1_000, 1_0_0_0, 1_, 0x_1f, +_1, 1__0]",
        "[1000, 1000, 1, 31, 1, 10]",
    ),
    (
        "[9223372036854775807, -9223372036854775808]",
        "[9223372036854775807, -9223372036854775808]",
    ),
    (
        "[0x, 0b, 0b2, 0o8, _1, 1_000x]",
        r#"["0x", "0b", "0b2", "0o8", "_1", "1_000x"]"#,
    ),
    // Floats.
    (
        "[1e3, 1E3, 1.5e-7, 6.02e+23, -2e-2, 1_0e1_0]",
        "[1000.0, 1000.0, 1.5e-7, 6.02e23, -0.02, 100000000000.0]",
    ),
    (
        "[1.0, 1., .5, -.5, +.5, 0.0, -0.0, 1_000.5]",
        "[1.0, 1.0, 0.5, -0.5, 0.5, 0.0, -0.0, 1000.5]",
    ),
    ("[08, 09, 0778, 00.5]", "[8.0, 9.0, 778.0, 0.5]"),
    (
        "[.inf, .Inf, .INF, +.inf, +.Inf, +.INF]",
        "[inf, inf, inf, inf, inf, inf]",
    ),
    ("[-.inf, -.Inf, -.INF]", "[-inf, -inf, -inf]"),
    ("[.nan, .NaN, .NAN]", "[NaN, NaN, NaN]"),
    (
        "[.Nan, .iNF, inf, nan, NaN, Infinity, -inf, .]",
        r#"[".Nan", ".iNF", "inf", "nan", "NaN", "Infinity", "-inf", "."]"#,
    ),
    // Go's ParseFloat takes `_` between digits, when no underscore was removed first.
    ("[.5_0, ._5, .5_, .e5]", r#"[0.5, "._5", ".5_", ".e5"]"#),
    // Out of float64 range: a string; underflow: zero.
    (
        "[1e400, -1e400, .1e400, 1e-400]",
        r#"["1e400", "-1e400", ".1e400", 0.0]"#,
    ),
    // Beyond int64: signed or beyond uint64 decimal is a float; hex beyond uint64 a string.
    (
        "[-9223372036854775809, +9223372036854775808, 18446744073709551616]",
        "[-9.223372036854776e18, 9.223372036854776e18, 1.8446744073709552e19]",
    ),
    (
        "[0x10000000000000000, 0b11111111111111111111111111111111111111111111111111111111111111111]",
        r#"["0x10000000000000000", "0b11111111111111111111111111111111111111111111111111111111111111111"]"#,
    ),
    (
        "[1.2.3, 1e, e3, 0x1p3, 1,5, 190:20:30, 1:30]",
        r#"["1.2.3", "1e", "e3", "0x1p3", 1, 5, "190:20:30", "1:30"]"#,
    ),
    // Timestamps stay strings.
    (
        "[2001-12-14, 2001-12-15T02:59:43.1Z, 2001-12-14 21:59:43.10 -5, 2001-12-14t21:59:43.10-05:00]",
        r#"["2001-12-14", "2001-12-15T02:59:43.1Z", "2001-12-14 21:59:43.10 -5", "2001-12-14t21:59:43.10-05:00"]"#,
    ),
    // Other plain text, and what looks like a merge key outside a key.
    (
        "[a b, 'c', \"d\", -x, <<, http://x:8080/a#frag]",
        r#"["a b", "c", "d", "-x", "<<", "http://x:8080/a#frag"]"#,
    ),
];

#[test]
fn plain_scalars_resolve_as_yaml_v2() {
    for (input, expected) in SCALARS {
        ok(input, expected);
    }
}

#[test]
fn quoted_and_block_scalars_are_strings() {
    ok(
        r#"["1", '010', "0x10", "1e3", '~', "", '.inf', "true", 'n']"#,
        r#"["1", "010", "0x10", "1e3", "~", "", ".inf", "true", "n"]"#,
    );
    ok(
        r#""tab\there \u00e9 \x41 \U0001F600 \\ \" \N \_ \L \P \0 \e""#,
        "\"tab\\there é A 😀 \\\\ \\\" \\u{85} \\u{a0} \\u{2028} \\u{2029} \\0 \\u{1b}\"",
    );
    ok("'it''s \\n not an escape'", r#""it's \\n not an escape""#);
    ok("a: one\n  two\n\n  three\n", r#"{"a": "one two\nthree"}"#);
    ok(
        "a: |\n  line1\n   indented\n  line3\n\nb: x\n",
        r#"{"a": "line1\n indented\nline3\n", "b": "x"}"#,
    );
    ok(
        "a: |-\n  line1\n  line2\n\n\nb: x\n",
        r#"{"a": "line1\nline2", "b": "x"}"#,
    );
    ok(
        "a: |+\n  line1\n\n\nb: x\n",
        r#"{"a": "line1\n\n\n", "b": "x"}"#,
    );
    ok(
        "a: >\n  one\n  two\n\n  three\n    more indented\n  four\n",
        r#"{"a": "one two\nthree\n  more indented\nfour\n"}"#,
    );
    ok(
        "a: |2\n    four spaces\n  two spaces\n",
        r#"{"a": "  four spaces\ntwo spaces\n"}"#,
    );
    // As libyaml: no line break is added after a last line without one.
    ok("key: |\n  text", r#"{"key": "text"}"#);
    ok(
        "url: http://x:8080/a#frag\nb: c#d\nc: e # comment\n",
        r#"{"url": "http://x:8080/a#frag", "b": "c#d", "c": "e"}"#,
    );
    ok("a: b\tc\nd:\te\n", r#"{"a": "b\tc", "d": "e"}"#);
}

// --- tags ------------------------------------------------------------------------------------

#[test]
fn tags_as_yaml_v2_decodes_them() {
    ok(
        "[!!str 1, !!str true, !!str ~, !!str 010, !!str]",
        r#"["1", "true", "~", "010", ""]"#,
    );
    ok("[!!int \"3\", !!int '0x10', !!int 1_0]", "[3, 16, 10]");
    ok(
        "[!!float 1, !!float '2', !!float .nan, !!float 99999999999999999999]",
        "[1.0, 2.0, NaN, 1e20]",
    );
    ok(
        "[!!bool \"yes\", !!bool 'off', !!bool True]",
        "[true, false, true]",
    );
    ok(
        "[!!null '', !!null ~, !!null null, !!null]",
        "[null, null, null, null]",
    );
    ok(
        "[!!timestamp 2001-12-14, !!timestamp '2001-12-14T21:59:43.10-05:00', !!timestamp 2000-02-29]",
        r#"["2001-12-14", "2001-12-14T21:59:43.10-05:00", "2000-02-29"]"#,
    );
    ok(
        "[!!binary aGVsbG8=, !!binary '', !!binary \"Zg==\", !!binary Zh==]",
        r#"["hello", "", "f", "f"]"#,
    );
    ok("a: !!binary |\n  aGVs\n  bG8=\n", r#"{"a": "hello"}"#);
    // Unknown tags, the non-specific tag and `!!merge` on a value: the text, a string.
    ok(
        "[!foo bar, ! 10, !!python/str x, !!merge x, !<tag:example.com,2000:x> 1]",
        r#"["bar", "10", "x", "x", "1"]"#,
    );
    // Any spelling of the core tags.
    ok(
        "[!<tag:yaml.org,2002:int> '5', !<tag:yaml.org,2002:str> 5]",
        r#"[5, "5"]"#,
    );
    ok("%TAG !e! tag:yaml.org,2002:\n---\n!e!int '7'\n", "7");
    // Tags on maps and lists are ignored.
    ok(
        "[!!map {a: 1}, !!seq [1], !!map [1], !!str [1], !!int {a: 1}]",
        r#"[{"a": 1}, [1], [1], [1], {"a": 1}]"#,
    );
}

#[test]
fn tag_mismatches_are_errors() {
    let cases: &[(&str, usize, usize, &str)] = &[
        ("!!int 1.5", 1, 7, "cannot decode !!float `1.5` as a !!int"),
        (
            "a: !!int abc",
            1,
            10,
            "cannot decode !!str `abc` as a !!int",
        ),
        ("- !!int ''", 1, 9, "cannot decode !!null `` as a !!int"),
        ("!!bool 1", 1, 8, "cannot decode !!int `1` as a !!bool"),
        ("!!null foo", 1, 8, "cannot decode !!str `foo` as a !!null"),
        (
            "!!float abc",
            1,
            9,
            "cannot decode !!str `abc` as a !!float",
        ),
        (
            "!!float 0xFFFFFFFFFFFFFFFF",
            1,
            9,
            "cannot decode !!int `0xFFFFFFFFFFFFFFFF` as a !!float",
        ),
        (
            "!!int 99999999999999999999",
            1,
            7,
            "cannot decode !!float `99999999999999999999` as a !!int",
        ),
        (
            "!!timestamp foo",
            1,
            13,
            "cannot decode !!str `foo` as a !!timestamp",
        ),
        (
            "!!timestamp 2001-02-29",
            1,
            13,
            "cannot decode !!str `2001-02-29` as a !!timestamp",
        ),
        (
            "!!int 2001-12-14",
            1,
            7,
            "cannot decode !!str `2001-12-14` as a !!int",
        ),
        (
            "x: !!binary aGVsbG8",
            1,
            13,
            "!!binary value contains invalid base64 data",
        ),
        (
            "x: !!binary 'Zm9v YmFy'",
            1,
            13,
            "!!binary value contains invalid base64 data",
        ),
        (
            "x: !!binary Zm9=v",
            1,
            13,
            "!!binary value contains invalid base64 data",
        ),
        // yaml.v2 would give a string of these bytes; a string here is UTF-8.
        ("x: !!binary gIGC", 1, 13, "not valid UTF-8"),
    ];
    for &(input, line, column, message) in cases {
        check_err(input, ErrorKind::Yaml, line, column, message);
    }
}

// --- integers beyond int64 -------------------------------------------------------------------

#[test]
fn uint64_integers_are_refused_with_their_position() {
    check_err(
        "9223372036854775808",
        ErrorKind::Yaml,
        1,
        1,
        "integer `9223372036854775808` is out of range for int64",
    );
    check_err(
        "spec:\n  big: 18446744073709551615\n",
        ErrorKind::Yaml,
        2,
        8,
        "out of range for int64",
    );
    check_err(
        "[1, 0xffffffffffffffff]",
        ErrorKind::Yaml,
        1,
        5,
        "`0xffffffffffffffff` is out of range",
    );
    check_err(
        "!!int 0x8000000000000000",
        ErrorKind::Yaml,
        1,
        7,
        "out of range for int64",
    );
    check_err(
        "9223372036854775808: x",
        ErrorKind::Yaml,
        1,
        1,
        "out of range for int64",
    );
    check_err(
        "a: 1_8446_7440_7370_9551_615",
        ErrorKind::Yaml,
        1,
        4,
        "out of range for int64",
    );
}

// --- maps and keys ---------------------------------------------------------------------------

#[test]
fn keys_become_strings_as_sigs_k8s_io_yaml_makes_them() {
    ok(
        "1: a\n0x10: b\n010: c\n-5: d",
        r#"{"1": "a", "16": "b", "8": "c", "-5": "d"}"#,
    );
    ok(
        "true: a\nno: b\non: c\ny: d",
        r#"{"true": "d", "false": "b"}"#,
    );
    // sigs.k8s.io/yaml refuses null keys; so does smd, saying where.
    check_err("~: a", ErrorKind::Yaml, 1, 1, "a null key is not supported");
    check_err(
        "x: 1\nnull: b",
        ErrorKind::Yaml,
        2,
        1,
        "a null key is not supported",
    );
    check_err(
        "? \n: a",
        ErrorKind::Yaml,
        2,
        1,
        "a null key is not supported",
    );
    // Floats: Go's FormatFloat(f, 'g', -1, 32).
    ok(
        "1.5: a\n0.1: b\n1e3: c\n1.0: d\n123456789.0: e\n1e21: f\n0.000001: g\n1e-7: h\n0.0001: i\n1234567.0: j\n123456.0: k",
        r#"{"1.5": "a", "0.1": "b", "1000": "c", "1": "d", "1.2345679e+08": "e", "1e+21": "f", "1e-06": "g", "1e-07": "h", "0.0001": "i", "1.234567e+06": "j", "123456": "k"}"#,
    );
    // float32 rounding, ties to an even digit (177490.125 is a float32), out of float32 range.
    ok(
        "177490.12430841662: a\n3.4e39: b\n-3.4e39: c\n.inf: d\n-.Inf: e\n.nan: f\n-0.0: g",
        r#"{"177490.12": "a", ".inf": "d", "-.inf": "e", ".nan": "f", "-0": "g"}"#,
    );
    // Keys that are equal as strings are one key: the last value wins.
    ok("1: a\n'1': b", r#"{"1": "b"}"#);
    // Timestamps, quoted keys.
    ok(
        "2001-12-14: a\n\"yes\": b\n'null': c\n\"1\": d",
        r#"{"2001-12-14": "a", "yes": "b", "null": "c", "1": "d"}"#,
    );
    // An alias to a scalar as a key.
    ok("a: &k 10\n*k : b", r#"{"a": 10, "10": "b"}"#);
    ok(
        "é: ü\n\"key with spaces\": 1\n\"\": empty key",
        r#"{"é": "ü", "key with spaces": 1, "": "empty key"}"#,
    );
}

#[test]
fn complex_keys_are_errors() {
    check_err(
        "{[1]: 2}",
        ErrorKind::Yaml,
        1,
        2,
        "invalid map key: a list cannot be a map key",
    );
    check_err(
        "? {a: 1}\n: 2",
        ErrorKind::Yaml,
        1,
        3,
        "invalid map key: a map cannot be a map key",
    );
    check_err(
        "a: &x [1]\n*x : 2",
        ErrorKind::Yaml,
        2,
        1,
        "invalid map key: a list cannot be a map key",
    );
    check_err(
        "[1, 2]: x",
        ErrorKind::Yaml,
        1,
        1,
        "invalid map key: a list cannot be a map key",
    );
}

#[test]
fn duplicate_keys_keep_the_last_value_in_the_first_place() {
    ok("a: 1\nb: 2\na: 3", r#"{"a": 3, "b": 2}"#);
    ok("{a: 1, b: 2, a: 3}", r#"{"a": 3, "b": 2}"#);
    ok("a: {x: 1}\na: [2]", r#"{"a": [2]}"#);
}

#[test]
fn merge_keys() {
    // Explicit keys after the `<<` override merged ones; merged ones override keys before it.
    ok(
        "base: &b {x: 1, w: 2}\nderived:\n  <<: *b\n  w: 3",
        r#"{"base": {"x": 1, "w": 2}, "derived": {"x": 1, "w": 3}}"#,
    );
    ok("a: 1\n<<: {a: 2, b: 3}", r#"{"a": 2, "b": 3}"#);
    ok("<<: {a: 2, b: 3}\na: 1", r#"{"a": 1, "b": 3}"#);
    // In a sequence, earlier maps win.
    ok(
        "one: &one {x: 1, z: 1}\ntwo: &two {x: 2, w: 2}\nboth:\n  <<: [*one, *two]",
        r#"{"one": {"x": 1, "z": 1}, "two": {"x": 2, "w": 2}, "both": {"x": 1, "z": 1, "w": 2}}"#,
    );
    ok(
        "a: &a {x: 1}\nb:\n  <<: [*a, {x: 2, y: 3}]",
        r#"{"a": {"x": 1}, "b": {"x": 1, "true": 3}}"#,
    );
    // Later merges override earlier ones; merges nest.
    ok(
        "a: &a {x: 1}\nb:\n  <<: *a\n  <<: {x: 2}",
        r#"{"a": {"x": 1}, "b": {"x": 2}}"#,
    );
    ok("<<: {<<: {a: 1}, b: 2}", r#"{"a": 1, "b": 2}"#);
    ok(
        "a: &a {<<: {x: 1}, k: 2}\nb:\n  <<: *a\n  z: 3",
        r#"{"a": {"x": 1, "k": 2}, "b": {"x": 1, "k": 2, "z": 3}}"#,
    );
    ok("{<<: {a: 1}, b: 2}", r#"{"a": 1, "b": 2}"#);
    // `!!merge` makes any `<<` a merge key; a quoted one is an ordinary key.
    ok("!!merge '<<': {a: 1}", r#"{"a": 1}"#);
    ok("'<<': {a: 1}", r#"{"<<": {"a": 1}}"#);
    ok("\"<<\": 1\n<<: {b: 2}", r#"{"<<": 1, "b": 2}"#);
}

#[test]
fn merge_errors() {
    let message = "map merge requires map or sequence of maps as the value";
    check_err("<<: 1", ErrorKind::Yaml, 1, 5, message);
    check_err("<<:", ErrorKind::Yaml, 1, 3, message);
    check_err("<<: [{a: 1}, 2]", ErrorKind::Yaml, 1, 14, message);
    check_err("<<: [{a: 1}, [{b: 2}]]", ErrorKind::Yaml, 1, 14, message);
    check_err("a: &a 1\nb:\n  <<: *a", ErrorKind::Yaml, 3, 7, message);
    // An alias to a sequence of maps is not a sequence of maps written out.
    check_err(
        "a: &a [{x: 1}]\nb:\n  <<: *a",
        ErrorKind::Yaml,
        3,
        7,
        message,
    );
}

// --- anchors and aliases ---------------------------------------------------------------------

#[test]
fn anchors_and_aliases() {
    ok(
        "a: &x [1, 2]\nb: *x\nc: &s hello\nd: *s",
        r#"{"a": [1, 2], "b": [1, 2], "c": "hello", "d": "hello"}"#,
    );
    // The last definition before the alias counts, even inside the node that first had the name.
    ok("&a [&a 1, *a]", "[1, 1]");
    ok("- &a 1\n- &a 2\n- *a", "[1, 2, 2]");
    // An anchor on a key; an empty anchored value.
    ok("&a a: b\nc: *a", r#"{"a": "b", "c": "a"}"#);
    ok("a: &a\nb: *a", r#"{"a": null, "b": null}"#);
    // Aliases copy resolved values.
    ok(
        "a: &n 010\nb: *n\nc: &m {k: [1, {z: y}]}\nd: *m",
        r#"{"a": 8, "b": 8, "c": {"k": [1, {"z": true}]}, "d": {"k": [1, {"z": true}]}}"#,
    );
    // Anchors that no alias uses cost nothing and change nothing.
    ok(
        "a: &unused {b: 1}\nstar: '*'",
        r#"{"a": {"b": 1}, "star": "*"}"#,
    );
}

#[test]
fn alias_errors() {
    check_err(
        "a: *nope",
        ErrorKind::Yaml,
        1,
        4,
        "found an alias to an unknown anchor `nope`",
    );
    check_err(
        "a: &a [*a]",
        ErrorKind::Yaml,
        1,
        8,
        "alias to anchor `a` inside the value it anchors",
    );
    check_err(
        "a: &a {b: *a}",
        ErrorKind::Yaml,
        1,
        11,
        "inside the value it anchors",
    );
    // Anchors do not reach into the next document.
    let e = yaml::documents("- &a 1\n---\n- *a\n").unwrap_err();
    assert_eq!((e.kind(), at(&e)), (ErrorKind::Yaml, (3, 3)), "{e}");
    assert!(e.message().contains("unknown anchor `a`"), "{e}");
}

// --- documents -------------------------------------------------------------------------------

#[test]
fn empty_inputs_are_null() {
    for input in [
        "",
        "\n\n",
        "# nothing here\n# at all\n",
        "   ",
        "---",
        "--- ~",
        "---\n...\n",
        "--- # c\n",
    ] {
        ok(input, "null");
    }
}

#[test]
fn documents_as_the_yaml_v2_decoder_yields_them() {
    let cases: &[(&str, &str)] = &[
        ("", ""),
        ("# only a comment\n", ""),
        ("---\n", "null"),
        ("---\n---\n", "null | null"),
        ("---\n---\na: 1\n---\n", r#"null | {"a": 1} | null"#),
        ("a: 1\n---\nb: 2\n", r#"{"a": 1} | {"b": 2}"#),
        ("a: 1\n...\n---\nb: 2\n...\n", r#"{"a": 1} | {"b": 2}"#),
        ("a\n...\n...\n", r#""a""#),
        ("--- hello\n--- 3\n--- [yes]\n", r#""hello" | 3 | [true]"#),
        ("%YAML 1.1\n---\na: 1\n", r#"{"a": 1}"#),
        ("--- |\n  x\n", r#""x\n""#),
    ];
    for &(input, expected) in cases {
        let docs = yaml::documents(input).unwrap_or_else(|e| panic!("{input:?}: {e}"));
        let docs: Vec<String> = docs.iter().map(canon).collect();
        assert_eq!(docs.join(" | "), expected, "input {input:?}");
        let bytes = yaml::documents_from_slice(input.as_bytes())
            .unwrap_or_else(|e| panic!("{input:?}: {e}"));
        assert_eq!(bytes.len(), docs.len());
    }
}

#[test]
fn documents_know_their_lines() {
    let text = "# leading comment\na: 1\n---\nb: 2\n--- c\n...\n\n---\n";
    let docs: Vec<(usize, String)> = yaml::Documents::new(text)
        .map(|d| d.map(|d| (d.line, canon(&d.value))))
        .collect::<Result<_, _>>()
        .unwrap();
    assert_eq!(
        docs,
        [
            (2, r#"{"a": 1}"#.to_owned()),
            (3, r#"{"b": 2}"#.to_owned()),
            (5, r#""c""#.to_owned()),
            (8, "null".to_owned())
        ]
    );
}

#[test]
fn one_document_is_expected_by_from_str() {
    check_err(
        "a: 1\n---\nb: 2\n",
        ErrorKind::Yaml,
        2,
        1,
        "a second one starts at line 2",
    );
    check_err(
        "--- a\n--- b\n",
        ErrorKind::Yaml,
        2,
        1,
        "a second one starts at line 2",
    );
    check_err(
        "a: 1\n...\n\n# later\n---\n",
        ErrorKind::Yaml,
        5,
        1,
        "a second one starts at line 5",
    );
    ok("a: 1\n...\n# trailing comment\n", r#"{"a": 1}"#);
}

#[test]
fn a_failing_document_fails_the_stream() {
    let e = yaml::documents("a: 1\n---\n[b\n").unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Yaml);
    assert_eq!(at(&e).0, 3, "{e}");
    // The iterator yields the good documents first.
    let mut docs = yaml::Documents::new("a: 1\n---\n[b\n");
    assert!(docs.next().is_some_and(|d| d.is_ok()));
    assert!(docs.next().is_some_and(|d| d.is_err()));
    assert!(docs.next().is_none());
}

// --- syntax errors ---------------------------------------------------------------------------

#[test]
fn syntax_errors_have_positions() {
    let cases: &[(&str, usize, usize)] = &[
        ("[1, 2", 1, 1),
        ("a: 'abc", 1, 4),
        ("a: \"abc", 1, 4),
        ("a: b: c", 1, 5),
        ("a:\n\tb: 1\n", 2, 2),
        ("a:\n  b: 1\n c: 2\n", 3, 2),
        ("- a\nb: 1", 2, 1),
        ("a: 1\n- b", 2, 3),
        ("{a: 1", 1, 1),
        ("[1, 2]]", 1, 7),
        ("a: \"\\q\"", 1, 4),
    ];
    for &(input, line, column) in cases {
        let e = err(input);
        assert_eq!(e.kind(), ErrorKind::Yaml, "{input:?}: {e}");
        assert_eq!(at(&e), (line, column), "{input:?}: {e}");
        assert!(
            !e.message().is_empty() && e.message().chars().next().is_some_and(char::is_lowercase),
            "{input:?}: {e}"
        );
    }
}

/// Syntax that YAML 1.2 allows and libyaml (so yaml.v2) refuses.
#[test]
fn libyaml_refusals_are_mirrored() {
    check_err(": v", ErrorKind::Yaml, 1, 1, "did not find expected key");
    check_err(
        "a: 1\n: v",
        ErrorKind::Yaml,
        2,
        1,
        "did not find expected key",
    );
    check_err("- : v", ErrorKind::Yaml, 1, 3, "did not find expected key");
    check_err(
        "? : x",
        ErrorKind::Yaml,
        1,
        3,
        "invalid map key: a map cannot be a map key",
    );
    check_err(
        "{a: 1, : 2}",
        ErrorKind::Yaml,
        1,
        8,
        "did not find expected key",
    );
    check_err("[: v]", ErrorKind::Yaml, 1, 2, "did not find expected key");
    check_err(
        "? # explicit, empty\n: v",
        ErrorKind::Yaml,
        2,
        1,
        "a null key is not supported",
    );
    ok("? a\n? b", r#"{"a": null, "b": null}"#);
    check_err(
        r#"a: "a\/b""#,
        ErrorKind::Yaml,
        1,
        4,
        "found unknown escape character `\\/`",
    );
    check_err(
        r#""\uD83D\uDE00""#,
        ErrorKind::Yaml,
        1,
        1,
        "found invalid Unicode character escape code",
    );
    ok(r#""\\/""#, r#""\\/""#);
    check_err(
        "%FOO bar\n--- 1",
        ErrorKind::Yaml,
        1,
        1,
        "found unknown directive name `%FOO`",
    );
    let e = yaml::documents("a\n...\n%BAR x\n---\nb\n").unwrap_err();
    assert_eq!((e.kind(), at(&e)), (ErrorKind::Yaml, (3, 1)), "{e}");
    assert!(e.message().contains("unknown directive name `%BAR`"), "{e}");
    check_err(
        "%YAML 1.2\n---\na: 1",
        ErrorKind::Yaml,
        2,
        1,
        "found incompatible YAML document: %YAML 1.2",
    );
    check_err(
        "...\n",
        ErrorKind::Yaml,
        1,
        1,
        "did not find expected node content",
    );
    check_err(
        "# c\n...\n---\na",
        ErrorKind::Yaml,
        2,
        1,
        "did not find expected node content",
    );
    // A tab where a key may start (line start, after `-` or `?`); after `:` or in flow, fine.
    let token = "found character that cannot start any token";
    check_err("- \ta", ErrorKind::Yaml, 1, 3, token);
    check_err("\t- a", ErrorKind::Yaml, 1, 1, token);
    check_err("a:\n  -\tb", ErrorKind::Yaml, 2, 4, token);
    check_err("? \ta\n: b", ErrorKind::Yaml, 1, 3, token);
    ok("d:\te", r#"{"d": "e"}"#);
    ok("---\tx", r#""x""#);
    ok("{a:\tb, c: [\t1]}", r#"{"a": "b", "c": [1]}"#);
    ok("- &a\tb", r#"["b"]"#);
}

// --- input -----------------------------------------------------------------------------------

#[test]
fn control_characters_are_refused() {
    check_err(
        "a: \"x\"\u{1}",
        ErrorKind::Yaml,
        1,
        7,
        "control characters are not allowed (found U+0001)",
    );
    check_err("a: 1\nb: x\u{7f}y", ErrorKind::Yaml, 2, 5, "U+007F");
    check_err("# \u{0} in a comment", ErrorKind::Yaml, 1, 3, "U+0000");
    check_err("a: 1\r\nb: 2\rc: \u{1}", ErrorKind::Yaml, 3, 4, "U+0001");
    check_err("a: \u{9f}", ErrorKind::Yaml, 1, 4, "U+009F");
    check_err("a: \u{fffe}", ErrorKind::Yaml, 1, 4, "U+FFFE");
    // Allowed: tab, CR, NEL, NBSP, BOM, astral characters; escapes may make any character.
    ok(
        "a: \"\\x01\\0\"\r\nb: \u{85}\u{a0}\u{feff}😀\r\n",
        "{\"a\": \"\\u{1}\\0\", \"b\": \"\\u{85}\\u{a0}\\u{feff}😀\"}",
    );
}

#[test]
fn bytes_must_be_utf8_or_utf16() {
    let e = yaml::from_slice(b"a: 1\nb: \xff\n").unwrap_err();
    assert_eq!(
        (e.kind(), e.location()),
        (
            ErrorKind::Yaml,
            Location::Text {
                line: 2,
                column: 4,
                offset: 8
            }
        ),
        "{e}"
    );
    assert!(e.message().contains("invalid UTF-8"), "{e}");
    let e = yaml::from_slice("é: \u{e9}".as_bytes().get(..5).unwrap_or_default()).unwrap_err();
    assert!(e.message().contains("incomplete UTF-8"), "{e}");
    // A UTF-8 byte-order mark is skipped.
    let v = yaml::from_slice(b"\xef\xbb\xbfa: 1").unwrap();
    assert_eq!(canon(&v), r#"{"a": 1}"#);
    // UTF-16 after its byte-order mark, as yaml.v2 reads it.
    let text = "a: é\nb: [1, 2]\n";
    let le: Vec<u8> = [0xFF, 0xFE]
        .into_iter()
        .chain(text.encode_utf16().flat_map(u16::to_le_bytes))
        .collect();
    let be: Vec<u8> = [0xFE, 0xFF]
        .into_iter()
        .chain(text.encode_utf16().flat_map(u16::to_be_bytes))
        .collect();
    for bytes in [le, be] {
        let v = yaml::from_slice(&bytes).unwrap();
        assert_eq!(canon(&v), r#"{"a": "é", "b": [1, 2]}"#);
    }
    let e = yaml::from_slice(&[0xFF, 0xFE, b'a', 0, 0x00, 0xD8]).unwrap_err();
    assert!(e.message().contains("unpaired surrogate"), "{e}");
    let e = yaml::from_slice(&[0xFF, 0xFE, b'a', 0, b'b']).unwrap_err();
    assert!(e.message().contains("middle of a code unit"), "{e}");
}

#[test]
fn line_ends_and_byte_order_marks() {
    ok("a: 1\r\nb:\r\n  - x\r\n", r#"{"a": 1, "b": ["x"]}"#);
    ok("\u{feff}a: 1", r#"{"a": 1}"#);
    // Inside a document a BOM is content, as in libyaml.
    ok("a: \u{feff}b", "{\"a\": \"\\u{feff}b\"}");
}

// --- limits ----------------------------------------------------------------------------------

#[test]
fn nesting_is_bounded() {
    let deep_ok = format!("{}{}", "[".repeat(MAX_DEPTH), "]".repeat(MAX_DEPTH));
    let v = yaml::from_str(&deep_ok).unwrap();
    let mut depth = 0;
    let mut at = &v;
    while let Some(items) = at.as_list() {
        depth += 1;
        match items.first() {
            Some(next) => at = next,
            None => break,
        }
    }
    assert_eq!(depth, MAX_DEPTH);

    let too_deep = format!("{}{}", "[".repeat(MAX_DEPTH + 1), "]".repeat(MAX_DEPTH + 1));
    check_err(
        &too_deep,
        ErrorKind::Limit,
        1,
        MAX_DEPTH + 1,
        "nest deeper than 1000 levels",
    );
    // 100k brackets fail as fast, in flow or block style.
    check_err(
        &"[".repeat(100_000),
        ErrorKind::Limit,
        1,
        MAX_DEPTH + 1,
        "nest deeper",
    );
    check_err(
        &format!("x: {}", "{".repeat(100_000)),
        ErrorKind::Limit,
        1,
        MAX_DEPTH + 4,
        "nest deeper",
    );
    let e = err(&"- ".repeat(100_000));
    assert_eq!(e.kind(), ErrorKind::Limit, "{e}");
    let block: String = (0..=MAX_DEPTH)
        .map(|i| format!("{}a:\n", " ".repeat(i)))
        .collect();
    let e = err(&block);
    assert_eq!(
        (e.kind(), at_line(&e)),
        (ErrorKind::Limit, MAX_DEPTH + 1),
        "{e}"
    );
}

fn at_line(e: &Error) -> usize {
    at(e).0
}

#[test]
fn aliases_count_towards_nesting() {
    let inner = format!("{}{}", "[".repeat(600), "]".repeat(600));
    ok(
        &format!("a: &a {inner}\nb: [[[*a]]]"),
        &format!("{{\"a\": {inner}, \"b\": [[[{inner}]]]}}"),
    );
    let text = format!("a: &a {inner}\nb: {}*a{}", "[".repeat(500), "]".repeat(500));
    check_err(
        &text,
        ErrorKind::Limit,
        2,
        504,
        "nest deeper than 1000 levels",
    );
}

fn billion_laughs() -> String {
    let mut text =
        "a: &a [\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\"]\n"
            .to_owned();
    let names = ["a", "b", "c", "d", "e", "f", "g", "h", "i"];
    for pair in names.windows(2) {
        let refs = vec![format!("*{}", pair[0]); 9].join(",");
        text.push_str(&format!("{0}: &{0} [{refs}]\n", pair[1]));
    }
    text
}

#[test]
fn billion_laughs_is_refused_quickly() {
    let started = std::time::Instant::now();
    check_err(
        &billion_laughs(),
        ErrorKind::Limit,
        4,
        17,
        "document contains excessive aliasing",
    );
    assert!(started.elapsed().as_secs() < 5);
}

/// yaml.v2's own limit tests (`limit_test.go`), at their sizes.
#[test]
fn yaml_v2_limit_cases() {
    let aliased = format!(
        "{{a: &a [{{a}}{}], b: &b [*a{}]}}",
        ",{a}".repeat(1000 * 1024 / 4 - 100),
        ",*a".repeat(99)
    );
    let e = err(&aliased);
    assert_eq!(e.kind(), ErrorKind::Limit, "{e}");
    assert_eq!(e.message(), "document contains excessive aliasing");
    for kb in [1, 10, 100] {
        let maps = format!("a: &a [{{a}}{}]", ",{a}".repeat(kb * 1024 / 4 - 1));
        let v = yaml::from_str(&maps).unwrap();
        assert_eq!(
            v.as_map()
                .and_then(|m| m.get("a"))
                .and_then(Value::as_list)
                .map(<[Value]>::len),
            Some(kb * 1024 / 4)
        );
    }
}

#[test]
fn aliasing_at_yaml_v2_boundaries() {
    // An anchored list of 999 ints aliased n times: yaml.v2 accepts 110 aliases, not 111.
    let doc = |n: usize| {
        format!(
            "a: &a [{}]\nb: [{}]\n",
            vec!["1"; 999].join(","),
            vec!["*a"; n].join(",")
        )
    };
    assert!(yaml::from_str(&doc(110)).is_ok());
    let e = err(&doc(111));
    assert_eq!(
        (e.kind(), at(&e)),
        (ErrorKind::Limit, (2, 4 + 3 * 110 + 1)),
        "{e}"
    );
    // Many small aliases are fine below the ratio.
    let small = format!("a: &a 1\nb: [{}]", vec!["*a"; 10_000].join(","));
    let v = yaml::from_str(&small).unwrap();
    assert_eq!(
        v.as_map()
            .and_then(|m| m.get("b"))
            .and_then(Value::as_list)
            .map(<[Value]>::len),
        Some(10_000)
    );
    // Nested anchors are only copied when used, and counted as yaml.v2 counts them: this
    // refuses before copying 200 anchored lists of 10,000 items.
    let mut nested = String::new();
    for i in 0..200 {
        nested.push_str(&format!("- &a{i}\n{}", "  ".repeat(i + 1)));
    }
    nested.push_str(&format!("[{}]\n", vec!["x"; 10_000].join(",")));
    let refs: Vec<String> = (0..200).map(|i| format!("*a{i}")).collect();
    let text = format!(
        "nested:\n{}\nrefs: [{}]\n",
        indent(&nested),
        refs.join(", ")
    );
    let started = std::time::Instant::now();
    let e = err(&text);
    assert_eq!(e.kind(), ErrorKind::Limit, "{e}");
    assert!(started.elapsed().as_secs() < 10);
}

fn indent(text: &str) -> String {
    text.lines().map(|l| format!("  {l}\n")).collect()
}

#[test]
fn alias_text_is_bounded() {
    // 8 KiB aliased 3,000 times is 24 MiB of text, which Go would share and we would copy.
    let text = format!(
        "a: &a \"{}\"\nb: [{}]",
        "x".repeat(8192),
        vec!["*a"; 3000].join(",")
    );
    check_err(
        &text,
        ErrorKind::Limit,
        2,
        4 + 3 * 2048 + 1,
        "aliases copy more than 16777216 bytes of text",
    );
}

// --- Kubernetes manifests --------------------------------------------------------------------

const DEPLOYMENT: &str = r#"
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  labels: {app: web, tier: "1"}
  annotations:
    example.com/enabled: "true"
spec:
  replicas: 3
  selector:
    matchLabels:
      app: web
  template:
    metadata:
      labels:
        app: web
    spec:
      containers:
      - name: nginx
        image: nginx:1.25
        args: [-v, "--x=1"]
        ports:
        - containerPort: 80
          protocol: TCP
        - containerPort: 443
        env:
        - name: DEBUG
          value: "false"
        - name: MODE
          value: off
        resources:
          limits: {cpu: 500m, memory: 128Mi}
      - name: sidecar
        image: busybox
        command:
        - sh
        - -c
        - |
          while true; do
            sleep 10
          done
"#;

#[test]
fn a_deployment() {
    let v = yaml::from_str(DEPLOYMENT).unwrap();
    let keys: Vec<&str> = v.as_map().unwrap().keys().collect();
    assert_eq!(keys, ["apiVersion", "kind", "metadata", "spec"]);
    let get = |v: &Value, path: &[&str]| -> String {
        let mut at = v;
        for p in path {
            at = match p.parse::<usize>() {
                Ok(i) => &at.as_list().unwrap()[i],
                Err(_) => at.as_map().unwrap().get(p).unwrap(),
            };
        }
        canon(at)
    };
    assert_eq!(
        get(&v, &["metadata", "labels"]),
        r#"{"app": "web", "tier": "1"}"#
    );
    assert_eq!(
        get(&v, &["metadata", "annotations"]),
        r#"{"example.com/enabled": "true"}"#
    );
    assert_eq!(get(&v, &["spec", "replicas"]), "3");
    let containers = ["spec", "template", "spec", "containers"];
    assert_eq!(
        get(&v, &[&containers[..], &["0", "ports"]].concat()),
        r#"[{"containerPort": 80, "protocol": "TCP"}, {"containerPort": 443}]"#
    );
    assert_eq!(
        get(&v, &[&containers[..], &["0", "args"]].concat()),
        r#"["-v", "--x=1"]"#
    );
    // YAML 1.1: an unquoted `off` is a boolean (Kubernetes would then refuse it for a string).
    assert_eq!(
        get(&v, &[&containers[..], &["0", "env", "1", "value"]].concat()),
        "false"
    );
    assert_eq!(
        get(
            &v,
            &[&containers[..], &["0", "resources", "limits"]].concat()
        ),
        r#"{"cpu": "500m", "memory": "128Mi"}"#
    );
    assert_eq!(
        get(&v, &[&containers[..], &["1", "command", "2"]].concat()),
        r#""while true; do\n  sleep 10\ndone\n""#
    );
}

#[test]
fn a_multi_document_manifest() {
    let text = format!(
        "# web stack\n---\napiVersion: v1\nkind: Service\nmetadata: {{name: web}}\nspec:\n  ports: [{{port: 80, targetPort: 8080}}]\n---{DEPLOYMENT}---\n"
    );
    let docs: Vec<yaml::Document> = yaml::Documents::new(&text)
        .collect::<Result<_, _>>()
        .unwrap();
    let summary: Vec<(usize, String)> = docs
        .iter()
        .map(|d| {
            (
                d.line,
                d.value
                    .as_map()
                    .and_then(|m| m.get("kind"))
                    .map_or("null".to_owned(), canon),
            )
        })
        .collect();
    assert_eq!(
        summary,
        [
            (2, r#""Service""#.to_owned()),
            (8, r#""Deployment""#.to_owned()),
            (50, "null".to_owned())
        ]
    );
    let e = yaml::from_str(&text).unwrap_err();
    assert_eq!(at(&e), (8, 1), "{e}");
}

#[test]
fn anchors_in_a_manifest() {
    let text = "
defaults: &defaults
  imagePullPolicy: IfNotPresent
  resources: &res {limits: {cpu: 100m}}
containers:
- <<: *defaults
  name: a
- <<: *defaults
  name: b
  imagePullPolicy: Always
  resources: *res
";
    ok(
        text,
        r#"{"defaults": {"imagePullPolicy": "IfNotPresent", "resources": {"limits": {"cpu": "100m"}}}, "containers": [{"imagePullPolicy": "IfNotPresent", "resources": {"limits": {"cpu": "100m"}}, "name": "a"}, {"imagePullPolicy": "Always", "resources": {"limits": {"cpu": "100m"}}, "name": "b"}]}"#,
    );
}

#[test]
fn errors_display_their_position() {
    let e = err("a: *b");
    assert_eq!(
        e.to_string(),
        "line 1 column 4: found an alias to an unknown anchor `b`"
    );
    assert_eq!(
        e.location(),
        Location::Text {
            line: 1,
            column: 4,
            offset: 3
        }
    );
}
