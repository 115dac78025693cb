//! LIST and WATCH of a collection (a child module of `server.rs`): the query's `ListOptions`
//! read and validated as the handler does (`labelSelector`, `fieldSelector` with each kind's
//! field labels, `resourceVersion` and `resourceVersionMatch`, `limit` and `continue`,
//! `allowWatchBookmarks`, `sendInitialEvents`), a list at the latest or an exact revision,
//! and a watch's events as the watch cache delivers them (an object entering or leaving a
//! selective watch is `ADDED` or `DELETED`; a revision older than the kept events is
//! `410 Gone`, as an `ERROR` event).

use smd_fieldpath::{Map, Value};

use super::fieldlabels;
use super::selector::{FieldSelector, LabelSelector};
use super::{ApiServer, Call, get, nested_str, ok, set};
use crate::apiserver::convert::api_version_of;
use crate::apiserver::http::{Request, Response};
use crate::apiserver::routes::{Resource, Target};
use crate::apiserver::status;
use crate::apiserver::store::{Event, EventType, ObjectKey};
use crate::managedfields::Cause;

/// A list or watch request's options, read from its query.
#[derive(Debug, Clone)]
struct Options {
    labels: LabelSelector,
    fields: FieldSelector,
    watch: bool,
    bookmarks: bool,
    resource_version: String,
    version_match: String,
    limit: usize,
    continue_token: String,
    send_initial_events: Option<bool>,
}

/// What a collection request selects.
#[derive(Debug, Clone)]
struct Selection {
    resource: Resource,
    /// Empty: every namespace (or a cluster-scoped resource).
    namespace: String,
    labels: LabelSelector,
    fields: FieldSelector,
}

/// A watch in progress: what it selects and how far it has read the server's writes. Made
/// by [`ApiServer::watch`], read by [`ApiServer::poll_watch`].
#[derive(Debug, Clone)]
pub struct Watch {
    selection: Selection,
    bookmarks: bool,
    /// The revision whose writes have all been delivered.
    position: u64,
    /// Events decided when the watch began (its initial `ADDED` events, its bookmark, or the
    /// error that ends it), not yet delivered.
    pending: Vec<Value>,
    ended: bool,
}

impl Watch {
    /// Whether the watch has ended (after an `ERROR` event): it delivers nothing more.
    pub fn is_ended(&self) -> bool {
        self.ended && self.pending.is_empty()
    }

    /// Whether the client asked for bookmarks (`allowWatchBookmarks`).
    pub fn allows_bookmarks(&self) -> bool {
        self.bookmarks
    }
}

fn query_bool(request: &Request, name: &str) -> Result<Option<bool>, Response> {
    let value = request.query_value(name);
    if request.query_values(name).is_empty() {
        return Ok(None);
    }
    // Go's strconv.ParseBool, as the query decoder reads a bool.
    match value {
        "1" | "t" | "T" | "true" | "TRUE" | "True" => Ok(Some(true)),
        "0" | "f" | "F" | "false" | "FALSE" | "False" | "" => Ok(Some(false)),
        other => Err(status::bad_request(&format!(
            "strconv.ParseBool: parsing {}: invalid syntax",
            status::quote(other)
        ))),
    }
}

fn options(
    request: &Request,
    resource: &Resource,
    crd: Option<&Value>,
) -> Result<Options, Response> {
    let labels = LabelSelector::parse(request.query_value("labelSelector"))
        .map_err(|e: String| status::bad_request(&e))?;
    let fields = FieldSelector::parse(request.query_value("fieldSelector"))
        .map_err(|e: String| status::bad_request(&e))?;
    let fields =
        fieldlabels::convert(resource, crd, fields).map_err(|e: String| status::bad_request(&e))?;
    let limit = match request.query_value("limit") {
        "" => 0,
        text => match text.parse::<i64>() {
            Ok(n) => usize::try_from(n).unwrap_or(0),
            Err(_) => {
                return Err(status::bad_request(&format!(
                    "strconv.ParseInt: parsing {}: invalid syntax",
                    status::quote(text)
                )));
            }
        },
    };
    let options = Options {
        labels,
        fields,
        watch: query_bool(request, "watch")?.unwrap_or(false),
        bookmarks: query_bool(request, "allowWatchBookmarks")?.unwrap_or(false),
        resource_version: request.query_value("resourceVersion").to_owned(),
        version_match: request.query_value("resourceVersionMatch").to_owned(),
        limit,
        continue_token: request.query_value("continue").to_owned(),
        send_initial_events: query_bool(request, "sendInitialEvents")?,
    };
    let problems = validate(&options);
    if !problems.is_empty() {
        return Err(status::invalid("meta.k8s.io", "ListOptions", "", problems));
    }
    Ok(options)
}

