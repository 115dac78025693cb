//! StatefulSet (`ValidateStatefulSet`, `ValidateStatefulSetSpec`,
//! `ValidatePodTemplateSpecForStatefulSet`, `ValidateStatefulSetUpdate`) with the options its
//! strategy passes: a new object's service name must be a DNS label and its claim templates
//! valid; an update tolerates both (they are immutable) and the `Recreate` strategy only
//! where the old object has it (the `StatefulSetRecreateStrategy` gate is off in 1.37).

use smd_fieldpath::Value;
use smd_fieldpath::value::Map;

use super::super::generic::{
    immutable, int_at, int_or_percent_value, int_or_string_value, list_at, nonnegative,
    not_more_than_100_percent, positive_int_or_percent, set_at, typed_str,
};
use super::super::names::{is_dns1123_label, name_is_dns_label};
use super::super::render::internal_json;
use super::super::selector::{self, Converted};
use super::super::{BadValue, FieldError, FieldPath, Rules, member, str_at};
use super::status;

/// StatefulSet's strategy rules.
pub(super) const RULES: Rules = Rules { create, update };

/// What the strategy lets through (`StatefulSetValidationOptions`).
#[derive(Clone, Copy, Default)]
struct Options {
    allow_invalid_service_name: bool,
    skip_pod_template: bool,
    skip_claim_templates: bool,
    allow_recreate: bool,
}

fn spec_of(object: &Value) -> &Value {
    member(object, "spec").unwrap_or(&Value::Null)
}

fn create(object: &Value) -> Vec<FieldError> {
    let mut errs = super::meta_create(object, name_is_dns_label);
    errs.extend(spec(
        spec_of(object),
        &FieldPath::new("spec"),
        Options::default(),
    ));
    errs
}

fn update(new: &Value, old: &Value, subresource: &str) -> Vec<FieldError> {
    if subresource == "status" {
        let mut errs = status::stateful_set(new);
        errs.extend(super::meta_update(new, old));
        // The collision count is checked after the metadata here.
        errs.extend(status::collision_count_decremented(new, old));
        return errs;
    }
    let mut errs = super::meta_update(new, old);
    let (new_spec, old_spec) = (spec_of(new), spec_of(old));
    let mut opts = Options {
        allow_invalid_service_name: true,
        skip_pod_template: false,
        skip_claim_templates: true,
        allow_recreate: str_at(old_spec, &["updateStrategy", "type"]) == "Recreate",
    };
    // An old object that no longer validates (rules tightened since) keeps its template.
    if !spec(old_spec, &FieldPath::default(), opts).is_empty() {
        opts.skip_pod_template = true;
    }
    let path = FieldPath::new("spec");
    errs.extend(spec(new_spec, &path, opts));
    errs.extend(super::selector_immutable(new, old));
    let new_claims = set_at(new_spec, &["volumeClaimTemplates"]);
    errs.extend(immutable(
        new_claims,
        set_at(old_spec, &["volumeClaimTemplates"]),
        &path.child("volumeClaimTemplates"),
        || claims_shown(new_claims),
    ));
    let service = str_at(new_spec, &["serviceName"]);
    errs.extend(immutable(
        member(new_spec, "serviceName"),
        member(old_spec, "serviceName"),
        &path.child("serviceName"),
        || BadValue::str(service),
    ));
    let policy = str_at(new_spec, &["podManagementPolicy"]);
    errs.extend(immutable(
        member(new_spec, "podManagementPolicy"),
        member(old_spec, "podManagementPolicy"),
        &path.child("podManagementPolicy"),
        || typed_str(policy),
    ));
    errs
}

/// `[]core.PersistentVolumeClaim` as a message shows it.
fn claims_shown(claims: Option<&Value>) -> BadValue {
    match claims.and_then(Value::as_list) {
        None => BadValue::null(),
        Some(list) => {
            let items: Vec<String> = list
                .iter()
                .map(|c| internal_json("io.k8s.api.core.v1.PersistentVolumeClaim", c))
                .collect();
            BadValue::Json(format!("[{}]", items.join(",")))
        }
    }
}

