//! The inputs of three upstream test tables (structured-merge-diff v6.4.2:
//! `value/value_test.go TestFromJSONTokenTypeErrors`, `fieldpath/serialize_test.go
//! TestSetFromJSONTokenTypeErrors`, `fieldpath/serialize-pe_test.go
//! TestDeserializePathElementError`), each with the error Go gives for it. Upstream only checks
//! that there is an error; the messages and offsets here were printed by Go.

use super::{Case, PathElementError, check_error, path_element, path_element_dump, set_from_json};
use crate::Value;

#[test]
fn from_json_errors() {
    let failures: Vec<String> = FROM_JSON_ERRORS
        .iter()
        .filter_map(|case| {
            let got = Value::from_json_floats(case.input);
            check_error(
                case.name,
                got.as_ref().map(|_| ()),
                case.message,
                case.go_offset,
            )
        })
        .collect();
    assert_eq!(FROM_JSON_ERRORS.len(), 79);
    assert!(failures.is_empty(), "{failures:#?}");
}

#[test]
fn set_from_json_errors() {
    let failures: Vec<String> = SET_FROM_JSON_ERRORS
        .iter()
        .filter_map(|case| {
            let (got, _) = set_from_json(case.input);
            check_error(
                case.name,
                got.as_ref().map(|_| ()),
                case.message,
                case.go_offset,
            )
        })
        .collect();
    assert_eq!(SET_FROM_JSON_ERRORS.len(), 49);
    assert!(failures.is_empty(), "{failures:#?}");
}

#[test]
fn path_element_errors() {
    let failures: Vec<String> = PATH_ELEMENT_ERRORS
        .iter()
        .filter_map(|case| match path_element(case.input) {
            Ok(element) => Some(format!(
                "{}: accepted as {}",
                case.name,
                path_element_dump(&element)
            )),
            Err(PathElementError::Unknown) => Some(format!("{}: unknown kind", case.name)),
            Err(PathElementError::Failed(e)) => {
                check_error(case.name, Err(&e), case.message, case.go_offset)
            }
        })
        .collect();
    assert_eq!(PATH_ELEMENT_ERRORS.len(), 24);
    assert!(failures.is_empty(), "{failures:#?}");
}

