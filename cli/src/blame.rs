//! `smd blame`: an object's YAML with every line annotated by all the managers owning it.

use std::io::Write;
use std::path::PathBuf;

use clap::Args;
use smd::fieldpath::{Path, PathElement, Set, Value};

use super::owners;
use super::plan;
use super::render::{self, ColorChoice, Paint};
use super::{Failure, Outcome as Stop};
use smd::preview::names_item;

/// The `blame` command's arguments.
#[derive(Debug, Args)]
pub(crate) struct BlameArgs {
    /// Objects with their managedFields (`kubectl get -o yaml --show-managed-fields`); `-` or
    /// nothing: stdin.
    #[arg(value_name = "FILE")]
    pub(crate) files: Vec<PathBuf>,
    #[command(flatten)]
    pub(crate) from: super::sources::FileArgs,
    /// Color the owners column.
    #[arg(long, value_enum, default_value_t = ColorChoice::Auto)]
    pub(crate) color: ColorChoice,
    /// Show the values of Secrets; by default they are masked as `kubectl diff` masks them
    /// (`***`).
    #[arg(long)]
    pub(crate) show_secrets: bool,
    /// The types that say which fields are owned as a whole (their contents then show the
    /// whole's owners; kinds without a type are shown as the sets name them), and where kinds'
    /// scopes come from for `-n`.
    #[command(flatten)]
    pub(crate) types: super::endpoints::TypeArgs,
}

/// A line of YAML and the fields it shows.
struct Line {
    text: String,
    paths: Vec<Path>,
}

pub(crate) fn run(args: BlameArgs, out: &mut dyn Write, err: &mut dyn Write) -> Result<(), Stop> {
    let server = super::endpoints::Server::load(&args.types)?;
    let objects = super::sources::read_objects(&args.files, &args.from, &args.types)?;
    let paint = Paint {
        on: args.color.enabled(),
    };
    let mut text = String::new();
    let objects = super::hints::with_managed_fields(&objects, err)?;
    for (i, object) in objects.iter().enumerate() {
        let managed = plan::managers(&object.value)
            .map_err(|e| Failure::new(format!("{}: {e}", object.origin)))?;
        let owners = owners::owners(&managed);
        let union = owners.iter().fold(Set::new(), |acc, o| acc.union(o.set()));
        // The object's own field set, as its type shapes it: a field owned as a whole is a
        // leaf there, and its contents are its owners'.
        let typed = server
            .types()
            .to_typed(&object.value, true)
            .ok()
            .and_then(|t| t.to_field_set().ok());
        let mut shown = render::sorted(&render::without_managed_fields(&object.value));
        if !args.show_secrets {
            // Keys stay (they are paths, not secrets): only values are hidden.
            super::secrets::mask(&mut shown);
        }
        let mut lines = Vec::new();
        walk(&shown, &mut Path::new(), &union, 0, &mut lines);
        if i > 0 {
            text.push_str("---\n");
        }
        text.push_str(&paint.dim(&format!("# {} ({})\n", object.identity(), object.origin)));
        text.push_str(&owners::legend(&owners, paint));
        let columns: Vec<(String, usize)> = lines
            .iter()
            .map(|line| {
                let owned = owners::of_line(&owners, &line.paths, typed.as_ref());
                owners::column(&owned, paint)
            })
            .collect();
        let width = columns.iter().map(|c| c.1).max().unwrap_or(0);
        for (line, (column, used)) in lines.iter().zip(&columns) {
            text.push_str(column);
            text.push_str(&" ".repeat(width - used));
            text.push_str(" | ");
            text.push_str(&line.text);
            text.push('\n');
        }
    }
    out.write_all(text.as_bytes())?;
    Ok(())
}

/// The element naming the `index`th item of the list at `path`, as the managers' sets name
/// it; its position when none does.
fn item_element(union: &Set, path: &Path, item: &Value, index: usize) -> PathElement {
    let mut node = Some(union);
    for e in path.elements() {
        node = node.and_then(|n| n.child(e));
    }
    if let Some(node) = node {
        let candidates = node.members().iter().chain(node.children().map(|(e, _)| e));
        for e in candidates {
            if names_item(e, item, index) {
                return e.clone();
            }
        }
    }
    PathElement::Index(i64::try_from(index).unwrap_or(i64::MAX))
}

