//! `smd fields`: the field sets of an object's managers, as paths or `fieldsV1`, and what
//! managedFields cost in bytes.

use std::io::Write;
use std::path::PathBuf;

use clap::{Args, ValueEnum};
use smd::fieldpath::Value;
use smd::managedfields::{Entry, entries};

use super::objects;
use super::render;
use super::terminal::escape;
use super::{Failure, Outcome as Stop};

/// The `fields` command's arguments.
#[derive(Debug, Args)]
pub(crate) struct FieldsArgs {
    /// Objects with their managedFields; `-` or nothing: stdin.
    #[arg(value_name = "FILE")]
    pub(crate) files: Vec<PathBuf>,
    /// Only the entries of this manager.
    #[arg(long, value_name = "NAME")]
    pub(crate) manager: Option<String>,
    /// One path per line (`.spec.containers[name="nginx"].image`), or each entry's fieldsV1.
    #[arg(short = 'o', long = "output", value_enum, default_value_t = FieldsFormat::Paths)]
    pub(crate) output: FieldsFormat,
    /// Instead of the fields: the bytes of each entry in the object's JSON, and their share of
    /// the whole object.
    #[arg(long)]
    pub(crate) sizes: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum FieldsFormat {
    Paths,
    Fieldsv1,
}

pub(crate) fn run(args: FieldsArgs, out: &mut dyn Write) -> Result<(), Stop> {
    let objects = objects::read_all(&args.files, super::parallel::default_jobs())?;
    let mut text = String::new();
    for object in &objects {
        let list = entries(&object.value)
            .map_err(|e| Failure::new(format!("{}: {e}", object.origin)))?
            .unwrap_or_default();
        text.push_str(&format!("# {} ({})\n", object.identity(), object.origin));
        if args.sizes {
            sizes(&mut text, &object.value, &list);
            continue;
        }
        for (i, entry) in list.iter().enumerate() {
            if args.manager.as_ref().is_some_and(|m| *m != entry.manager) {
                continue;
            }
            text.push_str(&format!("{}\n", heading(entry)));
            let fields = entry.fields_v1.as_deref().unwrap_or(b"{}");
            match args.output {
                FieldsFormat::Fieldsv1 => {
                    text.push_str(&String::from_utf8_lossy(fields));
                    text.push('\n');
                }
                FieldsFormat::Paths => {
                    let set = smd::fieldpath::Set::from_fields_v1(fields).map_err(|e| {
                        Failure::new(format!(
                            "{}: .metadata.managedFields[{i}].fieldsV1: {e}",
                            object.origin
                        ))
                    })?;
                    for path in set.iter() {
                        text.push_str(&format!("  {}\n", escape(&path.to_string())));
                    }
                }
            }
        }
    }
    out.write_all(text.as_bytes())?;
    Ok(())
}

/// `kubectl (Apply)`, `kube-controller-manager (Update apps/v1, subresource status, 2026-…)`.
fn heading(entry: &Entry) -> String {
    let mut parts = vec![entry.operation.clone()];
    if !entry.api_version.is_empty() {
        parts.push(entry.api_version.clone());
    }
    if !entry.subresource.is_empty() {
        parts.push(format!("subresource {}", entry.subresource));
    }
    if let Some(t) = entry.time {
        parts.push(t.to_string());
    }
    format!("{} ({})", escape(&entry.manager), parts.join(", "))
}

fn json_len(value: &Value) -> usize {
    serde_json::to_string(&render::to_json(value)).map_or(0, |s| s.len())
}

fn sizes(text: &mut String, object: &Value, list: &[Entry]) {
    let total = json_len(object);
    let items = object
        .as_map()
        .and_then(|m| m.get("metadata"))
        .and_then(Value::as_map)
        .and_then(|m| m.get("managedFields"))
        .and_then(Value::as_list)
        .unwrap_or_default();
    let share = |n: usize| {
        if total == 0 {
            0.0
        } else {
            n as f64 * 100.0 / total as f64
        }
    };
    let mut sum = 0;
    for (entry, item) in list.iter().zip(items) {
        let n = json_len(item);
        sum += n;
        text.push_str(&format!(
            "  {:>8} B {:>5.1}%  {}\n",
            n,
            share(n),
            heading(entry)
        ));
    }
    text.push_str(&format!(
        "  {:>8} B {:>5.1}%  managedFields, of {total} B of compact JSON for the whole object\n",
        sum,
        share(sum)
    ));
}
