//! The normalisation of API-server answers that `gogen apiserver` applies to the real server's
//! (conformance/gogen/apiserver.go, `normaliser`), ported so that smd's answers are normalised
//! by the same rules before they are compared with the goldens: what no server reproduces
//! becomes a placeholder numbered by its order of appearance within a case (uids, resource
//! versions, `generateName` suffixes, the ServiceAccount token volume's suffix, allocated
//! cluster IPs and node ports), and each time becomes the step that wrote it. A list's and a
//! bookmark's resourceVersion are etcd's revision when the collection was read, which every
//! case's writes move: they, and continue tokens (which hold one), become one fixed placeholder
//! each, as does the oldest version a watch cache holds in a too-old-version message.
//!
//! Already-normalised input (a golden) is left as it is: placeholders map to themselves when
//! they appear in the same order, and step labels stay.

use std::collections::{BTreeMap, BTreeSet};

use serde_json::Value as Json;

/// The keys whose values the server allocates, and the numbering each shares.
const ALLOCATED: &[(&str, &str)] = &[
    ("clusterIP", "clusterIP"),
    ("clusterIPs", "clusterIP"),
    ("nodePort", "nodePort"),
    ("healthCheckNodePort", "nodePort"),
];

/// The placeholder of a collection's revision (a list's or a bookmark's resourceVersion).
pub const COLLECTION_VERSION: &str = "<collection resourceVersion>";
/// The placeholder of a list's continue token.
pub const CONTINUE_TOKEN: &str = "<continue>";
/// The placeholder of the oldest version a watch cache holds (a too-old-version message).
pub const OLDEST_VERSION: &str = "<oldest resourceVersion>";

/// Whether an answer is a list: kind `<Kind>List`, with `items`.
pub fn is_list(value: &Json) -> bool {
    value.get("items").is_some() && value["kind"].as_str().is_some_and(|k| k.ends_with("List"))
}

/// A list or a bookmark event with the values naming its collection's revision made their
/// placeholders, before anything else is walked (they take no placeholder number).
fn collection(m: &serde_json::Map<String, Json>) -> Option<serde_json::Map<String, Json>> {
    fn set(holder: &mut Json) {
        let Some(meta) = holder.get_mut("metadata").and_then(Json::as_object_mut) else {
            return;
        };
        for (key, p) in [
            ("resourceVersion", COLLECTION_VERSION),
            ("continue", CONTINUE_TOKEN),
        ] {
            if let Some(v) = meta.get_mut(key)
                && v.as_str().is_some_and(|s| !s.is_empty())
            {
                *v = Json::String(p.to_owned());
            }
        }
    }
    let mut out = Json::Object(m.clone());
    if is_list(&out) {
        set(&mut out);
    } else if out["type"] == "BOOKMARK" {
        if let Some(object) = out.get_mut("object") {
            set(object);
        }
    } else {
        return None;
    }
    match out {
        Json::Object(m) => Some(m),
        _ => None,
    }
}

/// The prefix of the token volume the ServiceAccount admission plugin adds to a Pod.
const TOKEN_VOLUME: &str = "kube-api-access-";

/// The placeholders of one case, numbered as values first appear.
#[derive(Debug, Default, Clone)]
pub struct Normaliser {
    uids: BTreeMap<String, String>,
    versions: BTreeMap<String, String>,
    allocated: BTreeMap<String, BTreeMap<String, String>>,
    generated: BTreeMap<String, String>,
    /// Names made from `generateName`, as written, and their normal form: other fields repeat
    /// them (a Job's labels).
    generated_names: BTreeMap<String, String>,
    explicit: BTreeSet<String>,
}

