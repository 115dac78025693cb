//! Real-server scenarios (`conformance/apiserver/`): each case is a list of HTTP requests that
//! `gogen apiserver` sent to a real kube-apiserver v1.37.2, whose answers are the goldens. Here
//! the same requests go to smd's in-memory API server ([`ApiServer`]), one per case, and each
//! answer is normalised by gogen's rules ([`Normaliser`]) and compared with the server's: the
//! status code; a refusal's whole `Status`; an object's managedFields entries and its
//! bookkeeping (`name`, `namespace`, `generateName`, `uid`, `resourceVersion`, `generation`,
//! `creationTimestamp`); a custom resource of the case's CRDs whole (what its schema prunes
//! and defaults); the warnings; and, where the step reads it back, the stored object the same
//! way. A list is compared by its kind, its metadata (normalised) and each item as an object
//! answer; a watch (a GET with `watch`, answered by the events it received until its timeout)
//! by its events' count, types and order, and each event's object as an object answer.
//!
//! Every step where smd differs is listed in [`KNOWN_DISAGREEMENTS`] with a [`Category`], and
//! the test checks that each listed step still differs, so that the list is the map of what is
//! left, never a way to skip.
//!
//! Times: step `k` runs at [`step_time`]`(k)`; the goldens name the step that wrote a time
//! (`<step k>`). After a step where smd differs, the case goes on from the object the server
//! stored, so that every disagreement stays where it arises.

use serde_json::{Value as Json, json};
use smd::apiserver::{ApiServer, ObjectKey, Request, Response, ServiceAccounts};
use smd::managedfields::{Timestamp, entries};
use smd_fieldpath::Value;
use std::fmt::Write as _;
use std::path::Path;

use crate::normalise::{Normaliser, is_list};

/// The format of a real-server scenario file.
pub const SCENARIO_FORMAT: &str = "smd-apiserver-scenarios/v1";
/// The format of a real-server golden.
pub const GOLDEN_FORMAT: &str = "smd-apiserver-goldens/v1";
/// The User-Agent gogen sends when a step names none (its product is the manager of a request
/// without `fieldManager`).
pub const DEFAULT_USER_AGENT: &str = "smd-conformance/v1 (gogen)";

/// Why smd answers a step otherwise than the server, today.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Category {
    /// The server decodes and defaults built-in objects (issue 12, item 4): an Update
    /// manager owns the defaults, unknown fields are dropped or refused; smd does neither yet.
    Defaulting,
    /// The registry's validation (422 `Invalid`), which belongs to the next issue.
    Validation,
    /// The words of a Go reader's error (yaml.v2's, encoding/json's), which smd's readers do
    /// not reproduce: the status and reason agree, the message differs.
    ReaderWords,
    /// smd's field manager answers otherwise than the server's to the same request (issue 12,
    /// item 6, where the count must reach 0).
    FieldManager,
    /// A CRD's structural schema at work: `default`s applied and unknown fields pruned (issue
    /// 13, item 4; no step is left in it).
    CrdDefaulting,
    /// One object served in several versions (a CRD's, autoscaling v1 and v2): the replay keeps
    /// objects by URL and smd converts neither objects nor managedFields (the next issue).
    Conversion,
    /// Admission plugins (NamespaceLifecycle's missing namespace, ServiceAccount) refusing or
    /// adding before any write: outside what an offline answer can know.
    Admission,
    /// Request handling smd lacks (issue 12, item 3): the `Warning` header's form, duplicate
    /// fields in JSON bodies, subresources other than status and scale.
    RequestLayer,
    /// The registry strategies and the round trip through the internal version (the next
    /// issue): a Job's labels from its uid, some Secret writes.
    Strategy,
}

impl Category {
    /// The name printed in the counts.
    pub fn name(self) -> &'static str {
        match self {
            Category::Defaulting => "decoding and defaulting of built-in objects (item 4)",
            Category::Validation => "registry validation (next issue)",
            Category::ReaderWords => "a Go reader's error words (yaml.v2, encoding/json)",
            Category::FieldManager => "the field manager's answer (item 6)",
            Category::CrdDefaulting => "CRD defaulting and pruning (issue 13, item 4)",
            Category::Conversion => "version conversion (an object known only by its v1 view)",
            Category::Admission => "admission plugins",
            Category::RequestLayer => "request handling smd lacks (item 3)",
            Category::Strategy => "registry strategies and the internal version (next issue)",
        }
    }
}

use Category::{Admission, Conversion, Strategy, Validation};

/// The steps where smd knowingly differs from the real server: (scenario file, case, step
/// counted from 1, category). The test checks that each still differs.
// Every step listed here was checked to differ for the reason its category names; the test
// fails when one of them agrees (remove it) or an unlisted step differs.
pub const KNOWN_DISAGREEMENTS: &[(&str, &str, usize, Category)] = &[
    // The replay holds the server's v1 answer of step 2, a v1 view whose current-metrics
    // annotation says `currentAverageValue: "0"` where the server's internal object has none;
    // read at v2, that view converts (as the server would convert it if sent back) to
    // `averageValue: "0"`. Only an object known at its storage version avoids it.
    (
        "conversion.yaml",
        "conv-hpa-v1-status-read-v2",
        3,
        Conversion,
    ),
    ("namespace-sa-pvc.yaml", "ns-missing", 1, Admission),
    ("patch.yaml", "patch-merge-change-kind", 2, Validation),
    ("patch.yaml", "patch-merge-wrong-type", 2, Validation),
    ("secret.yaml", "secret-apply-bad-base64", 1, Strategy),
    ("secret.yaml", "secret-tls-create", 1, Strategy),
    (
        "validation-dryrun.yaml",
        "fv-json-patch-strict-unknown",
        2,
        Validation,
    ),
    (
        "validation-dryrun.yaml",
        "fv-merge-patch-strict-unknown",
        2,
        Validation,
    ),
    (
        "validation-dryrun.yaml",
        "fv-smp-strict-unknown",
        2,
        Validation,
    ),
];

