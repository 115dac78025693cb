//! A rule's `fieldPath` (apiextensions v0.37.2 `ValidFieldPath`): a JSON path of field and map
//! accessors (`.spec.name`, `['a.b']`, `.labels['k']`) relative to the rule's node, checked
//! against its schema; a failing rule's error is reported at the node's path followed by the
//! path's normal form (`spec.name`, `labels[k]`).

use super::schema::RuleNode;

/// A path element as `field.Path` prints it.
enum Step {
    Field(String),
    Key(String),
}

/// The normal form of `path` below `node`, or why it names no field of `node`'s schema.
pub(crate) fn normalize(path: &str, node: &RuleNode) -> Result<String, String> {
    let tokens = tokens(path);
    let mut steps = Vec::new();
    let mut node = node;
    let mut it = tokens.into_iter();
    while let Some(tok) = it.next() {
        let name = match tok {
            "[" => {
                let quoted = it.next().ok_or("unexpected end of JSON path")?;
                let inner = quoted
                    .strip_prefix('\'')
                    .and_then(|q| q.strip_suffix('\''))
                    .filter(|_| quoted.len() >= 2)
                    .ok_or_else(|| format!("expected single quoted string but got {quoted}"))?;
                let name = unescape_single_quoted(inner)
                    .map_err(|e| format!("invalid string literal: {e}"))?;
                match it.next() {
                    Some("]") => {}
                    Some(other) => return Err(format!("expected ] but got {other}")),
                    None => return Err("unexpected end of JSON path".to_owned()),
                }
                name
            }
            "." => it.next().ok_or("unexpected end of JSON path")?.to_owned(),
            other => return Err(format!("expected [ or . but got: {other}")),
        };
        if node.declares_properties() {
            node = node
                .property(&name)
                .ok_or("does not refer to a valid field")?;
            steps.push(Step::Field(name));
        } else if let Some(values) = node.additional() {
            node = values;
            steps.push(Step::Key(name));
        } else {
            return Err("does not refer to a valid field".to_owned());
        }
    }
    let mut out = String::new();
    for step in steps {
        match step {
            Step::Field(f) => {
                if !out.is_empty() {
                    out.push('.');
                }
                out.push_str(&f);
            }
            Step::Key(k) => {
                out.push('[');
                out.push_str(&k);
                out.push(']');
            }
        }
    }
    Ok(out)
}

/// Go's scanner: the delimiters `.`, `[`, `]` alone, a token starting with `'` up to the
/// next `'` not after a backslash, other text up to the next delimiter.
fn tokens(path: &str) -> Vec<&str> {
    let bytes = path.as_bytes();
    let mut out = Vec::new();
    let mut start = 0;
    while start < bytes.len() {
        let rest = &bytes[start..];
        let len = if rest[0] == b'\'' {
            // An unterminated quote runs to the end of the path.
            (1..rest.len())
                .find(|&i| rest[i] == b'\'' && rest[i - 1] != b'\\')
                .map_or(rest.len(), |i| i + 1)
        } else if matches!(rest[0], b'.' | b'[' | b']') {
            1
        } else {
            rest.iter()
                .position(|b| matches!(b, b'.' | b'[' | b']'))
                .unwrap_or(rest.len())
        };
        // Cuts fall on ASCII bytes, so each token is whole UTF-8.
        out.push(&path[start..start + len]);
        start += len;
    }
    out
}

fn unescape_single_quoted(s: &str) -> Result<String, String> {
    let mut out = String::with_capacity(s.len());
    let mut chars = s.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        let Some(d) = chars.next() else {
            out.push('\\');
            break;
        };
        out.push(match d {
            'a' => '\u{7}',
            'b' => '\u{8}',
            'f' => '\u{c}',
            'n' => '\n',
            'r' => '\r',
            't' => '\t',
            'v' => '\u{b}',
            '\'' => '\'',
            '\\' => '\\',
            other => return Err(format!("invalid escape char \\{other}")),
        });
    }
    Ok(out)
}
