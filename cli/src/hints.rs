//! Errors that teach: a line after the API server's own words saying what the user most
//! likely did and how to fix it.
//!
//! The library's messages stay Go's, byte for byte (the conformance runner compares them); the
//! hints are the CLI's, added under them: a swapped LIVE and APPLIED, YAML 1.1 reading an
//! unquoted `yes` or `010` where the schema wants a string, a Scale applied without
//! `--subresource scale`, a `--now` that is not RFC 3339, an unknown `--manager`, an object
//! exported without its managedFields.

use smd::fieldpath::Value;

use super::Failure;
use super::objects::Object;
use super::terminal::escape;

/// What `kubectl` exports objects with their owners with.
const EXPORT: &str = "kubectl get -o yaml --show-managed-fields";

/// The words under a refusal's `message` (the API server's, as smd answers it) for the
/// manifest `applied` and its live object; empty when there is nothing to teach.
pub(crate) fn refusal(applied: &Object, live: Option<&Object>, message: &str) -> String {
    let mut hints = Vec::new();
    if message.contains("metadata.managedFields must be nil") {
        hints.push(format!(
            "{} carries metadata.managedFields, which a manifest never does: is it the live \
             object? The live object comes first (LIVE APPLIED), or with --live",
            applied.origin
        ));
    }
    let same_kind = live.is_some_and(|l| l.gvk() == applied.gvk());
    if message.starts_with("invalid object type: ") && same_kind {
        // The endpoint's kind is not the manifest's though the live object's is: only the
        // scale subresource serves another kind, a Scale.
        hints.push(format!(
            "through --subresource scale the manifest is an autoscaling/v1 Scale (its \
             spec.replicas); to apply this {} itself, drop --subresource scale",
            escape(&applied.gvk().kind)
        ));
    }
    hints.extend(not_strings(message));
    hints
        .into_iter()
        .map(|h| format!("\n  hint: {h}"))
        .collect()
}

/// The hint lines (`\n  hint: …`) for the type mismatches Go's words in `message` name.
pub(crate) fn type_mismatches(message: &str) -> String {
    not_strings(message)
        .into_iter()
        .map(|h| format!("\n  hint: {h}"))
        .collect()
}

/// One hint per `PATH: expected string, got &value.valueUnstructured{Value:…}` in `message`:
/// what YAML read instead of a string, and to quote it.
fn not_strings(message: &str) -> Vec<String> {
    const MARK: &str = ": expected string, got &value.valueUnstructured{Value:";
    let mut hints = Vec::new();
    for line in message.lines() {
        // The last mark of a line is Go's: a field name may hold the mark's text too.
        let Some(at) = line.rfind(MARK) else {
            continue;
        };
        let before = &line[..at];
        // One error follows Go's `failed to create typed … object (…): ` on its line; several
        // come one a line, indented.
        let path = match before.split_once("): ") {
            Some((_, path)) if before.starts_with("failed ") => path,
            _ => before,
        }
        .trim_start();
        let got = &line[at + MARK.len()..];
        let field = escape(path);
        let hint = if got.starts_with("true}") || got.starts_with("false}") {
            let value = if got.starts_with("true") {
                "true"
            } else {
                "false"
            };
            Some(format!(
                "{field} is a string, but YAML read the manifest's value as the boolean \
                 {value}: unquoted yes, no, y, n, on, off, true and false are booleans in \
                 YAML 1.1 (as kubectl reads it); quote the value, as in \"yes\""
            ))
        } else if got.starts_with(|c: char| c.is_ascii_digit() || c == '-' || c == '+') {
            let number: String = got.chars().take_while(|&c| c != '}').take(40).collect();
            Some(format!(
                "{field} is a string, but YAML read the manifest's value as the number \
                 {}: unquoted 010 (octal 8), 0x1F, 1e3 and 1_000 are numbers in YAML 1.1 (as \
                 kubectl reads it); quote the value as written, as in \"010\"",
                escape(&number)
            ))
        } else if got.starts_with("[]") {
            Some(format!(
                "{field} is a string, and the manifest gives a list: write one string (quoted \
                 if it starts with `[`)"
            ))
        } else if got.starts_with("map[") {
            Some(format!(
                "{field} is a string, and the manifest gives a map: write one string (quoted \
                 if it holds `: ` or starts with `{{`)"
            ))
        } else {
            None
        };
        hints.extend(hint);
    }
    hints
}

