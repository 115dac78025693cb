//! A schema property's name as a CEL rule names it (apiserver v0.37.2 `cel.Escape`/`Unescape`):
//! CEL's reserved words become `__word__`, and in other names `__`, `.`, `-` and `/` become
//! `__underscores__`, `__dot__`, `__dash__` and `__slash__`. A name with any other character
//! outside `[A-Za-z0-9_]`, or starting with a digit, cannot be named in a rule at all. (The checker
//! declares an object type's fields by these names.)

/// CEL's reserved words, which a property may be named but a rule cannot write bare.
const RESERVED: [&str; 21] = [
    "true",
    "false",
    "null",
    "in",
    "as",
    "break",
    "const",
    "continue",
    "else",
    "for",
    "function",
    "if",
    "import",
    "let",
    "loop",
    "package",
    "namespace",
    "return",
    "var",
    "void",
    "while",
];

fn reserved(word: &str) -> bool {
    RESERVED.contains(&word)
}

/// The name a rule writes for the property `name`, or `None` where no rule can name it.
pub fn escape_property(name: &str) -> Option<String> {
    let first = name.bytes().next()?;
    if first.is_ascii_digit() {
        return None;
    }
    if reserved(name) {
        return Some(format!("__{name}__"));
    }
    let mut out = String::with_capacity(name.len());
    let mut rest = name;
    while let Some(c) = rest.chars().next() {
        if rest.starts_with("__") {
            out.push_str("__underscores__");
            rest = &rest[2..];
            continue;
        }
        match c {
            '.' => out.push_str("__dot__"),
            '-' => out.push_str("__dash__"),
            '/' => out.push_str("__slash__"),
            c if c.is_ascii_alphanumeric() || c == '_' => out.push(c),
            _ => return None,
        }
        rest = &rest[c.len_utf8()..];
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for (name, escaped) in [
            ("spec", Some("spec")),
            ("namespace", Some("__namespace__")),
            ("x-y", Some("x__dash__y")),
            ("a.b/c", Some("a__dot__b__slash__c")),
            ("a__b", Some("a__underscores__b")),
            ("a_b", Some("a_b")),
            ("1a", None),
            ("", None),
            ("a b", None),
            ("é", None),
        ] {
            assert_eq!(escape_property(name).as_deref(), escaped, "{name}");
        }
    }
}
