//! The inputs and the per-iteration work of the `schema/*` benchmarks, shared by the criterion
//! benchmark (`benches/schema.rs`) and the allocation counter (`benches/schema_allocs.rs`), and
//! the same work as the Go twins `BenchmarkSchemaParse` (`go/schema_test.go`) and
//! `BenchmarkSchemaConvert` (`go/convert_test.go`).
//!
//! The inputs are not copied into the repository: they are read from the Go module cache,
//! downloaded with `go mod download` when missing (as the conformance runner does).

use crate::OpVisitor;
use smd_schema::Schema;
use smd_schema::openapi::Document;
use std::path::PathBuf;

/// The module whose `internal/testdata` holds the upstream SMD schemas.
pub const SMD_MODULE: &str = "sigs.k8s.io/structured-merge-diff/v6@v6.4.2";

/// The module whose `api/openapi-spec/swagger.json` is the Kubernetes 1.37 OpenAPI v2 spec. It
/// is downloaded into the module cache, never required (its `go.mod` cannot be resolved as a
/// dependency).
pub const KUBERNETES_MODULE: &str = "k8s.io/kubernetes@v1.37.2";

/// The upstream schemas measured: the plain one and the one with an override on every
/// reference.
pub const SMD_SCHEMA_FILES: [&str; 2] = ["k8s-schema.yaml", "k8s-schema-100pct-fieldoverride.yaml"];

/// The directory of `module` (`path@version`) in the Go module cache, downloaded if need be:
/// `go mod download -json`, run outside any Go module.
pub fn go_module_dir(module: &str) -> Result<PathBuf, String> {
    let out = std::process::Command::new("go")
        .args(["mod", "download", "-json", module])
        .current_dir(std::env::temp_dir())
        .output()
        .map_err(|e| format!("cannot run `go mod download {module}` (is Go installed?): {e}"))?;
    let info: serde_json::Value = serde_json::from_slice(&out.stdout).map_err(|e| {
        format!(
            "`go mod download -json {module}` printed no JSON ({e}): {}",
            String::from_utf8_lossy(&out.stderr)
        )
    })?;
    match info.get("Dir").and_then(serde_json::Value::as_str) {
        Some(dir) => Ok(PathBuf::from(dir)),
        None => Err(format!("`go mod download -json {module}`: {info}")),
    }
}

/// The inputs of the `schema/*` benchmarks. An input that cannot be found is left out, with
/// the reason in [`SchemaData::missing`]; an input that is found but does not read or convert
/// is an error of [`SchemaData::load`].
#[derive(Debug, Default)]
pub struct SchemaData {
    /// Each upstream SMD schema read: the file name without `.yaml`, and its text.
    pub smd_schemas: Vec<(String, String)>,
    /// The bytes of the Kubernetes 1.37 `swagger.json`, and the document read from them.
    pub swagger: Option<(Vec<u8>, Document)>,
    /// Why inputs are missing, one line each.
    pub missing: Vec<String>,
}

impl SchemaData {
    /// Finds and reads the inputs; checks that each reads (and the spec converts) once.
    pub fn load() -> Result<SchemaData, String> {
        let mut data = SchemaData::default();
        match go_module_dir(SMD_MODULE) {
            Err(e) => data
                .missing
                .push(format!("schema/parse-*, schema/yaml-*: {e}")),
            Ok(dir) => {
                for file in SMD_SCHEMA_FILES {
                    let path = dir.join("internal/testdata").join(file);
                    let text = std::fs::read_to_string(&path)
                        .map_err(|e| format!("{}: {e}", path.display()))?;
                    Schema::from_yaml(&text).map_err(|e| format!("{}: {e}", path.display()))?;
                    data.smd_schemas
                        .push((file.trim_end_matches(".yaml").to_owned(), text));
                }
            }
        }
        match go_module_dir(KUBERNETES_MODULE) {
            Err(e) => data.missing.push(format!("schema/*-v2: {e}")),
            Ok(dir) => {
                let path = dir.join("api/openapi-spec/swagger.json");
                let bytes = std::fs::read(&path).map_err(|e| format!("{}: {e}", path.display()))?;
                let doc =
                    Document::from_slice(&bytes).map_err(|e| format!("{}: {e}", path.display()))?;
                doc.to_schema()
                    .map_err(|e| format!("{}: does not convert: {e}", path.display()))?;
                data.swagger = Some((bytes, doc));
            }
        }
        Ok(data)
    }

    /// Runs every `schema/*` benchmark through `visitor`, in the Go benchmarks' order:
    ///
    /// * `parse-<file>`: [`Schema::from_yaml`] (YAML, validation against the schema of
    ///   schemas, the model), Go's `typed.NewParser`;
    /// * `yaml-<file>`: the YAML reading alone, the floor of `parse`;
    /// * `convert-v2`: [`Document::to_schema`] of the spec read beforehand, Go's
    ///   `schemaconv.ToSchemaFromOpenAPI(models, false)`;
    /// * `read-convert-v2`: [`Document::from_slice`] of the spec's bytes, then the conversion.
    pub fn visit_ops(&self, visitor: &mut impl OpVisitor) {
        for (name, text) in &self.smd_schemas {
            visitor.op(&format!("parse-{name}"), |_| Schema::from_yaml(text));
            visitor.op(&format!("yaml-{name}"), |_| {
                smd_fieldpath::yaml::from_str(text)
            });
        }
        if let Some((bytes, doc)) = &self.swagger {
            visitor.op("convert-v2", |_| doc.to_schema());
            visitor.op("read-convert-v2", |_| {
                Document::from_slice(bytes).and_then(|d| d.to_schema())
            });
        }
    }
}
