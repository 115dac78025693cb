//! `smd schema convert|types|lint`: schemas from OpenAPI documents and CRDs, the types a
//! schema has, and the list and map markers a schema should have.

mod convert;
mod lint;
pub(crate) mod load;
pub(crate) mod source;
mod types;

use super::{Outcome, Status};
use clap::{Subcommand, ValueEnum};
use std::io::Write;
use std::path::PathBuf;

#[derive(Debug, Subcommand)]
pub(crate) enum Command {
    /// Convert OpenAPI documents and CRDs to an SMD schema, as the API server converts them.
    ///
    /// Each INPUT is an OpenAPI v2 document (swagger.json: `swagger`, `definitions`), an
    /// OpenAPI v3 document (`openapi`, `components.schemas`), or CustomResourceDefinitions
    /// (`apiextensions.k8s.io/v1`; a YAML stream may hold several), in JSON or YAML; the
    /// format is found from the document, not the file name. Several v3 documents (one per
    /// group-version, as a cluster serves them) are merged into one schema. A CRD becomes
    /// the types the API server's field manager uses for its custom resources (one per
    /// version, named `com.example.v1.Widget`, with the built-in `ObjectMeta`); a CRD the
    /// API server would refuse is refused with its reasons. An SMD schema (what this command
    /// writes) may be an input too: alone it is written back in canonical form.
    ///
    /// The output is SMD's schema format (what structured-merge-diff reads): a `types` list,
    /// each type a `map` (with `fields`, an `elementType` and an `elementRelationship`:
    /// `separable` (granular) or `atomic`), a `list` (`atomic`, or `associative`: a set, or
    /// a list-map with `keys`) or a `scalar`. Types and fields are sorted by name. Errors name
    /// the file and the JSON pointer of the schema at fault.
    ///
    /// When the inputs index kinds (OpenAPI's `x-kubernetes-group-version-kind`, CRDs), the
    /// YAML output has a second document, `gvkIndex:`, a list of `{group, version, kind,
    /// type}`: the type of each apiVersion/kind, so that the file serves as `--schema` for
    /// diff, apply, validate, blame and fields as its inputs do. (structured-merge-diff reads
    /// the first document only.) `-o json` writes the types alone.
    ///
    /// Examples:
    ///
    ///   smd schema convert swagger.json > k8s-schema.yaml
    ///
    ///   kubectl get --raw /openapi/v3/apis/apps/v1 > apps.json
    ///   kubectl get --raw /openapi/v3/api/v1 > core.json
    ///   smd schema convert apps.json core.json -o json
    ///
    ///   smd schema convert crds/*.yaml
    #[command(verbatim_doc_comment)]
    Convert {
        /// OpenAPI v2 or v3 documents or CRDs (JSON or YAML); `-` reads stdin.
        #[arg(required = true, value_name = "INPUT")]
        inputs: Vec<PathBuf>,
        /// Output format: SMD schema YAML, or the same structure as JSON.
        #[arg(short = 'o', long = "output", value_enum, default_value_t = Format::Yaml)]
        output: Format,
    },
    /// List the types of a schema: the embedded Kubernetes 1.37 schema, or yours.
    ///
    /// Prints one type name per line, sorted (`io.k8s.api.apps.v1.Deployment`). With --gvk,
    /// prints the group/version/kind index instead, one `apiVersion Kind -> type` line per
    /// kind (`apps/v1 Deployment -> io.k8s.api.apps.v1.Deployment`; the core group's
    /// apiVersion is just `v1`): the type smd uses for an object with that `apiVersion` and
    /// `kind`. The index comes from each OpenAPI definition's
    /// `x-kubernetes-group-version-kind`, a CRD's versions, or the `gvkIndex` document of an
    /// SMD schema written by `smd schema convert`.
    ///
    /// The embedded schema is the published Kubernetes 1.37 spec, generated with every alpha
    /// and beta API on; pass your cluster's documents with --schema to see what it serves.
    ///
    /// Examples:
    ///
    ///   smd schema types | grep apps.v1
    ///   smd schema types --gvk | grep ' Deployment '
    ///   smd schema types --gvk --schema apps.json core.json
    #[command(verbatim_doc_comment)]
    Types {
        /// An SMD schema (YAML or JSON), OpenAPI documents or CRDs; several inputs
        /// (`--schema a.json b.json`, or the flag repeated) are combined as `convert`
        /// combines them. Without it, the embedded schema.
        #[arg(long = "schema", value_name = "FILE", num_args = 1..)]
        schemas: Vec<PathBuf>,
        /// Print the group/version/kind index instead of the type names.
        #[arg(long)]
        gvk: bool,
    },
    /// Warn about lists and maps whose merge behaviour is probably not what you want.
    ///
    /// Reads OpenAPI v2/v3 documents and CustomResourceDefinitions (JSON or YAML; a YAML
    /// stream may hold several CRDs). Each file is first converted and validated as `convert`
    /// does it: what convert or the API server refuses is refused with the same words (exit
    /// 2). Then it prints one warning per finding, with the file and the JSON pointer of the
    /// schema, then a hint:
    ///
    /// * a list without `x-kubernetes-list-type` is atomic: every apply replaces the whole
    ///   list, and two managers that set it conflict. Mark it `x-kubernetes-list-type: map`
    ///   with `x-kubernetes-list-map-keys` (items are objects identified by those fields) or
    ///   `set` (unique scalars), or `atomic` to say the replace is intended. (In OpenAPI
    ///   documents, `x-kubernetes-patch-strategy: merge` makes a list associative too.)
    /// * a list-map key that is neither `required` nor has a `default`: an item without it
    ///   cannot be merged, and the apply fails.
    /// * a map (`additionalProperties`) of objects without `x-kubernetes-map-type`: it is
    ///   granular, so each value is merged field by field and different managers may own
    ///   different fields of one value. If a value must be replaced whole, mark the value
    ///   schema `x-kubernetes-map-type: atomic`; mark it `granular` to say merging is
    ///   intended.
    ///
    /// Nothing below an atomic list or map is checked: it is replaced whole anyway; nor are
    /// the `items` of `…List` kinds (metadata: ListMeta), which nobody applies.
    ///
    /// Exit status: 0 no warnings, 1 warnings printed, 2 bad input (including a schema or CRD
    /// convert refuses) or usage.
    ///
    /// Example:
    ///
    ///   smd schema lint crds/*.yaml
    #[command(verbatim_doc_comment)]
    Lint {
        /// OpenAPI documents or CRDs (JSON or YAML); `-` reads stdin.
        #[arg(required = true, value_name = "FILE")]
        files: Vec<PathBuf>,
    },
}

/// How `convert` writes a schema.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum Format {
    /// SMD schema YAML (what structured-merge-diff's `typed.NewParser` reads).
    Yaml,
    /// The same document as JSON.
    Json,
}

pub(crate) fn run(command: Command, out: &mut dyn Write) -> Result<Status, Outcome> {
    let status = match command {
        Command::Convert { inputs, output } => convert::run(&inputs, output, out)?,
        Command::Types { schemas, gvk } => types::run(&schemas, gvk, out)?,
        Command::Lint { files } => lint::run(&files, out)?,
    };
    out.flush()?;
    Ok(status)
}
