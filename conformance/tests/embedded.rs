//! smd's own conversion of the Kubernetes v3 documents, merged, gives exactly the built-in
//! schema that the Go generator wrote for embedding (schema/src/kubernetes).

use serde_json::Value as Json;
use smd_conformance::openapi_ops::{compare_types, kubernetes_document, schema_json};

#[test]
fn merged_v3_documents_convert_to_the_embedded_schema() {
    let doc = kubernetes_document("v3").expect("the Kubernetes v3 documents read");
    let schema = doc.to_schema().expect("they convert");
    let go: Json = serde_json::from_str(smd_schema::kubernetes::V1_37_SCHEMA_JSON).expect("JSON");
    let (same, total, diffs) = compare_types(&go, &schema_json(&schema));
    println!("embedded: {same} of {total} types converted identically");
    assert!(diffs.is_empty(), "{}", diffs.join("\n"));

    let go_gvks: Vec<Json> =
        serde_json::from_str(smd_schema::kubernetes::V1_37_GVK_JSON).expect("JSON");
    let ours: Vec<Json> = doc
        .gvk_index()
        .entries()
        .into_iter()
        .map(|(g, t)| serde_json::json!({"group": g.group, "version": g.version, "kind": g.kind, "type": t}))
        .collect();
    assert_eq!(go_gvks, ours);
}
