//! A create or update body decoded as the server's codec decodes it (`runtime/serializer/json`,
//! the versioning codec, the handlers' `transformDecodeError`), before the registry sees it:
//! the body read (JSON or YAML), its `apiVersion` and `kind` found and defaulted from the
//! endpoint's, the type they name looked up in the endpoint's scheme, the body decoded as that
//! type and converted to the endpoint's internal type, the group and version compared with the
//! endpoint's; then, for a built-in kind, decoded into its Go type with the `fieldValidation`
//! refusals and warnings. Every refusal is 400 `BadRequest` with the codec's words.

use std::sync::Arc;

use smd_fieldpath::{Map, Value};
use smd_schema::gvk::GroupVersionKind;

use crate::customresource::{self, Reading, Structural};

use super::http::{Request, Response};
use super::status;

/// The scheme's name in its "not registered" errors (where the legacy scheme was made; the
/// apiextensions and aggregator schemes say the same).
const SCHEME: &str = "pkg/runtime/scheme.go:111";

/// The kinds a scheme knows in every group and version (`AddUnversionedTypes`).
const UNVERSIONED: &[&str] = &[
    "Status",
    "APIVersions",
    "APIGroupList",
    "APIGroup",
    "APIResourceList",
];

/// The groups served from schemes of their own (apiextensions-apiserver's, kube-aggregator's),
/// which hold that group and the core group's option kinds and no other.
const OWN_SCHEMES: &[&str] = &["apiextensions.k8s.io", "apiregistration.k8s.io"];

/// Kinds whose internal Go type lives in another group's package than their group's (the
/// `addKnownTypes` of `k8s.io/kubernetes/pkg/apis/{events,extensions,apps}`).
const INTERNAL_ELSEWHERE: &[(&str, &str, &str)] = &[
    ("events.k8s.io", "Event", "core"),
    ("events.k8s.io", "EventList", "core"),
    ("extensions", "Deployment", "apps"),
    ("extensions", "DeploymentList", "apps"),
    ("extensions", "DeploymentRollback", "apps"),
    ("extensions", "DaemonSet", "apps"),
    ("extensions", "DaemonSetList", "apps"),
    ("extensions", "ReplicaSet", "apps"),
    ("extensions", "ReplicaSetList", "apps"),
    ("extensions", "Ingress", "networking"),
    ("extensions", "IngressList", "networking"),
    ("extensions", "NetworkPolicy", "networking"),
    ("extensions", "NetworkPolicyList", "networking"),
    ("extensions", "Scale", "autoscaling"),
    ("apps", "Scale", "autoscaling"),
];

/// The Go package of a group's internal types, where it is not the group's first label.
const INTERNAL_PACKAGES: &[(&str, &str)] = &[
    ("", "core"),
    ("rbac.authorization.k8s.io", "rbac"),
    ("flowcontrol.apiserver.k8s.io", "flowcontrol"),
    ("internal.apiserver.k8s.io", "apiserverinternal"),
];

/// What a body is decoded into: the endpoint's kind (a resource's, or `autoscaling/v1` Scale
/// for a scale subresource) and whether a custom resource's codec decodes it.
#[derive(Debug, Clone)]
pub(super) struct Target {
    /// The group, version and kind the endpoint serves.
    pub gvk: GroupVersionKind,
    /// A custom resource's endpoint: unstructured decoding, any kind of any version read.
    pub custom: bool,
    /// The group of the scheme the endpoint decodes with (a Scale's is its parent's).
    pub scheme_group: String,
    /// A custom resource's versions that have a schema (its CRD's); a body of another
    /// version of its kind has none, and every field but the type and metadata is unknown.
    pub custom_versions: Vec<String>,
    /// A custom resource's structural schema at the endpoint's version (`None`: none, or a
    /// built-in kind).
    pub structural: Option<Arc<Structural>>,
}

/// The content type of a create or update body, as the server negotiates it.
pub(super) fn content_type(request: &Request) -> &str {
    let ct = request
        .content_type
        .split(';')
        .next()
        .unwrap_or_default()
        .trim();
    if ct.is_empty() {
        "application/json"
    } else {
        ct
    }
}