/// How one step went.
#[derive(Debug, Clone, PartialEq)]
pub enum Outcome {
    /// smd answers as the server did.
    Agree,
    /// smd answers otherwise: what differs.
    Differs(String),
}

/// One step's outcome.
#[derive(Debug, Clone, PartialEq)]
pub struct StepReport {
    /// The case's name.
    pub case: String,
    /// The step, counted from 1.
    pub step: usize,
    /// How it went.
    pub outcome: Outcome,
}

/// The time smd stamps at step `k` (0: before the first step).
pub fn step_time(k: usize) -> Timestamp {
    Timestamp::from_unix(1_700_000_000 + 60 * i64::try_from(k).unwrap_or(0))
}

/// Reads a scenario file (YAML) and its golden (JSON), checking their formats.
pub fn read_files(scenario: &Path, golden: &Path) -> Result<(Json, Json), String> {
    let text = std::fs::read_to_string(scenario).map_err(|e| format!("{e}"))?;
    let file: Json = serde_json::to_value(
        smd_fieldpath::yaml::from_str(&text).map_err(|e| format!("not valid YAML: {e}"))?,
    )
    .map_err(|e| e.to_string())?;
    if file["format"] != SCENARIO_FORMAT {
        return Err(format!("format is not {SCENARIO_FORMAT}"));
    }
    let golden_text =
        std::fs::read_to_string(golden).map_err(|e| format!("{}: {e}", golden.display()))?;
    let golden_json: Json =
        serde_json::from_str(&golden_text).map_err(|e| format!("{}: {e}", golden.display()))?;
    if golden_json["format"] != GOLDEN_FORMAT {
        return Err(format!(
            "{}: format is not {GOLDEN_FORMAT}",
            golden.display()
        ));
    }
    Ok((file, golden_json))
}

/// Replays every case of one scenario file against its golden.
pub fn replay_file(scenario: &Path, golden: &Path) -> Result<Vec<StepReport>, String> {
    let (file, golden) = read_files(scenario, golden)?;
    let crds: Vec<Value> = file["crds"]
        .as_array()
        .map(|l| l.iter().map(to_value).collect::<Result<_, _>>())
        .transpose()?
        .unwrap_or_default();
    let mut reports = Vec::new();
    for case in file["cases"].as_array().ok_or("no cases")? {
        let name = case["name"].as_str().ok_or("a case without a name")?;
        let expected = golden["results"][name]["steps"]
            .as_array()
            .ok_or_else(|| format!("case {name}: no golden (run conformance/apiserver/regen)"))?;
        reports.extend(replay_case(case, &crds, expected)?);
    }
    Ok(reports)
}

/// Replays one case (a scenario case: name, steps) against the server's answers to it (the
/// golden's `steps`), with the CRDs its file declares. The differential run
/// (`crate::apiserver_diff`) calls this with the answers `gogen apiserver serve` got a moment
/// before.
pub fn replay_case(
    case: &Json,
    crds: &[Value],
    expected: &[Json],
) -> Result<Vec<StepReport>, String> {
    let name = case["name"].as_str().ok_or("a case without a name")?;
    let steps = case["steps"].as_array().ok_or("no steps")?;
    if steps.len() != expected.len() {
        return Err(format!(
            "case {name}: {} steps, the golden has {} (run conformance/apiserver/regen)",
            steps.len(),
            expected.len()
        ));
    }
    let mut server = ApiServer::new();
    // The real server runs no controller: a namespace has the ServiceAccount `default` only
    // where the case asks gogen to make it, so smd's answers from its store alone.
    server.set_service_accounts(ServiceAccounts::Stored);
    if case["serviceAccount"] == true {
        let account = json!({"apiVersion": "v1", "kind": "ServiceAccount",
            "metadata": {"name": "default", "namespace": name}});
        server.put_object(
            ObjectKey::new("", "serviceaccounts", name, "default"),
            to_value(&account)?,
        );
    }
    for crd in crds {
        server
            .add_crd(crd)
            .map_err(|e| format!("case {name}: {e}"))?;
    }
    let custom = crds
        .iter()
        .map(|crd| {
            let at = |path: &[&str]| {
                let mut v = crd;
                for k in path {
                    v = v.as_map().and_then(|m| m.get(k)).unwrap_or(&Value::Null);
                }
                v.as_str().unwrap_or_default().to_owned()
            };
            (at(&["spec", "group"]), at(&["spec", "names", "kind"]))
        })
        .collect();
    let mut replay = CaseReplay {
        namespace: name,
        custom,
        server,
        norm: Normaliser::new(),
        seen: Seen::default(),
        fresh: 0,
    };
    let mut reports = Vec::new();
    for (i, (step, golden_step)) in steps.iter().zip(expected).enumerate() {
        // A step may name the case's namespace in its body too (a Namespace's name), as
        // gogen replaces it.
        let step: Json = serde_json::from_str(&step.to_string().replace("{namespace}", name))
            .map_err(|e| e.to_string())?;
        let outcome = replay
            .step(i + 1, &step, golden_step)
            .map_err(|e| format!("case {name}: step {}: {e}", i + 1))?;
        replay.seen.end_step();
        reports.push(StepReport {
            case: name.to_owned(),
            step: i + 1,
            outcome,
        });
    }
    Ok(reports)
}

