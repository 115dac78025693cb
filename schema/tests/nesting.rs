//! Schemas nest as deep as the readers' one limit (`smd_value::MAX_DEPTH` maps and lists)
//! lets them, as the API server reads them (it has no such limit), and every reader, conversion
//! and walk on the way fits a 2 MiB thread stack (Rust's default for spawned threads) in the
//! unoptimised build tests use. Past the limit, the refusal says the limit is smd's.

#![allow(clippy::expect_used)]

use smd_schema::crd::convert_stream;
use smd_schema::openapi::Document;
use smd_value::MAX_DEPTH;

const SMDS_LIMIT: &str =
    "maps and lists nest deeper than 1000 levels (smd's limit, not the API server's)";

/// Runs `f` on a fresh 2 MiB thread; an overflow aborts the test binary.
fn on_2mib<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
    std::thread::Builder::new()
        .stack_size(2 << 20)
        .spawn(f)
        .expect("a thread")
        .join()
        .expect("no panic")
}

/// An OpenAPI v2 document (JSON) whose definition `t` nests `levels` array schemas, one map a
/// level: the document, `definitions`, `t`, then one map per level.
fn openapi_json(levels: usize) -> String {
    format!(
        r#"{{"swagger": "2.0", "definitions": {{"t": {}{{"type": "string"}}{}}}}}"#,
        r#"{"type": "array", "items": "#.repeat(levels),
        "}".repeat(levels)
    )
}

#[test]
fn openapi_documents_nest_to_the_readers_limit() {
    let deepest = MAX_DEPTH - 3;
    for yaml in [false, true] {
        let text = openapi_json(deepest);
        // JSON is YAML too: the same text read by the YAML reader.
        let read = move |text: String| {
            if yaml {
                Document::from_yaml(&text)
            } else {
                Document::from_json(text.as_bytes())
            }
        };
        let converted = on_2mib(move || read(text).and_then(|d| d.to_schema()).map(drop));
        assert!(converted.is_ok(), "yaml {yaml}: {converted:?}");
        let text = openapi_json(deepest + 1);
        let Err(e) = on_2mib(move || read(text).map(drop)) else {
            panic!("yaml {yaml}: one level past the limit is read");
        };
        assert!(e.to_string().contains(SMDS_LIMIT), "yaml {yaml}: {e}");
    }
}

/// A CRD whose `spec` schema is `spec` (the CRD, `spec`, `versions`, the version, `schema`,
/// `openAPIV3Schema` and its `properties` are seven maps and lists around it).
fn crd(spec: &str) -> String {
    format!(
        "apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {{name: ws.example.com}}
spec:
  group: example.com
  scope: Namespaced
  names: {{plural: ws, kind: W}}
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec: {spec}
"
    )
}

fn converts(text: String) -> Result<(), String> {
    on_2mib(move || match convert_stream(&text) {
        Ok(results) => match results.into_iter().next() {
            Some(Ok(_)) => Ok(()),
            Some(Err(e)) => Err(e.to_string()),
            None => Err("no CRD".into()),
        },
        Err(e) => Err(e.to_string()),
    })
}

#[test]
fn crd_schemas_nest_to_the_readers_limit() {
    // Seven maps and lists above `spec`, one for the leaf schema.
    let deepest = MAX_DEPTH - 8;
    for (open, close) in [
        ("{type: array, items: ", "}"),
        ("{type: object, additionalProperties: ", "}"),
    ] {
        let spec = |levels: usize| {
            format!(
                "{}{{type: string}}{}",
                open.repeat(levels),
                close.repeat(levels)
            )
        };
        assert_eq!(converts(crd(&spec(deepest))), Ok(()), "{open}");
        let refused = converts(crd(&spec(deepest + 1)));
        assert!(
            refused.as_ref().is_err_and(|e| e.contains(SMDS_LIMIT)),
            "{open}: {refused:?}"
        );
    }
}

#[test]
fn defaults_nest_to_the_readers_limit() {
    // Eight maps and lists above the default's value (`default` is the eighth).
    let deepest = MAX_DEPTH - 8;
    let spec = |levels: usize| {
        format!(
            "{{type: object, x-kubernetes-preserve-unknown-fields: true, default: {}1{}}}",
            "[".repeat(levels),
            "]".repeat(levels)
        )
    };
    assert_eq!(converts(crd(&spec(deepest))), Ok(()));
    let refused = converts(crd(&spec(deepest + 1)));
    assert!(
        refused.as_ref().is_err_and(|e| e.contains(SMDS_LIMIT)),
        "{refused:?}"
    );
}