impl Normaliser {
    /// `text` with each token volume name it quotes (a refusal showing the pod spec it
    /// compared) made its placeholder, numbered in the order met.
    fn token_volumes_in_text(&mut self, text: &str) -> String {
        let mut out = String::with_capacity(text.len());
        let mut rest = text;
        while let Some(at) = rest.find(TOKEN_VOLUME) {
            let after = &rest[at + TOKEN_VOLUME.len()..];
            out.push_str(&rest[..at + TOKEN_VOLUME.len()]);
            match after.get(..5).filter(|s| is_name_suffix(s)) {
                Some(suffix) => {
                    let name = format!("{TOKEN_VOLUME}{suffix}");
                    out.push_str(&placeholder(&mut self.generated, "generated", &name));
                    rest = &after[5..];
                }
                None => rest = after,
            }
        }
        out.push_str(rest);
        out
    }
}

fn placeholder(map: &mut BTreeMap<String, String>, kind: &str, value: &str) -> String {
    if let Some(p) = map.get(value) {
        return p.clone();
    }
    // A value that is already this kind's placeholder keeps its number (a golden read back).
    let p = format!("<{kind} {}>", map.len() + 1);
    map.insert(value.to_owned(), p.clone());
    p
}

/// How a time becomes a label: the step that wrote it, or an error.
pub type TimeLabel<'a> = &'a dyn Fn(&str) -> Result<String, String>;

impl Normaliser {
    /// A normaliser with no placeholders yet.
    pub fn new() -> Normaliser {
        Normaliser::default()
    }

    /// Notes the values a request's body sets at allocated keys: a value the client chose is
    /// reproducible and stays.
    pub fn requested(&mut self, body: &Json) {
        match body {
            Json::Object(m) => {
                for (k, e) in m {
                    if ALLOCATED.iter().any(|(key, _)| key == k) {
                        for s in scalars(e) {
                            self.explicit.insert(s);
                        }
                    }
                    self.requested(e);
                }
            }
            Json::Array(l) => l.iter().for_each(|e| self.requested(e)),
            _ => {}
        }
    }

    /// `value` normalised; `label` names the step that wrote a time.
    pub fn normalise(&mut self, value: &Json, label: TimeLabel<'_>) -> Result<Json, String> {
        self.collect_uids(value);
        self.walk(value, "", label)
    }

    /// The value that the placeholder `p` of `kind` (`uid`, `resourceVersion`) stands for, if
    /// this normaliser has met one.
    pub fn value_of(&self, kind: &str, p: &str) -> Option<&str> {
        let map = match kind {
            "uid" => &self.uids,
            "resourceVersion" => &self.versions,
            "generated" => &self.generated,
            _ => return None,
        };
        map.iter().find(|(_, v)| *v == p).map(|(k, _)| k.as_str())
    }

    /// Makes `value` stand for the placeholder `p` of `kind` from now on.
    pub fn alias(&mut self, kind: &str, value: &str, p: &str) {
        let map = match kind {
            "uid" => &mut self.uids,
            "resourceVersion" => &mut self.versions,
            "generated" => &mut self.generated,
            _ => return,
        };
        map.insert(value.to_owned(), p.to_owned());
    }

    fn collect_uids(&mut self, value: &Json) {
        match value {
            Json::Object(m) => {
                if let Some(Json::String(s)) = m.get("uid")
                    && !s.is_empty()
                {
                    placeholder(&mut self.uids, "uid", s);
                }
                if let Some(prefix) = m.get("generateName").and_then(Json::as_str)
                    && !prefix.is_empty()
                    && let Some(name) = m.get("name").and_then(Json::as_str)
                    && name.len() > prefix.len()
                    && name.starts_with(prefix)
                {
                    let p = placeholder(&mut self.generated, "generated", name);
                    self.generated_names
                        .insert(name.to_owned(), format!("{prefix}{p}"));
                }
                // Go's sortedKeys order (serde_json keeps insertion order here).
                sorted(m).for_each(|(_, e)| self.collect_uids(e));
            }
            Json::Array(l) => l.iter().for_each(|e| self.collect_uids(e)),
            _ => {}
        }
    }