/// The YAML text of a scalar (or empty collection), its continuation lines indented to
/// `indent`.
fn scalar_lines(value: &Value, indent: usize) -> Vec<String> {
    let text = smd::fieldpath::yaml::to_string(value);
    let mut lines = text.trim_end_matches('\n').split('\n');
    let first = lines.next().unwrap_or_default().to_owned();
    let mut out = vec![first];
    for rest in lines {
        // A top-level block scalar's lines are indented by two.
        let rest = rest.strip_prefix("  ").unwrap_or(rest);
        out.push(format!("{}{rest}", " ".repeat(indent + 2)));
    }
    out
}

fn key_text(key: &str) -> String {
    let text = smd::fieldpath::yaml::to_string(&Value::from(key));
    let text = text.trim_end_matches('\n');
    if text.contains('\n') {
        render::inline(&Value::from(key))
    } else {
        text.to_owned()
    }
}

fn is_nested(value: &Value) -> bool {
    match value {
        Value::Map(m) => !m.is_empty(),
        Value::List(l) => !l.is_empty(),
        _ => false,
    }
}

/// Lines of a map's entries at `indent`; `lead` replaces the first line's indentation (a list
/// item's `- `) and its paths join the first line's.
fn walk(value: &Value, path: &mut Path, union: &Set, indent: usize, lines: &mut Vec<Line>) {
    walk_with_lead(value, path, union, indent, None, lines);
}

fn walk_with_lead(
    value: &Value,
    path: &mut Path,
    union: &Set,
    indent: usize,
    mut lead: Option<(String, Path)>,
    lines: &mut Vec<Line>,
) {
    let mut start = |lines: &mut Vec<Line>, text: String, own: Path| match lead.take() {
        Some((prefix, item)) => lines.push(Line {
            text: format!("{prefix}{text}"),
            paths: vec![item, own],
        }),
        None => lines.push(Line {
            text: format!("{}{text}", " ".repeat(indent)),
            paths: vec![own],
        }),
    };
    match value {
        Value::Map(map) if !map.is_empty() => {
            for (key, v) in map.iter() {
                path.push(PathElement::field(key));
                let key = key_text(key);
                if is_nested(v) {
                    start(lines, format!("{key}:"), path.clone());
                    let child_indent = if matches!(v, Value::List(_)) {
                        indent
                    } else {
                        indent + 2
                    };
                    walk_with_lead(v, path, union, child_indent, None, lines);
                } else {
                    let mut scalar = scalar_lines(v, indent).into_iter();
                    start(
                        lines,
                        format!("{key}: {}", scalar.next().unwrap_or_default()),
                        path.clone(),
                    );
                    for rest in scalar {
                        lines.push(Line {
                            text: rest,
                            paths: vec![path.clone()],
                        });
                    }
                }
                path.pop();
            }
        }
        Value::List(items) if !items.is_empty() => {
            for (i, item) in items.iter().enumerate() {
                let element = item_element(union, path, item, i);
                // The first item of a list that is itself an item shares its `- ` line.
                let (prefix, outer) = match lead.take() {
                    Some((outer_prefix, outer_path)) => {
                        (format!("{outer_prefix}- "), Some(outer_path))
                    }
                    None => (format!("{}- ", " ".repeat(indent)), None),
                };
                path.push(element);
                if is_nested(item) {
                    let mut item_paths = path.clone();
                    if let Some(outer) = &outer {
                        // Both the outer and this item own the shared line; the walk adds
                        // the inner item's own path.
                        item_paths = outer.clone();
                    }
                    walk_with_lead(
                        item,
                        path,
                        union,
                        indent + 2,
                        Some((prefix, item_paths)),
                        lines,
                    );
                } else {
                    let mut scalar = scalar_lines(item, indent).into_iter();
                    let mut paths = vec![path.clone()];
                    paths.extend(outer);
                    lines.push(Line {
                        text: format!("{prefix}{}", scalar.next().unwrap_or_default()),
                        paths,
                    });
                    for rest in scalar {
                        lines.push(Line {
                            text: rest,
                            paths: vec![path.clone()],
                        });
                    }
                }
                path.pop();
            }
        }
        scalar => {
            let mut scalar = scalar_lines(scalar, indent).into_iter();
            start(lines, scalar.next().unwrap_or_default(), path.clone());
            for rest in scalar {
                lines.push(Line {
                    text: rest,
                    paths: vec![path.clone()],
                });
            }
        }
    }
}