fn forbidden(field: &str, message: &str) -> Cause {
    Cause {
        kind: "FieldValueForbidden".to_owned(),
        message: format!("Forbidden: {message}"),
        field: field.to_owned(),
    }
}

fn not_supported(field: &str, value: &str, valid: &[&str]) -> Cause {
    let valid: Vec<String> = valid.iter().map(|v| status::quote(v)).collect();
    Cause {
        kind: "FieldValueNotSupported".to_owned(),
        message: format!(
            "Unsupported value: {}: supported values: {}",
            status::quote(value),
            valid.join(", ")
        ),
        field: field.to_owned(),
    }
}

/// `ValidateListOptions` (the WatchList feature on, as in 1.37).
fn validate(o: &Options) -> Vec<Cause> {
    let mut errs = Vec::new();
    let m = o.version_match.as_str();
    if o.watch {
        if o.send_initial_events.is_some() && m != "NotOlderThan" {
            errs.push(forbidden(
                "resourceVersionMatch",
                "sendInitialEvents requires setting resourceVersionMatch to NotOlderThan",
            ));
        }
        if !m.is_empty() {
            if o.send_initial_events.is_none() {
                errs.push(forbidden(
                    "resourceVersionMatch",
                    "resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided",
                ));
            }
            if m != "NotOlderThan" {
                errs.push(not_supported("resourceVersionMatch", m, &["NotOlderThan"]));
            }
            if !o.continue_token.is_empty() {
                errs.push(forbidden(
                    "resourceVersionMatch",
                    "resourceVersionMatch is forbidden when continue is provided",
                ));
            }
        }
        return errs;
    }
    if !m.is_empty() {
        if o.resource_version.is_empty() {
            errs.push(forbidden(
                "resourceVersionMatch",
                "resourceVersionMatch is forbidden unless resourceVersion is provided",
            ));
        }
        if !o.continue_token.is_empty() {
            errs.push(forbidden(
                "resourceVersionMatch",
                "resourceVersionMatch is forbidden when continue is provided",
            ));
        }
        if m != "Exact" && m != "NotOlderThan" {
            errs.push(not_supported(
                "resourceVersionMatch",
                m,
                &["Exact", "NotOlderThan", ""],
            ));
        }
        if m == "Exact" && o.resource_version == "0" {
            errs.push(forbidden(
                "resourceVersionMatch",
                "resourceVersionMatch \"exact\" is forbidden for resourceVersion \"0\"",
            ));
        }
    }
    if o.send_initial_events.is_some() {
        errs.push(forbidden(
            "sendInitialEvents",
            "sendInitialEvents is forbidden for list",
        ));
    }
    errs
}

/// The storage key of an object, as etcd orders a collection: `namespace/name`.
fn storage_key(key: &ObjectKey) -> String {
    if key.namespace.is_empty() {
        key.name.clone()
    } else {
        format!("{}/{}", key.namespace, key.name)
    }
}

fn expired(message: &str) -> Response {
    status::failure(410, "Expired", message, None)
}

fn too_large_version(asked: u64, current: u64) -> Response {
    let mut details = status::Details::default();
    details.causes.push(Cause {
        kind: "ResourceVersionTooLarge".to_owned(),
        message: "Too large resource version".to_owned(),
        field: String::new(),
    });
    status::failure(
        504,
        "Timeout",
        &format!("Timeout: Too large resource version: {asked}, current: {current}"),
        Some(&details),
    )
}