/// One case replayed: the server, the placeholders met so far, what earlier steps answered
/// (what `{resourceVersion}` and the other references stand for, as gogen sends them).
struct CaseReplay<'a> {
    namespace: &'a str,
    /// The group and kind of each custom resource the case's CRDs serve: their objects are
    /// compared whole (what the schema prunes and defaults).
    custom: Vec<(String, String)>,
    server: ApiServer,
    norm: Normaliser,
    seen: Seen,
    /// Values made up for placeholders of adopted objects.
    fresh: u64,
}

/// `value` with every object's keys sorted, as Go's `json.Marshal` writes a map.
fn sorted_keys(value: &Json) -> Json {
    match value {
        Json::Object(map) => {
            let mut keys: Vec<&String> = map.keys().collect();
            keys.sort();
            Json::Object(
                keys.into_iter()
                    .map(|k| (k.clone(), sorted_keys(&map[k])))
                    .collect(),
            )
        }
        Json::Array(items) => Json::Array(items.iter().map(sorted_keys).collect()),
        other => other.clone(),
    }
}

/// What the steps of a case answered that later steps name, as gogen's `seen`:
/// `{resourceVersion}` is the latest resourceVersion of an object the case has seen (what an
/// update names), `{resourceVersion@K}` the one step K (from 1) answered: its list's, else the
/// latest object's when it ended. `{continue}` is the latest list's continue token,
/// `{continue@K}` step K's.
#[derive(Debug, Clone, Default)]
pub struct Seen {
    version: String,
    cont: String,
    /// The resourceVersion of the list the current step answered, if any.
    list_version: String,
    /// `after[k - 1]`: what `{resourceVersion@k}` and `{continue@k}` stand for.
    after: Vec<(String, String)>,
}

impl Seen {
    /// Records an answer: an object's resourceVersion, a list's and its continue token.
    pub fn note(&mut self, answer: &Json) {
        if is_list(answer) {
            let meta = &answer["metadata"];
            let text = |k: &str| meta[k].as_str().unwrap_or_default().to_owned();
            self.list_version = text("resourceVersion");
            self.cont = text("continue");
        } else if let Some(rv) = resource_version(answer) {
            self.version = rv;
        }
    }

    /// Makes `version` the latest object's resourceVersion seen (an object the replay
    /// adopted).
    pub fn set_version(&mut self, version: &str) {
        version.clone_into(&mut self.version);
    }

    /// Ends a step: what it answered is what `{…@K}` names from now on.
    pub fn end_step(&mut self) {
        let list = std::mem::take(&mut self.list_version);
        let version = if list.is_empty() {
            self.version.clone()
        } else {
            list
        };
        self.after.push((version, self.cont.clone()));
    }

    /// `text` with every reference replaced by its value, each written as a JSON string when
    /// `quote` (a reference in a body is a whole JSON string, `"{resourceVersion}"`).
    pub fn substitute(&self, text: &str, quote: bool) -> String {
        let mut out = String::with_capacity(text.len());
        let mut rest = text;
        while let Some(at) = rest.find('{') {
            let (head, tail) = rest.split_at(at);
            out.push_str(head);
            match parse_reference(tail) {
                Some((name, step, len)) => {
                    out.push_str(&self.value(name, step, quote));
                    rest = &tail[len..];
                }
                None => {
                    out.push('{');
                    rest = &tail[1..];
                }
            }
        }
        out.push_str(rest);
        out
    }

    fn value(&self, name: &str, step: Option<usize>, quote: bool) -> String {
        let (version, cont) = match step {
            Some(k) => self
                .after
                .get(k.wrapping_sub(1))
                .map_or(("", ""), |(v, c)| (v.as_str(), c.as_str())),
            None => (self.version.as_str(), self.cont.as_str()),
        };
        let value = if name == "continue" { cont } else { version };
        if quote {
            Json::String(value.to_owned()).to_string()
        } else {
            value.to_owned()
        }
    }
}

/// The reference `s` starts with (`{resourceVersion}`, `{continue@3}`): its name, its step,
/// its length.
fn parse_reference(s: &str) -> Option<(&'static str, Option<usize>, usize)> {
    let inner = s.strip_prefix('{')?;
    ["resourceVersion", "continue"]
        .into_iter()
        .find_map(|name| {
            let after = inner.strip_prefix(name)?;
            let (step, after) = match after.strip_prefix('@') {
                Some(a) => {
                    let n = a.bytes().take_while(u8::is_ascii_digit).count();
                    (Some(a[..n].parse::<usize>().ok()?), &a[n..])
                }
                None => (None, after),
            };
            let after = after.strip_prefix('}')?;
            Some((name, step, s.len() - after.len()))
        })
}

/// Whether a step asks for a watch, as gogen's `isWatch` and `watchPath`: the `watch`
/// parameter as the server reads it (present and neither `0` nor `false`, in any case), or a
/// deprecated `/watch/` path.
pub fn is_watch(step: &Json) -> bool {
    let query = match &step["query"]["watch"] {
        Json::Null => false,
        Json::Bool(b) => *b,
        Json::String(s) => s != "0" && !s.eq_ignore_ascii_case("false"),
        Json::Number(n) => n.as_u64() != Some(0),
        _ => true,
    };
    query || is_watch_path(step["path"].as_str().unwrap_or_default())
}