/// The handler's summary of a body it cannot read (`summarizeData`): its first 30 bytes, as
/// text when it opens with `{`, else in hex (`<empty>` for none).
fn summary(body: &[u8]) -> String {
    let head = body.get(..30).unwrap_or(body);
    let more = if body.len() > 30 { " ..." } else { "" };
    match body.first() {
        None => "<empty>".to_owned(),
        Some(b'{') => format!("{}{more}", String::from_utf8_lossy(head)),
        Some(_) => {
            let hex: String = head.iter().map(|b| format!("{b:02x}")).collect();
            format!("{hex}{more}")
        }
    }
}

/// `transformDecodeError` when the decoder found no kind: the body is unrecognized.
fn unrecognized(kind: &str, why: &str, body: &[u8]) -> Response {
    status::bad_request(&format!(
        "the object provided is unrecognized (must be of type {kind}): {why} ({})",
        summary(body)
    ))
}

/// `transformDecodeError` when the decoder found a kind: it cannot be handled as the target.
fn cannot_handle(found: &GroupVersionKind, target: &str, why: &str) -> Response {
    status::bad_request(&format!(
        "{} in version {} cannot be handled as a {target}: {why}",
        found.kind,
        status::quote(&found.version)
    ))
}

/// The body of a create or update read as JSON or YAML (as its content type says): an
/// object, or the server's refusal. A body already parsed by the caller is taken as it is.
pub(super) fn read_body(
    request: &Request,
    parsed: Option<&Value>,
    target: &Target,
) -> Result<Value, Response> {
    if let Some(v) = parsed
        && v.as_map().is_some()
    {
        return Ok(v.clone());
    }
    let ct = content_type(request);
    if !matches!(
        ct,
        "application/json" | "application/yaml" | "application/vnd.kubernetes.protobuf"
    ) {
        return Err(status::failure(
            415,
            "UnsupportedMediaType",
            "the body of the request was in an unknown format - accepted media types include: \
             application/json, application/yaml, application/vnd.kubernetes.protobuf",
            None,
        ));
    }
    let body = &request.body;
    let kind = &target.gvk.kind;
    let json_error = |why: &str| {
        unrecognized(
            kind,
            &format!("couldn't get version/kind; json parse error: {why}"),
            body,
        )
    };
    let parsed = match ct {
        // YAML is converted to JSON first; its reader's errors come alone.
        "application/yaml" => match smd_fieldpath::yaml::documents_from_slice(body) {
            Ok(docs) => docs.into_iter().next().unwrap_or(Value::Null),
            Err(e) => {
                return Err(unrecognized(
                    kind,
                    &super::yamlerror::go_yaml_error(body, &e),
                    body,
                ));
            }
        },
        _ => {
            if let Some(e) = super::gojson::syntax_error(body) {
                return Err(json_error(&e));
            }
            let text = String::from_utf8_lossy(body);
            match Value::from_json(&text) {
                Ok(v) => v,
                Err(e) => {
                    let own = GroupVersionKind::new(&target.gvk.group, &target.gvk.version, kind);
                    return Err(cannot_handle(&own, kind, &e.to_string()));
                }
            }
        }
    };
    match parsed {
        // `null` reads as an object with nothing set.
        Value::Null => Ok(Value::Map(Map::new())),
        v if v.as_map().is_some() => Ok(v),
        other => Err(json_error(&format!(
            "json: cannot unmarshal {} into Go value of type struct {{ APIVersion string \"json:\\\"apiVersion,omitempty\\\"\"; Kind string \"json:\\\"kind,omitempty\\\"\" }}",
            json_type(&other)
        ))),
    }
}

/// `schema.ParseGroupVersion`: empty and `/` are no group version, one `/` splits group and
/// version, none is a version alone; more is an error.
fn parse_group_version(api_version: &str) -> Result<(String, String), String> {
    if api_version.is_empty() || api_version == "/" {
        return Ok((String::new(), String::new()));
    }
    let parts: Vec<&str> = api_version.split('/').collect();
    match parts.as_slice() {
        [version] => Ok((String::new(), (*version).to_owned())),
        [group, version] => Ok(((*group).to_owned(), (*version).to_owned())),
        _ => Err(format!("unexpected GroupVersion string: {api_version}")),
    }
}

/// `gvkWithDefaults`: the body's kind, group and version, each missing part the endpoint's.
fn with_defaults(mut actual: GroupVersionKind, defaults: &GroupVersionKind) -> GroupVersionKind {
    if actual.kind.is_empty() {
        actual.kind = defaults.kind.clone();
    }
    if actual.version.is_empty() && actual.group.is_empty() {
        actual.group = defaults.group.clone();
        actual.version = defaults.version.clone();
    }
    if actual.version.is_empty() && actual.group == defaults.group {
        actual.version = defaults.version.clone();
    }
    actual
}