/// `strconv.ParseUint`'s refusal of a resourceVersion, as a field error's text.
fn parse_uint_error(text: &str) -> String {
    format!(
        "resourceVersion: Invalid value: {}: strconv.ParseUint: parsing {}: invalid syntax",
        status::quote(text),
        status::quote(text)
    )
}

/// A watch's resourceVersion; one that is not a number fails inside the watch cache, which
/// answers 500.
fn parse_version(text: &str) -> Result<u64, Response> {
    text.parse::<u64>()
        .map_err(|_| status::failure(500, "", &parse_uint_error(text), None))
}

/// The continue token of a list page (`storage.EncodeContinue`): its revision and the key
/// the next page starts at, as base64url JSON in the token struct's field order.
fn encode_continue(revision: u64, start: &str) -> String {
    let start = crate::validation::json(&Value::from(format!("{start}\u{0}")));
    let json = format!(r#"{{"v":"meta.k8s.io/v1","rv":{revision},"start":{start}}}"#);
    base64url(json.as_bytes())
}

/// `storage.DecodeContinue`: the revision and start key of a token, or the server's 400.
fn decode_continue(token: &str) -> Result<(u64, String), Response> {
    let invalid = |why: String| {
        status::bad_request(&format!(
            "invalid continue token: continue key is not valid: {why}"
        ))
    };
    let bytes = unbase64url(token)
        .map_err(|at| invalid(format!("illegal base64 data at input byte {at}")))?;
    if let Some(e) = crate::apiserver::json_syntax_error(&bytes) {
        return Err(invalid(e));
    }
    let value: Value = serde_json::from_slice(&bytes)
        .map_err(|_| invalid("unexpected end of JSON input".to_owned()))?;
    let field = |key: &str| value.as_map().and_then(|m| m.get(key));
    let version = field("v").and_then(Value::as_str).unwrap_or("");
    if version != "meta.k8s.io/v1" {
        return Err(status::bad_request(&format!(
            "invalid continue token: continue key is not valid: server does not recognize this encoded version {}",
            status::quote(version)
        )));
    }
    let rv = field("rv").and_then(Value::as_int).unwrap_or(0);
    let Some(rv) = u64::try_from(rv).ok().filter(|rv| *rv > 0) else {
        return Err(status::bad_request(
            "invalid continue token: continue key is not valid: incorrect encoded start resourceVersion (version meta.k8s.io/v1)",
        ));
    };
    let start = field("start").and_then(Value::as_str).unwrap_or("");
    if start.is_empty() {
        return Err(status::bad_request(
            "invalid continue token: continue key is not valid: encoded start key empty (version meta.k8s.io/v1)",
        ));
    }
    Ok((rv, start.to_owned()))
}

const B64: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

fn base64url(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let n = chunk
            .iter()
            .enumerate()
            .fold(0u32, |n, (i, b)| n | u32::from(*b) << (16 - 8 * i));
        for i in 0..=chunk.len() {
            let index = (n >> (18 - 6 * i)) & 63;
            out.push(char::from(B64[index as usize]));
        }
    }
    out
}

/// Go's `base64.RawURLEncoding.DecodeString`: the bytes, or the input byte where it fails.
fn unbase64url(text: &str) -> Result<Vec<u8>, usize> {
    let mut out = Vec::with_capacity(text.len() * 3 / 4);
    let (mut n, mut bits) = (0u32, 0);
    for (i, c) in text.bytes().enumerate() {
        let v = B64.iter().position(|b| *b == c).ok_or(i)?;
        n = n << 6 | u32::try_from(v).map_err(|_| i)?;
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push(u8::try_from((n >> bits) & 0xff).map_err(|_| i)?);
        }
    }
    // A last group of one character holds no whole byte; its leftover bits must be zero.
    if text.len() % 4 == 1 {
        return Err(text.len() - 1);
    }
    Ok(out)
}