/// `/api/VERSION/watch/...` or `/apis/GROUP/VERSION/watch/...`.
fn is_watch_path(path: &str) -> bool {
    let parts: Vec<&str> = path.split('/').collect();
    match parts.get(1) {
        Some(&"api") => parts.get(3) == Some(&"watch"),
        Some(&"apis") => parts.get(4) == Some(&"watch"),
        _ => false,
    }
}

/// The HTTP request of a scenario step, as gogen sends it.
pub fn step_request(step: &Json, namespace: &str, seen: &Seen) -> Result<Request, String> {
    let method = step["method"].as_str().ok_or("no method")?;
    let path = step["path"]
        .as_str()
        .ok_or("no path")?
        .replace("{namespace}", namespace);
    let mut request = Request::new(method, path)
        .with_user_agent(step["userAgent"].as_str().unwrap_or(DEFAULT_USER_AGENT));
    if let Some(query) = step["query"].as_object() {
        for (k, v) in query {
            let v = match v {
                Json::String(s) => s.clone(),
                other => other.to_string(),
            };
            // A value may name the case's namespace (a field selector) or an earlier answer.
            let v = seen.substitute(&v.replace("{namespace}", namespace), false);
            request = request.with_query(k.as_str(), v);
        }
    }
    let content_type = step["contentType"].as_str().unwrap_or("application/json");
    if let Some(text) = step["bodyText"].as_str() {
        request = request.with_body(content_type, text.as_bytes().to_vec());
    } else if !step["body"].is_null() {
        // gogen sends the body as Go's encoding/json writes a map: keys sorted. The server
        // reads some of it in that order (the first bad value of a map is the one named), so
        // smd is sent the same bytes. A reference is a whole JSON string there.
        let text = quoted_references(&sorted_keys(&step["body"]).to_string(), seen);
        request = request.with_body(content_type, text.into_bytes());
    }
    Ok(request)
}

/// `text` (JSON) with every JSON string that is a whole reference (`"{resourceVersion@2}"`)
/// replaced by its value, as gogen's `quotedReference`.
fn quoted_references(text: &str, seen: &Seen) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find("\"{") {
        out.push_str(&rest[..at]);
        let tail = &rest[at + 1..];
        match parse_reference(tail) {
            Some((name, step, len)) if tail[len..].starts_with('"') => {
                out.push_str(&seen.value(name, step, true));
                rest = &tail[len + 1..];
            }
            _ => {
                out.push('"');
                rest = tail;
            }
        }
    }
    out.push_str(rest);
    out
}

/// Where a step's object is read back: gogen's `storedPath`.
fn stored_path(method: &str, path: &str, answer: &Json, step: &Json) -> Result<String, String> {
    if method == "POST" {
        let name = if answer["kind"] != "Status" {
            answer["metadata"]["name"].as_str()
        } else {
            None
        }
        .or_else(|| step["body"]["metadata"]["name"].as_str())
        .ok_or("a create answered no object and named none")?;
        return Ok(format!("{path}/{name}"));
    }
    for sub in ["/status", "/scale"] {
        if let Some(p) = path.strip_suffix(sub) {
            return Ok(p.to_owned());
        }
    }
    Ok(path.to_owned())
}

fn resource_version(v: &Json) -> Option<String> {
    v["metadata"]["resourceVersion"]
        .as_str()
        .filter(|s| !s.is_empty())
        .map(str::to_owned)
}

/// The label of a time smd stamped: the step whose [`step_time`] it is; a label (a golden's)
/// stays.
fn label(t: &str) -> Result<String, String> {
    if t.starts_with('<') {
        return Ok(t.to_owned());
    }
    Timestamp::parse(t)
        .map(time_label)
        .map_err(|e| format!("time {t}: {e}"))
}

fn response_json(r: &Response) -> Result<Json, String> {
    serde_json::to_value(&r.body).map_err(|e| e.to_string())
}

