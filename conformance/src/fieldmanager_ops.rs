//! Cases of kind `fieldmanager`: sequences of requests to one endpoint, replayed through
//! `smd::managedfields::Endpoint` with the scripted clock (step k at T0 + k s), the stored
//! object recorded after every step.

use serde_json::{Value as Json, json};
use smd::fieldpath::Value;
use smd::managedfields::{
    Endpoint, Error, Timestamp, TypeResolver, Written, manager_or_user_agent,
};
use smd_schema::gvk::GroupVersionKind;

use crate::Malformed;
use crate::canonical;
use crate::inputs::{Failure, Outcome};
use crate::typed_ops::stable;

/// The scripted clock's origin, 2026-01-01T00:00:00Z.
const T0: i64 = 1_767_225_600;

/// The uid the scripted API server gives every object it creates.
const UID: &str = "00000000-0000-4000-8000-000000000001";

fn malformed(message: impl Into<String>) -> Failure {
    Failure::Malformed(Malformed(message.into()))
}

fn text_of(spec: &Json) -> Result<&str, Failure> {
    spec.get("yaml")
        .or_else(|| spec.get("json"))
        .and_then(Json::as_str)
        .ok_or_else(|| malformed(format!("not a value spec: {spec}")))
}

fn str_of<'a>(step: &'a Json, key: &str) -> &'a str {
    step.get(key).and_then(Json::as_str).unwrap_or_default()
}

pub(crate) fn run(op: &str, case: &Json) -> Outcome {
    if op != "sequence" {
        return Err(malformed(format!("unknown op {op:?}")));
    }
    let resource = case
        .get("resource")
        .ok_or_else(|| malformed("missing resource"))?;
    let kind = GroupVersionKind::from_api_version(
        str_of(resource, "apiVersion"),
        str_of(resource, "kind"),
    );
    let endpoint = endpoint(case, kind)?.with_uid(UID);
    let mut stored = match case.get("live") {
        Some(spec) => Some(
            smd::managedfields::read_object(text_of(spec)?)
                .map_err(|e| malformed(format!("live: {e}")))?,
        ),
        None => None,
    };
    let steps = case
        .get("steps")
        .and_then(Json::as_array)
        .ok_or_else(|| malformed("missing steps"))?;
    let mut results = Vec::new();
    for (i, step) in steps.iter().enumerate() {
        let now = Timestamp::from_unix(T0 + i as i64 + 1);
        match run_step(&endpoint, stored.as_ref(), step, now)? {
            Ok((written, extra)) => {
                let mut result = json!({ "object": canonical::value(&written.object) });
                if let Some(e) = &written.managed_fields_error {
                    result["managedFieldsError"] = error_node(e);
                }
                if let Some(patch) = extra {
                    result["patch"] = patch;
                }
                stored = Some(written.object);
                results.push(result);
            }
            Err(e) => results.push(error_result(&e)),
        }
    }
    Ok(json!({ "steps": results }))
}

/// The endpoint of the case: a built-in kind, or a custom resource of one of its CRDs.
fn endpoint(case: &Json, kind: GroupVersionKind) -> Result<Endpoint, Failure> {
    let Some(texts) = case.get("crds") else {
        return Ok(Endpoint::kubernetes(kind));
    };
    let texts = texts
        .as_array()
        .ok_or_else(|| malformed("crds is not a list"))?;
    let mut converted = Vec::new();
    let mut definitions = Vec::new();
    for text in texts {
        let text = text
            .as_str()
            .ok_or_else(|| malformed("a crd is not text"))?;
        for result in smd_schema::crd::convert_stream(text).map_err(|e| malformed(e.to_string()))? {
            converted.push(result.map_err(|e| malformed(e.to_string()))?);
        }
        let docs = smd::fieldpath::yaml::documents(text).map_err(|e| malformed(e.to_string()))?;
        definitions.extend(docs.into_iter().filter(|d| !d.is_null()));
    }
    let types = TypeResolver::kubernetes()
        .with_crds(converted)
        .map_err(|e| malformed(e.to_string()))?;
    let crd = definitions
        .iter()
        .find(|d| {
            let of = |path: &[&str]| {
                let mut at = *d;
                for key in path {
                    match at.as_map().and_then(|m| m.get(key)) {
                        Some(v) => at = v,
                        None => return "",
                    }
                }
                at.as_str().unwrap_or_default()
            };
            of(&["spec", "group"]) == kind.group && of(&["spec", "names", "kind"]) == kind.kind
        })
        .ok_or_else(|| malformed(format!("no CRD of the case defines {kind}")))?;
    Endpoint::custom_resource(crd, &kind.version, types)
        .ok_or_else(|| malformed(format!("the CRD serves no version {}", kind.version)))
}