impl Selection {
    /// The same collection, without selectors.
    fn everything(&self) -> Selection {
        Selection {
            resource: self.resource.clone(),
            namespace: self.namespace.clone(),
            labels: LabelSelector::default(),
            fields: FieldSelector::default(),
        }
    }

    fn holds(&self, key: &ObjectKey) -> bool {
        key.group == self.resource.group
            && key.plural == self.resource.plural
            && (self.namespace.is_empty() || key.namespace == self.namespace)
    }
}

impl ApiServer {
    /// Whether `object` (as held) passes the selection's selectors.
    fn selects(&self, selection: &Selection, object: &Value) -> bool {
        let labels = get(object, &["metadata", "labels"]).and_then(Value::as_map);
        selection.labels.matches(labels)
            && selection
                .fields
                .matches(|label| fieldlabels::value(&selection.resource, object, label))
    }

    /// The objects of `selection` at `revision` (the current ones with the writes after it
    /// undone), in storage order.
    fn state_at(&self, selection: &Selection, revision: u64) -> Vec<(String, ObjectKey, Value)> {
        let mut objects: std::collections::BTreeMap<String, (ObjectKey, Value)> = self
            .store
            .iter()
            .filter(|(k, _)| selection.holds(k))
            .map(|(k, v)| (storage_key(k), (k.clone(), v.clone())))
            .collect();
        let later: Vec<&Event> = self.store.events_after(revision).collect();
        for event in later.into_iter().rev().filter(|e| selection.holds(&e.key)) {
            let at = storage_key(&event.key);
            match (&event.kind, &event.previous) {
                (EventType::Added, _) => {
                    objects.remove(&at);
                }
                (_, Some(previous)) => {
                    objects.insert(at, (event.key.clone(), previous.clone()));
                }
                (_, None) => {}
            }
        }
        objects
            .into_iter()
            .filter(|(_, (_, v))| self.selects(selection, v))
            .map(|(at, (k, v))| (at, k, v))
            .collect()
    }

    /// An object as a read through the selection's resource gives it.
    fn read_as(&self, selection: &Selection, key: &ObjectKey, object: &Value) -> Value {
        let at = (key.namespace.as_str(), key.name.as_str());
        self.convert_for(
            &selection.resource,
            object,
            &api_version_of(&selection.resource),
            at,
        )
        .unwrap_or_else(|_| object.clone())
    }