impl CaseReplay<'_> {
    fn step(&mut self, k: usize, step: &Json, golden: &Json) -> Result<Outcome, String> {
        let request = step_request(step, self.namespace, &self.seen)?;
        if !step["body"].is_null() {
            self.norm.requested(&step["body"]);
        }
        let method = request.method.clone();
        // What the step's object was before it, to go back to if the server refused the step.
        let before = stored_path(&method, &request.path, &Json::Null, step)
            .ok()
            .and_then(|p| self.server.key_of(&p))
            .map(|key| {
                let object = self.server.object(&key).cloned();
                (key, object)
            });
        // The whole replay as it was: a request the server refuses writes nothing, so when smd
        // wrote (a step it accepted), the case goes on from here, its revisions, uids and
        // placeholders not counted one further than the server's.
        let snapshot = (
            self.server.clone(),
            self.norm.clone(),
            self.seen.clone(),
            self.fresh,
        );
        let response = self.server.handle_at(&request, step_time(k));
        let answer = response_json(&response)?;
        self.seen.note(&answer);
        let mut stored = None;
        if step["stored"] == true {
            let path = stored_path(&method, &request.path, &answer, step)?;
            let read = self
                .server
                .handle_at(&Request::new("GET", path), step_time(k));
            let json = response_json(&read)?;
            stored = Some(if read.code == 200 {
                self.seen.note(&json);
                (json, Some(read.body))
            } else {
                (json!({"status": read.code, "body": json}), None)
            });
        }
        let ours = self.norm.normalise(&answer, &label)?;
        let ours_stored = match &stored {
            Some((json, _)) => Some(self.norm.normalise(json, &label)?),
            None => None,
        };

        let mut differences = Vec::new();
        let status = golden["status"].as_u64().unwrap_or(0);
        if u64::from(response.code) != status {
            differences.push(format!(
                "status: server {status} {}, smd {} {}",
                golden["body"]["message"], response.code, ours["message"]
            ));
        } else if let Some(d) = self.compare_body(&golden["body"], &ours, &response.body) {
            differences.push(d);
        }
        let warnings = golden["warnings"].as_array().cloned().unwrap_or_default();
        let our_warnings: Vec<Json> = response
            .warning_headers()
            .iter()
            .map(|w| json!(w))
            .collect();
        if warnings != our_warnings {
            differences.push(format!(
                "warnings: server {}, smd {}",
                Json::Array(warnings),
                Json::Array(our_warnings)
            ));
        }
        if let (Some(expected), Some(ours)) = (golden.get("stored"), &ours_stored) {
            let raw = stored.as_ref().and_then(|(_, v)| v.as_ref());
            let d = if expected.get("kind").is_some() {
                compare_answer(expected, ours, raw).or_else(|| self.compare_custom(expected, ours))
            } else {
                (expected != ours).then(|| format!("stored: server {expected}, smd {ours}"))
            };
            if let Some(d) = d {
                differences.push(format!("stored object: {d}"));
            }
        }
        if differences.is_empty() {
            return Ok(Outcome::Agree);
        }
        if !(200..300).contains(&status) {
            (self.server, self.norm, self.seen, self.fresh) = snapshot;
            return Ok(Outcome::Differs(differences.join("; ")));
        }
        if is_watch(step) || is_list(&golden["body"]) {
            // A list or a watch wrote nothing; a DELETE of a collection (answered by the list
            // of what it deleted) names no one object to go on from.
            return Ok(Outcome::Differs(differences.join("; ")));
        }
        self.adopt_server_state(&request, step, golden, before)?;
        Ok(Outcome::Differs(differences.join("; ")))
    }

    /// What differs between smd's normalised answer and the server's: a watch's events, a
    /// list, or an object answer (`raw`: smd's answer as it was).
    fn compare_body(&self, expected: &Json, ours: &Json, raw: &Value) -> Option<String> {
        if expected.is_array() || ours.is_array() {
            return self.compare_events(expected, ours, raw);
        }
        if is_list(expected) || is_list(ours) {
            return self.compare_list(expected, ours, raw);
        }
        self.compare_object(expected, ours, Some(raw))
    }

    /// An object answer (or a Status), as [`compare_answer`] and, for a custom resource,
    /// [`Self::compare_custom`] compare it.
    fn compare_object(&self, expected: &Json, ours: &Json, raw: Option<&Value>) -> Option<String> {
        compare_answer(expected, ours, raw).or_else(|| self.compare_custom(expected, ours))
    }

    /// A list: its kind, its metadata (normalised: the collection's revision, the continue
    /// token, remainingItemCount) and each item as an object answer.
    fn compare_list(&self, expected: &Json, ours: &Json, raw: &Value) -> Option<String> {
        if expected["kind"] != ours["kind"] || expected["apiVersion"] != ours["apiVersion"] {
            return Some(format!(
                "kind: server {} {}, smd {} {}",
                expected["apiVersion"], expected["kind"], ours["apiVersion"], ours["kind"]
            ));
        }
        let mut out = Vec::new();
        for (key, e) in expected.as_object().into_iter().flatten() {
            if !matches!(key.as_str(), "kind" | "apiVersion" | "items") && ours.get(key) != Some(e)
            {
                out.push(format!(
                    "list {key}: server {e}, smd {}",
                    ours[key.as_str()]
                ));
            }
        }
        for (key, o) in ours.as_object().into_iter().flatten() {
            if expected.get(key).is_none() {
                out.push(format!("list {key}: server absent, smd {o}"));
            }
        }
        let (Some(theirs), Some(mine)) = (expected["items"].as_array(), ours["items"].as_array())
        else {
            out.push(format!(
                "items: server {}, smd {}",
                expected["items"], ours["items"]
            ));
            return Some(out.join("; "));
        };
        let raw_items = raw
            .as_map()
            .and_then(|m| m.get("items"))
            .and_then(Value::as_list)
            .unwrap_or_default();
        if theirs.len() != mine.len() {
            out.push(format!(
                "items: server {} {}, smd {} {}",
                theirs.len(),
                names(theirs.iter()),
                mine.len(),
                names(mine.iter())
            ));
        } else {
            for (i, (e, o)) in theirs.iter().zip(mine).enumerate() {
                if let Some(d) = self.compare_object(e, o, raw_items.get(i)) {
                    out.push(format!("items[{i}] {}: {d}", e["metadata"]["name"]));
                }
            }
        }
        (!out.is_empty()).then(|| out.join("; "))
    }

    /// A watch's events: their count, types and order, and each event's object as an object
    /// answer (an ERROR's Status and a bookmark whole).
    fn compare_events(&self, expected: &Json, ours: &Json, raw: &Value) -> Option<String> {
        let (Some(theirs), Some(mine)) = (expected.as_array(), ours.as_array()) else {
            return Some(format!("answer: server {expected}, smd {ours}"));
        };
        let summary = |events: &[Json]| {
            let list: Vec<String> = events
                .iter()
                .map(|e| {
                    let o = &e["object"];
                    let name = o["metadata"]["name"].as_str().or(o["kind"].as_str());
                    format!(
                        "{} {}",
                        e["type"].as_str().unwrap_or("?"),
                        name.unwrap_or("?")
                    )
                })
                .collect();
            format!("[{}]", list.join(", "))
        };
        if theirs.len() != mine.len()
            || theirs.iter().zip(mine).any(|(e, o)| e["type"] != o["type"])
        {
            return Some(format!(
                "events: server {} {}, smd {} {}",
                theirs.len(),
                summary(theirs),
                mine.len(),
                summary(mine)
            ));
        }
        let raw_events = raw.as_list().unwrap_or_default();
        let mut out = Vec::new();
        for (i, (e, o)) in theirs.iter().zip(mine).enumerate() {
            let place = format!(
                "events[{i}] {} {}",
                e["type"].as_str().unwrap_or("?"),
                e["object"]["metadata"]["name"]
            );
            let (eo, oo) = (&e["object"], &o["object"]);
            let raw_object = raw_events
                .get(i)
                .and_then(Value::as_map)
                .and_then(|m| m.get("object"));
            let d = if matches!(e["type"].as_str(), Some("ERROR" | "BOOKMARK")) {
                (eo != oo).then(|| format!("server {eo}, smd {oo}"))
            } else {
                self.compare_object(eo, oo, raw_object)
            };
            if let Some(d) = d {
                out.push(format!("{place}: {d}"));
            }
            let keys = |v: &Json| -> Vec<String> {
                v.as_object()
                    .map(|m| m.keys().cloned().collect())
                    .unwrap_or_default()
            };
            if keys(e) != keys(o) {
                out.push(format!("{place}: event members server {e}, smd {o}"));
            }
        }
        (!out.is_empty()).then(|| out.join("; "))
    }

    /// A custom resource's whole object against the server's (its managedFields aside, which
    /// [`compare_answer`] compares entry by entry): the fields its schema pruned and defaulted.
    fn compare_custom(&self, expected: &Json, ours: &Json) -> Option<String> {
        let group = expected["apiVersion"]
            .as_str()
            .and_then(|v| v.rsplit_once('/'))
            .map_or("", |(g, _)| g);
        let kind = expected["kind"].as_str().unwrap_or_default();
        if !self.custom.iter().any(|(g, k)| g == group && k == kind) {
            return None;
        }
        let without_entries = |v: &Json| {
            let mut v = v.clone();
            if let Some(m) = v["metadata"].as_object_mut() {
                m.remove("managedFields");
            }
            v
        };
        let (theirs, mine) = (without_entries(expected), without_entries(ours));
        (theirs != mine).then(|| format!("object: server {theirs}, smd {mine}"))
    }

    /// The case goes on from what the server stored after this step.
    fn adopt_server_state(
        &mut self,
        request: &Request,
        step: &Json,
        golden: &Json,
        before: Option<(ObjectKey, Option<Value>)>,
    ) -> Result<(), String> {
        let dry_run = request.query_value("dryRun") == "All";
        let path = match stored_path(&request.method, &request.path, &golden["body"], step) {
            Ok(p) => p,
            // A refused create that names no object (a body that is not JSON) stored nothing.
            Err(_) if golden.get("stored").is_none() => return Ok(()),
            Err(e) => return Err(e),
        };
        let key = self
            .server
            .key_of(&path)
            .ok_or_else(|| format!("no object at {path}"))?;
        let object = match golden.get("stored") {
            Some(stored) if stored.get("kind").is_some() => Some(stored.clone()),
            Some(_) => None,
            None => {
                // No GET after this step: a success answered the object (unless a dry run,
                // which changed nothing, or a Scale); a refusal changed nothing.
                let ok = golden["status"]
                    .as_u64()
                    .is_some_and(|s| (200..300).contains(&s));
                let body = &golden["body"];
                if !ok || dry_run {
                    // The server changed nothing: neither does smd.
                    if let Some((key, object)) = before {
                        match object {
                            // Put back only what smd changed: an object put in is held as
                            // read (defaulted), which need not be how smd stored it.
                            Some(o) if self.server.object(&key) == Some(&o) => {}
                            Some(o) => self.server.put_object(key, o),
                            None => {
                                self.server.remove_object(&key);
                            }
                        }
                    }
                    return Ok(());
                }
                if body["kind"] == "Status" || body["kind"] == "Scale" {
                    return Ok(());
                }
                Some(body.clone())
            }
        };
        match object {
            Some(o) => {
                let value = self.denormalise_object(&o)?;
                if let Some(rv) = value
                    .as_map()
                    .and_then(|m| m.get("metadata"))
                    .and_then(Value::as_map)
                    .and_then(|m| m.get("resourceVersion"))
                    .and_then(Value::as_str)
                {
                    self.seen.set_version(rv);
                }
                self.server.put_object(key, value);
            }
            None => {
                self.server.remove_object(&key);
            }
        }
        Ok(())
    }

    /// A golden object as smd's server would hold it: placeholders of uids and resource
    /// versions become the values this case's normaliser knows for them (or new ones, made
    /// to stand for them).
    fn denormalise_object(&mut self, object: &Json) -> Result<Value, String> {
        let mut object = object.clone();
        for (kind, key) in [("uid", "uid"), ("resourceVersion", "resourceVersion")] {
            let Some(p) = object["metadata"][key].as_str().map(str::to_owned) else {
                continue;
            };
            if !p.starts_with('<') {
                continue;
            }
            let value = match self.norm.value_of(kind, &p) {
                Some(v) => v.to_owned(),
                None => {
                    self.fresh += 1;
                    let v = match kind {
                        "uid" => format!("ffffffff-0000-4000-8000-{:012x}", self.fresh),
                        _ => (1_000_000 + self.fresh).to_string(),
                    };
                    self.norm.alias(kind, &v, &p);
                    v
                }
            };
            if kind == "uid" {
                // The uid is repeated where the strategy copied it (a Job's selector and
                // labels): those copies are a uid to validation, not a placeholder.
                replace_strings(&mut object, &p, &value);
            }
            object["metadata"][key] = Json::String(value);
        }
        self.denormalise_token_volumes(&mut object);
        denormalise(&object)
    }

    /// The token volume admission named (`kube-api-access-<generated N>` in a golden) given a
    /// name of the server's form again, so that the pod smd goes on from passes validation
    /// and normalises back to the same placeholder.
    fn denormalise_token_volumes(&mut self, value: &mut Json) {
        match value {
            Json::Object(m) => m
                .values_mut()
                .for_each(|v| self.denormalise_token_volumes(v)),
            Json::Array(l) => l.iter_mut().for_each(|v| self.denormalise_token_volumes(v)),
            Json::String(s) => {
                let Some(p) = s.strip_prefix("kube-api-access-") else {
                    return;
                };
                if !p.starts_with("<generated ") {
                    return;
                }
                let p = p.to_owned();
                let suffix = match self.norm.value_of("generated", &p) {
                    Some(v) => v.trim_start_matches("kube-api-access-").to_owned(),
                    None => {
                        self.fresh += 1;
                        // Five letters of the alphabet the server draws suffixes from.
                        const LETTERS: &[u8] = b"bcdfghjklmnpqrstvwxz2456789";
                        let mut n = usize::try_from(self.fresh).unwrap_or(0);
                        let suffix: String = (0..5)
                            .map(|_| {
                                let c = LETTERS[n % LETTERS.len()];
                                n /= LETTERS.len();
                                char::from(c)
                            })
                            .collect();
                        self.norm
                            .alias("generated", &format!("kube-api-access-{suffix}"), &p);
                        suffix
                    }
                };
                *s = format!("kube-api-access-{suffix}");
            }
            _ => {}
        }
    }
}