const FROM_JSON_ERRORS: &[Case] = &[
    Case {
        name: "empty",
        input: b"",
        message: "Read: unexpected value type: 0",
        go_offset: Some(0),
    },
    Case {
        name: "singleSpace",
        input: b" ",
        message: "Read: unexpected value type: 0",
        go_offset: Some(1),
    },
    Case {
        name: "multipleSpaces",
        input: b"     ",
        message: "Read: unexpected value type: 0",
        go_offset: Some(5),
    },
    Case {
        name: "tab",
        input: b"\t",
        message: "Read: unexpected value type: 0",
        go_offset: Some(1),
    },
    Case {
        name: "newline",
        input: b"\n",
        message: "Read: unexpected value type: 0",
        go_offset: Some(1),
    },
    Case {
        name: "carriageReturn",
        input: b"\r",
        message: "Read: unexpected value type: 0",
        go_offset: Some(1),
    },
    Case {
        name: "mixedWhitespace",
        input: b" \t\n\r ",
        message: "Read: unexpected value type: 0",
        go_offset: Some(5),
    },
    Case {
        name: "numberAsObjectKey",
        input: b"{1:\"v\"}",
        message: "ReadMapCB: expect \" after {, but found 1",
        go_offset: Some(2),
    },
    Case {
        name: "trueAsObjectKey",
        input: b"{true:\"v\"}",
        message: "ReadMapCB: expect \" after {, but found t",
        go_offset: Some(2),
    },
    Case {
        name: "nullAsObjectKey",
        input: b"{null:\"v\"}",
        message: "ReadMapCB: expect \" after {, but found n",
        go_offset: Some(2),
    },
    Case {
        name: "arrayAsObjectKey",
        input: b"{[]:\"v\"}",
        message: "ReadMapCB: expect \" after {, but found [",
        go_offset: Some(2),
    },
    Case {
        name: "objectAsObjectKey",
        input: b"{{}:\"v\"}",
        message: "ReadMapCB: expect \" after {, but found {",
        go_offset: Some(2),
    },
    Case {
        name: "trailingCommaInObject",
        input: b"{\"a\":1,}",
        message: "ReadString: expects \" or n, but found }",
        go_offset: Some(8),
    },
    Case {
        name: "trailingCommaInArray",
        input: b"[1,2,]",
        message: "Read: unexpected value type: 0",
        go_offset: Some(5),
    },
    Case {
        name: "leadingCommaInObject",
        input: b"{,\"a\":1}",
        message: "ReadMapCB: expect \" after {, but found ,",
        go_offset: Some(2),
    },
    Case {
        name: "missingCommaBetweenEntries",
        input: b"{\"a\":1 \"b\":2}",
        message: "ReadMapCB: object not ended with }",
        go_offset: Some(8),
    },
    Case {
        name: "missingValue",
        input: b"{\"a\":}",
        message: "Read: unexpected value type: 0",
        go_offset: Some(5),
    },
    Case {
        name: "missingColon",
        input: b"{\"a\" 1}",
        message: "ReadMapCB: expect : after object field, but found \"",
        go_offset: Some(6),
    },
    Case {
        name: "doubleCommaInObject",
        input: b"{\"a\":1,,\"b\":2}",
        message: "ReadString: expects \" or n, but found ,",
        go_offset: Some(8),
    },
    Case {
        name: "objectClosedWithBracket",
        input: b"{\"a\":1]",
        message: "ReadMapCB: object not ended with }",
        go_offset: Some(7),
    },
    Case {
        name: "arrayClosedWithBrace",
        input: b"[1,2}",
        message: "ReadArrayCB: expect ] in the end, but found }",
        go_offset: Some(5),
    },
    Case {
        name: "nestedObjectClosedWithBracket",
        input: b"{\"a\":{]}",
        message: "ReadMapCB: expect \" after {, but found ]",
        go_offset: Some(7),
    },
    Case {
        name: "bareCloseBrace",
        input: b"}",
        message: "Read: unexpected value type: 0",
        go_offset: Some(0),
    },
    Case {
        name: "bareCloseBracket",
        input: b"]",
        message: "Read: unexpected value type: 0",
        go_offset: Some(0),
    },
    Case {
        name: "bareComma",
        input: b",",
        message: "Read: unexpected value type: 0",
        go_offset: Some(0),
    },
    Case {
        name: "bareColon",
        input: b":",
        message: "Read: unexpected value type: 0",
        go_offset: Some(0),
    },
    Case {
        name: "singleQuotedKey",
        input: b"{'a':1}",
        message: "ReadMapCB: expect \" after {, but found '",
        go_offset: Some(2),
    },
    Case {
        name: "unquotedKey",
        input: b"{a:1}",
        message: "ReadMapCB: expect \" after {, but found a",
        go_offset: Some(2),
    },
    Case {
        name: "lineComment",
        input: b"{// c\n\"a\":1}",
        message: "ReadMapCB: expect \" after {, but found /",
        go_offset: Some(2),
    },
    Case {
        name: "blockComment",
        input: b"{/*c*/\"a\":1}",
        message: "ReadMapCB: expect \" after {, but found /",
        go_offset: Some(2),
    },
    Case {
        name: "hexEscape",
        input: b"\"\\x41\"",
        message: "readEscapedChar: invalid escape char after \\",
        go_offset: Some(3),
    },
    Case {
        name: "invalidEscape",
        input: b"\"\\q\"",
        message: "readEscapedChar: invalid escape char after \\",
        go_offset: Some(3),
    },
    Case {
        name: "infinity",
        input: b"Infinity",
        message: "Read: unexpected value type: 0",
        go_offset: Some(0),
    },
    Case {
        name: "nan",
        input: b"NaN",
        message: "Read: unexpected value type: 0",
        go_offset: Some(0),
    },
    Case {
        name: "leadingPlus",
        input: b"+1",
        message: "Read: unexpected value type: 0",
        go_offset: Some(0),
    },
    Case {
        name: "trailingDot",
        input: b"1.",
        message: "readFloat64SlowPath: dot can not be last character",
        go_offset: Some(2),
    },
    Case {
        name: "bareDecimal",
        input: b".5",
        message: "Read: unexpected value type: 0",
        go_offset: Some(0),
    },
    Case {
        name: "emptyExponent",
        input: b"1e",
        message: "strconv.ParseFloat: parsing \"1e\": invalid syntax",
        go_offset: None,
    },
    Case {
        name: "justMinusSign",
        input: b"-",
        message: "readNumberAsString: invalid number",
        go_offset: Some(1),
    },
    Case {
        name: "justDecimalPoint",
        input: b".",
        message: "Read: unexpected value type: 0",
        go_offset: Some(0),
    },
    Case {
        name: "trailingExponentSign",
        input: b"1e+",
        message: "strconv.ParseFloat: parsing \"1e+\": invalid syntax",
        go_offset: None,
    },
    Case {
        name: "minusThenDecimal",
        input: b"-1.",
        message: "readFloat64SlowPath: dot can not be last character",
        go_offset: Some(3),
    },
    Case {
        name: "truncatedTrue",
        input: b"tru",
        message: "skipThreeBytes: expect rue",
        go_offset: Some(3),
    },
    Case {
        name: "truncatedFalse",
        input: b"fals",
        message: "skipFourBytes: expect alse",
        go_offset: Some(4),
    },
    Case {
        name: "truncatedNull",
        input: b"nul",
        message: "skipFourBytes: expect null",
        go_offset: Some(3),
    },
    Case {
        name: "unclosedString",
        input: b"\"abc",
        message: "readStringSlowPath: unexpected end of input",
        go_offset: Some(4),
    },
    Case {
        name: "unclosedStringEndsInBackslash",
        input: b"\"abc\\",
        message: "readEscapedChar: invalid escape char after \\",
        go_offset: Some(5),
    },
    Case {
        name: "unclosedStringEndsInUnicodeEscape",
        input: b"\"\\u00",
        message: "readStringSlowPath: unexpected end of input",
        go_offset: Some(5),
    },
    Case {
        name: "unclosedArrayEmpty",
        input: b"[",
        message: "Read: unexpected value type: 0",
        go_offset: Some(1),
    },
    Case {
        name: "unclosedArrayAfterValue",
        input: b"[1",
        message: "ReadArrayCB: expect ] in the end, but found \0",
        go_offset: Some(2),
    },
    Case {
        name: "unclosedArrayAfterComma",
        input: b"[1,",
        message: "Read: unexpected value type: 0",
        go_offset: Some(3),
    },
    Case {
        name: "unclosedArrayAfterCommaWhitespace",
        input: b"[1, ",
        message: "Read: unexpected value type: 0",
        go_offset: Some(4),
    },
    Case {
        name: "unclosedNestedArray",
        input: b"[[",
        message: "Read: unexpected value type: 0",
        go_offset: Some(2),
    },
    Case {
        name: "unclosedNestedArrayAfterValue",
        input: b"[[1",
        message: "ReadArrayCB: expect ] in the end, but found \0",
        go_offset: Some(3),
    },
    Case {
        name: "unclosedObjectAfterOpen",
        input: b"{",
        message: "ReadMapCB: expect \" after {, but found \0",
        go_offset: Some(1),
    },
    Case {
        name: "unclosedObjectAfterKey",
        input: b"{\"a\"",
        message: "ReadMapCB: expect : after object field, but found \"",
        go_offset: Some(4),
    },
    Case {
        name: "unclosedObjectAfterColon",
        input: b"{\"a\":",
        message: "Read: unexpected value type: 0",
        go_offset: Some(5),
    },
    Case {
        name: "unclosedObjectAfterValue",
        input: b"{\"a\":1",
        message: "ReadMapCB: object not ended with }",
        go_offset: Some(6),
    },
    Case {
        name: "unclosedObjectAfterComma",
        input: b"{\"a\":1,",
        message: "ReadString: expects \" or n, but found \0",
        go_offset: Some(7),
    },
    Case {
        name: "unclosedNestedObject",
        input: b"{\"a\":{",
        message: "ReadMapCB: expect \" after {, but found \0",
        go_offset: Some(6),
    },
    Case {
        name: "unclosedNestedObjectAfterKey",
        input: b"{\"a\":{\"b\"",
        message: "ReadMapCB: expect : after object field, but found \"",
        go_offset: Some(9),
    },
    Case {
        name: "trailingClosed",
        input: b"{\"f:a\":{}}}",
        message: "managedFields parsing: unexpected trailing data after JSON object",
        go_offset: Some(10),
    },
    Case {
        name: "trailingObject",
        input: b"{\"f:a\":{}}{}",
        message: "managedFields parsing: unexpected trailing data after JSON object",
        go_offset: Some(10),
    },
    Case {
        name: "trailingValue",
        input: b"{\"f:a\":{}}\"string\"",
        message: "managedFields parsing: unexpected trailing data after JSON object",
        go_offset: Some(10),
    },
    Case {
        name: "twoNumbers",
        input: b"1 2",
        message: "managedFields parsing: unexpected trailing data after JSON object",
        go_offset: Some(2),
    },
    Case {
        name: "twoNumbersTabSeparated",
        input: b"1\t2",
        message: "managedFields parsing: unexpected trailing data after JSON object",
        go_offset: Some(2),
    },
    Case {
        name: "twoNumbersNewlineSeparated",
        input: b"1\n2",
        message: "managedFields parsing: unexpected trailing data after JSON object",
        go_offset: Some(2),
    },
    Case {
        name: "numberThenObject",
        input: b"1 {}",
        message: "managedFields parsing: unexpected trailing data after JSON object",
        go_offset: Some(2),
    },
    Case {
        name: "objectThenNumber",
        input: b"{} 1",
        message: "managedFields parsing: unexpected trailing data after JSON object",
        go_offset: Some(3),
    },
    Case {
        name: "objectThenObject",
        input: b"{}{}",
        message: "managedFields parsing: unexpected trailing data after JSON object",
        go_offset: Some(2),
    },
    Case {
        name: "objectThenObjectWithWhitespace",
        input: b"{} {}",
        message: "managedFields parsing: unexpected trailing data after JSON object",
        go_offset: Some(3),
    },
    Case {
        name: "arrayThenArray",
        input: b"[][]",
        message: "managedFields parsing: unexpected trailing data after JSON object",
        go_offset: Some(2),
    },
    Case {
        name: "nullThenNull",
        input: b"null null",
        message: "managedFields parsing: unexpected trailing data after JSON object",
        go_offset: Some(5),
    },
    Case {
        name: "trueThenFalse",
        input: b"true false",
        message: "managedFields parsing: unexpected trailing data after JSON object",
        go_offset: Some(5),
    },
    Case {
        name: "stringThenString",
        input: b"\"a\" \"b\"",
        message: "managedFields parsing: unexpected trailing data after JSON object",
        go_offset: Some(4),
    },
    Case {
        name: "valueThenTrailingComma",
        input: b"1,",
        message: "managedFields parsing: unexpected trailing data after JSON object",
        go_offset: Some(1),
    },
    Case {
        name: "valueThenTrailingColon",
        input: b"1:",
        message: "managedFields parsing: unexpected trailing data after JSON object",
        go_offset: Some(1),
    },
    Case {
        name: "valueThenTrailingBrace",
        input: b"1}",
        message: "managedFields parsing: unexpected trailing data after JSON object",
        go_offset: Some(1),
    },
    Case {
        name: "valueThenTrailingBracket",
        input: b"1]",
        message: "managedFields parsing: unexpected trailing data after JSON object",
        go_offset: Some(1),
    },
];

