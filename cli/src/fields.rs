//! `smd fields`: the field sets of an object's managers, as paths or `fieldsV1`, and what
//! managedFields cost in bytes.

use std::io::Write;
use std::path::PathBuf;

use clap::{Args, ValueEnum};
use smd::fieldpath::{PathElement, Set, Value};
use smd::managedfields::{Entry, ManagerId, Operation, Timestamp, entries};

use super::plan;
use super::render::{self, ColorChoice, Paint};
use super::terminal::escape;
use super::{Failure, Outcome as Stop};

/// The `fields` command's arguments.
#[derive(Debug, Args)]
pub(crate) struct FieldsArgs {
    /// Objects with their managedFields; `-` or nothing: stdin.
    #[arg(value_name = "FILE")]
    pub(crate) files: Vec<PathBuf>,
    #[command(flatten)]
    pub(crate) from: super::sources::FileArgs,
    // Where kinds' scopes come from, for `-n` (a custom resource's from its CRD).
    #[command(flatten)]
    pub(crate) types: super::endpoints::TypeArgs,
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
    /// How `-o paths` lists them: `tree`, one element a line indented under its parent (a
    /// node the manager owns itself, and not only through what it holds, says `(owned)`), or
    /// `go`, whole paths in the order Go's `Set.Iterate` walks them.
    #[arg(long, value_enum, default_value_t = Order::Tree)]
    pub(crate) order: Order,
    /// Color each entry's heading as `blame` colors its owner.
    #[arg(long, value_enum, default_value_t = ColorChoice::Auto)]
    pub(crate) color: ColorChoice,
}

/// The order of `-o paths`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum Order {
    Tree,
    Go,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum FieldsFormat {
    Paths,
    Fieldsv1,
}

pub(crate) fn run(args: FieldsArgs, out: &mut dyn Write, err: &mut dyn Write) -> Result<(), Stop> {
    let objects = super::sources::read_objects(&args.files, &args.from, &args.types)?;
    let mut text = String::new();
    let objects = super::hints::with_managed_fields(&objects, err)?;
    let paint = Paint {
        on: args.color.enabled(),
    };
    // Managers seen, for a --manager that names none of them.
    let mut present: Vec<String> = Vec::new();
    let mut matched = false;
    for object in objects {
        // One decoding for `fields` and `blame`: what the API server cannot decode, neither
        // lists.
        let managed = plan::managers(&object.value)
            .map_err(|e| Failure::new(format!("{}: {e}", object.origin)))?;
        text.push_str(&format!("# {} ({})\n", object.identity(), object.origin));
        if args.sizes {
            let list = entries(&object.value)
                .map_err(|e| Failure::new(format!("{}: {e}", object.origin)))?
                .unwrap_or_default();
            sizes(&mut text, &object.value, &list);
            continue;
        }
        // The entries as the API server would store them again: its order, canonical bytes.
        let stored = managed
            .encode()
            .map_err(|e| Failure::new(format!("{}: cannot write the sets: {e}", object.origin)))?
            .unwrap_or_default();
        for entry in &stored {
            if !present.contains(&entry.manager) {
                present.push(entry.manager.clone());
            }
        }
        matched |= args
            .manager
            .as_ref()
            .is_some_and(|name| stored.iter().any(|e| e.manager == *name));
        for (i, entry) in stored.iter().enumerate() {
            if args.manager.as_ref().is_some_and(|m| *m != entry.manager) {
                continue;
            }
            text.push_str(&format!(
                "{}\n",
                paint.code(
                    super::owners::color(i),
                    &heading(
                        &entry.manager,
                        &entry.operation,
                        &entry.api_version,
                        &entry.subresource,
                        entry.time.as_ref()
                    )
                )
            ));
            let Some(versioned) = Operation::from_wire(&entry.operation)
                .map(|op| {
                    ManagerId::new(
                        entry.manager.as_str(),
                        op,
                        entry.api_version.as_str(),
                        entry.subresource.as_str(),
                    )
                    .key()
                })
                .and_then(|key| managed.fields.get(&key))
            else {
                continue;
            };
            match args.output {
                FieldsFormat::Fieldsv1 => {
                    text.push_str(&String::from_utf8_lossy(
                        entry.fields_v1.as_deref().unwrap_or(b"{}"),
                    ));
                    text.push('\n');
                }
                FieldsFormat::Paths if args.order == Order::Tree => {
                    tree(versioned.set(), &mut text);
                }
                FieldsFormat::Paths => {
                    for path in versioned.set().iter() {
                        text.push_str(&format!("  {}\n", escape(&path.to_string())));
                    }
                }
            }
        }
    }
    if let Some(name) = args.manager.as_ref().filter(|_| !matched && !args.sizes) {
        let present: Vec<&str> = present.iter().map(String::as_str).collect();
        return Err(super::hints::unknown_manager(name, &present).into());
    }
    out.write_all(text.as_bytes())?;
    Ok(())
}

/// A node's entries in path-element order: (element, owned itself, what it holds).
fn nodes(set: &Set) -> Vec<(&PathElement, bool, Option<&Set>)> {
    let mut all: Vec<(&PathElement, bool, Option<&Set>)> = set
        .members()
        .iter()
        .map(|e| (e, true, set.child(e)))
        .collect();
    all.extend(
        set.children()
            .filter(|(e, _)| !set.has_member(e))
            .map(|(e, child)| (e, false, Some(child))),
    );
    all.sort_by(|a, b| a.0.compare(b.0));
    all
}

/// `set` as a tree, one element a line, two spaces deeper per level. Walked with a stack of
/// its own: a set nests as deep as managedFields let it.
fn tree(set: &Set, text: &mut String) {
    let mut stack = vec![(nodes(set), 0)];
    while let Some((level, next)) = stack.last_mut() {
        let Some(&(element, owned, child)) = level.get(*next) else {
            stack.pop();
            continue;
        };
        *next += 1;
        text.push_str(&"  ".repeat(stack.len()));
        text.push_str(&escape(&element.to_string()));
        if owned && child.is_some_and(|c| !c.is_empty()) {
            text.push_str(" (owned)");
        }
        text.push('\n');
        if let Some(child) = child {
            stack.push((nodes(child), 0));
        }
    }
}

/// `kubectl (Apply)`, `kube-controller-manager (Update apps/v1, subresource status, 2026-…)`.
fn heading(
    manager: &str,
    operation: &str,
    api_version: &str,
    subresource: &str,
    time: Option<&Timestamp>,
) -> String {
    let mut parts = vec![operation.to_owned()];
    if !api_version.is_empty() {
        parts.push(api_version.to_owned());
    }
    if !subresource.is_empty() {
        parts.push(format!("subresource {subresource}"));
    }
    if let Some(t) = time {
        parts.push(t.to_string());
    }
    format!("{} ({})", escape(manager), parts.join(", "))
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
            heading(
                &entry.manager,
                &entry.operation,
                &entry.api_version,
                &entry.subresource,
                entry.time.as_ref()
            )
        ));
    }
    text.push_str(&format!(
        "  {:>8} B {:>5.1}%  managedFields, of {total} B of compact JSON for the whole object\n",
        sum,
        share(sum)
    ));
}
