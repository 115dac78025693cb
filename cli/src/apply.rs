//! `smd apply`: the objects the API server would store after a server-side apply, with their
//! managedFields.

use std::io::Write;
use std::path::PathBuf;

use clap::{Args, ValueEnum};
use smd::managedfields::Error;

use smd::report::{Outcome, Summary};

use super::batch::{self, Answer, Emitted};
use super::diff::ApplyFlags;
use super::plan::{self, Refusal};
use super::render;
use super::terminal;
use super::{Failure, Outcome as Stop, Status};

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
    /// YAML: one object, or a `v1` `List` of several, keys sorted (as `kubectl get -o yaml`).
    Yaml,
    /// JSON: one object, or a `v1` `List` of several (as `kubectl get -o json`).
    Json,
}

pub(crate) fn run(
    args: ApplyArgs,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> Result<Status, Stop> {
    let request = args.apply.request()?;
    let inputs = args.inputs.inputs(&args.files)?;
    let mut summary = Summary::default();
    let mut printed = Printed::new(args.output);
    let render = |answer: Answer| render(answer, args.output);
    let mut emit = |emitted: Emitted<Rendered>| -> Result<(), Failure> {
        let Some(rendered) = batch::answer_of(emitted, err)? else {
            return Ok(());
        };
        summary.count(rendered.outcome);
        if let Some(error) = &rendered.error {
            batch::say_error(out, err, error)?;
        }
        match rendered.object {
            Some(text) => out
                .write_all(printed.push(text).as_bytes())
                .map_err(batch::write_failure),
            None => Ok(()),
        }
    };
    let finished =
        batch::run(&inputs, &args.apply.types, request, &render, &mut emit).map_err(Stop::from)?;
    out.write_all(printed.finish().as_bytes())?;
    for u in &finished.unmatched {
        writeln!(
            err,
            "smd: {} ({}): no manifest names it; left alone",
            u.identity, u.origin
        )?;
    }
    if summary.conflict > 0 {
        writeln!(
            err,
            "smd: see `smd diff` for each conflict's values and the ways out, or pass --force-conflicts"
        )?;
    }
    // The objects printed are those the server would store; for a batch, the summary says what
    // was left out.
    if summary.objects > 1 {
        writeln!(err, "smd: {summary}")?;
    }
    Ok(summary.most_severe().map_or(Status::Ok, |o| match o {
        // apply prints objects: a change is its answer, not a finding.
        Outcome::Unchanged | Outcome::Change | Outcome::Create => Status::Ok,
        other => Status::of(other),
    }))
}

/// One answer, ready for the output.
struct Rendered {
    outcome: Outcome,
    /// The stored object's text (YAML with its comment, or JSON).
    object: Option<String>,
    /// What goes to stderr.
    error: Option<String>,
}

fn render(answer: Answer, format: ObjectFormat) -> Rendered {
    let outcome = match answer {
        Answer::Bad(bad) => {
            return Rendered {
                outcome: if bad.status.is_some() {
                    Outcome::Refused
                } else {
                    Outcome::BadInput
                },
                object: None,
                error: Some(bad.message),
            };
        }
        Answer::Sent(outcome) => outcome,
    };
    let pair = &outcome.pair;
    let origin = &pair.applied.origin;
    let (kind, error) = match &outcome.result {
        Ok(object) => {
            let kind = match &pair.live {
                None => Outcome::Create,
                Some(live) if plan::at_version(&live.value, &pair.applied.value) == *object => {
                    Outcome::Unchanged
                }
                Some(_) => Outcome::Change,
            };
            (kind, None)
        }
        Err(Refusal::Server(e @ Error::Conflict(_))) => {
            (Outcome::Conflict, Some(format!("{origin}: {e}")))
        }
        Err(Refusal::Server(e)) => (Outcome::Refused, Some(plan::refusal(pair, e).0)),
        Err(Refusal::Status(r)) => (Outcome::Refused, Some(plan::status_refusal(pair, r).0)),
        Err(Refusal::Unserved(message)) => (Outcome::Refused, Some(format!("{origin}: {message}"))),
    };
    let object = outcome.result.as_ref().ok().map(|object| match format {
        // A YAML document says in a comment which fields the server would fill with values
        // of its own choosing (left out); JSON has no comments (docs/cli.md).
        ObjectFormat::Yaml => {
            let text = render::yaml(object);
            if outcome.server_set.is_empty() {
                return text;
            }
            let paths: Vec<String> = outcome
                .server_set
                .iter()
                .map(|p| terminal::escape(p).into_owned())
                .collect();
            format!(
                "# set by the server (values of its own choosing, left out): {}\n{text}",
                paths.join(", ")
            )
        }
        ObjectFormat::Json => {
            // `to_json` sorts every map's keys itself (by bytes, as Go's encoding/json).
            serde_json::to_string_pretty(&render::to_json(object)).unwrap_or_default()
        }
    });
    Rendered {
        outcome: kind,
        object,
        error,
    }
}

/// The stored objects as `kubectl get` prints them: one alone, several in a `v1 List` (keys in
/// kubectl's order), written as they come: the first waits until a second says which.
#[derive(Debug)]
struct Printed {
    format: ObjectFormat,
    first: Option<String>,
    count: usize,
}

impl Printed {
    fn new(format: ObjectFormat) -> Printed {
        Printed {
            format,
            first: None,
            count: 0,
        }
    }

    /// What to write for one more object.
    fn push(&mut self, text: String) -> String {
        self.count += 1;
        match self.count {
            1 => {
                self.first = Some(text);
                String::new()
            }
            2 => {
                let first = self.first.take().unwrap_or_default();
                let mut out = match self.format {
                    ObjectFormat::Yaml => "apiVersion: v1\nitems:\n".to_owned(),
                    ObjectFormat::Json => {
                        "{\n  \"apiVersion\": \"v1\",\n  \"items\": [\n".to_owned()
                    }
                };
                out.push_str(&self.item(&first, true));
                out.push_str(&self.item(&text, false));
                out
            }
            _ => self.item(&text, false),
        }
    }

    fn item(&self, text: &str, first: bool) -> String {
        let mut out = String::new();
        match self.format {
            ObjectFormat::Yaml => {
                // A comment heading the object stays a comment line before its item.
                let mut lines = text.split_inclusive('\n').peekable();
                while let Some(comment) = lines.next_if(|l| l.starts_with('#')) {
                    out.push_str(comment);
                }
                let mut started = false;
                for line in lines {
                    if line != "\n" {
                        out.push_str(if started { "  " } else { "- " });
                    }
                    started = true;
                    out.push_str(line);
                }
            }
            ObjectFormat::Json => {
                if !first {
                    out.push_str(",\n");
                }
                for (i, line) in text
                    .trim_end_matches('\n')
                    .split_inclusive('\n')
                    .enumerate()
                {
                    let _ = i;
                    out.push_str("    ");
                    out.push_str(line);
                }
            }
        }
        out
    }

    /// What is left to write after the last object.
    fn finish(&mut self) -> String {
        match (self.count, self.format) {
            (0, _) => String::new(),
            (1, ObjectFormat::Yaml) => self.first.take().unwrap_or_default(),
            (1, ObjectFormat::Json) => {
                let mut text = self.first.take().unwrap_or_default();
                text.push('\n');
                text
            }
            (_, ObjectFormat::Yaml) => {
                // Written by the YAML writer, so that its quoting of the empty string holds.
                let mut tail = smd::fieldpath::Map::new();
                tail.insert("kind", smd::fieldpath::Value::from("List"));
                let mut metadata = smd::fieldpath::Map::new();
                metadata.insert("resourceVersion", smd::fieldpath::Value::from(""));
                tail.insert("metadata", smd::fieldpath::Value::Map(metadata));
                smd::fieldpath::yaml::to_string(&smd::fieldpath::Value::Map(tail))
            }
            (_, ObjectFormat::Json) => "\n  ],\n  \"kind\": \"List\",\n  \"metadata\": {\n    \"resourceVersion\": \"\"\n  }\n}\n".to_owned(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use smd::fieldpath::Value;

    /// Written piece by piece, a List is what serializing it whole gives.
    #[test]
    fn a_list_streams_as_it_serializes() {
        let objects: Vec<Value> = ["{apiVersion: v1, kind: ConfigMap, metadata: {name: a}, data: {x: \"\"}}",
            "{apiVersion: v1, kind: ConfigMap, metadata: {name: b}, data: {y: \"-c\", z: \"line\\n\\nmore\"}}",
            "{apiVersion: apps/v1, kind: Deployment, metadata: {name: c}, spec: {replicas: 1}}"]
            .iter()
            .map(|t| smd::fieldpath::yaml::from_str(t).unwrap())
            .collect();
        for format in [ObjectFormat::Yaml, ObjectFormat::Json] {
            for n in 1..=objects.len() {
                let mut printed = Printed::new(format);
                let mut streamed = String::new();
                for o in &objects[..n] {
                    let text = match format {
                        ObjectFormat::Yaml => smd::fieldpath::yaml::to_string(&render::sorted(o)),
                        ObjectFormat::Json => {
                            serde_json::to_string_pretty(&render::to_json(&render::sorted(o)))
                                .unwrap()
                        }
                    };
                    streamed.push_str(&printed.push(text));
                }
                streamed.push_str(&printed.finish());
                let whole = if n == 1 {
                    render::sorted(&objects[0])
                } else {
                    let mut list = smd::fieldpath::Map::new();
                    list.insert("apiVersion", Value::from("v1"));
                    list.insert(
                        "items",
                        Value::List(objects[..n].iter().map(render::sorted).collect()),
                    );
                    list.insert("kind", Value::from("List"));
                    let mut metadata = smd::fieldpath::Map::new();
                    metadata.insert("resourceVersion", Value::from(""));
                    list.insert("metadata", Value::Map(metadata));
                    Value::Map(list)
                };
                let expected = match format {
                    ObjectFormat::Yaml => smd::fieldpath::yaml::to_string(&whole),
                    ObjectFormat::Json => {
                        let mut t = serde_json::to_string_pretty(&render::to_json(&whole)).unwrap();
                        t.push('\n');
                        t
                    }
                };
                assert_eq!(streamed, expected, "{format:?}, {n} objects");
            }
        }
    }
}