/// Go's `encoding/json` word for the JSON type of a value it cannot put in a string.
fn json_type(value: &Value) -> &'static str {
    match value {
        Value::Bool(_) => "bool",
        Value::Int(_) | Value::Float(_) => "number",
        Value::List(_) => "array",
        Value::Map(_) => "object",
        _ => "string",
    }
}

/// The body's `apiVersion` and `kind` as the meta factory reads them (`null` is absent; any
/// other non-string refused), the raw `apiVersion` kept for the messages that quote it.
fn type_meta(body: &Value, target: &Target, raw: &[u8]) -> Result<(String, String), Response> {
    let mut out = [String::new(), String::new()];
    for (slot, field) in out.iter_mut().zip(["apiVersion", "kind"]) {
        match body.as_map().and_then(|m| m.get(field)) {
            None | Some(Value::Null) => {}
            Some(Value::String(s)) => *slot = s.to_string(),
            Some(other) => {
                return Err(unrecognized(
                    &target.gvk.kind,
                    &format!(
                        "couldn't get version/kind; json parse error: json: cannot unmarshal {} \
                         into Go struct field .{field} of type string",
                        json_type(other)
                    ),
                    raw,
                ));
            }
        }
    }
    let [api_version, kind] = out;
    Ok((api_version, kind))
}

/// The body's bytes as the decoder quotes them: the request's JSON, or the JSON a YAML body
/// becomes.
fn quoted_data(request: &Request, parsed: Option<&Value>, body: &Value) -> String {
    if parsed.is_none() && content_type(request) != "application/yaml" {
        return String::from_utf8_lossy(&request.body).into_owned();
    }
    fn sorted(v: &Value) -> Value {
        match v {
            Value::Map(m) => {
                let mut out = Map::new();
                let mut keys: Vec<_> = m.iter().collect();
                keys.sort_by(|a, b| a.0.cmp(b.0));
                for (k, v) in keys {
                    out.insert(k, sorted(v));
                }
                Value::Map(out)
            }
            Value::List(l) => Value::List(l.iter().map(sorted).collect()),
            other => other.clone(),
        }
    }
    sorted(body).to_string()
}

/// The `apiVersion` text of a group and version (`v1` for the core group).
fn group_version_text(group: &str, version: &str) -> String {
    if group.is_empty() {
        version.to_owned()
    } else {
        format!("{group}/{version}")
    }
}

/// The Go type (`package.Type`, the package's last element) a scheme decodes `gvk` into, for
/// an endpoint of `scheme_group`; `None` when the scheme has no such kind.
fn registered_type(gvk: &GroupVersionKind, scheme_group: &str) -> Option<String> {
    if UNVERSIONED.contains(&gvk.kind.as_str()) {
        return Some(format!("v1.{}", gvk.kind));
    }
    let types = crate::builtin::gotypes::gotypes().ok()?;
    let kind = types
        .kinds()
        .iter()
        .find(|k| k.group == gvk.group && k.version == gvk.version && k.kind == gvk.kind)?;
    let meta = kind.type_name.starts_with("io.k8s.apimachinery.");
    let in_scheme = if OWN_SCHEMES.contains(&scheme_group) {
        gvk.group == scheme_group || (gvk.group.is_empty() && gvk.version == "v1" && meta)
    } else {
        !OWN_SCHEMES.contains(&gvk.group.as_str())
    };
    if !in_scheme {
        return None;
    }
    let mut parts = kind.type_name.rsplit('.');
    let name = parts.next()?;
    let package = parts.next()?;
    Some(format!("{package}.{name}"))
}

/// The internal Go type (`package.Kind`) of a group's kind.
fn internal_type(group: &str, kind: &str) -> String {
    let package = INTERNAL_ELSEWHERE
        .iter()
        .find(|(g, k, _)| *g == group && *k == kind)
        .map(|(_, _, p)| *p)
        .or_else(|| {
            INTERNAL_PACKAGES
                .iter()
                .find(|(g, _)| *g == group)
                .map(|(_, p)| *p)
        })
        .unwrap_or_else(|| group.split('.').next().unwrap_or_default());
    format!("{package}.{kind}")
}

