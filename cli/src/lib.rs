//! The `smd` command line as a library: flags (declared once, with clap), reading the inputs,
//! and the dispatch to each subcommand. The binary (`src/main.rs`) only calls [`run`]; the fuzz
//! targets and tests call it, and the layers under it, without a process.
//!
//! Every subcommand is a function from its arguments and input to text written on a
//! `&mut dyn Write`, so tests call it without a process. Exit codes: 0 success, 2 bad input or
//! usage (as `kubectl diff` uses them); 1 means "findings" (`diff` found changes, `schema lint`
//! printed warnings); 3 means an apply would be refused with conflicts. `diff` and `apply`
//! write each object's answer as it is ready; every other subcommand builds its output whole.

mod apply;
mod batch;
mod blame;
mod cluster;
mod diff;
mod endpoints;
mod external_diff;
mod fieldmanager;
mod fields;
mod fieldsv1;
mod glob;
mod hints;
mod input;
mod install;
mod json;
mod live;
mod namespaces;
mod objects;
mod owners;
mod parallel;
mod plan;
mod render;
mod report;
mod schema;
mod secrets;
mod sources;
mod spill;
mod stream;
mod terminal;
mod textdiff;
mod validate;

/// The layers under [`run`], for the fuzz targets (`fuzz/`): not a stable interface.
#[doc(hidden)]
pub mod fuzzing {
    pub use crate::terminal::{SGR, clean, escape};

    /// The objects of `bytes` as the CLI reads an input (JSON/YAML sniffing, streams, `List`s),
    /// on `jobs` threads; with `small_batches`, batches of 64 bytes read in parallel from the
    /// first byte. Each object: its origin's text, its value, its document's repeated keys.
    pub fn read_objects(
        bytes: &[u8],
        jobs: usize,
        small_batches: bool,
    ) -> Result<Vec<(String, smd::fieldpath::Value, usize)>, String> {
        let batching = if small_batches {
            crate::objects::Batching {
                parallel_bytes: 1,
                batch_bytes: 64,
            }
        } else {
            crate::objects::BATCHING
        };
        crate::objects::objects_of(bytes, jobs, batching)
    }

    /// The file name `KUBECTL_EXTERNAL_DIFF` gets for an object, or why there is none.
    pub fn external_diff_file_name(parts: [&str; 5]) -> Result<String, String> {
        let [group, version, kind, namespace, name] = parts;
        let file = crate::external_diff::file_name(group, version, kind, namespace, name);
        match crate::external_diff::unusable(&file) {
            Some(why) => Err(why),
            None => Ok(file),
        }
    }
}

use clap::{CommandFactory, FromArgMatches, Parser, Subcommand};
use std::ffi::OsString;
use std::io::{self, IsTerminal, Write};
use std::process::ExitCode;

/// Kubernetes Server-Side Apply, offline: field ownership, merges and conflicts exactly as the
/// API server computes them.
#[derive(Debug, Parser)]
#[command(
    name = "smd",
    version,
    about,
    long_about = None,
    after_help = AFTER_HELP,
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
    /// The most one document of an input may take (a YAML document, a JSON object, a schema
    /// file): bytes, or a quantity such as 128Mi. A stream of documents has no total limit.
    #[arg(long, global = true, value_name = "SIZE", default_value = "64Mi", value_parser = input::parse_size)]
    max_document_size: usize,
}

/// What the top-level help says once: how to start, and what an offline answer cannot know.
const AFTER_HELP: &str = "\
Start with: smd diff examples/deployment-hpa/live.yaml examples/deployment-hpa/applied.yaml --manager kubectl

Live objects come from `kubectl get -o yaml --show-managed-fields` (without managedFields smd
cannot know the owners). Kinds are typed by the embedded Kubernetes 1.37 schema; add custom
resources with --crd FILE.

What an offline answer cannot know: the API server also defaults fields (a manifest that omits
`replicas` gets 1), converts between versions (smd compares managers of other apiVersions as if
the object were theirs), and runs admission webhooks that may change or refuse the object. smd
answers what the field manager decides, exactly; those steps are outside it.

Exit codes: 0 success (diff: no change), 1 diff: changes, 2 bad input or usage, 3 the API
server would refuse the apply with conflicts.";