    /// LIST: the objects the request selects, at the revision it asks for, a page at a time.
    pub(super) fn list(&self, request: &Request, resource: &Resource, target: &Target) -> Response {
        let crd = self.crd_of(resource).cloned();
        let options = match options(request, resource, crd.as_ref()) {
            Ok(o) => o,
            Err(refusal) => return refusal,
        };
        let selection = Selection {
            resource: resource.clone(),
            namespace: target.namespace.clone(),
            labels: options.labels.clone(),
            fields: options.fields.clone(),
        };
        let current = self.store.revision();
        let mut start = String::new();
        let rv_text = options.resource_version.as_str();
        let revision = if !options.continue_token.is_empty() {
            if !matches!(rv_text, "" | "0") {
                return status::bad_request(
                    "specifying resource version is not allowed when using continue",
                );
            }
            let (rv, key) = match decode_continue(&options.continue_token) {
                Ok(decoded) => decoded,
                Err(refusal) => return refusal,
            };
            if rv < self.store.floor() {
                return expired(
                    "The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue parameter, or use the continue token in this response to retrieve the remainder of the results. Continuing with the provided token results in an inconsistent list - objects that were created, modified, or deleted between the time the first chunk was returned and now may show up in the list.",
                );
            }
            start = key;
            rv
        } else if matches!(rv_text, "" | "0") {
            current
        } else {
            let asked = match rv_text.parse::<u64>() {
                Ok(n) => n,
                Err(_) => {
                    return status::bad_request(&format!(
                        "invalid resource version: {}",
                        parse_uint_error(rv_text)
                    ));
                }
            };
            if asked > current {
                return too_large_version(asked, current);
            }
            // A version with a limit and no match is read exactly, as `Exact` reads it.
            let exact = options.version_match == "Exact"
                || (options.version_match.is_empty() && options.limit > 0);
            if exact {
                if asked < self.store.floor() {
                    return expired("The resourceVersion for the provided list is too old.");
                }
                asked
            } else {
                current
            }
        };
        // Read from the watch cache, a list at version 0 is not paged.
        let limit = match (rv_text, options.continue_token.is_empty()) {
            ("0", true) => 0,
            _ => options.limit,
        };
        // The storage scans keys in order, the selectors filtering; it stops before the key
        // after a full page, and says there is more when any key remains, selected or not.
        let all: Vec<(String, ObjectKey, Value)> = self
            .state_at(&Selection::everything(&selection), revision)
            .into_iter()
            .filter(|(at, _, _)| start.is_empty() || at.as_str() >= start.as_str())
            .collect();
        let mut items = Vec::new();
        let mut more = None;
        for (i, (_, key, object)) in all.iter().enumerate() {
            if limit > 0 && items.len() == limit {
                let last = all.get(i.wrapping_sub(1)).map(|(at, _, _)| at.clone());
                more = Some((last.unwrap_or_default(), all.len() - i));
                break;
            }
            if !self.selects(&selection, object) {
                continue;
            }
            let mut item = self.read_as(&selection, key, object);
            if !resource.custom
                && let Value::Map(m) = &mut item
            {
                // A built-in list's items are typed: the list names their kind once.
                m.remove("apiVersion");
                m.remove("kind");
            }
            items.push(item);
        }
        self.list_answer(&selection, items, revision, more, &options)
    }

    fn list_answer(
        &self,
        selection: &Selection,
        items: Vec<Value>,
        revision: u64,
        more: Option<(String, usize)>,
        options: &Options,
    ) -> Response {
        let resource = &selection.resource;
        let list_kind = self
            .crd_of(resource)
            .map(|crd| nested_str(crd, &["spec", "names", "listKind"]).to_owned())
            .filter(|k| !k.is_empty())
            .unwrap_or_else(|| format!("{}List", resource.kind));
        let mut meta = Map::new();
        meta.insert("resourceVersion", Value::from(revision.to_string()));
        if more.is_none() && resource.custom {
            // An unstructured list writes its continue token even when it is empty.
            meta.insert("continue", Value::from(""));
        }
        if let Some((last, remaining)) = more {
            meta.insert("continue", Value::from(encode_continue(revision, &last)));
            if options.labels.is_empty() && options.fields.terms.is_empty() {
                meta.insert(
                    "remainingItemCount",
                    Value::Int(i64::try_from(remaining).unwrap_or(i64::MAX)),
                );
            }
        }
        let mut body = Map::new();
        body.insert("kind", Value::from(list_kind));
        body.insert("apiVersion", Value::from(api_version_of(resource)));
        body.insert("metadata", Value::Map(meta));
        body.insert("items", Value::List(items));
        ok(200, Value::Map(body))
    }

    /// DELETECOLLECTION: every object the request's selectors select, deleted one by one
    /// with the request's DeleteOptions as a DELETE of each would; the answer is the list of
    /// them as listed before (the first refusal, if one is refused).
    pub(super) fn delete_collection(
        &mut self,
        request: &Request,
        resource: &Resource,
        target: &Target,
        now: crate::managedfields::Timestamp,
    ) -> Response {
        let listed = self.list(request, resource, target);
        if !listed.is_success() {
            return listed;
        }
        let crd = self.crd_of(resource).cloned();
        let selection = match options(request, resource, crd.as_ref()) {
            Ok(o) => Selection {
                resource: resource.clone(),
                namespace: target.namespace.clone(),
                labels: o.labels,
                fields: o.fields,
            },
            Err(refusal) => return refusal,
        };
        let keys: Vec<ObjectKey> = self
            .state_at(&selection, self.store.revision())
            .into_iter()
            .map(|(_, key, _)| key)
            .collect();
        let dry_run = !request.query_values("dryRun").is_empty();
        for key in keys {
            let mut one = target.clone();
            one.name = key.name.clone();
            one.namespace = key.namespace.clone();
            let call = Call {
                request,
                parsed: None,
                resource: resource.clone(),
                target: one,
                key,
                dry_run,
                now,
            };
            let answer = self.delete(&call);
            if !answer.is_success() {
                return answer;
            }
        }
        listed
    }