    fn walk(&mut self, value: &Json, key: &str, label: TimeLabel<'_>) -> Result<Json, String> {
        Ok(match value {
            Json::Object(m) => {
                let replaced = collection(m);
                let m = replaced.as_ref().unwrap_or(m);
                let is_entry = m.contains_key("manager");
                let mut out = serde_json::Map::new();
                // Placeholders are numbered in Go's sortedKeys order.
                for (k, e) in sorted(m) {
                    if k == "time"
                        && is_entry
                        && let Some(s) = e.as_str()
                    {
                        out.insert(k.clone(), Json::String(label(s)?));
                        continue;
                    }
                    let mut walked = self.walk(e, k, label)?;
                    if k == "causes" {
                        sort_conflict_causes(&mut walked);
                    }
                    out.insert(k.clone(), walked);
                }
                Json::Object(out)
            }
            Json::Array(l) => Json::Array(
                l.iter()
                    .map(|e| self.walk(e, key, label))
                    .collect::<Result<_, _>>()?,
            ),
            Json::String(s) => Json::String(self.string(s, key, label)?),
            Json::Number(n) => {
                let text = n.to_string();
                match allocated_group(key) {
                    Some(group)
                        if !self.explicit.contains(&text)
                            && text != "0"
                            && text.parse::<i64>().is_ok() =>
                    {
                        Json::String(placeholder(
                            self.allocated.entry(group.to_owned()).or_default(),
                            group,
                            &text,
                        ))
                    }
                    _ => value.clone(),
                }
            }
            other => other.clone(),
        })
    }

    fn string(&mut self, s: &str, key: &str, label: TimeLabel<'_>) -> Result<String, String> {
        match key {
            "uid" if !s.is_empty() => return Ok(placeholder(&mut self.uids, "uid", s)),
            "resourceVersion" if !s.is_empty() && s != COLLECTION_VERSION => {
                return Ok(placeholder(&mut self.versions, "resourceVersion", s));
            }
            "creationTimestamp" | "deletionTimestamp" => return label(s),
            _ => {}
        }
        if let Some(suffix) = s.strip_prefix(TOKEN_VOLUME)
            && is_name_suffix(suffix)
        {
            let p = placeholder(&mut self.generated, "generated", s);
            return Ok(format!("{TOKEN_VOLUME}{p}"));
        }
        if let Some(group) = allocated_group(key)
            && !self.explicit.contains(s)
            && s != "None"
            && !s.is_empty()
        {
            return Ok(placeholder(
                self.allocated.entry(group.to_owned()).or_default(),
                group,
                s,
            ));
        }
        let mut out = self.token_volumes_in_text(s);
        for (uid, p) in &self.uids {
            out = out.replace(uid.as_str(), p);
        }
        // Longest first, so that a name holding another is rewritten whole.
        let mut names: Vec<(&String, &String)> = self.generated_names.iter().collect();
        names.sort_by(|a, b| b.0.len().cmp(&a.0.len()).then_with(|| a.0.cmp(b.0)));
        for (name, p) in names {
            out = out.replace(name.as_str(), p);
        }
        self.embedded(&out, label)
    }

    /// The resourceVersions and times a message quotes (as JSON text, its quotes escaped once
    /// or more, or a precondition's `ResourceVersion in record (N)`, the Namespace registry's
    /// `ResourceVersion in object meta: N`), rewritten as the
    /// object's own are.
    fn embedded(&mut self, s: &str, label: TimeLabel<'_>) -> Result<String, String> {
        let versions = &mut self.versions;
        let s = replace_quoted(s, &["resourceVersion"], digits_len, |v| {
            Ok(placeholder(versions, "resourceVersion", v))
        })?;
        let s = replace_record_versions(&s, |v| Ok(placeholder(versions, "resourceVersion", v)))?;
        let s = replace_too_old(&s, |v| placeholder(versions, "resourceVersion", v));
        replace_quoted(
            &s,
            &["creationTimestamp", "deletionTimestamp", "time"],
            time_len,
            label,
        )
    }
}

/// The causes of an apply conflict ordered by their message (the manager), each manager's
/// fields in the server's order, as gogen orders them: the field manager collects conflicts
/// from a map of managers, so with two or more their order varies between requests.
fn sort_conflict_causes(causes: &mut Json) {
    if let Json::Array(l) = causes
        && l.iter().all(|c| c["reason"] == "FieldManagerConflict")
    {
        l.sort_by(|a, b| a["message"].as_str().cmp(&b["message"].as_str()));
    }
}