#[derive(Debug, Subcommand)]
enum Command {
    /// What a server-side apply would change, who would own what, and the conflicts.
    ///
    /// Prints a kubectl-diff-like diff of the object (the live object against what the API
    /// server would store), then per manager the fields gained and lost, the fields the apply
    /// removes and those that stay because another manager owns them, and the conflicts with
    /// the live and the wanted value of each and the ways out. KUBECTL_EXTERNAL_DIFF is
    /// honoured for the object diff.
    ///
    /// Inputs, as kubectl takes them or positionally (only the first form contacts a cluster,
    /// read-only: get requests with the kubeconfig context's credentials):
    ///
    ///   smd diff -f MANIFESTS... [-R] [-n NS] [--context C]    live objects from the cluster
    ///   smd diff -f MANIFESTS... --live LIVE... [-R] [-n NS]   files, directories, `-`
    ///   smd diff -f MANIFESTS... --live none                   every manifest a create
    ///   smd diff LIVE APPLIED                                  two files
    ///   smd diff APPLIED                                       every manifest a create
    ///
    /// Documents pair up by group, kind, namespace and name only, however the files hold
    /// them; a manifest without a namespace takes -n's (default: `default`). An unmatched
    /// manifest is a create; an unmatched live object of LIVE is reported and left alone, one
    /// of --live (a whole dump) is left silent unless --show-unmatched.
    ///
    /// Every document is answered, in order, as soon as it is ready; bad input and refusals
    /// are named on stderr (file, document, line) and the others still answered. A batch ends
    /// with a summary line (`48 objects: 3 change, 1 create, 1 conflict, 43 unchanged`).
    ///
    /// Exit codes, the most severe answer's: 2 bad input, a refusal or usage, then 3 the apply
    /// would be refused with conflicts, then 1 changes, then 0 no change.
    ///
    /// Example: smd diff -f examples/deployment-hpa/applied.yaml --live examples/deployment-hpa/live.yaml
    // Verbatim for the table of forms; the short line as clap would make it, without the period.
    #[command(
        verbatim_doc_comment,
        about = "What a server-side apply would change, who would own what, and the conflicts"
    )]
    Diff(diff::DiffArgs),
    /// The objects the API server would store after a server-side apply, with managedFields.
    ///
    /// One object, or a v1 List of several, as `kubectl get -o yaml` prints them (keys sorted,
    /// managedFields entries in the server's order), written as they are answered. An apply
    /// the server would refuse (conflicts too) has no object: it is named on stderr with the
    /// server's message, and the exit code is 2 (a refusal or bad input) or 3 (conflicts).
    ///
    /// Inputs as `diff` takes them (only the first form contacts a cluster, read-only):
    ///
    ///   smd apply -f MANIFESTS... [-R] [-n NS] [--context C]   live objects from the cluster
    ///   smd apply -f MANIFESTS... --live LIVE...|none [-R] [-n NS]
    ///   smd apply LIVE APPLIED
    ///   smd apply APPLIED                                      every manifest a create
    ///
    /// Example: smd apply -f manifest.yaml --live live.yaml --now 2026-01-01T00:00:00Z
    #[command(
        verbatim_doc_comment,
        about = "The objects the API server would store after a server-side apply, with managedFields"
    )]
    Apply(apply::ApplyArgs),
    /// An object's YAML with every line annotated by all its owners.
    ///
    /// Each line shows the managers (name, operation, subresource, time) whose field sets hold
    /// that field, inside keyed list items and set members too; what a field owned as a whole
    /// (an atomic list, map or struct) holds shows that field's owners. With colors, one color
    /// per manager and a legend.
    ///
    /// Objects come as files, or with -f (files, directories, -R), or on stdin.
    ///
    /// Example: smd blame examples/deployment-hpa/live.yaml
    Blame(blame::BlameArgs),
    /// The field sets of an object's managers, as paths or fieldsV1; or their sizes.
    ///
    /// Example: smd fields examples/deployment-hpa/live.yaml --manager kubectl
    Fields(fields::FieldsArgs),
    /// Check objects against their kinds' schemas and their managedFields against what the
    /// API server can decode.
    ///
    /// Exit codes: 0 every object is valid, 2 some is not (each problem on stderr, with its file,
    /// document and field path).
    Validate(validate::ValidateArgs),
    /// Read and write `fieldsV1`, the field-set format of `metadata.managedFields`.
    #[command(name = "fieldsv1", subcommand)]
    FieldsV1(fieldsv1::Command),
    /// Schemas: convert OpenAPI documents, list types and kinds, lint list and map markers.
    #[command(subcommand)]
    Schema(schema::Command),
    /// The smd version and the Kubernetes version it answers for.
    Version,
    /// A shell completion script, for bash, zsh, fish, powershell or elvish.
    ///
    /// Example: smd completions bash > /etc/bash_completion.d/smd
    Completions(install::CompletionsArgs),
    /// The man page smd(1), or a subcommand's (smd-diff(1)), in roff, generated from these
    /// very flags.
    ///
    /// Example: smd man > ~/.local/share/man/man1/smd.1; smd man diff | man -l -
    Man(install::ManArgs),
}