const SET_FROM_JSON_ERRORS: &[Case] = &[
    Case {
        name: "rootArray",
        input: b"[]",
        message: "ReadMapCB: expect { or n, but found [",
        go_offset: Some(1),
    },
    Case {
        name: "rootNumber",
        input: b"42",
        message: "ReadMapCB: expect { or n, but found 4",
        go_offset: Some(1),
    },
    Case {
        name: "rootString",
        input: b"\"hi\"",
        message: "ReadMapCB: expect { or n, but found \"",
        go_offset: Some(1),
    },
    Case {
        name: "empty",
        input: b"",
        message: "ReadMapCB: expect { or n, but found \0",
        go_offset: Some(0),
    },
    Case {
        name: "whitespaceOnly",
        input: b"   ",
        message: "ReadMapCB: expect { or n, but found \0",
        go_offset: Some(0),
    },
    Case {
        name: "numberAsKey",
        input: b"{1:{}}",
        message: "ReadMapCB: expect \" after {, but found 1",
        go_offset: Some(2),
    },
    Case {
        name: "trailingCommaAfterEntry",
        input: b"{\"f:a\":{},}",
        message: "ReadString: expects \" or n, but found }",
        go_offset: Some(10),
    },
    Case {
        name: "closedBeforeColon",
        input: b"{\"f:a\" }:{}}",
        message: "ReadMapCB: expect : after object field, but found \"",
        go_offset: Some(8),
    },
    Case {
        name: "closedBeforeValue",
        input: b"{\"f:a\":}",
        message: "ReadMapCB: expect { or n, but found }",
        go_offset: Some(8),
    },
    Case {
        name: "valueIsNumber",
        input: b"{\"f:a\":1}",
        message: "ReadMapCB: expect { or n, but found 1",
        go_offset: Some(8),
    },
    Case {
        name: "valueIsArray",
        input: b"{\"f:a\":[]}",
        message: "ReadMapCB: expect { or n, but found [",
        go_offset: Some(8),
    },
    Case {
        name: "valueOpenedAsArrayClosedAsObject",
        input: b"{\"f:a\":[}",
        message: "ReadMapCB: expect { or n, but found [",
        go_offset: Some(8),
    },
    Case {
        name: "valueOpenedAsObjectClosedAsArray",
        input: b"{\"f:a\":{]}",
        message: "ReadMapCB: expect \" after {, but found ]",
        go_offset: Some(9),
    },
    Case {
        name: "doubleCommaBetweenEntries",
        input: b"{\"f:a\":{},,\"f:b\":{}}",
        message: "ReadString: expects \" or n, but found ,",
        go_offset: Some(10),
    },
    Case {
        name: "missingCommaBetweenEntries",
        input: b"{\"f:a\":{} \"f:b\":{}}",
        message: "ReadMapCB: object not ended with }",
        go_offset: Some(10),
    },
    Case {
        name: "doubleColonAfterKey",
        input: b"{\"f:a\"::{}}",
        message: "ReadMapCB: expect { or n, but found :",
        go_offset: Some(8),
    },
    Case {
        name: "colonWithoutKey",
        input: b"{:1}",
        message: "ReadMapCB: expect \" after {, but found :",
        go_offset: Some(2),
    },
    Case {
        name: "keyWithoutColon",
        input: b"{\"f:a\"}",
        message: "ReadMapCB: expect : after object field, but found \"",
        go_offset: Some(7),
    },
    Case {
        name: "leadingCommaInsideValue",
        input: b"{\"f:a\":{,}}",
        message: "ReadMapCB: expect \" after {, but found ,",
        go_offset: Some(9),
    },
    Case {
        name: "bareCloseBrace",
        input: b"}",
        message: "ReadMapCB: expect { or n, but found }",
        go_offset: Some(1),
    },
    Case {
        name: "keyEmptyString",
        input: b"{\"\":{}}",
        message: "parsing key as path element: key must be 2 characters long:",
        go_offset: Some(4),
    },
    Case {
        name: "keyMissingColon",
        input: b"{\"x\":{}}",
        message: "parsing key as path element: key must be 2 characters long:",
        go_offset: Some(5),
    },
    Case {
        name: "keyOnlyColon",
        input: b"{\":\":{}}",
        message: "parsing key as path element: key must be 2 characters long:",
        go_offset: Some(5),
    },
    Case {
        name: "unclosedAfterOpen",
        input: b"{",
        message: "ReadMapCB: expect \" after {, but found \0",
        go_offset: Some(1),
    },
    Case {
        name: "unclosedAfterValue",
        input: b"{\"f:a\":{}",
        message: "ReadMapCB: object not ended with }",
        go_offset: Some(9),
    },
    Case {
        name: "unclosedAfterTrailingComma",
        input: b"{\"f:a\":{},",
        message: "ReadString: expects \" or n, but found \0",
        go_offset: Some(10),
    },
    Case {
        name: "truncatedOpenQuoteOnly",
        input: b"{\"",
        message: "readStringSlowPath: unexpected end of input",
        go_offset: Some(2),
    },
    Case {
        name: "truncatedKeyTypeOnly",
        input: b"{\"f",
        message: "readStringSlowPath: unexpected end of input",
        go_offset: Some(3),
    },
    Case {
        name: "truncatedKeySeparator",
        input: b"{\"f:",
        message: "readStringSlowPath: unexpected end of input",
        go_offset: Some(4),
    },
    Case {
        name: "truncatedKeyNoCloseQuote",
        input: b"{\"f:a",
        message: "readStringSlowPath: unexpected end of input",
        go_offset: Some(5),
    },
    Case {
        name: "truncatedAfterKey",
        input: b"{\"f:a\"",
        message: "ReadMapCB: expect : after object field, but found \"",
        go_offset: Some(6),
    },
    Case {
        name: "truncatedAfterColon",
        input: b"{\"f:a\":",
        message: "ReadMapCB: expect { or n, but found \0",
        go_offset: Some(7),
    },
    Case {
        name: "truncatedAfterNestedOpen",
        input: b"{\"f:a\":{",
        message: "ReadMapCB: expect \" after {, but found \0",
        go_offset: Some(8),
    },
    Case {
        name: "truncatedAfterNestedKey",
        input: b"{\"f:a\":{\"f:b\"",
        message: "ReadMapCB: expect : after object field, but found \"",
        go_offset: Some(10),
    },
    Case {
        name: "truncatedAfterNestedColon",
        input: b"{\"f:a\":{\"f:b\":",
        message: "ReadMapCB: expect { or n, but found \0",
        go_offset: Some(10),
    },
    Case {
        name: "truncatedAfterNestedValue",
        input: b"{\"f:a\":{\"f:b\":{}",
        message: "ReadMapCB: object not ended with }",
        go_offset: Some(10),
    },
    Case {
        name: "truncatedAfterNestedComma",
        input: b"{\"f:a\":{\"f:b\":{},",
        message: "ReadString: expects \" or n, but found \0",
        go_offset: Some(10),
    },
    Case {
        name: "truncatedKeyWithEscape",
        input: b"{\"f:a\\",
        message: "readEscapedChar: invalid escape char after \\",
        go_offset: Some(6),
    },
    Case {
        name: "truncatedKeyInsideUnicodeEscape",
        input: b"{\"f:\\u00",
        message: "readStringSlowPath: unexpected end of input",
        go_offset: Some(8),
    },
    Case {
        name: "truncatedAtSecondKey",
        input: b"{\"f:a\":{}, \"f",
        message: "readStringSlowPath: unexpected end of input",
        go_offset: Some(10),
    },
    Case {
        name: "truncatedAtSecondKeyClose",
        input: b"{\"f:a\":{}, \"f:b",
        message: "readStringSlowPath: unexpected end of input",
        go_offset: Some(10),
    },
    Case {
        name: "trailingCloseBrace",
        input: b"{\"f:a\":{}}}",
        message: "managedFields parsing: unexpected trailing data after JSON object",
        go_offset: Some(10),
    },
    Case {
        name: "trailingObject",
        input: b"{\"f:a\":{}}{}",
        message: "managedFields parsing: unexpected trailing data after JSON object",
        go_offset: Some(10),
    },
    Case {
        name: "trailingString",
        input: b"{\"f:a\":{}}\"string\"",
        message: "managedFields parsing: unexpected trailing data after JSON object",
        go_offset: Some(10),
    },
    Case {
        name: "trailingNumber",
        input: b"{\"f:a\":{}}42",
        message: "managedFields parsing: unexpected trailing data after JSON object",
        go_offset: Some(10),
    },
    Case {
        name: "trailingWhitespaceThenCloseBrace",
        input: b"{\"f:a\":{}}  }",
        message: "managedFields parsing: unexpected trailing data after JSON object",
        go_offset: Some(10),
    },
    Case {
        name: "trailingWhitespaceThenObject",
        input: b"{\"f:a\":{}}  {}",
        message: "managedFields parsing: unexpected trailing data after JSON object",
        go_offset: Some(10),
    },
    Case {
        name: "trailingWhitespaceThenString",
        input: b"{\"f:a\":{}}  \"x\"",
        message: "managedFields parsing: unexpected trailing data after JSON object",
        go_offset: Some(10),
    },
    Case {
        name: "trailingWhitespaceThenNumber",
        input: b"{\"f:a\":{}}\n42",
        message: "managedFields parsing: unexpected trailing data after JSON object",
        go_offset: Some(10),
    },
];

