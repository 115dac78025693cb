//! `smd fieldsv1 fmt|paths`: the canonical bytes of a field set, or its paths.

use super::input::{self, Input};
use super::terminal::escape;
use super::{Failure, Outcome};
use clap::Subcommand;
use smd::fieldpath::{Error, Location, Set};
use std::io::Write;
use std::path::PathBuf;

#[derive(Debug, Subcommand)]
pub(crate) enum Command {
    /// Print the bytes the API server would store for this field set.
    ///
    /// Reads a `fieldsV1` JSON object (the value of `fieldsV1` in a `managedFields` entry) and
    /// prints it as Kubernetes writes it: keys in path-element order (`f:` fields, then `k:`
    /// keys, `v:` values, `i:` indexes), `"."` first, no whitespace, Go's escaping and numbers.
    ///
    /// Example: smd fieldsv1 fmt examples/deployment.fieldsv1.json
    Fmt {
        /// The fieldsV1 document; `-` or nothing reads stdin.
        file: Option<PathBuf>,
    },
    /// Print every path of the field set, one per line, in Go's order.
    ///
    /// Paths are written as Kubernetes prints them in conflict messages:
    /// `.spec.template.spec.containers[name="nginx"].image`. A node's members come first, then
    /// the paths below each of its children.
    ///
    /// Example: smd fieldsv1 paths examples/deployment.fieldsv1.json
    Paths {
        /// The fieldsV1 document; `-` or nothing reads stdin.
        file: Option<PathBuf>,
    },
}

pub(crate) fn run(command: Command, out: &mut dyn Write) -> Result<(), Outcome> {
    match command {
        Command::Fmt { file } => {
            let set = read_set(&input::read(file.as_deref())?)?;
            let bytes = set
                .to_fields_v1()
                .map_err(|e| Failure::new(format!("cannot write the set: {e}")))?;
            out.write_all(&bytes)?;
            out.write_all(b"\n")?;
        }
        Command::Paths { file } => {
            let set = read_set(&input::read(file.as_deref())?)?;
            for path in &set {
                writeln!(out, "{}", escape(&path.to_string()))?;
            }
        }
    }
    out.flush()?;
    Ok(())
}

fn read_set(input: &Input) -> Result<Set, Failure> {
    Set::from_fields_v1(&input.bytes).map_err(|e| describe(&input.name, &e))
}

/// `FILE: byte N: message`, so an editor or a human finds the place. The reader reports where it
/// stood after reading the offending byte, which is that byte's 1-based position.
fn describe(name: &str, error: &Error) -> Failure {
    match error.location() {
        Location::Byte(offset) => {
            Failure::new(format!("{name}: byte {offset}: {}", error.message()))
        }
        Location::Text { line, column, .. } => {
            Failure::new(format!("{name}:{line}:{column}: {}", error.message()))
        }
        _ => Failure::new(format!("{name}: {}", error.message())),
    }
}

#[cfg(test)]
mod tests {
    use crate::tests::{run_cli, temp_file};

    #[test]
    fn fmt_normalizes_order_and_whitespace() {
        let file =
            temp_file(br#"{ "i:10": {}, "f:b": {"f:c": {}, ".": {}}, "i:9": {}, "f:a": {} }"#);
        let (code, out, err) = run_cli(&["fieldsv1", "fmt", file.as_str()]);
        assert_eq!((code, err.as_str()), (0, ""));
        assert_eq!(
            out,
            "{\"f:a\":{},\"f:b\":{\".\":{},\"f:c\":{}},\"i:9\":{},\"i:10\":{}}\n"
        );
    }

    #[test]
    fn paths_prints_members_then_children() {
        let file = temp_file(
            br#"{"f:spec":{".":{},"f:replicas":{}},"f:metadata":{"f:labels":{"f:app":{}}}}"#,
        );
        let (code, out, _) = run_cli(&["fieldsv1", "paths", file.as_str()]);
        assert_eq!(code, 0);
        assert_eq!(out, ".spec\n.metadata.labels.app\n.spec.replicas\n");
    }

    #[test]
    fn bad_input_names_file_and_byte_and_exits_2() {
        let file = temp_file(b"[]");
        let (code, out, err) = run_cli(&["fieldsv1", "fmt", file.as_str()]);
        assert_eq!(code, 2);
        assert_eq!(out, "");
        assert_eq!(
            err,
            format!(
                "smd: {}: byte 1: ReadMapCB: expect {{ or n, but found [\n",
                file.as_str()
            )
        );
    }

    #[test]
    fn missing_file_is_reported() {
        let (code, _, err) = run_cli(&["fieldsv1", "fmt", "/nonexistent/x.json"]);
        assert_eq!(code, 2);
        assert!(
            err.starts_with("smd: /nonexistent/x.json: cannot read:"),
            "{err}"
        );
    }
}
