//! The normalisation of API-server answers that `gogen apiserver` applies to the real server's
//! (conformance/gogen/apiserver.go, `normaliser`), ported so that smd's answers are normalised
//! by the same rules before they are compared with the goldens: what no server reproduces
//! becomes a placeholder numbered by its order of appearance within a case (uids, resource
//! versions, `generateName` suffixes, the ServiceAccount token volume's suffix, allocated
//! cluster IPs and node ports), and each time becomes the step that wrote it.
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

/// The prefix of the token volume the ServiceAccount admission plugin adds to a Pod.
const TOKEN_VOLUME: &str = "kube-api-access-";

/// The placeholders of one case, numbered as values first appear.
#[derive(Debug, Default, Clone)]
pub struct Normaliser {
    uids: BTreeMap<String, String>,
    versions: BTreeMap<String, String>,
    allocated: BTreeMap<String, BTreeMap<String, String>>,
    generated: BTreeMap<String, String>,
    explicit: BTreeSet<String>,
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
            _ => return None,
        };
        map.iter().find(|(_, v)| *v == p).map(|(k, _)| k.as_str())
    }

    /// Makes `value` stand for the placeholder `p` of `kind` from now on.
    pub fn alias(&mut self, kind: &str, value: &str, p: &str) {
        let map = match kind {
            "uid" => &mut self.uids,
            "resourceVersion" => &mut self.versions,
            _ => return,
        };
        map.insert(value.to_owned(), p.to_owned());
    }

    fn collect_uids(&mut self, value: &Json) {
        match value {
            Json::Object(m) => {
                // serde_json's map is sorted by key: Go's sortedKeys order.
                if let Some(Json::String(s)) = m.get("uid")
                    && !s.is_empty()
                {
                    placeholder(&mut self.uids, "uid", s);
                }
                m.values().for_each(|e| self.collect_uids(e));
            }
            Json::Array(l) => l.iter().for_each(|e| self.collect_uids(e)),
            _ => {}
        }
    }

    fn walk(&mut self, value: &Json, key: &str, label: TimeLabel<'_>) -> Result<Json, String> {
        Ok(match value {
            Json::Object(m) => {
                let generate_name = m.get("generateName").and_then(Json::as_str).unwrap_or("");
                let is_entry = m.contains_key("manager");
                let mut out = serde_json::Map::new();
                for (k, e) in m {
                    if k == "name"
                        && !generate_name.is_empty()
                        && let Some(s) = e.as_str()
                        && s.len() > generate_name.len()
                        && s.starts_with(generate_name)
                    {
                        let p = placeholder(&mut self.generated, "generated", s);
                        out.insert(k.clone(), Json::String(format!("{generate_name}{p}")));
                        continue;
                    }
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
            "resourceVersion" if !s.is_empty() => {
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
        let mut out = s.to_owned();
        for (uid, p) in &self.uids {
            out = out.replace(uid.as_str(), p);
        }
        if key == "message" {
            out = self.versions_in(&out);
        }
        Ok(out)
    }

    /// A refusal's message with each whole number that is a resourceVersion already numbered
    /// (a delete precondition's `in record (316)`) made its placeholder.
    fn versions_in(&self, s: &str) -> String {
        let mut out = String::with_capacity(s.len());
        let mut run = String::new();
        let flush = |run: &mut String, out: &mut String| {
            match self.versions.get(run.as_str()) {
                Some(p) => out.push_str(p),
                None => out.push_str(run),
            }
            run.clear();
        };
        for c in s.chars() {
            if c.is_ascii_digit() {
                run.push(c);
            } else {
                flush(&mut run, &mut out);
                out.push(c);
            }
        }
        flush(&mut run, &mut out);
        out
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