type StepResult = Result<(Written, Option<Json>), Error>;

fn run_step(
    endpoint: &Endpoint,
    stored: Option<&Value>,
    step: &Json,
    now: Timestamp,
) -> Result<StepResult, Failure> {
    let op = str_of(step, "op");
    let manager = str_of(step, "manager");
    let subresource = str_of(step, "subresource");
    let need_stored = || stored.ok_or_else(|| malformed(format!("{op} needs a stored object")));
    let body = || -> Result<Value, Failure> {
        let spec = step
            .get("object")
            .ok_or_else(|| malformed("missing object"))?;
        smd::managedfields::read_object(text_of(spec)?)
            .map_err(|e| malformed(format!("object: {e}")))
    };
    let by = manager_or_user_agent(manager, str_of(step, "userAgent"));
    Ok(match op {
        "apply" => {
            let force = step.get("force").and_then(Json::as_bool).unwrap_or(false);
            let text = text_of(
                step.get("object")
                    .ok_or_else(|| malformed("missing object"))?,
            )?;
            if subresource == "scale" {
                need_stored()?;
            }
            // The patch is read after the manager is checked (the handler's order).
            match smd::managedfields::validate_manager(manager, smd::managedfields::Request::Apply)
            {
                Err(e) => Err(e),
                Ok(()) => match smd::managedfields::read_object(text) {
                    Err(e) => Err(Error::BadRequest(format!("error decoding patch: {e}"))),
                    Ok(patch) => endpoint
                        .apply(stored, &patch, manager, force, subresource, now)
                        .map(|object| {
                            (
                                Written {
                                    object,
                                    managed_fields_error: None,
                                },
                                None,
                            )
                        }),
                },
            }
        }
        "create" => endpoint.create(body()?, &by, now).map(|w| (w, None)),
        "update" => endpoint
            .update(need_stored()?, body()?, &by, subresource, now)
            .map(|w| (w, None)),
        "scale" => {
            let replicas = step
                .get("replicas")
                .and_then(Json::as_i64)
                .ok_or_else(|| malformed("missing replicas"))?;
            endpoint
                .scale(need_stored()?, replicas, &by, now)
                .map(|w| (w, None))
        }
        "csaUpgrade" => {
            let names: Option<Vec<String>> = step.get("csaManagers").map(|list| {
                list.as_array()
                    .into_iter()
                    .flatten()
                    .filter_map(Json::as_str)
                    .map(str::to_owned)
                    .collect()
            });
            let stored = need_stored()?;
            endpoint
                .upgrade_client_side_apply(stored, manager, names.as_deref(), now)
                .map(|upgraded| match upgraded {
                    None => (
                        Written {
                            object: stored.clone(),
                            managed_fields_error: None,
                        },
                        Some(Json::Null),
                    ),
                    Some((patch, written)) => (written, Some(canonical::value(&patch))),
                })
        }
        other => return Err(malformed(format!("unknown step op {other:?}"))),
    })
}

/// `{message, stable}` as gogen writes errors: only `stable` is compared.
fn error_node(e: &Error) -> Json {
    json!({ "stable": stable(&e.to_string()) })
}

fn error_result(e: &Error) -> Json {
    let mut out = json!({ "error": error_node(e), "code": e.code() });
    if let Some(reason) = e.reason() {
        out["reason"] = json!(reason);
    }
    let mut causes = e.causes();
    if !causes.is_empty() {
        if matches!(e, Error::Conflict(_)) {
            causes.sort_by(|a, b| a.message.cmp(&b.message));
        }
        out["causes"] = causes
            .iter()
            .map(|c| json!({ "type": c.kind, "message": c.message, "field": c.field }))
            .collect();
    }
    out
}
