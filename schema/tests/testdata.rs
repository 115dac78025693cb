//! The upstream schemas of structured-merge-diff's `internal/testdata`, read from the Go module
//! cache (they are not copied into this repository). Skipped, with a message, when the module
//! is not downloaded (`go mod download` in `conformance/gogen` fetches it).

use std::path::PathBuf;

use smd_schema::{ElementRelationship, Schema};

const MODULE: &str = "sigs.k8s.io/structured-merge-diff/v6@v6.4.2";

fn testdata(name: &str) -> Option<String> {
    let cache = std::env::var_os("GOMODCACHE")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("GOPATH").map(|p| PathBuf::from(p).join("pkg/mod")))
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join("go/pkg/mod")))?;
    let path = cache.join(MODULE).join("internal/testdata").join(name);
    match std::fs::read_to_string(&path) {
        Ok(text) => Some(text),
        Err(e) => {
            let message = format!(
                "cannot read {} ({e}); run `go mod download` in conformance/gogen",
                path.display()
            );
            // CI downloads the modules first: there, a case that cannot run is a failure.
            assert!(std::env::var_os("CI").is_none(), "{message}");
            eprintln!("skipped: {message}");
            None
        }
    }
}

#[test]
fn k8s_schema_reads_and_round_trips() {
    for name in [
        "k8s-schema.yaml",
        "k8s-schema-10pct-fieldoverride.yaml",
        "k8s-schema-100pct-fieldoverride.yaml",
        "apiresourceimport.yaml",
        "schema.yaml",
    ] {
        let Some(text) = testdata(name) else { return };
        let schema = Schema::from_yaml(&text).unwrap_or_else(|e| panic!("{name}: {e}"));
        let again =
            Schema::from_yaml(&schema.to_yaml()).unwrap_or_else(|e| panic!("{name} written: {e}"));
        assert!(again == schema, "{name}: round trip");
        assert_eq!(again.to_yaml(), schema.to_yaml());
    }
}

#[test]
fn k8s_schema_shape() {
    let Some(text) = testdata("k8s-schema.yaml") else {
        return;
    };
    let schema = Schema::from_yaml(&text).unwrap();
    assert_eq!(schema.types().len(), 575);
    let pod = schema.type_ref("io.k8s.api.core.v1.PodSpec");
    let spec = schema.resolve(&pod).and_then(|a| a.map()).unwrap();
    let containers = spec.find_field("containers").unwrap();
    let list = schema
        .resolve(containers.type_ref())
        .and_then(|a| a.list())
        .unwrap();
    assert_eq!(list.keys(), ["name"]);
    assert_eq!(
        *list.element_relationship(),
        ElementRelationship::Associative
    );
}

#[test]
fn bad_schema_is_refused() {
    let Some(text) = testdata("bad-schema.yaml") else {
        return;
    };
    let err = Schema::from_yaml(&text).unwrap_err();
    eprintln!("{err}");
}
