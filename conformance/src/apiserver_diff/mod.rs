//! The differential run against a real kube-apiserver (issue 12, item 5): random request
//! sequences ([`generate`]) go to the running server through `gogen apiserver serve`, which
//! answers each with what a golden of `conformance/apiserver/goldens` holds, and smd replays the
//! same sequence against those answers with the comparison the goldens test uses
//! ([`crate::apiserver::replay_case`]). Each step where smd differs gets a [`category`]; the
//! counts per category are compared with a committed baseline (a ratchet: a count may fall,
//! never rise, and no category may appear), and the first case of each category is shrunk to a
//! scenario case ready to paste under `cases:` of a file in `conformance/apiserver/scenarios`.

pub mod generate;

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::Path;

use serde_json::{Value as Json, json};
use smd_fieldpath::Value;

use crate::apiserver::{Outcome, replay_case};
use crate::differential::gogen::Gogen;

/// A running `gogen apiserver serve` with the CRDs created.
#[derive(Debug)]
pub struct Server {
    gogen: Gogen,
    /// The CRDs, as smd reads them.
    pub crds: Vec<Value>,
    /// How many cases were sent so far (names shrink candidates uniquely).
    sent: u64,
}

impl Server {
    /// Starts `GOGEN apiserver serve --parallel N` (the environment names the server) and
    /// creates the sequences' CRDs.
    pub fn start(gogen: &Path, parallel: usize) -> Result<Server, String> {
        let crds = generate::crds()?;
        let mut gogen = Gogen::spawn_args(
            gogen,
            &["apiserver", "serve", "--parallel", &parallel.to_string()],
        )?;
        let ready = gogen.ask(&json!({ "crds": crds }))?;
        if ready["ready"].as_str().is_none() {
            return Err(format!("gogen apiserver serve: not ready: {ready}"));
        }
        let crds = crds
            .iter()
            .map(|c| Value::from_json(&c.to_string()).map_err(|e| e.to_string()))
            .collect::<Result<_, _>>()?;
        Ok(Server {
            gogen,
            crds,
            sent: 0,
        })
    }

    /// The server's answers to `cases` (each named uniquely: the name is its namespace), by
    /// name.
    pub fn answer(&mut self, cases: &[Json]) -> Result<BTreeMap<String, Json>, String> {
        self.gogen.send(cases)?;
        self.sent += cases.len() as u64;
        let mut answers = BTreeMap::new();
        for _ in cases {
            let a = self.gogen.receive()?;
            let name = a["name"].as_str().unwrap_or_default().to_owned();
            answers.insert(name, a);
        }
        Ok(answers)
    }
}

/// One step where smd differs: the step (from 1), its category, what differs.
#[derive(Debug, Clone, PartialEq)]
pub struct Finding {
    /// The step, counted from 1 (0: the case as a whole).
    pub step: usize,
    /// The class of the difference (see [`category`]).
    pub category: String,
    /// What differs, as the comparison says it.
    pub detail: String,
}

/// Compares smd with the server's answer to one case.
pub fn findings(case: &Json, crds: &[Value], answer: &Json) -> Vec<Finding> {
    if let Some(e) = answer["error"].as_str() {
        return vec![Finding {
            step: 0,
            category: format!("harness: gogen could not replay the case: {}", scrub(e)),
            detail: e.to_owned(),
        }];
    }
    let expected = answer["steps"].as_array().cloned().unwrap_or_default();
    let reports = match replay_case(case, crds, &expected) {
        Ok(r) => r,
        Err(e) => {
            return vec![Finding {
                step: 0,
                category: format!("replay error (smd): {}", scrub(&e)),
                detail: e,
            }];
        }
    };
    let steps = case["steps"].as_array().cloned().unwrap_or_default();
    reports
        .into_iter()
        .filter_map(|r| {
            let step = steps.get(r.step - 1)?;
            let server = expected.get(r.step - 1)?;
            let (category, detail) = category(step, server, &r.outcome)?;
            Some(Finding {
                step: r.step,
                category,
                detail,
            })
        })
        .collect()
}

/// The kind a step writes (from its path).
fn step_kind(step: &Json) -> &'static str {
    let path = step["path"].as_str().unwrap_or_default();
    let segments: Vec<&str> = path.split('/').collect();
    // Every namespaced path holds "namespaces" too: a Namespace only when nothing else matches.
    let matching = |k: &&generate::Kind| segments.contains(&k.plural);
    generate::KINDS
        .iter()
        .filter(|k| k.namespaced)
        .find(matching)
        .or_else(|| generate::KINDS.iter().find(matching))
        .map_or("?", |k| k.kind)
}

