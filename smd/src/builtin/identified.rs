//! The part of a strategy's `PrepareForCreate` that needs the identity the server has just
//! given the object (`rest.BeforeCreate` fills the uid before the strategy runs): a Job's
//! generated selector and template labels. Values the uid decides are the server's choice: an
//! in-memory server gives its own uid, an offline answer reports them as set by the server.

use smd_fieldpath::Value;
use smd_schema::gvk::GroupVersionKind;

/// The labels the Job strategy puts on a template without a manual selector: the job's name
/// (legacy and prefixed keys), then its uid (legacy and prefixed).
const JOB_NAME_LABELS: [&str; 2] = ["job-name", "batch.kubernetes.io/job-name"];
const JOB_UID_LABELS: [&str; 2] = ["controller-uid", "batch.kubernetes.io/controller-uid"];
/// The one label the generated selector matches.
const JOB_SELECTOR_LABEL: &str = "batch.kubernetes.io/controller-uid";

/// Runs the identity-dependent steps of `kind`'s `PrepareForCreate` on `object`, whose
/// `metadata.uid` and `metadata.name` are set.
pub fn prepare_identified(kind: &GroupVersionKind, object: &mut Value) {
    if (kind.group.as_str(), kind.kind.as_str()) == ("batch", "Job") {
        job_selector(object);
    }
}

/// `generateSelectorIfNeeded`: unless `spec.manualSelector` is true, the template gets the
/// name and uid labels it lacks (labels it has are left for validation to judge) and the
/// selector matches the uid label unless it names one already.
fn job_selector(object: &mut Value) {
    let Some(job) = object.as_map_mut() else {
        return;
    };
    let meta = job.get("metadata").and_then(Value::as_map);
    let text = |key: &str| {
        meta.and_then(|m| m.get(key))
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_owned()
    };
    let (name, uid) = (text("name"), text("uid"));
    let Some(spec) = job.get_mut("spec").and_then(Value::as_map_mut) else {
        return;
    };
    if spec.get("manualSelector").and_then(Value::as_bool) == Some(true) {
        return;
    }
    let labels = spec
        .map_entry("template")
        .map_entry("metadata")
        .map_entry("labels");
    for (keys, value) in [(JOB_NAME_LABELS, &name), (JOB_UID_LABELS, &uid)] {
        for key in keys {
            if !labels.contains_key(key) {
                labels.insert(key, Value::from(value.as_str()));
            }
        }
    }
    // Go's maps are written with their keys sorted.
    labels.sort_keys();
    let match_labels = spec.map_entry("selector").map_entry("matchLabels");
    if !match_labels.contains_key(JOB_SELECTOR_LABEL) {
        match_labels.insert(JOB_SELECTOR_LABEL, Value::from(uid.as_str()));
        match_labels.sort_keys();
    }
}