/// A Scale manifest outside `--subresource scale`: the API server serves no `scales`
/// resource, so kubectl finds no mapping for it; smd says what it likely meant.
pub(crate) fn scale_without_subresource(applied: &Object, subresource: &str) -> Option<String> {
    let gvk = applied.gvk();
    if subresource == "scale" || gvk.group != "autoscaling" || gvk.kind != "Scale" {
        return None;
    }
    Some(format!(
        "{}: no matches for kind \"Scale\" in version \"{}\": the API server serves no Scale \
         resource\n  hint: a Scale is applied to the scale subresource of the object it scales \
         (a Deployment, ReplicaSet, StatefulSet, or a custom resource with one): pass \
         --subresource scale, with that object as the live one",
        applied.origin,
        escape(applied.text(&["apiVersion"]))
    ))
}

/// The words for a `--now` that does not parse.
pub(crate) fn now(error: &dyn std::fmt::Display) -> Failure {
    Failure::new(format!(
        "--now: {error}\n  hint: --now takes an RFC 3339 time in UTC, as the API server \
         stamps it: --now 2026-01-01T00:00:00Z"
    ))
}

/// The words for `--manager NAME` naming none of the managers of any object read.
pub(crate) fn unknown_manager(name: &str, present: &[&str]) -> Failure {
    let listed: Vec<String> = present
        .iter()
        .map(|m| format!("\"{}\"", escape(m)))
        .collect();
    Failure::new(format!(
        "--manager \"{}\": no object names it in metadata.managedFields; the managers \
         present: {}",
        escape(name),
        if listed.is_empty() {
            "none".to_owned()
        } else {
            listed.join(", ")
        }
    ))
}

/// Whether `object` has managedFields entries; `blame` and `fields` have nothing to show of
/// one without.
fn has_managed_fields(object: &Object) -> bool {
    object
        .value
        .as_map()
        .and_then(|m| m.get("metadata"))
        .and_then(Value::as_map)
        .and_then(|m| m.get("managedFields"))
        .and_then(Value::as_list)
        .is_some_and(|l| !l.is_empty())
}

/// The objects of `objects` that have managedFields, for `blame` and `fields`: each one
/// without is a warning on `err` saying how to export them; when none has any, the run fails
/// with those words.
pub(crate) fn with_managed_fields<'a>(
    objects: &'a [Object],
    err: &mut dyn std::io::Write,
) -> Result<Vec<&'a Object>, Failure> {
    let (with, without): (Vec<&Object>, Vec<&Object>) =
        objects.iter().partition(|o| has_managed_fields(o));
    let words = |o: &Object| {
        format!(
            "{}: {} has no metadata.managedFields, so there are no owners to show\n  hint: \
             kubectl leaves them out unless asked; export the object with `{EXPORT}`",
            o.origin,
            o.identity()
        )
    };
    if with.is_empty()
        && let Some(first) = without.first()
    {
        return Err(Failure::new(words(first)));
    }
    for o in without {
        let _ = writeln!(err, "smd: warning: {}", words(o));
    }
    Ok(with)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_type_mismatch_gets_its_words() {
        let one = "failed to create typed patch object (default/c; /v1, Kind=ConfigMap): \
                   .data.a: expected string, got &value.valueUnstructured{Value:true}";
        let hints = not_strings(one);
        assert_eq!(hints.len(), 1);
        assert!(hints[0].starts_with(".data.a is a string"), "{hints:?}");
        assert!(hints[0].contains("boolean true"), "{hints:?}");
        let many = "failed to create typed patch object (default/c; /v1, Kind=ConfigMap): \
                    errors:\n  .data.a: expected string, got &value.valueUnstructured{Value:8}\
                    \n  .data.b: expected string, got &value.valueUnstructured{Value:[]interface {}{1}}\
                    \n  .data.c: expected string, got &value.valueUnstructured{Value:map[string]interface {}{}}";
        let hints = not_strings(many);
        assert_eq!(hints.len(), 3, "{hints:?}");
        assert!(hints[0].starts_with(".data.a ") && hints[0].contains("number 8"));
        assert!(hints[1].starts_with(".data.b ") && hints[1].contains("a list"));
        assert!(hints[2].starts_with(".data.c ") && hints[2].contains("a map"));
        assert!(not_strings("expected string, got").is_empty());
        // A key may hold the mark itself, followed by anything.
        let odd = ".data.x: expected string, got &value.valueUnstructured{Value:é\u{1b}: \
                   expected string, got &value.valueUnstructured{Value:true}";
        let hints = not_strings(odd);
        assert_eq!(hints.len(), 1);
        assert!(
            hints[0].starts_with(".data.x: expected string"),
            "{hints:?}"
        );
        assert!(hints[0].contains("boolean true"), "{hints:?}");
        assert!(not_strings(": expected string, got &value.valueUnstructured{Value:").is_empty());
    }
}