/// Every string `from` in `json` (a value, not a key) made `to`.
fn replace_strings(json: &mut Json, from: &str, to: &str) {
    match json {
        Json::String(s) if s == from => *s = to.to_owned(),
        Json::Array(items) => items.iter_mut().for_each(|i| replace_strings(i, from, to)),
        Json::Object(map) => map.values_mut().for_each(|v| replace_strings(v, from, to)),
        _ => {}
    }
}

/// The names of a list's objects, for a report.
fn names<'a>(items: impl Iterator<Item = &'a Json>) -> String {
    let names: Vec<&str> = items
        .map(|i| i["metadata"]["name"].as_str().unwrap_or("?"))
        .collect();
    format!("[{}]", names.join(", "))
}

/// The bookkeeping of an object compared with the server's.
const BOOKKEEPING: &[&str] = &[
    "name",
    "namespace",
    "generateName",
    "uid",
    "resourceVersion",
    "generation",
    "creationTimestamp",
];

/// What differs between smd's normalised answer and the server's: a Status whole; an object's
/// kind, bookkeeping and managedFields entries (from `raw`, smd's object as answered).
fn compare_answer(expected: &Json, ours: &Json, raw: Option<&Value>) -> Option<String> {
    if expected["kind"] == "Status" || ours["kind"] == "Status" {
        return (expected != ours).then(|| format!("answer: server {expected}, smd {ours}"));
    }
    if expected["kind"] != ours["kind"] || expected["apiVersion"] != ours["apiVersion"] {
        return Some(format!(
            "kind: server {} {}, smd {} {}",
            expected["apiVersion"], expected["kind"], ours["apiVersion"], ours["kind"]
        ));
    }
    let mut out = Vec::new();
    for key in BOOKKEEPING {
        let (e, o) = (&expected["metadata"][key], &ours["metadata"][key]);
        if e != o {
            out.push(format!("metadata.{key}: server {e}, smd {o}"));
        }
    }
    let theirs = golden_entries(expected);
    let mine = match raw.map(entries_of) {
        Some(Ok(e)) => e,
        Some(Err(e)) => return Some(e),
        None => Vec::new(),
    };
    if theirs != mine {
        out.push(format!(
            "managedFields:\n      server {}\n      smd    {}",
            theirs.join("\n             "),
            mine.join("\n             ")
        ));
    }
    // The rest of the object, field by field: labels, annotations, spec, status, data.
    let mut fields = Vec::new();
    object_differences(expected, ours, &mut String::new(), &mut fields);
    if !fields.is_empty() {
        let shown = fields.len().min(MAX_FIELDS_SHOWN);
        let more = fields.len() - shown;
        let mut text = fields[..shown].join(", ");
        if more > 0 {
            let _ = write!(text, ", and {more} more");
        }
        out.push(format!("object: {text}"));
    }
    (!out.is_empty()).then(|| out.join("; "))
}