/// An error for the user: what went wrong, already naming the file and the place.
#[derive(Debug)]
pub(crate) struct Failure(String);

impl Failure {
    pub(crate) fn new(message: impl Into<String>) -> Failure {
        Failure(message.into())
    }
}

/// Runs the command line `args`, writing results on `out` and errors on `err`.
pub fn run(
    args: impl IntoIterator<Item = impl Into<OsString> + Clone>,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> ExitCode {
    let args: Vec<OsString> = args.into_iter().map(Into::into).collect();
    // Installed as `kubectl-smd`, kubectl runs it as `kubectl smd`: say so in help and usage.
    let plugin = args
        .first()
        .and_then(|a| std::path::Path::new(a).file_stem())
        .is_some_and(|name| name == "kubectl-smd");
    let mut command = Cli::command();
    if plugin {
        command = command.bin_name("kubectl smd");
    }
    let parsed = command
        .try_get_matches_from(args)
        .and_then(|matches| Cli::from_arg_matches(&matches));
    let cli = match parsed {
        Ok(cli) => cli,
        Err(e) => {
            if e.use_stderr() {
                // A usage error quotes the arguments, which are input too: plain text, cleaned.
                let text = e.render().to_string();
                let _ = err.write_all(&terminal::clean(text.as_bytes(), false));
                return ExitCode::from(2);
            }
            // Help and version: colored only for a terminal, plain in a pipe or file.
            let text = if io::stdout().is_terminal() && std::env::var_os("NO_COLOR").is_none() {
                e.render().ansi().to_string()
            } else {
                e.render().to_string()
            };
            let _ = out.write_all(text.as_bytes());
            return ExitCode::SUCCESS;
        }
    };
    input::set_document_limit(cli.max_document_size);
    // Everything a subcommand writes is cleaned of terminal controls on its way out, piece by
    // piece: diff and apply write each object's answer as soon as it is ready.
    let colors = match &cli.command {
        Command::Diff(args) => args.color.enabled(),
        Command::Blame(args) => args.color.enabled(),
        Command::Fields(args) => args.color.enabled(),
        _ => false,
    };
    let mut clean_err = terminal::Cleaned::new(err, false);
    let mut clean_out = terminal::Cleaned::new(io::BufWriter::with_capacity(1 << 16, out), colors);
    let code = dispatch(cli.command, &mut clean_out, &mut clean_err);
    if let Err(e) = clean_out.flush() {
        if e.kind() != io::ErrorKind::BrokenPipe {
            let _ = writeln!(clean_err, "smd: writing output: {e}");
            return ExitCode::from(2);
        }
    }
    code
}

/// Runs one subcommand, writing on `out` and `err`.
fn dispatch(command: Command, out: &mut dyn Write, err: &mut dyn Write) -> ExitCode {
    let result = match command {
        Command::Diff(args) => diff::run(args, out, err),
        Command::Apply(args) => apply::run(args, out, err),
        Command::Blame(args) => blame::run(args, out, err).map(|()| Status::Ok),
        Command::Fields(args) => fields::run(args, out, err).map(|()| Status::Ok),
        Command::Validate(args) => validate::run(args, out).map(|()| Status::Ok),
        Command::FieldsV1(command) => fieldsv1::run(command, out).map(|()| Status::Ok),
        Command::Schema(command) => schema::run(command, out),
        Command::Version => install::version(out).map(|()| Status::Ok),
        Command::Completions(args) => install::completions(args, out).map(|()| Status::Ok),
        Command::Man(args) => install::man(args, out).map(|()| Status::Ok),
    };
    match result {
        Ok(Status::Ok) => ExitCode::SUCCESS,
        Ok(Status::Warnings) => ExitCode::from(1),
        Ok(Status::Conflicts) => ExitCode::from(3),
        Ok(Status::Refused) => ExitCode::from(2),
        Err(Outcome::BrokenPipe) => ExitCode::SUCCESS,
        Err(Outcome::Failure(Failure(message))) if message == batch::BROKEN_PIPE => {
            ExitCode::SUCCESS
        }
        Err(Outcome::Failure(Failure(message))) => {
            let _ = writeln!(err, "smd: {message}");
            ExitCode::from(2)
        }
    }
}

/// How a subcommand that ran to the end went.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Status {
    /// Done, nothing to report: exit 0.
    Ok,
    /// Done, and it printed findings (lint warnings, diff changes): exit 1.
    Warnings,
    /// Done: the apply would be refused with conflicts: exit 3.
    Conflicts,
    /// Done, every object answered, and some were bad input or refused (said on stderr): exit 2.
    Refused,
}