/// A JSON object's members in the order of their keys.
fn sorted(m: &serde_json::Map<String, Json>) -> impl Iterator<Item = (&String, &Json)> {
    let mut members: Vec<(&String, &Json)> = m.iter().collect();
    members.sort_by(|a, b| a.0.cmp(b.0));
    members.into_iter()
}

fn allocated_group(key: &str) -> Option<&'static str> {
    ALLOCATED.iter().find(|(k, _)| *k == key).map(|(_, g)| *g)
}

/// Five characters of the alphabet of random name suffixes (no vowels, no look-alikes).
fn is_name_suffix(s: &str) -> bool {
    s.len() == 5
        && s.bytes()
            .all(|b| b"bcdfghjklmnpqrstvwxz2456789".contains(&b))
}

/// Go's `fmt.Sprint` of each scalar of a value (lists flattened; null gives none).
fn scalars(value: &Json) -> Vec<String> {
    match value {
        Json::Array(l) => l.iter().flat_map(scalars).collect(),
        Json::Null => Vec::new(),
        Json::String(s) => vec![s.clone()],
        other => vec![other.to_string()],
    }
}

/// `s` with the value of every `"NAME":"VALUE` (the quotes escaped any number of times, NAME one
/// of `names`, VALUE `value_len` bytes long) replaced by `f`'s answer, as gogen's
/// `"(?:NAMES)\\*":\\*"(VALUE)` does.
fn replace_quoted(
    s: &str,
    names: &[&str],
    value_len: fn(&str) -> Option<usize>,
    mut f: impl FnMut(&str) -> Result<String, String>,
) -> Result<String, String> {
    let mut out = String::with_capacity(s.len());
    let mut rest = s;
    while let Some(at) = rest.find('"') {
        let after = &rest[at + 1..];
        let value_at = names.iter().find_map(|name| {
            let tail = after.strip_prefix(name)?.trim_start_matches('\\');
            let tail = tail.strip_prefix("\":")?.trim_start_matches('\\');
            let value = tail.strip_prefix('"')?;
            let len = value_len(value)?;
            Some((s.len() - value.len(), len))
        });
        match value_at {
            Some((start, len)) => {
                let offset = s.len() - rest.len();
                out.push_str(&s[offset..start]);
                out.push_str(&f(&s[start..start + len])?);
                rest = &s[start + len..];
            }
            None => {
                out.push_str(&rest[..at + 1]);
                rest = after;
            }
        }
    }
    out.push_str(rest);
    Ok(out)
}

/// `s` with the N of every `ResourceVersion in record (N)` (a precondition's) and
/// `ResourceVersion in object meta: N` (the Namespace registry's) replaced by `f`'s answer.
fn replace_record_versions(
    s: &str,
    mut f: impl FnMut(&str) -> Result<String, String>,
) -> Result<String, String> {
    const PREFIX: &str = "ResourceVersion in ";
    const PLACES: &[&str] = &["record (", "object meta: "];
    let mut out = String::with_capacity(s.len());
    let mut rest = s;
    while let Some(at) = rest.find(PREFIX) {
        let after = &rest[at + PREFIX.len()..];
        let place = PLACES.iter().find(|p| after.starts_with(**p));
        let Some(place) = place else {
            out.push_str(&rest[..at + PREFIX.len()]);
            rest = after;
            continue;
        };
        let value = &after[place.len()..];
        out.push_str(&rest[..at + PREFIX.len() + place.len()]);
        match digits_len(value) {
            Some(n) => {
                out.push_str(&f(&value[..n])?);
                rest = &value[n..];
            }
            None => rest = value,
        }
    }
    out.push_str(rest);
    Ok(out)
}