/// How many differing fields a report names.
const MAX_FIELDS_SHOWN: usize = 4;

/// The fields where two objects differ, as `.path: server X, smd Y` (`absent` for a missing
/// member), leaving out what [`compare_answer`] compares on its own (the bookkeeping of
/// `metadata` and `managedFields`).
fn object_differences(expected: &Json, ours: &Json, path: &mut String, out: &mut Vec<String>) {
    match (expected, ours) {
        (Json::Object(e), Json::Object(o)) => {
            let mut keys: Vec<&String> = e.keys().chain(o.keys()).collect();
            keys.sort();
            keys.dedup();
            for key in keys {
                if path == ".metadata"
                    && (key == "managedFields" || BOOKKEEPING.contains(&key.as_str()))
                {
                    continue;
                }
                let len = path.len();
                path.push('.');
                path.push_str(key);
                match (e.get(key), o.get(key)) {
                    (Some(ev), Some(ov)) => object_differences(ev, ov, path, out),
                    (ev, ov) => out.push(format!(
                        "{path}: server {}, smd {}",
                        ev.map_or("absent".to_owned(), Json::to_string),
                        ov.map_or("absent".to_owned(), Json::to_string)
                    )),
                }
                path.truncate(len);
            }
        }
        (Json::Array(e), Json::Array(o)) if e.len() == o.len() => {
            for (i, (ev, ov)) in e.iter().zip(o).enumerate() {
                let len = path.len();
                let _ = write!(path, "[{i}]");
                object_differences(ev, ov, path, out);
                path.truncate(len);
            }
        }
        (e, o) if e != o => out.push(format!("{path}: server {e}, smd {o}")),
        _ => {}
    }
}