/// `ValidateStatefulSetSpec`.
fn spec(spec: &Value, path: &FieldPath, opts: Options) -> Vec<FieldError> {
    let mut errs = Vec::new();
    let pmp = str_at(spec, &["podManagementPolicy"]);
    match pmp {
        "" => errs.push(FieldError::required(&path.child("podManagementPolicy"), "")),
        "OrderedReady" | "Parallel" => {}
        other => errs.push(FieldError::invalid(
            &path.child("podManagementPolicy"),
            typed_str(other),
            "must be 'OrderedReady' or 'Parallel'",
        )),
    }
    errs.extend(update_strategy(spec, &path.child("updateStrategy"), opts));
    let retention = path.child("persistentVolumeClaimRetentionPolicy");
    if let Some(policy) = set_at(spec, &["persistentVolumeClaimRetentionPolicy"]) {
        for field in ["whenDeleted", "whenScaled"] {
            let v = str_at(policy, &[field]);
            if v != "Retain" && v != "Delete" {
                errs.push(FieldError::not_supported(
                    &retention.child(field),
                    typed_str(v),
                    &["Retain", "Delete"],
                ));
            }
        }
    }
    // The claim templates' specs are core's `ValidatePersistentVolumeClaimSpec`, which smd
    // does not hold yet; `opts.skip_claim_templates` is where they would be skipped.
    let _ = opts.skip_claim_templates;
    errs.extend(nonnegative(
        int_at(spec, &["replicas"]),
        &path.child("replicas"),
    ));
    errs.extend(nonnegative(
        int_at(spec, &["minReadySeconds"]),
        &path.child("minReadySeconds"),
    ));
    if set_at(spec, &["ordinals"]).is_some() {
        errs.extend(nonnegative(
            int_at(spec, &["ordinals", "start"]),
            &path.child("ordinals.start"),
        ));
    }
    let service = str_at(spec, &["serviceName"]);
    if !opts.allow_invalid_service_name && !service.is_empty() {
        errs.extend(
            is_dns1123_label(service).into_iter().map(|m| {
                FieldError::invalid(&path.child("serviceName"), BadValue::str(service), m)
            }),
        );
    }
    let sel_path = path.child("selector");
    let sel = set_at(spec, &["selector"]);
    match sel {
        None => errs.push(FieldError::required(&sel_path, "")),
        Some(s) => {
            errs.extend(selector::validate_label_selector(Some(s), false, &sel_path));
            if selector::is_empty(s) {
                errs.push(FieldError::invalid(
                    &sel_path,
                    selector::shown(Some(s)),
                    "empty selector is invalid for statefulset",
                ));
            }
        }
    }
    if selector::convert(sel) == Converted::Invalid {
        errs.push(FieldError::invalid(&sel_path, selector::shown(sel), ""));
    } else {
        errs.extend(template(spec, path, opts));
    }
    let template = member(spec, "template").unwrap_or(&Value::Null);
    errs.extend(super::restart_policy_always(
        template,
        &path.child("template"),
        "StatefulSet",
    ));
    errs
}

/// `ValidatePodTemplateSpecForStatefulSet` of the template as the pods get it: no hostname
/// or subdomain (the controller sets them) and a volume per claim template.
fn template(spec: &Value, path: &FieldPath, opts: Options) -> Vec<FieldError> {
    let t_path = path.child("template");
    let template = member(spec, "template").unwrap_or(&Value::Null);
    let mut errs = Vec::new();
    if selector::convert(set_at(spec, &["selector"])) != Converted::Everything {
        errs.extend(super::template_labels_match(spec, path));
    }
    if !opts.skip_pod_template {
        let effective = pods_template(template, list_at(spec, &["volumeClaimTemplates"]));
        errs.extend(super::super::pod::validate_pod_template_spec(
            &effective, &t_path,
        ));
    }
    errs.extend(selector::validate_labels(
        super::super::at(template, &["metadata", "labels"]),
        &t_path.child("labels"),
    ));
    errs
}

