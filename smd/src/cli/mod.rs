//! Flags (declared once, with clap) and the dispatch to each subcommand.
//!
//! Every subcommand is a function from its arguments and input to text written on a
//! `&mut dyn Write`, so tests call it without a process. Exit codes: 0 success, 2 bad input or
//! usage (as `kubectl diff` uses them); 1 means "findings" (`schema lint` printed warnings,
//! later: `diff` found changes); 3 is kept for conflicts.

mod fieldsv1;
mod input;
mod schema;

use clap::{Parser, Subcommand};
use std::ffi::OsString;
use std::io::{self, Write};
use std::process::ExitCode;

/// Kubernetes Server-Side Apply, offline: field ownership, merges and conflicts exactly as the
/// API server computes them.
#[derive(Debug, Parser)]
#[command(name = "smd", version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Read and write `fieldsV1`, the field-set format of `metadata.managedFields`.
    #[command(name = "fieldsv1", subcommand)]
    FieldsV1(fieldsv1::Command),
    /// Schemas: convert OpenAPI documents, list types and kinds, lint list and map markers.
    #[command(subcommand)]
    Schema(schema::Command),
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
pub(crate) fn run(
    args: impl IntoIterator<Item = impl Into<OsString> + Clone>,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> ExitCode {
    let cli = match Cli::try_parse_from(args) {
        Ok(cli) => cli,
        Err(e) => {
            let code = if e.use_stderr() { 2 } else { 0 };
            let text = e.render().ansi().to_string();
            let target: &mut dyn Write = if e.use_stderr() { err } else { out };
            let _ = target.write_all(text.as_bytes());
            return ExitCode::from(code);
        }
    };
    let result = match cli.command {
        Command::FieldsV1(command) => fieldsv1::run(command, out).map(|()| Status::Ok),
        Command::Schema(command) => schema::run(command, out),
    };
    match result {
        Ok(Status::Ok) => ExitCode::SUCCESS,
        Ok(Status::Warnings) => ExitCode::from(1),
        Err(Outcome::BrokenPipe) => ExitCode::SUCCESS,
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
    /// Done, and it printed findings (lint warnings): exit 1.
    Warnings,
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
        } else {
            u8::MAX
        };
        (
            code,
            String::from_utf8_lossy(&out).into_owned(),
            String::from_utf8_lossy(&err).into_owned(),
        )
    }

    pub(crate) fn temp_file(contents: &[u8]) -> tempfile_path::TempPath {
        tempfile_path::TempPath::new(contents)
    }

    /// A file under the target directory, removed when dropped.
    pub(crate) mod tempfile_path {
        pub(crate) struct TempPath(pub(crate) std::path::PathBuf);
        impl TempPath {
            pub(crate) fn new(contents: &[u8]) -> TempPath {
                use std::sync::atomic::{AtomicUsize, Ordering};
                static N: AtomicUsize = AtomicUsize::new(0);
                let path = std::env::temp_dir().join(format!(
                    "smd-cli-test-{}-{}.json",
                    std::process::id(),
                    N.fetch_add(1, Ordering::Relaxed)
                ));
                let _ = std::fs::write(&path, contents);
                TempPath(path)
            }
            pub(crate) fn as_str(&self) -> &str {
                self.0.to_str().unwrap_or_default()
            }
        }
        impl Drop for TempPath {
            fn drop(&mut self) {
                let _ = std::fs::remove_file(&self.0);
            }
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