/// `s` with every `too old resource version: X (Y)` (a watch from a version the watch cache
/// no longer holds) written with `f`'s answer for X, the version asked for, and
/// [`OLDEST_VERSION`] for Y, the cache's oldest (moved by every case's writes).
fn replace_too_old(s: &str, mut f: impl FnMut(&str) -> String) -> String {
    const PREFIX: &str = "too old resource version: ";
    let mut out = String::with_capacity(s.len());
    let mut rest = s;
    while let Some(at) = rest.find(PREFIX) {
        let after = &rest[at + PREFIX.len()..];
        out.push_str(&rest[..at + PREFIX.len()]);
        let shape = digits_len(after).and_then(|x| {
            let tail = after[x..].strip_prefix(" (")?;
            let y = digits_len(tail)?;
            tail[y..].starts_with(')').then_some((x, y))
        });
        match shape {
            Some((x, y)) => {
                out.push_str(&f(&after[..x]));
                out.push_str(" (");
                out.push_str(OLDEST_VERSION);
                out.push(')');
                rest = &after[x + 2 + y + 1..];
            }
            None => rest = after,
        }
    }
    out.push_str(rest);
    out
}

/// The length of the run of ASCII digits `s` starts with, if any.
fn digits_len(s: &str) -> Option<usize> {
    let n = s.bytes().take_while(u8::is_ascii_digit).count();
    (n > 0).then_some(n)
}

/// 20 when `s` starts with a time as `YYYY-MM-DDTHH:MM:SSZ`.
fn time_len(s: &str) -> Option<usize> {
    let shape = b"dddd-dd-ddTdd:dd:ddZ";
    let b = s.as_bytes();
    (b.len() >= shape.len()
        && shape.iter().zip(b).all(|(&want, &got)| {
            if want == b'd' {
                got.is_ascii_digit()
            } else {
                want == got
            }
        }))
    .then_some(shape.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// gogen's TestNormaliserCollections, the same answer and the same normal form.
    #[test]
    fn collections_take_fixed_placeholders() {
        let body: Json = serde_json::from_str(
            r#"[{"type":"BOOKMARK","object":{"metadata":{"resourceVersion":"900"}}},
            {"kind":"ConfigMapList","metadata":{"resourceVersion":"901","continue":"eyJ2Ijo","remainingItemCount":2},
             "items":[{"metadata":{"name":"a","resourceVersion":"5"}}]},
            {"type":"ERROR","object":{"kind":"Status","message":"too old resource version: 3 (850)"}}]"#,
        )
        .unwrap_or_default();
        let keep = |t: &str| -> Result<String, String> { Ok(t.to_owned()) };
        let got = Normaliser::new()
            .normalise(&body, &keep)
            .unwrap_or_default();
        let want = r#"[{"object":{"metadata":{"resourceVersion":"<collection resourceVersion>"}},"type":"BOOKMARK"},{"items":[{"metadata":{"name":"a","resourceVersion":"<resourceVersion 1>"}}],"kind":"ConfigMapList","metadata":{"continue":"<continue>","remainingItemCount":2,"resourceVersion":"<collection resourceVersion>"}},{"object":{"kind":"Status","message":"too old resource version: <resourceVersion 2> (<oldest resourceVersion>)"},"type":"ERROR"}]"#;
        assert_eq!(got.to_string(), want);
        let again = Normaliser::new().normalise(&got, &keep).unwrap_or_default();
        assert_eq!(again, got);
    }

    #[test]
    fn versions_quoted_in_precondition_messages_are_mapped() {
        let mut seen = Vec::new();
        let out = replace_record_versions(
            "the ResourceVersion in the precondition (1) does not match the ResourceVersion in record (2832). x; Precondition failed: ResourceVersion in precondition: 1, ResourceVersion in object meta: 2833",
            |v| {
                seen.push(v.to_owned());
                Ok(format!("<{v}>"))
            },
        )
        .unwrap_or_default();
        assert_eq!(seen, ["2832", "2833"]);
        assert!(out.ends_with(
            "ResourceVersion in precondition: 1, ResourceVersion in object meta: <2833>"
        ));
        assert!(out.contains("ResourceVersion in record (<2832>)"));
    }
}