const PATH_ELEMENT_ERRORS: &[Case] = &[
    Case {
        name: "",
        input: b"",
        message: "key must be 2 characters long:",
        go_offset: None,
    },
    Case {
        name: "no-colon",
        input: b"no-colon",
        message: "missing colon: no-colon",
        go_offset: None,
    },
    Case {
        name: "i:index is not a number",
        input: b"i:index is not a number",
        message: "strconv.Atoi: parsing \"index is not a number\": invalid syntax",
        go_offset: None,
    },
    Case {
        name: "i:1.23",
        input: b"i:1.23",
        message: "strconv.Atoi: parsing \"1.23\": invalid syntax",
        go_offset: None,
    },
    Case {
        name: "i:",
        input: b"i:",
        message: "strconv.Atoi: parsing \"\": invalid syntax",
        go_offset: None,
    },
    Case {
        name: "v:invalid json",
        input: b"v:invalid json",
        message: "Read: unexpected value type: 0",
        go_offset: Some(0),
    },
    Case {
        name: "v:",
        input: b"v:",
        message: "Read: unexpected value type: 0",
        go_offset: Some(0),
    },
    Case {
        name: "k:invalid json",
        input: b"k:invalid json",
        message: "ReadObjectCB: expect { or n, but found i",
        go_offset: Some(1),
    },
    Case {
        name: "k:{\"name\":invalid}",
        input: b"k:{\"name\":invalid}",
        message: "Read: unexpected value type: 0",
        go_offset: Some(8),
    },
    Case {
        name: "v:{\"some\":\" \\x41\"}",
        input: b"v:{\"some\":\" \\x41\"}",
        message: "readEscapedChar: invalid escape char after \\",
        go_offset: Some(10),
    },
    Case {
        name: "v",
        input: b"v",
        message: "key must be 2 characters long:",
        go_offset: None,
    },
    Case {
        name: "k",
        input: b"k",
        message: "key must be 2 characters long:",
        go_offset: None,
    },
    Case {
        name: "f",
        input: b"f",
        message: "key must be 2 characters long:",
        go_offset: None,
    },
    Case {
        name: "i",
        input: b"i",
        message: "key must be 2 characters long:",
        go_offset: None,
    },
    Case {
        name: "v:{\"a\":\"b\"",
        input: b"v:{\"a\":\"b\"",
        message: "ReadMapCB: object not ended with }",
        go_offset: Some(8),
    },
    Case {
        name: "k:{\"a\":\"b\"",
        input: b"k:{\"a\":\"b\"",
        message: "ReadObjectCB: object not ended with }",
        go_offset: Some(8),
    },
    Case {
        name: "i: 0",
        input: b"i: 0",
        message: "strconv.Atoi: parsing \" 0\": invalid syntax",
        go_offset: None,
    },
    Case {
        name: "i:0 ",
        input: b"i:0 ",
        message: "strconv.Atoi: parsing \"0 \": invalid syntax",
        go_offset: None,
    },
    Case {
        name: "v:{\"some\":\"json\"} {\"other\":\"json\"}",
        input: b"v:{\"some\":\"json\"} {\"other\":\"json\"}",
        message: "managedFields parsing: unexpected trailing data after JSON object",
        go_offset: Some(10),
    },
    Case {
        name: "k:{\"name\":\"my-container\"} {\"other\":\"my-container\"}",
        input: b"k:{\"name\":\"my-container\"} {\"other\":\"my-container\"}",
        message: "managedFields parsing: unexpected trailing data after JSON object",
        go_offset: Some(10),
    },
    Case {
        name: "v:{\"some\":\"json\"} {\"other\":\"json\"",
        input: b"v:{\"some\":\"json\"} {\"other\":\"json\"",
        message: "managedFields parsing: unexpected trailing data after JSON object",
        go_offset: Some(10),
    },
    Case {
        name: "k:{\"name\":\"my-container\"} {\"other\":\"my-container\"",
        input: b"k:{\"name\":\"my-container\"} {\"other\":\"my-container\"",
        message: "managedFields parsing: unexpected trailing data after JSON object",
        go_offset: Some(10),
    },
    Case {
        name: "v:{\"some\":\"json\"} garbage",
        input: b"v:{\"some\":\"json\"} garbage",
        message: "managedFields parsing: unexpected trailing data after JSON object",
        go_offset: Some(10),
    },
    Case {
        name: "k:{\"name\":\"my-container\"} garbage",
        input: b"k:{\"name\":\"my-container\"} garbage",
        message: "managedFields parsing: unexpected trailing data after JSON object",
        go_offset: Some(10),
    },
];
