//! `docs/report.schema.json` is the JSON Schema of `smd::report::DiffReport`, generated from
//! its types: this test fails when the two drift apart. After a change to the report's types,
//! `SMD_WRITE_REPORT_SCHEMA=1 cargo test -p smd --test report_schema` writes the file anew
//! (review the diff: a field that changes shape needs a new apiVersion).

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::path::PathBuf;

#[test]
fn the_published_schema_is_the_types_schema() {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../docs/report.schema.json");
    let mut generated = serde_json::to_string_pretty(&smd::report::json_schema()).unwrap();
    generated.push('\n');
    if std::env::var_os("SMD_WRITE_REPORT_SCHEMA").is_some() {
        std::fs::write(&path, &generated).unwrap();
    }
    let published =
        std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    assert!(
        published == generated,
        "docs/report.schema.json differs from the report's types: run \
         SMD_WRITE_REPORT_SCHEMA=1 cargo test -p smd --test report_schema and review the diff"
    );
    let schema = smd::report::json_schema();
    assert_eq!(schema["title"], "DiffReport");
    for field in ["apiVersion", "items", "summary", "unmatchedLive"] {
        assert!(
            schema["required"]
                .as_array()
                .unwrap()
                .iter()
                .any(|f| f == field),
            "{field} is required"
        );
    }
}