/// The request, in a few words: method, patch type, subresource.
fn request_label(step: &Json) -> String {
    let method = step["method"].as_str().unwrap_or_default();
    let mut label = method.to_owned();
    if method == "PATCH" {
        let ct = step["contentType"].as_str().unwrap_or_default();
        label.push_str(match ct {
            "application/apply-patch+yaml" => " apply",
            "application/merge-patch+json" => " merge",
            "application/json-patch+json" => " json-patch",
            "application/strategic-merge-patch+json" => " strategic",
            _ => " other",
        });
    }
    let path = step["path"].as_str().unwrap_or_default();
    for sub in ["/status", "/scale"] {
        if path.ends_with(sub) {
            label.push_str(sub);
        }
    }
    if method == "GET" {
        if crate::apiserver::is_watch(step) {
            label.push_str(" watch");
        } else if is_collection(path) {
            label.push_str(" list");
        }
    }
    label
}

/// Whether a path names a collection of the kinds the sequences write (it ends with the
/// plural).
fn is_collection(path: &str) -> bool {
    let last = path.rsplit('/').next().unwrap_or_default();
    generate::KINDS.iter().any(|k| k.plural == last)
}

/// The class of a difference, and what differs; `None` when smd agrees.
///
/// The classes name the item of issue 12 that owns them (3: the request layer, the patch
/// algorithms; 4: the decoding and defaulting of built-in objects; 6: verdicts, refusals,
/// bookkeeping and managedFields that must agree) or the next issue (the registry's 422
/// validation; issue 13 item 4, CRD pruning and defaulting: a custom resource's unknown fields
/// and whole object). The first difference of
/// the step decides. A difference in the managedFields of
/// a built-in kind, or an "unknown field" warning, counts as decoding and defaulting (item 4):
/// that is what nearly all of them are until item 4 lands.
pub fn category(step: &Json, server: &Json, outcome: &Outcome) -> Option<(String, String)> {
    let Outcome::Differs(detail) = outcome else {
        return None;
    };
    let kind = step_kind(step);
    let request = request_label(step);
    let status = server["status"].as_u64().unwrap_or(0);
    let reason = server["body"]["reason"].as_str().unwrap_or("");
    let message = server["body"]["message"].as_str().unwrap_or("");
    let answered = if reason.is_empty() {
        status.to_string()
    } else {
        format!("{status} {reason}")
    };
    let first = detail.split("; ").next().unwrap_or_default();
    let (first, stored) = match first.strip_prefix("stored object: ") {
        Some(rest) => (rest, " (stored object)"),
        None => (first, ""),
    };
    let read = request.ends_with(" list") || request.ends_with(" watch");
    let c = if let Some(c) = go_varies(server, detail) {
        c
    } else if read {
        read_category(kind, &request, first, status, &answered)
    } else if matches!(kind, "Widget" | "Knob")
        && (detail.contains("unknown field") || first.starts_with("object: "))
    {
        // What a custom resource's schema prunes and defaults (issue 13, item 4): the unknown
        // fields warned of, the whole object stored.
        format!(
            "issue 13 item 4, CRD pruning and defaulting of a custom resource{stored}: {request}"
        )
    } else if detail.contains("stringData") && kind == "Secret" {
        // The Secret strategy folds stringData into data before the object is stored, so the
        // stored object never has the stringData an applier owns.
        format!("next issue, registry strategy: Secret stringData folded into data: {request}")
    } else if first.starts_with("status: ") {
        // The server's message may hold "; " and ", ": smd's code is the three digits after
        // the first ", smd " followed by digits.
        let smd = detail
            .match_indices(", smd ")
            .map(|(i, m)| &detail[i + m.len()..])
            .filter_map(|t| t.get(..3))
            .find(|code| code.bytes().all(|b| b.is_ascii_digit()))
            .unwrap_or("");
        let smd_ok = smd.starts_with('2');
        let patch = request.starts_with("PATCH") && !request.starts_with("PATCH apply");
        if status == 422 && reason == "Invalid" && smd_ok {
            if message.contains("managedFields") {
                format!(
                    "item 6, verdict: {request}: managedFields in the body, server 422, smd {smd}"
                )
            } else {
                format!("next issue, registry validation (422 Invalid): {kind}")
            }
        } else if patch && smd == "500" {
            format!("item 3, patch algorithms not in smd yet: {request}")
        } else {
            format!("item 6, verdict: {request}: server {answered}, smd {smd}")
        }
    } else if first.starts_with("answer: ") {
        if status < 300 {
            format!("item 6, answer differs: {request}: server {status}")
        } else {
            format!("item 6, refusal Status: {request}: server {answered}")
        }
    } else if first.starts_with("kind: ") {
        format!("item 6, kind answered: {request}")
    } else if let Some(rest) = first.strip_prefix("metadata.") {
        let key = rest.split(':').next().unwrap_or_default();
        format!("item 6, bookkeeping metadata.{key}{stored}: {kind} {request}")
    } else if first.starts_with("warnings: ") {
        if first.contains("unknown field") {
            format!("item 4, decoding (unknown-field warnings): {request}")
        } else {
            format!("item 6, warnings: {request}")
        }
    } else if let Some(rest) = first.strip_prefix("object: ") {
        // The whole object beyond bookkeeping and managedFields (this issue): the field
        // named, list indices dropped, says which part of the server's write path it is.
        let field: String = rest
            .split(": server ")
            .next()
            .unwrap_or_default()
            .split('[')
            .enumerate()
            .map(|(i, part)| {
                if i == 0 {
                    part
                } else {
                    part.split_once(']').map_or(part, |(_, tail)| tail)
                }
            })
            .collect::<Vec<_>>()
            .join("[]");
        format!("issue 13, stored object{stored}: {kind} {field}")
    } else if matches!(kind, "Widget" | "Knob") {
        format!("item 6, managedFields{stored}: {kind} {request}")
    } else {
        format!("item 4, defaulting (managedFields differ){stored}: {kind} {request}")
    };
    Some((c, detail.clone()))
}