/// The body's kind and version against the endpoint's, as the codec and the handler check
/// them before anything else reads the body. `Ok` when the body is of the endpoint's kind
/// and version (absent parts default to the endpoint's), or, for a custom resource, of its
/// group and version with another kind (which the registry's validation refuses later:
/// [`custom_kind_invalid`]). A body of another registered kind of a built-in scheme is
/// decoded as that kind first, so its decoding errors come before the conversion's.
pub(super) fn check_kind(
    request: &Request,
    parsed: Option<&Value>,
    body: &Value,
    target: &Target,
) -> Result<(), Response> {
    let raw = &request.body;
    let (api_version, kind) = type_meta(body, target, raw)?;
    let (group, version) =
        parse_group_version(&api_version).map_err(|e| unrecognized(&target.gvk.kind, &e, raw))?;
    let want = &target.gvk;
    let mismatch = |gv: &str| {
        status::bad_request(&format!(
            "the API version in the data ({gv}) does not match the expected API version ({})",
            group_version_text(&want.group, &want.version)
        ))
    };
    if target.custom {
        // Unstructured decoding takes the body's own kind and version, undefaulted.
        if kind.is_empty() {
            let data = quoted_data(request, parsed, body);
            return Err(unrecognized(
                &want.kind,
                &format!("Object 'Kind' is missing in '{data}'"),
                raw,
            ));
        }
        if group != want.group || version != want.version {
            let mut refusal = mismatch(&group_version_text(&group, &version));
            // The schema coercer prunes a body of the resource's kind with its version's
            // schema: a version without one leaves no field but the type and metadata.
            let schemaless = group == want.group
                && kind == want.kind
                && !target.custom_versions.contains(&version);
            let validation = request.query_value("fieldValidation");
            if schemaless && validation != "Ignore" {
                let mut unknown: Vec<String> = body
                    .as_map()
                    .map(|m| {
                        m.iter()
                            .map(|(k, _)| k.to_string())
                            .filter(|k| !matches!(k.as_str(), "apiVersion" | "kind" | "metadata"))
                            .collect()
                    })
                    .unwrap_or_default();
                unknown.sort();
                let problems: Vec<String> = unknown
                    .iter()
                    .map(|f| format!("unknown field {}", status::quote(f)))
                    .collect();
                if !problems.is_empty() {
                    if validation == "Strict" {
                        let found = GroupVersionKind::new(&group, &version, &kind);
                        return Err(cannot_handle(
                            &found,
                            &want.kind,
                            &format!("strict decoding error: {}", problems.join(", ")),
                        ));
                    }
                    refusal.warnings = problems;
                }
            }
            return Err(refusal);
        }
        return Ok(());
    }
    let found = with_defaults(GroupVersionKind::new(&group, &version, &kind), want);
    if found.group == want.group && found.version == want.version && found.kind == want.kind {
        return Ok(());
    }
    if found.version.is_empty() {
        let data = String::from_utf8_lossy(raw);
        return Err(cannot_handle(
            &found,
            &want.kind,
            &format!("Object 'apiVersion' is missing in '{data}'"),
        ));
    }
    if found.version == "__internal" {
        // The internal version decodes straight into the endpoint's type, and is no version
        // the endpoint accepts.
        if found.group == want.group && found.kind == want.kind {
            return Err(mismatch(&group_version_text(&found.group, &found.version)));
        }
    }
    let Some(go_type) = registered_type(&found, &target.scheme_group) else {
        return Err(cannot_handle(
            &found,
            &want.kind,
            &format!(
                "no kind {} is registered for version {} in scheme {}",
                status::quote(&found.kind),
                status::quote(&group_version_text(&found.group, &found.version)),
                status::quote(SCHEME)
            ),
        ));
    };
    // Decoded as the type the body names (so that its errors come first), then converted.
    let decode_as = if UNVERSIONED.contains(&found.kind.as_str()) {
        GroupVersionKind::new("", "v1", &found.kind)
    } else {
        found.clone()
    };
    let validation = request.query_value("fieldValidation");
    let decoded = crate::builtin::round_trip(&decode_as, body)
        .map_err(|e| cannot_handle(&found, &want.kind, &e.message))?;
    let source = internal_type(&found.group, &found.kind);
    let internal = internal_type(&want.group, &want.kind);
    if UNVERSIONED.contains(&found.kind.as_str()) || source != internal {
        // The conversion's error replaces the decoder's strict one.
        return Err(cannot_handle(
            &found,
            &want.kind,
            &format!("converting ({go_type}) to ({internal}): unknown conversion"),
        ));
    }
    let problems = strict_problems(request, parsed, &decoded.unknown_fields, true);
    if validation == "Strict" && !problems.is_empty() {
        return Err(cannot_handle(
            &found,
            &want.kind,
            &format!("strict decoding error: {}", problems.join(", ")),
        ));
    }
    let mut refusal = mismatch(&group_version_text(&found.group, &found.version));
    // Warned of before the version is refused; the warnings go out with the refusal.
    if validation != "Ignore" {
        refusal.warnings = problems;
    }
    Err(refusal)
}