fn to_value(json: &Json) -> Result<Value, String> {
    Value::from_json(&json.to_string()).map_err(|e| e.to_string())
}

/// The label gogen gives a time smd stamped: the step whose [`step_time`] it is.
fn time_label(time: Timestamp) -> String {
    let k = (time.unix() - step_time(0).unix()) / 60;
    if k <= 0 {
        "<before step 1>".to_owned()
    } else {
        format!("<step {k}>")
    }
}

/// The entries of an object smd answered, one line each: manager, operation, apiVersion,
/// subresource, time, fieldsV1 as stored (in the order smd wrote its members; `entries` would
/// give the bytes Go re-marshals, sorted, when it reads an unstructured object).
fn entries_of(object: &Value) -> Result<Vec<String>, String> {
    // The entries must read back, as the server would read them.
    entries(object).map_err(|e| format!("smd's managedFields: {e}"))?;
    let json = serde_json::to_value(object).map_err(|e| e.to_string())?;
    let mut lines = Vec::new();
    for e in json["metadata"]["managedFields"]
        .as_array()
        .into_iter()
        .flatten()
    {
        let s = |k: &str| e[k].as_str().unwrap_or_default();
        let time = match e["time"].as_str() {
            Some(t) => Some(time_label(
                Timestamp::parse(t).map_err(|err| format!("smd's time {t}: {err}"))?,
            )),
            None => None,
        };
        lines.push(entry_line(
            s("manager"),
            s("operation"),
            s("apiVersion"),
            s("subresource"),
            time.as_deref(),
            &e["fieldsV1"].to_string(),
        ));
    }
    Ok(lines)
}

/// The server's entries, as [`entries_of`] writes smd's (fieldsV1 rewritten by serde_json, which
/// keeps the server's order and makes the escaping one).
fn golden_entries(object: &Json) -> Vec<String> {
    object["metadata"]["managedFields"]
        .as_array()
        .map(|l| {
            l.iter()
                .map(|e| {
                    let s = |k: &str| e[k].as_str().unwrap_or_default();
                    let fields = serde_json::from_str::<Json>(s("fieldsV1"))
                        .map_or_else(|_| s("fieldsV1").to_owned(), |f| f.to_string());
                    entry_line(
                        s("manager"),
                        s("operation"),
                        s("apiVersion"),
                        s("subresource"),
                        e["time"].as_str(),
                        &fields,
                    )
                })
                .collect()
        })
        .unwrap_or_default()
}

fn entry_line(
    manager: &str,
    operation: &str,
    api_version: &str,
    subresource: &str,
    time: Option<&str>,
    fields: &str,
) -> String {
    json!([manager, operation, api_version, subresource, time, fields]).to_string()
}

/// The server's object as smd reads it: fieldsV1 strings parsed, step labels made the times
/// smd stamps, node-port placeholders made numbers.
pub fn denormalise(object: &Json) -> Result<Value, String> {
    fn walk(v: &Json, key: &str) -> Result<Json, String> {
        Ok(match v {
            Json::Object(m) => Json::Object(
                m.iter()
                    .map(|(k, e)| walk(e, k).map(|w| (k.clone(), w)))
                    .collect::<Result<_, _>>()?,
            ),
            Json::Array(l) => {
                Json::Array(l.iter().map(|e| walk(e, key)).collect::<Result<_, _>>()?)
            }
            Json::String(s) if key == "fieldsV1" => {
                serde_json::from_str(s).map_err(|e| format!("fieldsV1 {s:?}: {e}"))?
            }
            Json::String(s) if s == "<before step 1>" => Json::String(step_time(0).to_string()),
            Json::String(s) => {
                if let Some(k) = s
                    .strip_prefix("<step ")
                    .and_then(|r| r.strip_suffix('>'))
                    .and_then(|n| n.parse::<usize>().ok())
                {
                    Json::String(step_time(k).to_string())
                } else if let Some(n) = s
                    .strip_prefix("<nodePort ")
                    .and_then(|r| r.strip_suffix('>'))
                    .and_then(|n| n.parse::<u64>().ok())
                {
                    json!(30000 + n)
                } else {
                    v.clone()
                }
            }
            other => other.clone(),
        })
    }
    to_value(&walk(object, "")?)
}
