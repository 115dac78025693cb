//! Typed objects in and out of smd's values, and managedFields entries as k8s-openapi's.
#![cfg(feature = "k8s-openapi")]

use k8s_openapi::api::apps::v1::Deployment;
use k8s_openapi::apimachinery::pkg::apis::meta::v1::ManagedFieldsEntry;
use smd::managedfields::{Entry, Timestamp, entries};
use smd::object::{from_value, to_value};

#[test]
fn managed_fields_entries_convert_both_ways() -> Result<(), Box<dyn std::error::Error>> {
    let object = smd::fieldpath::yaml::from_str(
        r#"
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  managedFields:
  - {manager: hpa, operation: Update, apiVersion: apps/v1, time: "2024-05-01T10:00:00Z",
     fieldsType: FieldsV1, fieldsV1: {f:spec: {f:replicas: {}}}, subresource: scale}
"#,
    )?;
    let typed: Deployment = from_value(&object)?;
    let entry = &typed.metadata.managed_fields.as_deref().unwrap_or_default()[0];
    let ours = Entry::try_from(entry)?;
    assert_eq!(ours, entries(&object)?.unwrap_or_default()[0]);
    assert_eq!(ours.time, Some(Timestamp::parse("2024-05-01T10:00:00Z")?));
    let back = ManagedFieldsEntry::try_from(&ours)?;
    assert_eq!(&back, entry);
    // The typed object reads back as the same value.
    assert_eq!(to_value(&typed)?, object);
    Ok(())
}