/// What strict decoding finds in a body: the fields its Go type lacks, then (when `sent`: the
/// body is the request's JSON) the keys its text sets twice.
fn strict_problems(
    request: &Request,
    parsed: Option<&Value>,
    unknown_fields: &[String],
    sent: bool,
) -> Vec<String> {
    let unknown = unknown_fields.iter().map(|f| f.trim_start_matches('.'));
    if !(sent && parsed.is_none() && content_type(request) == "application/json") {
        return unknown
            .map(|f| format!("unknown field {}", status::quote(f)))
            .collect();
    }
    // The decoder meets both kinds as it reads the text: each is placed where its key is
    // (an unknown field's first occurrence, a repeated key's second).
    let text = String::from_utf8_lossy(&request.body);
    let at = |path: &str, nth: usize| {
        let key = path.rsplit('.').next().unwrap_or(path);
        let key = key.split('[').next().unwrap_or(key);
        text.match_indices(&format!("\"{key}\""))
            .nth(nth)
            .map_or(usize::MAX, |(i, _)| i)
    };
    let mut found: Vec<(usize, String)> = unknown
        .map(|f| (at(f, 0), format!("unknown field {}", status::quote(f))))
        .collect();
    found.extend(
        super::duplicates::duplicate_fields(&text)
            .iter()
            .map(|f| (at(f, 1), format!("duplicate field {}", status::quote(f)))),
    );
    found.sort_by_key(|(i, _)| *i);
    found.into_iter().map(|(_, p)| p).collect()
}

/// A custom resource's registry validation of the kind (`kind: Invalid value: "Gadget": must
/// be Widget`), 422 naming the body's kind; `None` when the body is of the resource's kind.
pub(super) fn custom_kind_invalid(body: &Value, target: &Target, name: &str) -> Option<Response> {
    if !target.custom {
        return None;
    }
    let kind = body
        .as_map()
        .and_then(|m| m.get("kind"))
        .and_then(Value::as_str)
        .unwrap_or_default();
    if kind.is_empty() || kind == target.gvk.kind {
        return None;
    }
    let detail = format!(
        "Invalid value: {}: must be {}",
        status::quote(kind),
        target.gvk.kind
    );
    Some(status::invalid(
        &target.gvk.group,
        kind,
        name,
        vec![crate::managedfields::Cause {
            kind: "FieldValueInvalid".into(),
            message: detail,
            field: "kind".into(),
        }],
    ))
}

/// A built-in body as the server decodes it into the endpoint's Go type and defaults it
/// (custom resources are kept as sent), with the `fieldValidation` warnings or refusal of the
/// fields its Go type lacks and, when `sent` (the body is the request's, not a patch's
/// result), of the keys its JSON text repeats.
pub(super) fn decode_builtin(
    request: &Request,
    parsed: Option<&Value>,
    target: &Target,
    body: Value,
    sent: bool,
) -> Result<(Value, Vec<String>), Response> {
    if target.custom {
        return decode_custom(request, parsed, target, body, sent);
    }
    let gvk = &target.gvk;
    let decoded = crate::builtin::decode(gvk, &body)
        .map_err(|e| cannot_handle(gvk, &gvk.kind, &e.message))?;
    let problems = strict_problems(request, parsed, &decoded.unknown_fields, sent);
    let mut decoded_object = decoded.object;
    // `managedFields: []` decodes to an empty but non-nil slice, which the field manager
    // reads as "reset every entry"; the encoding smd's decoded object stands for drops it
    // (omitempty), so the list is put back for the field manager to see.
    let empty_entries = body
        .as_map()
        .and_then(|m| m.get("metadata"))
        .and_then(Value::as_map)
        .and_then(|m| m.get("managedFields"))
        .and_then(Value::as_list)
        .is_some_and(<[Value]>::is_empty);
    if empty_entries
        && let Some(metadata) = decoded_object
            .as_map_mut()
            .and_then(|m| m.get_mut("metadata"))
            .and_then(Value::as_map_mut)
    {
        metadata.insert("managedFields", Value::List(Vec::new()));
    }
    match request.query_value("fieldValidation") {
        "Ignore" => Ok((decoded_object, Vec::new())),
        "Strict" if !problems.is_empty() => Err(cannot_handle(
            gvk,
            &gvk.kind,
            &format!("strict decoding error: {}", problems.join(", ")),
        )),
        _ => Ok((decoded_object, problems)),
    }
}