/// The class of a difference in a list or a watch: the verdict, the refusal, the events
/// (their count, types or order), an event's or an item's object, the list's metadata.
fn read_category(kind: &str, request: &str, first: &str, status: u64, answered: &str) -> String {
    let what = if first.starts_with("status: ") {
        let smd = first
            .rsplit_once(", smd ")
            .and_then(|(_, t)| t.get(..3))
            .unwrap_or("");
        format!("verdict: server {answered}, smd {smd}")
    } else if first.starts_with("answer: ") && status >= 300 {
        format!("refusal Status: server {answered}")
    } else if first.starts_with("events: ") || first.starts_with("answer: ") {
        "events (count, types, order)".to_owned()
    } else if first.starts_with("events[") {
        "an event's object".to_owned()
    } else if first.starts_with("items: ") {
        "items (count, order)".to_owned()
    } else if first.starts_with("items[") {
        "an item".to_owned()
    } else if let Some(rest) = first.strip_prefix("list ") {
        format!("list {}", rest.split(':').next().unwrap_or_default())
    } else if first.starts_with("kind: ") {
        "kind answered".to_owned()
    } else {
        "other".to_owned()
    };
    format!("list and watch, {what}: {kind} {request}")
}

/// The category of the answers a real server gives at random, when smd's is one of them
/// (checked, not assumed): the field manager's typed patch stops at the first undeclared field
/// of a Go map, walked in random order (`visitMapItems`), so which of several undeclared fields
/// it names varies from one run to the next; smd names them all, one of the server's answers.
pub const GO_VARIES: &str = "Go's answer varies";

/// The allocated placeholders (`<clusterIP 2>`, `<nodePort 1>`) in a text, in order.
fn allocated_placeholders(text: &str) -> Vec<(&str, u64)> {
    let mut out = Vec::new();
    for kind in ["clusterIP", "nodePort"] {
        let open = format!("<{kind} ");
        let mut rest = text;
        while let Some(at) = rest.find(&open) {
            rest = &rest[at + open.len()..];
            let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
            if let Ok(n) = digits.parse() {
                out.push((kind, n));
            }
        }
    }
    out
}

/// Whether every difference of a step is an allocated value where the server's is one the
/// sequence met before and smd's a new one: the real allocators draw at random and now and
/// then hand out a value a deletion just released; smd moves on, as the server almost always
/// does.
fn reused_allocation(detail: &str) -> bool {
    detail.split("; ").all(|d| {
        let Some((server, smd)) = d.split_once(", smd ") else {
            return false;
        };
        let (theirs, ours) = (allocated_placeholders(server), allocated_placeholders(smd));
        !theirs.is_empty()
            && theirs.len() == ours.len()
            && theirs
                .iter()
                .zip(&ours)
                .all(|((k, n), (l, m))| k == l && n <= m)
            && theirs.iter().zip(&ours).any(|((_, n), (_, m))| n < m)
    })
}

/// The paths a typed-patch error names as not declared in the schema.
fn undeclared(text: &str) -> Vec<&str> {
    const WHY: &str = ": field not declared in schema";
    text.match_indices(WHY)
        .filter_map(|(i, _)| text[..i].rsplit([' ', '\n']).next())
        .filter(|p| p.starts_with('.'))
        .collect()
}

fn go_varies(server: &Json, detail: &str) -> Option<String> {
    if reused_allocation(detail) {
        return Some(format!(
            "{GO_VARIES}: the server's allocator drew an address or port released earlier in the sequence"
        ));
    }
    let message = server["body"]["message"].as_str()?;
    if server["status"].as_u64() != Some(500)
        || !message.starts_with("failed to create typed patch object")
    {
        return None;
    }
    let theirs = undeclared(message);
    let mine = undeclared(detail.split(", smd ").nth(1)?);
    (!theirs.is_empty() && mine.len() > theirs.len() && theirs.iter().all(|p| mine.contains(p)))
        .then(|| {
            format!(
                "{GO_VARIES}: a typed patch with several undeclared fields names those a Go map walk meets first"
            )
        })
}

/// A message made a category: digits and quotes' contents kept short, no control characters.
fn scrub(s: &str) -> String {
    let line = s.lines().next().unwrap_or_default();
    let mut out: String = line
        .chars()
        .map(|c| {
            if c.is_ascii_digit() {
                'N'
            } else if c.is_control() {
                ' '
            } else {
                c
            }
        })
        .collect();
    if out.len() > 100 {
        let mut cut = 100;
        while !out.is_char_boundary(cut) {
            cut -= 1;
        }
        out.truncate(cut);
    }
    out
}