    /// WATCH through [`ApiServer::handle`]: the events a watch begun with `request` has
    /// received once every write so far is delivered, as a list.
    pub(super) fn watch_now(
        &self,
        request: &Request,
        resource: &Resource,
        target: &Target,
    ) -> Response {
        match self.begin_watch(request, resource, target) {
            Ok(mut watch) => ok(200, Value::List(self.poll_watch(&mut watch))),
            Err(refusal) => refusal,
        }
    }

    pub(super) fn begin_watch(
        &self,
        request: &Request,
        resource: &Resource,
        target: &Target,
    ) -> Result<Watch, Response> {
        let crd = self.crd_of(resource).cloned();
        let options = options(request, resource, crd.as_ref())?;
        let selection = Selection {
            resource: resource.clone(),
            namespace: target.namespace.clone(),
            labels: options.labels,
            fields: options.fields,
        };
        let current = self.store.revision();
        let mut watch = Watch {
            selection,
            bookmarks: options.bookmarks,
            position: current,
            pending: Vec::new(),
            ended: false,
        };
        // Without a revision (or with 0) a watch begins with the current state; so does one
        // asking for its initial events. Otherwise it resumes after the revision it names.
        let initial = options
            .send_initial_events
            .unwrap_or(matches!(options.resource_version.as_str(), "" | "0"));
        if !matches!(options.resource_version.as_str(), "" | "0") {
            let asked = parse_version(&options.resource_version)?;
            let refusal = if asked > current {
                Some(too_large_version(asked, current))
            } else if !initial && asked < self.store.floor() {
                let message = format!("too old resource version: {asked} ({})", self.store.floor());
                Some(expired(&message))
            } else {
                None
            };
            if let Some(refusal) = refusal {
                // Past the handler's checks, the watch cache reports its errors as an event.
                watch.pending.push(error_event(&refusal));
                watch.ended = true;
                return Ok(watch);
            }
            if !initial {
                watch.position = asked;
            }
        }
        if initial {
            for (_, key, object) in self.state_at(&watch.selection, current) {
                let object = self.read_as(&watch.selection, &key, &object);
                watch.pending.push(event(EventType::Added.name(), object));
            }
            // The end of the initial events is a bookmark: sent only where bookmarks are.
            if options.send_initial_events == Some(true) && options.bookmarks {
                watch
                    .pending
                    .push(event("BOOKMARK", bookmark(resource, current, true)));
            }
        }
        Ok(watch)
    }

    /// The events of `watch` since it was last read (its initial ones first), in order; the
    /// watch then stands at the latest write. A watch whose position the kept history no
    /// longer reaches ends with `410 Gone`.
    pub fn poll_watch(&self, watch: &mut Watch) -> Vec<Value> {
        let mut out = std::mem::take(&mut watch.pending);
        if watch.ended {
            return out;
        }
        if watch.position < self.store.floor() {
            let message = format!(
                "too old resource version: {} ({})",
                watch.position,
                self.store.floor()
            );
            out.push(error_event(&expired(&message)));
            watch.ended = true;
            return out;
        }
        for e in self.store.events_after(watch.position) {
            if !watch.selection.holds(&e.key) {
                continue;
            }
            let now = e.kind != EventType::Deleted && self.selects(&watch.selection, &e.object);
            let before = e
                .previous
                .as_ref()
                .is_some_and(|p| self.selects(&watch.selection, p));
            let (kind, object) = match (now, before) {
                (true, false) => (EventType::Added, e.object.clone()),
                (true, true) => (EventType::Modified, e.object.clone()),
                (false, true) => {
                    // What it was, at the revision where it stopped being selected.
                    let mut last = e.previous.clone().unwrap_or_else(|| e.object.clone());
                    set(
                        &mut last,
                        &["metadata", "resourceVersion"],
                        Value::from(e.revision.to_string()),
                    );
                    (EventType::Deleted, last)
                }
                (false, false) => continue,
            };
            let object = self.read_as(&watch.selection, &e.key, &object);
            out.push(event(kind.name(), object));
        }
        watch.position = self.store.revision();
        out
    }