/// A custom resource's body as its codec decodes it: a body of the resource's kind coerced
/// by its schema (unknown fields pruned, forbidden `null`s removed, metadata through
/// `ObjectMeta`) and defaulted; the keys its JSON sets twice (when `sent`) and the fields
/// pruned are warned of (Warn, the default) or refused (Strict: a body's 400, a patched
/// object's 422 quoting it), or neither (Ignore).
fn decode_custom(
    request: &Request,
    parsed: Option<&Value>,
    target: &Target,
    mut body: Value,
    sent: bool,
) -> Result<(Value, Vec<String>), Response> {
    let validation = request.query_value("fieldValidation");
    let track = validation != "Ignore";
    let gvk = &target.gvk;
    let patched = (!sent).then(|| {
        let mut text = String::new();
        // A decoded object holds no value Go cannot write.
        let _ = smd_fieldpath::value::gojson::write_value(&mut text, &body);
        text
    });
    let kind = body
        .as_map()
        .and_then(|m| m.get("kind"))
        .and_then(Value::as_str)
        .unwrap_or_default()
        .to_owned();
    let schema = target.structural.as_deref();
    // The keys the body sets twice: each named by the JSON decoder; yaml.v2 names them one by
    // one as warnings, and as one error when strict.
    let mut problems: Vec<String> = Vec::new();
    let mut strict: Vec<String> = Vec::new();
    let body_sent = track && sent && parsed.is_none();
    match content_type(request) {
        "application/json" if body_sent => {
            let text = String::from_utf8_lossy(&request.body);
            problems.extend(
                super::duplicates::duplicate_fields(&text)
                    .iter()
                    .map(|f| format!("duplicate field {}", status::quote(f))),
            );
            strict.clone_from(&problems);
        }
        "application/yaml" if body_sent => {
            let lines = super::server::repeated_yaml_keys(&request.body);
            if !lines.is_empty() {
                strict.push(format!("yaml: unmarshal errors:\n  {}", lines.join("\n  ")));
            }
            problems = lines;
        }
        _ => {}
    }
    // Another kind (refused by the registry later) has its metadata coerced, nothing else.
    let unknown = if kind == gvk.kind {
        let unknown = customresource::coerce(&mut body, schema, Reading::Request { track })
            .map_err(|e| cannot_handle(gvk, &gvk.kind, &e.0))?;
        customresource::default(&mut body, schema);
        unknown
    } else {
        coerce_metadata(&mut body);
        Vec::new()
    };
    let unknown = unknown
        .iter()
        .map(|f| format!("unknown field {}", status::quote(f)));
    problems.extend(unknown.clone());
    strict.extend(unknown);
    if !track {
        return Ok((body, Vec::new()));
    }
    if validation == "Strict" && !strict.is_empty() {
        let why = format!("strict decoding error: {}", strict.join(", "));
        return Err(match patched {
            Some(text) => status::invalid(
                "",
                "",
                "",
                vec![crate::managedfields::Cause {
                    kind: "FieldValueInvalid".into(),
                    message: format!("Invalid value: {}: {why}", status::quote(&text)),
                    field: "patch".into(),
                }],
            ),
            None => cannot_handle(gvk, &gvk.kind, &why),
        });
    }
    Ok((body, problems))
}

/// A body's `metadata` through Go's `ObjectMeta` and back (empty fields it omits gone);
/// metadata that does not decode is left for the checks after to refuse.
fn coerce_metadata(body: &mut Value) {
    if let Some(object) = body.as_map_mut()
        && let Some(metadata) = object.get_mut("metadata")
        && metadata.as_map().is_some()
        && let Ok(decoded) = crate::builtin::round_trip_object_meta(metadata)
    {
        *metadata = decoded.object;
    }
}
