//! `smd validate`: objects checked against their kinds' schemas, and their managedFields
//! against what the API server can decode.

use std::io::Write;
use std::path::PathBuf;

use clap::Args;

use super::endpoints::{Server, TypeArgs};
use super::plan;
use super::{Failure, Outcome as Stop};

/// The `validate` command's arguments.
#[derive(Debug, Args)]
pub(crate) struct ValidateArgs {
    /// Objects (YAML streams, JSON, `kind: List`); `-` or nothing: stdin.
    #[arg(value_name = "FILE")]
    pub(crate) files: Vec<PathBuf>,
    #[command(flatten)]
    pub(crate) from: super::sources::FileArgs,
    #[command(flatten)]
    pub(crate) types: TypeArgs,
}

pub(crate) fn run(args: ValidateArgs, out: &mut dyn Write) -> Result<(), Stop> {
    let server = Server::load(&args.types)?;
    let objects = super::sources::read_objects(&args.files, &args.from, &args.types)?;
    if objects.is_empty() {
        // As kubectl says "no objects passed to apply": an empty input is a mistake to see.
        let named: Vec<&PathBuf> = args.files.iter().chain(&args.from.filenames).collect();
        let names: Vec<String> = if named.is_empty() {
            vec!["<stdin>".to_owned()]
        } else {
            named
                .iter()
                .map(|f| super::terminal::escape(&f.display().to_string()).into_owned())
                .collect()
        };
        return Err(Failure::new(format!(
            "{}: no objects to validate (only empty documents)",
            names.join(", ")
        ))
        .into());
    }
    let mut problems = Vec::new();
    let mut valid = Vec::new();
    for object in &objects {
        let before = problems.len();
        if let Err(e) = server.types().to_typed(&object.value, false) {
            let message = match e {
                smd::managedfields::TypingError::NoType(gvk) => match server.resource(&gvk, true) {
                    Err(message) => message,
                    Ok(_) => format!("no type for {gvk}"),
                },
                other => other.to_string(),
            };
            // Typing errors come as an "errors:" heading and one indented line per field.
            for line in message
                .lines()
                .map(str::trim)
                .filter(|l| !l.is_empty() && *l != "errors:")
            {
                problems.push(format!(
                    "{}: {}: {line}{}",
                    object.origin,
                    object.identity(),
                    super::hints::type_mismatches(line)
                ));
            }
        }
        if let Err(e) = plan::managers(&object.value) {
            problems.push(format!(
                "{}: {}: the API server cannot decode its managedFields: {e}",
                object.origin,
                object.identity()
            ));
        }
        if problems.len() == before {
            valid.push(format!(
                "{}: {} is valid\n",
                object.origin,
                object.identity()
            ));
        }
    }
    if !problems.is_empty() {
        return Err(Failure::new(format!(
            "{} of {} objects are invalid:\n{}",
            objects.len() - valid.len(),
            objects.len(),
            problems.join("\n")
        ))
        .into());
    }
    out.write_all(valid.concat().as_bytes())?;
    Ok(())
}