/// What the run found.
#[derive(Debug, Default)]
pub struct Report {
    /// Steps (or cases, for whole-case findings) per category.
    pub counts: BTreeMap<String, u64>,
    /// The first case of each category (the one with the lowest index): (index, case).
    pub examples: BTreeMap<String, (u64, Json)>,
    /// Steps compared, and steps that agreed.
    pub steps: u64,
    /// Steps where smd agrees.
    pub agree: u64,
    /// Every finding, as (sequence index, finding), in the order found.
    pub findings: Vec<(u64, Finding)>,
    /// The mix of requests, as the server answered them.
    pub mix: Mix,
}

/// What the sequences asked of the server, measured on its answers (the done-when
/// asks for a share of validation refusals and of creates that leave defaults to the server).
#[derive(Debug, Default, Clone)]
pub struct Mix {
    /// Steps the server refused with 422 `Invalid`.
    pub refused_invalid: u64,
    /// Per kind, the steps that created an object (201) and those whose stored object holds
    /// a field outside `metadata` and `status` that the request's body did not send (a
    /// default the server filled).
    pub creates: BTreeMap<String, (u64, u64)>,
    /// Each `apiVersion` and kind written, with its steps.
    pub versions: BTreeMap<String, u64>,
    /// List steps, and the items the server's lists held.
    pub lists: (u64, u64),
    /// Watch steps, and the events the server's watches delivered.
    pub watches: (u64, u64),
    /// The events the server's watches delivered, by type.
    pub events: BTreeMap<String, u64>,
}

impl Mix {
    fn count(&mut self, case: &Json, answer: &Json) {
        let steps = case["steps"].as_array().cloned().unwrap_or_default();
        let answers = answer["steps"].as_array().cloned().unwrap_or_default();
        for (step, server) in steps.iter().zip(&answers) {
            let status = server["status"].as_u64().unwrap_or(0);
            if status == 422 && server["body"]["reason"] == "Invalid" {
                self.refused_invalid += 1;
            }
            let items = |v: &Json| v.as_array().map_or(0, |l| l.len() as u64);
            match request_label(step).as_str() {
                "GET list" => {
                    self.lists.0 += 1;
                    self.lists.1 += items(&server["body"]["items"]);
                }
                "GET watch" => {
                    self.watches.0 += 1;
                    self.watches.1 += items(&server["body"]);
                    for e in server["body"].as_array().into_iter().flatten() {
                        let t = e["type"].as_str().unwrap_or("?").to_owned();
                        *self.events.entry(t).or_default() += 1;
                    }
                }
                _ => {}
            }
            let body = &step["body"];
            if let (Some(v), Some(k)) = (body["apiVersion"].as_str(), body["kind"].as_str()) {
                *self.versions.entry(format!("{k} {v}")).or_default() += 1;
            }
            if status == 201 {
                let kind = server["body"]["kind"]
                    .as_str()
                    .unwrap_or_default()
                    .to_owned();
                let entry = self.creates.entry(kind).or_default();
                entry.0 += 1;
                if fills_a_default(body, &server["body"]) {
                    entry.1 += 1;
                }
            }
        }
    }

    /// Creates of the kinds the server defaults (some create of the kind had a default
    /// filled), and those among them that left a default to the server.
    pub fn defaulted_creates(&self) -> (u64, u64) {
        self.creates
            .values()
            .filter(|(_, filled)| *filled > 0)
            .fold((0, 0), |(c, f), (creates, filled)| {
                (c + creates, f + filled)
            })
    }
}

/// Whether `stored` holds a field, outside `metadata` and `status`, that `sent` lacks.
fn fills_a_default(sent: &Json, stored: &Json) -> bool {
    fn walk(sent: Option<&Json>, stored: &Json) -> bool {
        match stored {
            Json::Object(m) => m.iter().any(|(k, v)| {
                let s = sent.and_then(|s| s.get(k));
                s.is_none() || walk(s, v)
            }),
            Json::Array(items) => items
                .iter()
                .enumerate()
                .any(|(i, v)| walk(sent.and_then(|s| s.get(i)), v)),
            _ => false,
        }
    }
    stored.as_object().is_some_and(|m| {
        m.iter()
            .filter(|(k, _)| !matches!(k.as_str(), "metadata" | "status" | "apiVersion" | "kind"))
            .any(|(k, v)| walk(sent.get(k), v))
    })
}