/// The template with `hostname` and `subdomain` cleared and the claim templates' volumes in
/// place of any volume of the same name.
fn pods_template(template: &Value, claims: &[Value]) -> Value {
    let mut t = template.clone();
    if let Some(pod) = t
        .as_map_mut()
        .and_then(|m| m.get_mut("spec"))
        .and_then(Value::as_map_mut)
    {
        pod.remove("hostname");
        pod.remove("subdomain");
        if !claims.is_empty() {
            let names: Vec<&str> = claims
                .iter()
                .map(|c| str_at(c, &["metadata", "name"]))
                .collect();
            let mut volumes: Vec<Value> = names
                .iter()
                .map(|n| {
                    let mut source = Map::new();
                    source.insert("claimName", Value::String((*n).to_owned()));
                    let mut v = Map::new();
                    v.insert("name", Value::String((*n).to_owned()));
                    v.insert("persistentVolumeClaim", Value::Map(source));
                    Value::Map(v)
                })
                .collect();
            if let Some(existing) = pod.get("volumes").and_then(Value::as_list) {
                volumes.extend(
                    existing
                        .iter()
                        .filter(|v| !names.contains(&str_at(v, &["name"])))
                        .cloned(),
                );
            }
            pod.insert("volumes", Value::List(volumes));
        }
    }
    t
}

/// The `updateStrategy` switch of `ValidateStatefulSetSpec`.
fn update_strategy(spec: &Value, path: &FieldPath, opts: Options) -> Vec<FieldError> {
    let strategy = member(spec, "updateStrategy").unwrap_or(&Value::Null);
    let rolling = set_at(strategy, &["rollingUpdate"]);
    let rolling_forbidden = |r: &Value| {
        FieldError::invalid(
            &path.child("rollingUpdate"),
            BadValue::Json(internal_json(
                "io.k8s.api.apps.v1.RollingUpdateStatefulSetStrategy",
                r,
            )),
            "only allowed for updateStrategy 'RollingUpdate'",
        )
    };
    match str_at(strategy, &["type"]) {
        "" => vec![FieldError::required(path, "")],
        "OnDelete" => rolling.map(rolling_forbidden).into_iter().collect(),
        "RollingUpdate" => rolling
            .map(|r| rolling_update(r, &path.child("rollingUpdate")))
            .unwrap_or_default(),
        "Recreate" if opts.allow_recreate => rolling.map(rolling_forbidden).into_iter().collect(),
        _ => {
            let valid = if opts.allow_recreate {
                "must be 'RollingUpdate', 'OnDelete', or 'Recreate'"
            } else {
                "must be 'RollingUpdate' or 'OnDelete'"
            };
            vec![FieldError::invalid(
                path,
                BadValue::Json(internal_json(
                    "io.k8s.api.apps.v1.StatefulSetUpdateStrategy",
                    strategy,
                )),
                valid,
            )]
        }
    }
}

/// `validateRollingUpdateStatefulSet`.
fn rolling_update(r: &Value, path: &FieldPath) -> Vec<FieldError> {
    let mut errs = nonnegative(int_at(r, &["partition"]), &path.child("partition"));
    if let Some(max) = set_at(r, &["maxUnavailable"]) {
        let p = path.child("maxUnavailable");
        errs.extend(positive_int_or_percent(max, &p));
        if int_or_percent_value(max) == 0 {
            errs.push(FieldError::invalid(
                &p,
                int_or_string_value(max),
                "cannot be 0",
            ));
        }
        errs.extend(not_more_than_100_percent(max, &p));
    }
    errs
}
