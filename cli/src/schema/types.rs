//! `smd schema types`: the type names of a schema, or its group/version/kind index.

use super::load::load;
use crate::{Failure, Outcome, Status};
use smd_schema::Schema;
use smd_schema::gvk::GvkIndex;
use std::io::Write;
use std::path::PathBuf;

pub(crate) fn run(schemas: &[PathBuf], gvk: bool, out: &mut dyn Write) -> Result<Status, Outcome> {
    let loaded;
    let (schema, index): (&Schema, Option<&GvkIndex>) = if schemas.is_empty() {
        (
            smd_schema::kubernetes::v1_37(),
            Some(smd_schema::kubernetes::v1_37_gvk()),
        )
    } else {
        loaded = load(schemas)?;
        (&loaded.schema, loaded.gvk.as_ref())
    };
    if gvk {
        let Some(index) = index else {
            let names: Vec<String> = schemas.iter().map(|p| p.display().to_string()).collect();
            return Err(Failure::new(format!(
                "{}: an SMD schema has no group/version/kind index (OpenAPI documents carry \
                 one in x-kubernetes-group-version-kind)",
                names.join(", ")
            ))
            .into());
        };
        for (gvk, ty) in index.entries() {
            let api_version = if gvk.group.is_empty() {
                gvk.version.clone()
            } else {
                format!("{}/{}", gvk.group, gvk.version)
            };
            writeln!(out, "{api_version} {} -> {ty}", gvk.kind)?;
        }
    } else {
        let mut names: Vec<&str> = schema.types().iter().map(|t| t.name()).collect();
        names.sort_unstable();
        names.dedup();
        for name in names {
            writeln!(out, "{name}")?;
        }
    }
    Ok(Status::Ok)
}

#[cfg(test)]
mod tests {
    use crate::tests::{run_cli, temp_file};

    #[test]
    fn embedded_types_and_kinds() {
        let (code, out, err) = run_cli(&["schema", "types"]);
        assert_eq!((code, err.as_str()), (0, ""));
        let names: Vec<&str> = out.lines().collect();
        assert!(names.contains(&"io.k8s.api.apps.v1.Deployment"));
        assert!(
            names.windows(2).all(|w| w[0] < w[1]),
            "sorted, no duplicates"
        );
        assert_eq!(names.len(), smd_schema::kubernetes::v1_37().types().len());

        let (code, out, _) = run_cli(&["schema", "types", "--gvk"]);
        assert_eq!(code, 0);
        let lines: Vec<&str> = out.lines().collect();
        assert!(lines.contains(&"apps/v1 Deployment -> io.k8s.api.apps.v1.Deployment"));
        assert!(lines.contains(&"v1 Pod -> io.k8s.api.core.v1.Pod"));
        assert_eq!(lines.len(), smd_schema::kubernetes::v1_37_gvk().len());
    }

    #[test]
    fn types_of_an_openapi_document() {
        let file = temp_file(
            b"swagger: '2.0'\ndefinitions:\n  w:\n    type: object\n    \
              x-kubernetes-group-version-kind: [{group: example.com, version: v1, kind: Widget}]\n",
        );
        let (code, out, err) = run_cli(&["schema", "types", "--schema", file.as_str()]);
        assert_eq!((code, err.as_str()), (0, ""));
        assert_eq!(out, "__untyped_atomic_\n__untyped_deduced_\nw\n");
        let (code, out, _) = run_cli(&["schema", "types", "--schema", file.as_str(), "--gvk"]);
        assert_eq!((code, out.as_str()), (0, "example.com/v1 Widget -> w\n"));
    }

    #[test]
    fn an_smd_schema_has_types_but_no_kinds() {
        let file =
            temp_file(b"types:\n- name: b\n  scalar: string\n- name: a\n  scalar: numeric\n");
        let (code, out, _) = run_cli(&["schema", "types", "--schema", file.as_str()]);
        assert_eq!((code, out.as_str()), (0, "a\nb\n"));
        let (code, _, err) = run_cli(&["schema", "types", "--schema", file.as_str(), "--gvk"]);
        assert_eq!(code, 2);
        assert!(
            err.contains("an SMD schema has no group/version/kind index"),
            "{err}"
        );
        let bad = temp_file(b"types:\n- name: 1\n");
        let (code, _, err) = run_cli(&["schema", "types", "--schema", bad.as_str()]);
        assert_eq!(code, 2);
        assert!(
            err.starts_with(&format!(
                "smd: {}: unable to validate schema: ",
                bad.as_str()
            )),
            "{err}"
        );
    }
}