/// Runs `count` sequences of `seed` against the server, `batch` at a time, printing progress.
pub fn run(server: &mut Server, seed: u64, count: u64, batch: u64) -> Result<Report, String> {
    let mut report = Report::default();
    let mut index = 0;
    while index < count {
        let end = count.min(index + batch.max(1));
        let cases: Vec<(u64, Json)> = (index..end)
            .map(|i| (i, generate::sequence(seed, i, &format!("d{seed}-{i}"))))
            .collect();
        let list: Vec<Json> = cases.iter().map(|(_, c)| c.clone()).collect();
        let answers = server.answer(&list)?;
        for (i, case) in cases {
            let name = case["name"].as_str().unwrap_or_default();
            let answer = answers
                .get(name)
                .ok_or_else(|| format!("gogen did not answer case {name}"))?;
            let steps = case["steps"].as_array().map_or(0, Vec::len) as u64;
            report.steps += steps;
            report.mix.count(&case, answer);
            let found = findings(&case, &server.crds, answer);
            let differing: std::collections::BTreeSet<usize> =
                found.iter().map(|f| f.step).collect();
            report.agree += steps.saturating_sub(differing.len() as u64);
            for f in found {
                report.findings.push((i, f.clone()));
                *report.counts.entry(f.category.clone()).or_default() += 1;
                report
                    .examples
                    .entry(f.category)
                    .or_insert_with(|| (i, case.clone()));
            }
        }
        index = end;
        eprintln!("apiserver differential: {index}/{count} sequences");
    }
    Ok(report)
}

/// The steps up to the first one showing `category` (the whole case when none does).
fn truncate_at(case: &Json, found: &[Finding], category: &str) -> Json {
    let mut case = case.clone();
    if let Some(f) = found.iter().find(|f| f.category == category && f.step > 0)
        && let Some(steps) = case["steps"].as_array_mut()
    {
        steps.truncate(f.step);
    }
    case
}

/// The most candidates one example sends to the server per shrinking round.
const MAX_CANDIDATES: usize = 64;

/// Smaller versions of a case, the biggest cuts first: without one step (not the last, which
/// shows the difference); then, step by step, without one query parameter, without reading
/// the object back (not the last step), without one label, one field of `spec`, one key of
/// `data`.
fn simplifications(case: &Json) -> Vec<Json> {
    let steps = case["steps"].as_array().cloned().unwrap_or_default();
    let mut out = Vec::new();
    let with_steps = |steps: Vec<Json>| {
        let mut c = case.clone();
        c["steps"] = Json::Array(steps);
        c
    };
    for j in 0..steps.len().saturating_sub(1) {
        let mut s = steps.clone();
        s.remove(j);
        out.push(with_steps(s));
    }
    for (j, step) in steps.iter().enumerate() {
        let mut variants = Vec::new();
        if let Some(query) = step["query"].as_object() {
            for k in query.keys() {
                let mut v = step.clone();
                if let Some(q) = v["query"].as_object_mut() {
                    q.remove(k);
                    if q.is_empty()
                        && let Some(m) = v.as_object_mut()
                    {
                        m.remove("query");
                    }
                }
                variants.push(v);
            }
        }
        if j + 1 < steps.len() && step.get("stored").is_some() {
            let mut v = step.clone();
            if let Some(m) = v.as_object_mut() {
                m.remove("stored");
            }
            variants.push(v);
        }
        for pointer in ["/body/metadata/labels", "/body/spec", "/body/data"] {
            if let Some(m) = step.pointer(pointer).and_then(Json::as_object) {
                for k in m.keys() {
                    let mut v = step.clone();
                    if let Some(m) = v.pointer_mut(pointer).and_then(Json::as_object_mut) {
                        m.remove(k);
                    }
                    variants.push(v);
                }
            }
        }
        for v in variants {
            let mut s = steps.clone();
            if let Some(slot) = s.get_mut(j) {
                *slot = v;
            }
            out.push(with_steps(s));
        }
    }
    out
}

/// A sequence made small.
#[derive(Debug, Clone)]
pub struct Shrunk {
    /// The category it shows.
    pub category: String,
    /// The index of the sequence it was cut from.
    pub index: u64,
    /// The case.
    pub case: Json,
    /// What differs at its last step.
    pub detail: String,
}

/// The detail of the first finding of `category`.
fn detail_of(found: &[Finding], category: &str) -> String {
    found
        .iter()
        .find(|f| f.category == category)
        .map(|f| f.detail.clone())
        .unwrap_or_default()
}

