//! `smd apply`: the objects the API server would store after a server-side apply, with their
//! managedFields.

use std::io::Write;
use std::path::PathBuf;

use clap::{Args, ValueEnum};
use smd::managedfields::Error;

use super::diff::ApplyFlags;
use super::plan::{self, Refusal};
use super::render;
use super::terminal;
use super::{Failure, Outcome as Stop};

/// The `apply` command's arguments.
#[derive(Debug, Args)]
pub(crate) struct ApplyArgs {
    /// LIVE then APPLIED: the live objects (`kubectl get -o yaml --show-managed-fields`; `-`
    /// for stdin) and the manifests. With one file, every manifest is a create. Or give the
    /// manifests with -f and the live objects with --live.
    #[arg(value_name = "FILE", num_args = 1..=2, required_unless_present = "filenames", conflicts_with_all = ["filenames", "live"])]
    pub(crate) files: Vec<PathBuf>,
    #[command(flatten)]
    pub(crate) inputs: super::sources::LiveArgs,
    #[command(flatten)]
    pub(crate) apply: ApplyFlags,
    /// Output format of the stored objects.
    #[arg(short = 'o', long = "output", value_enum, default_value_t = ObjectFormat::Yaml)]
    pub(crate) output: ObjectFormat,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum ObjectFormat {
    /// YAML documents, keys sorted (as `kubectl get -o yaml`).
    Yaml,
    /// JSON: one object, or a `v1` `List` of several.
    Json,
}

/// Whether some apply was refused for conflicts.
pub(crate) struct Conflicted(pub(crate) bool);

pub(crate) fn run(
    args: ApplyArgs,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> Result<Conflicted, Stop> {
    let request = args.apply.request()?;
    let inputs = args.inputs.inputs(&args.files)?;
    let planned = plan::plan_files(&inputs, &args.apply.types, request)?;
    let mut stored = Vec::new();
    let mut conflicts = Vec::new();
    for outcome in &planned.outcomes {
        let origin = &outcome.pair.applied.origin;
        match &outcome.result {
            Ok(object) => stored.push((object, &outcome.server_set)),
            Err(Refusal::Server(e @ Error::Conflict(_))) => {
                conflicts.push(format!("{origin}: {e}"))
            }
            Err(Refusal::Server(e)) => return Err(plan::refusal(&outcome.pair, e).into()),
            Err(Refusal::Status(r)) => {
                return Err(plan::status_refusal(&outcome.pair, r).into());
            }
            Err(Refusal::Unserved(message)) => {
                return Err(Failure::new(format!("{origin}: {message}")).into());
            }
        }
    }
    for warning in &planned.warnings {
        let _ = writeln!(err, "smd: warning: {warning}");
    }
    if !conflicts.is_empty() {
        // Nothing is stored when any apply is refused: the output would be half an answer.
        for c in &conflicts {
            let _ = writeln!(err, "smd: {c}");
        }
        let _ = writeln!(
            err,
            "smd: see `smd diff` for each conflict's values and the ways out, or pass --force-conflicts"
        );
        return Ok(Conflicted(true));
    }
    for object in &planned.unmatched {
        let _ = writeln!(
            err,
            "smd: {} ({}): no manifest names it; left alone",
            object.identity(),
            object.origin
        );
    }
    let text = match args.output {
        // A YAML document says in a comment which fields the server would fill with values
        // of its own choosing (left out); JSON has no comments (docs/cli.md).
        ObjectFormat::Yaml => super::parallel::map(stored, request.jobs, |(o, set)| {
            let text = smd::fieldpath::yaml::to_string(&render::sorted(o));
            if set.is_empty() {
                return text;
            }
            let paths: Vec<String> = set
                .iter()
                .map(|p| terminal::escape(p).into_owned())
                .collect();
            format!(
                "# set by the server (values of its own choosing, left out): {}\n{text}",
                paths.join(", ")
            )
        })
        .join("---\n"),
        ObjectFormat::Json => {
            let mut items = super::parallel::map(stored, request.jobs, |(o, _)| {
                render::to_json(&render::sorted(o))
            });
            let value = if items.len() == 1 {
                items.remove(0)
            } else {
                serde_json::json!({
                    "apiVersion": "v1",
                    "kind": "List",
                    "items": items,
                })
            };
            let mut text = serde_json::to_string_pretty(&value).unwrap_or_default();
            text.push('\n');
            text
        }
    };
    out.write_all(text.as_bytes())?;
    Ok(Conflicted(false))
}
