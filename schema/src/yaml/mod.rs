//! SMD's own schema format in YAML (the format of the upstream `internal/testdata/k8s-schema.yaml`):
//! reading with Go's validation, and writing in one canonical form.

mod gofmt;
mod read;
mod write;

pub(crate) use read::{from_str, type_ref_from_str};
pub(crate) use write::to_string;
