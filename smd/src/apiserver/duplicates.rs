//! The keys a JSON body sets twice in one object, with the paths Go's strict decoder
//! (`sigs.k8s.io/json`, `DisallowDuplicateFields`) names them by: `data.a`, `e[0].f`, each path
//! once. smd's readers keep the last value of a repeated key, as Go's do, so the repeats are
//! found on the text, before they collapse into a `Value`.

use std::collections::HashSet;

/// One open container while scanning.
enum Frame {
    Object {
        /// Where this object sits (`spec.template`), empty at the top.
        path: String,
        seen: HashSet<String>,
        /// The key whose value is read next.
        key: Option<String>,
    },
    Array {
        path: String,
        index: usize,
    },
}

/// The duplicate keys of `text`, in the order met, each path once. A text that is not JSON
/// (the caller has already refused it, or read it otherwise) gives what was found up to the
/// point the scan stops. Linear in the text; no recursion.
pub(crate) fn duplicate_fields(text: &str) -> Vec<String> {
    let bytes = text.as_bytes();
    let mut stack: Vec<Frame> = Vec::new();
    let mut found = Vec::new();
    let mut reported = HashSet::new();
    let mut i = 0;
    while let Some(&b) = bytes.get(i) {
        match b {
            b'{' | b'[' => {
                let path = child_path(&mut stack);
                stack.push(if b == b'{' {
                    Frame::Object {
                        path,
                        seen: HashSet::new(),
                        key: None,
                    }
                } else {
                    Frame::Array { path, index: 0 }
                });
                i += 1;
            }
            b'}' | b']' => {
                stack.pop();
                i += 1;
            }
            b',' => {
                if let Some(Frame::Array { index, .. }) = stack.last_mut() {
                    *index += 1;
                }
                i += 1;
            }
            b'"' => {
                let Some(end) = string_end(bytes, i) else {
                    break;
                };
                let is_key = matches!(stack.last(), Some(Frame::Object { key: None, .. }))
                    && next_token(bytes, end) == Some(b':');
                if is_key {
                    let key = text
                        .get(i..end)
                        .and_then(|raw| serde_json::from_str::<String>(raw).ok())
                        .unwrap_or_default();
                    if let Some(Frame::Object { path, seen, key: k }) = stack.last_mut() {
                        if !seen.insert(key.clone()) {
                            let full = join(path, &key);
                            if reported.insert(full.clone()) {
                                found.push(full);
                            }
                        }
                        *k = Some(key);
                    }
                } else {
                    value_done(&mut stack);
                }
                i = end;
            }
            b':' => i += 1,
            _ if b.is_ascii_whitespace() => i += 1,
            _ => {
                // A number, true, false or null: up to the next delimiter.
                while bytes
                    .get(i)
                    .is_some_and(|c| !matches!(c, b',' | b'}' | b']') && !c.is_ascii_whitespace())
                {
                    i += 1;
                }
                value_done(&mut stack);
            }
        }
    }
    found
}

/// The path of the value about to open in the innermost container (its key or index).
fn child_path(stack: &mut [Frame]) -> String {
    match stack.last_mut() {
        None => String::new(),
        Some(Frame::Object { path, key, .. }) => join(path, &key.take().unwrap_or_default()),
        Some(Frame::Array { path, index }) => format!("{path}[{index}]"),
    }
}

/// A scalar value read: the innermost object waits for its next key.
fn value_done(stack: &mut [Frame]) {
    if let Some(Frame::Object { key, .. }) = stack.last_mut() {
        *key = None;
    }
}

fn join(path: &str, key: &str) -> String {
    if path.is_empty() {
        key.to_owned()
    } else {
        format!("{path}.{key}")
    }
}

/// The index just past the string starting at `start` (its opening quote).
fn string_end(bytes: &[u8], start: usize) -> Option<usize> {
    let mut i = start + 1;
    loop {
        match bytes.get(i)? {
            b'\\' => i += 2,
            b'"' => return Some(i + 1),
            _ => i += 1,
        }
    }
}

fn next_token(bytes: &[u8], from: usize) -> Option<u8> {
    bytes
        .get(from..)?
        .iter()
        .copied()
        .find(|c| !c.is_ascii_whitespace())
}

#[cfg(test)]
mod tests {
    use super::duplicate_fields;

    #[test]
    fn paths_as_go_names_them() {
        // sigs.k8s.io/json's own case (kubernetes_patch_test.go, "duplicate typed").
        assert_eq!(
            duplicate_fields(
                r#"{"a":1,"a":2,"a":3,"b":4,"b":5,"b":6,"C":7,"C":8,"C":9,"e":[{"f":1,"f":1}]}"#
            ),
            ["a", "b", "C", "e[0].f"]
        );
        assert_eq!(
            duplicate_fields(r#"{"data":{"a":"1","a":"2"},"x":[[1,{"k":"\"","k":{}}]]}"#),
            ["data.a", "x[0][1].k"]
        );
        assert!(duplicate_fields(r#"{"a":{"a":1},"b":["a","a"]}"#).is_empty());
    }
}