/// Shrinks each example to a smaller case that still shows its category: rounds of
/// [`simplifications`], every candidate of every example sent to the server at once, the first
/// that still shows the category kept, until no candidate does.
pub fn shrink(
    server: &mut Server,
    examples: &BTreeMap<String, (u64, Json)>,
    seed: u64,
) -> Result<Vec<Shrunk>, String> {
    let mut current: Vec<(Shrunk, bool)> = Vec::new();
    let mut counter = 0u64;
    let mut rename = |case: &Json| {
        counter += 1;
        let mut c = case.clone();
        c["name"] = json!(format!("s{seed}-{counter}"));
        c
    };
    // First the examples themselves, truncated after their step (verified, as every candidate).
    let first: Vec<Json> = examples.values().map(|(_, c)| rename(c)).collect();
    let answers = server.answer(&first)?;
    for ((category, (index, _)), case) in examples.iter().zip(&first) {
        let name = case["name"].as_str().unwrap_or_default();
        let found = answers
            .get(name)
            .map(|a| findings(case, &server.crds, a))
            .unwrap_or_default();
        let shows = found.iter().any(|f| &f.category == category);
        current.push((
            Shrunk {
                category: category.clone(),
                index: *index,
                case: truncate_at(case, &found, category),
                detail: detail_of(&found, category),
            },
            !shows,
        ));
    }
    loop {
        let mut candidates: Vec<(usize, Json)> = Vec::new();
        for (e, (shrunk, done)) in current.iter().enumerate() {
            let case = &shrunk.case;
            if *done {
                continue;
            }
            for c in simplifications(case).into_iter().take(MAX_CANDIDATES) {
                candidates.push((e, rename(&c)));
            }
        }
        if candidates.is_empty() {
            break;
        }
        let list: Vec<Json> = candidates.iter().map(|(_, c)| c.clone()).collect();
        let answers = server.answer(&list)?;
        let mut improved = vec![false; current.len()];
        for (e, c) in &candidates {
            if improved[*e] {
                continue;
            }
            let name = c["name"].as_str().unwrap_or_default();
            let Some(a) = answers.get(name) else { continue };
            let found = findings(c, &server.crds, a);
            let category = current[*e].0.category.clone();
            if found.iter().any(|f| f.category == category) {
                current[*e].0.case = truncate_at(c, &found, &category);
                current[*e].0.detail = detail_of(&found, &category);
                improved[*e] = true;
            }
        }
        for (e, entry) in current.iter_mut().enumerate() {
            if !improved[e] {
                entry.1 = true;
            }
        }
    }
    Ok(current.into_iter().map(|(s, _)| s).collect())
}

/// A shrunk case as a scenario case, ready to paste under `cases:`, after comment lines naming
/// its category and what differs.
pub fn scenario_text(seed: u64, shrunk: &Shrunk) -> String {
    let (category, index, case) = (&shrunk.category, shrunk.index, &shrunk.case);
    let mut out = format!("# {category}\n");
    for line in shrunk.detail.lines() {
        let line: String = line
            .chars()
            .map(|c| if c.is_control() { ' ' } else { c })
            .collect();
        out.push_str(&format!("#   {}\n", line.trim()));
    }
    let mut c = case.clone();
    c["name"] = json!(format!("diff-{seed}-{index}"));
    c["note"] = json!(format!(
        "differential seed {seed}, sequence {index}, shrunk: {category}"
    ));
    if c["serviceAccount"] == json!(false) {
        if let Some(m) = c.as_object_mut() {
            m.remove("serviceAccount");
        }
    }
    out.push_str(&crate::differential::yaml::case_yaml(&c));
    out
}

/// The committed counts a run must not exceed.
#[derive(Debug, Clone, PartialEq)]
pub struct Baseline {
    /// The seed and count the counts are for.
    pub seed: u64,
    /// How many sequences.
    pub count: u64,
    /// Count per category.
    pub counts: BTreeMap<String, u64>,
}

impl Baseline {
    /// Reads the baseline format: `#` comments, `seed S`, `count N`, then `COUNT<TAB>CATEGORY`
    /// lines.
    pub fn parse(text: &str) -> Result<Baseline, String> {
        let mut b = Baseline {
            seed: 0,
            count: 0,
            counts: BTreeMap::new(),
        };
        for (n, line) in text.lines().enumerate() {
            let line = line.trim_end();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let bad = || {
                format!(
                    "line {}: {line:?}: want `seed S`, `count N` or `COUNT<TAB>CATEGORY`",
                    n + 1
                )
            };
            if let Some(s) = line.strip_prefix("seed ") {
                b.seed = s.parse().map_err(|_| bad())?;
            } else if let Some(s) = line.strip_prefix("count ") {
                b.count = s.parse().map_err(|_| bad())?;
            } else {
                let (count, category) = line.split_once('\t').ok_or_else(bad)?;
                b.counts.insert(
                    category.to_owned(),
                    count.trim().parse().map_err(|_| bad())?,
                );
            }
        }
        Ok(b)
    }

    /// The baseline file's text.
    pub fn text(&self) -> String {
        let mut out = String::from(
            "# The ratchet of conformance/apiserver/differential (see conformance/README.md):\n\
             # steps where smd differs from kube-apiserver v1.37.2, per category, for the\n\
             # sequences below. A run fails when a category's count rises or a new one appears;\n\
             # when counts fall, rewrite this file with --write-baseline and commit it.\n",
        );
        let _ = writeln!(out, "seed {}", self.seed);
        let _ = writeln!(out, "count {}", self.count);
        // The categories the server answers at random are never ratcheted, so not written.
        for (category, n) in &self.counts {
            if !category.starts_with(GO_VARIES) {
                let _ = writeln!(out, "{n}\t{category}");
            }
        }
        out
    }