impl Status {
    /// The status of a batch whose most severe answer is `outcome`.
    pub(crate) fn of(outcome: smd::report::Outcome) -> Status {
        match outcome.exit_code() {
            0 => Status::Ok,
            1 => Status::Warnings,
            3 => Status::Conflicts,
            _ => Status::Refused,
        }
    }
}

/// Why a subcommand stopped early.
#[derive(Debug)]
pub(crate) enum Outcome {
    /// The reader of our output went away (`smd … | head`): not an error.
    BrokenPipe,
    /// Bad input or usage.
    Failure(Failure),
}

impl From<Failure> for Outcome {
    fn from(f: Failure) -> Outcome {
        Outcome::Failure(f)
    }
}

impl From<io::Error> for Outcome {
    fn from(e: io::Error) -> Outcome {
        if e.kind() == io::ErrorKind::BrokenPipe {
            Outcome::BrokenPipe
        } else {
            Outcome::Failure(Failure::new(format!("writing output: {e}")))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    pub(crate) fn run_cli(args: &[&str]) -> (u8, String, String) {
        let mut out = Vec::new();
        let mut err = Vec::new();
        let code = run(
            std::iter::once("smd").chain(args.iter().copied()),
            &mut out,
            &mut err,
        );
        let code = if code == ExitCode::SUCCESS {
            0
        } else if code == ExitCode::from(2) {
            2
        } else if code == ExitCode::from(1) {
            1
        } else if code == ExitCode::from(3) {
            3
        } else {
            u8::MAX
        };
        (
            code,
            String::from_utf8_lossy(&out).into_owned(),
            String::from_utf8_lossy(&err).into_owned(),
        )
    }

    /// A file of `contents` in a fresh private temp file (created new, 0600), removed when
    /// dropped.
    pub(crate) fn temp_file(contents: &[u8]) -> TempFile {
        use std::io::Write as _;
        let mut file = tempfile::Builder::new()
            .prefix("smd-cli-test-")
            .suffix(".json")
            .tempfile()
            .unwrap_or_else(|e| panic!("a temp file: {e}"));
        file.write_all(contents)
            .unwrap_or_else(|e| panic!("writing a temp file: {e}"));
        TempFile(file)
    }

    pub(crate) struct TempFile(tempfile::NamedTempFile);

    impl TempFile {
        pub(crate) fn as_str(&self) -> &str {
            self.0.path().to_str().unwrap_or_default()
        }
    }

    #[test]
    fn usage_errors_exit_2_and_help_exits_0() {
        let (code, _, err) = run_cli(&["fieldsv1", "bogus"]);
        assert_eq!(code, 2);
        assert!(err.contains("unrecognized subcommand"), "{err}");
        let (code, out, _) = run_cli(&["--help"]);
        assert_eq!(code, 0);
        assert!(out.contains("fieldsv1"), "{out}");
    }
}