    /// The resource and target of a collection's URL path.
    fn collection_of(&self, path: &str) -> Option<(Resource, Target)> {
        let target =
            super::routes::parse(path, |g, v, p| self.resource(g, v, p).map(|r| r.namespaced))?;
        if !target.name.is_empty() || !target.subresource.is_empty() {
            return None;
        }
        let resource = self
            .resource(&target.group, &target.version, &target.plural)?
            .clone();
        Some((resource, target))
    }

    /// Begins a watch of the collection `request` names (`GET ...?watch=true` with its
    /// query), or the refusal; [`ApiServer::poll_watch`] gives its events as writes happen.
    pub fn watch(&self, request: &Request) -> Result<Watch, Response> {
        let legacy = legacy_watch(request);
        let request = legacy.as_ref().unwrap_or(request);
        let Some((resource, target)) = self.collection_of(&request.path) else {
            return Err(status::no_route());
        };
        self.begin_watch(request, &resource, &target)
    }
}

fn event(kind: &str, object: Value) -> Value {
    let mut m = Map::new();
    m.insert("type", Value::from(kind));
    m.insert("object", object);
    Value::Map(m)
}

fn error_event(refusal: &Response) -> Value {
    event("ERROR", refusal.body.clone())
}

/// A bookmark's object: the kind, and a resourceVersion (the end of the initial events
/// marked by an annotation).
fn bookmark(resource: &Resource, revision: u64, initial_end: bool) -> Value {
    let mut meta = Map::new();
    meta.insert("resourceVersion", Value::from(revision.to_string()));
    if initial_end {
        let mut annotations = Map::new();
        annotations.insert("k8s.io/initial-events-end", Value::from("true"));
        meta.insert("annotations", Value::Map(annotations));
    }
    let mut m = Map::new();
    m.insert("kind", Value::from(resource.kind.as_str()));
    m.insert("apiVersion", Value::from(api_version_of(resource)));
    m.insert("metadata", Value::Map(meta));
    Value::Map(m)
}

/// The deprecated watch paths (`/api/v1/watch/namespaces/ns/configmaps`, with an object's
/// name a watch of it alone) as the request the router serves them as: the collection with
/// `watch=true`.
pub(super) fn legacy_watch(request: &Request) -> Option<Request> {
    let trimmed = request.path.trim_start_matches('/');
    let prefix_len = match trimmed.split('/').next()? {
        "api" => 2,
        "apis" => 3,
        _ => return None,
    };
    let mut rest: Vec<&str> = trimmed.split('/').collect();
    if rest.get(prefix_len) != Some(&"watch") || request.method != "GET" {
        return None;
    }
    rest.remove(prefix_len);
    let mut watch = request.clone();
    watch.query.retain(|(k, _)| k != "watch");
    watch.query.push(("watch".to_owned(), "true".to_owned()));
    // `.../namespaces/{ns}/{plural}/{name}` or `.../{plural}/{name}`: one object.
    let tail = &rest[prefix_len..];
    let named = match tail {
        ["namespaces", _, _, name] => Some(*name),
        [_, name] if tail[0] != "namespaces" => Some(*name),
        _ => None,
    };
    if let Some(name) = named {
        rest.pop();
        watch
            .query
            .push(("fieldSelector".to_owned(), format!("metadata.name={name}")));
    }
    watch.path = format!("/{}", rest.join("/"));
    Some(watch)
}