    /// What the ratchet refuses in `counts`, as (category, why): a new category, or (for the
    /// baseline's own seed and count) a count above the baseline's. Also returns the counts
    /// that fell.
    pub fn check(
        &self,
        seed: u64,
        count: u64,
        counts: &BTreeMap<String, u64>,
    ) -> (Vec<(String, String)>, Vec<String>) {
        let same_run = seed == self.seed && count == self.count;
        let mut refused = Vec::new();
        let mut fell = Vec::new();
        for (category, n) in counts {
            // The server answers these at random (smd's answer is one it gives): reported,
            // never ratcheted.
            if category.starts_with(GO_VARIES) {
                continue;
            }
            match self.counts.get(category) {
                None => refused.push((category.clone(), format!("new category ({n}): {category}"))),
                Some(b) if same_run && n > b => refused.push((
                    category.clone(),
                    format!("{category}: {n}, the baseline allows {b}"),
                )),
                _ => {}
            }
        }
        if same_run {
            for (category, b) in &self.counts {
                let n = counts.get(category).copied().unwrap_or(0);
                if n < *b {
                    fell.push(format!("{category}: {n} (baseline {b})"));
                }
            }
        }
        (refused, fell)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_released_address_drawn_again_is_the_servers_chance() {
        let server = json!({"status": 200});
        let reused = "stored object: object: .spec.clusterIP: server \"<clusterIP 1>\", smd \"<clusterIP 2>\"; \
                      stored object: object: .spec.clusterIPs: server [\"<clusterIP 1>\"], smd [\"<clusterIP 2>\"]";
        assert!(go_varies(&server, reused).is_some());
        // smd reusing one, another field differing too, or no placeholder: differences.
        for detail in [
            "object: .spec.clusterIP: server \"<clusterIP 2>\", smd \"<clusterIP 1>\"",
            "object: .spec.clusterIP: server \"<clusterIP 1>\", smd \"<clusterIP 2>\"; object: .spec.type: server \"A\", smd \"B\"",
            "object: .spec.clusterIP: server \"10.96.0.5\", smd \"<clusterIP 2>\"",
        ] {
            assert!(go_varies(&server, detail).is_none(), "{detail}");
        }
    }

    #[test]
    fn a_typed_patch_error_of_a_random_walk_is_go_varying() {
        // A real server's answer (differential seed 1, sequence 255) and smd's.
        let server = json!({"status": 500, "body": {"message":
            "failed to create typed patch object (/app; rbac.authorization.k8s.io/v1, Kind=Role): .spec: field not declared in schema"}});
        let smd = json!({"message": "failed to create typed patch object (/app; rbac.authorization.k8s.io/v1, Kind=Role): errors:\n  .metadata.bogus: field not declared in schema\n  .spec: field not declared in schema"});
        let detail = format!("answer: server {}, smd {smd}", server["body"]);
        assert!(go_varies(&server, &detail).is_some());
        // smd naming fewer, or others, is a difference.
        let other = json!({"message": "failed to create typed patch object (x): .status: field not declared in schema"});
        let detail = format!("answer: server {}, smd {other}", server["body"]);
        assert!(go_varies(&server, &detail).is_none());
    }

    #[test]
    fn a_case_depends_only_on_seed_and_index() {
        assert_eq!(generate::sequence(1, 7, "x"), generate::sequence(1, 7, "x"));
        assert_ne!(generate::sequence(1, 7, "x"), generate::sequence(1, 8, "x"));
    }

    #[test]
    fn every_kind_is_generated() {
        let mut seen = std::collections::BTreeSet::new();
        for i in 0..2000 {
            let c = generate::sequence(1, i, "x");
            seen.insert(step_kind(&c["steps"][0]));
        }
        for k in generate::KINDS {
            assert!(seen.contains(k.kind), "{} never generated", k.kind);
        }
        // Every version a kind is served at is written.
        let mut versions = std::collections::BTreeSet::new();
        for i in 0..2000 {
            let c = generate::sequence(1, i, "x");
            for step in c["steps"].as_array().into_iter().flatten() {
                if let Some(v) = step["body"]["apiVersion"].as_str() {
                    versions.insert(format!("{} {v}", step_kind(step)));
                }
            }
        }
        for v in [
            "HorizontalPodAutoscaler autoscaling/v1",
            "HorizontalPodAutoscaler autoscaling/v2",
        ] {
            assert!(versions.contains(v), "{v} never written");
        }
    }

    #[test]
    fn reads_come_after_the_first_step_and_name_earlier_steps() {
        let (mut lists, mut watches) = (0, 0);
        for i in 0..400 {
            let c = generate::sequence(1, i, "x");
            let steps = c["steps"].as_array().cloned().unwrap_or_default();
            assert_ne!(steps[0]["method"], "GET", "{c}");
            for (j, s) in steps.iter().enumerate() {
                match request_label(s).as_str() {
                    "GET list" => lists += 1,
                    "GET watch" => {
                        watches += 1;
                        assert_eq!(s["query"]["timeoutSeconds"], 1);
                        // A watch names a step before it.
                        if let Some(rv) = s["query"]["resourceVersion"].as_str()
                            && let Some(k) = rv.strip_prefix("{resourceVersion@")
                        {
                            let k: usize = k.trim_end_matches('}').parse().unwrap_or(0);
                            assert!(k >= 1 && k <= j, "{s} at step {}", j + 1);
                        }
                    }
                    _ => {}
                }
            }
        }
        // Roughly LIST_PERCENT and WATCH_PERCENT of 400.
        assert!((80..160).contains(&lists), "{lists} lists");
        assert!((60..140).contains(&watches), "{watches} watches");
    }

    #[test]
    fn simplifications_are_smaller() {
        let case = generate::sequence(1, 3, "x");
        let size = |c: &Json| c.to_string().len();
        let all = simplifications(&case);
        assert!(!all.is_empty());
        for c in &all {
            assert!(size(c) < size(&case), "{c}");
            assert_eq!(c["name"], case["name"]);
        }
    }

    #[test]
    fn categories_name_the_owner() {
        let step = json!({"method": "PATCH", "contentType": "application/apply-patch+yaml",
            "path": "/apis/apps/v1/namespaces/{namespace}/daemonsets/app"});
        let server = json!({"status": 500, "body": {"kind": "Status", "reason": ""}});
        let d =
            "status: server 500 \"typed patch (/other; apps/v1, Kind=DaemonSet)\", smd 400 \"x\"";
        let c = category(&step, &server, &Outcome::Differs(d.into())).map(|c| c.0);
        assert_eq!(
            c.as_deref(),
            Some("item 6, verdict: PATCH apply: server 500, smd 400")
        );
        let server = json!({"status": 422, "body": {"kind": "Status", "reason": "Invalid",
            "message": "DaemonSet.apps \"app\" is invalid: spec.selector: Required value"}});
        let d = "status: server 422 \"...\", smd 200 null";
        let c = category(&step, &server, &Outcome::Differs(d.into())).map(|c| c.0);
        assert_eq!(
            c.as_deref(),
            Some("next issue, registry validation (422 Invalid): DaemonSet")
        );
        let server = json!({"status": 200, "body": {"kind": "DaemonSet"}});
        let d = "managedFields:\n      server []\n      smd    []";
        let c = category(&step, &server, &Outcome::Differs(d.into())).map(|c| c.0);
        assert_eq!(
            c.as_deref(),
            Some("item 4, defaulting (managedFields differ): DaemonSet PATCH apply")
        );
        assert_eq!(category(&step, &server, &Outcome::Agree), None);
    }

    #[test]
    fn reads_have_categories_of_their_own() {
        let watch = json!({"method": "GET", "path": "/api/v1/namespaces/{namespace}/configmaps",
            "query": {"watch": "true", "timeoutSeconds": 1}});
        let server = json!({"status": 200, "body": []});
        let d = "events: server 0 [], smd 1 [ADDED app]";
        let c = category(&watch, &server, &Outcome::Differs(d.into())).map(|c| c.0);
        assert_eq!(
            c.as_deref(),
            Some("list and watch, events (count, types, order): ConfigMap GET watch")
        );
        let list =
            json!({"method": "GET", "path": "/apis/example.com/v1/namespaces/{namespace}/widgets"});
        let server = json!({"status": 200, "body": {"kind": "WidgetList", "items": []}});
        let d = "list metadata: server {\"continue\":\"\"}, smd {}";
        let c = category(&list, &server, &Outcome::Differs(d.into())).map(|c| c.0);
        assert_eq!(
            c.as_deref(),
            Some("list and watch, list metadata: Widget GET list")
        );
        let server = json!({"status": 400, "body": {"kind": "Status", "reason": "BadRequest"}});
        let d = "status: server 400 \"x\", smd 200 null";
        let c = category(&list, &server, &Outcome::Differs(d.into())).map(|c| c.0);
        assert_eq!(
            c.as_deref(),
            Some("list and watch, verdict: server 400 BadRequest, smd 200: Widget GET list")
        );
    }

    #[test]
    fn the_baseline_reads_back_and_ratchets() {
        let mut counts = BTreeMap::new();
        counts.insert("a b".to_owned(), 3);
        counts.insert("c".to_owned(), 1);
        let b = Baseline {
            seed: 1,
            count: 10,
            counts: counts.clone(),
        };
        assert_eq!(Baseline::parse(&b.text()), Ok(b.clone()));
        assert_eq!(b.check(1, 10, &counts), (vec![], vec![]));
        counts.insert("a b".to_owned(), 4);
        counts.insert("d".to_owned(), 1);
        counts.remove("c");
        let (refused, fell) = b.check(1, 10, &counts);
        let refused: Vec<&str> = refused.iter().map(|(c, _)| c.as_str()).collect();
        assert_eq!(refused, ["a b", "d"]);
        assert_eq!(fell.len(), 1, "{fell:?}");
        // Another run only refuses new categories.
        let (refused, fell) = b.check(2, 10, &counts);
        assert_eq!((refused.len(), fell.len()), (1, 0));
    }
}
