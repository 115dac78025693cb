//! `smd diff`: what a server-side apply would change, who would own what, what it removes,
//! and whom it conflicts with — without a cluster.

use std::io::Write;
use std::path::{Path, PathBuf};

use clap::{Args, ValueEnum};
use serde_json::json;
use smd::fieldpath::Value;
use smd::managedfields::{Error, ManagerId, Timestamp};

use super::endpoints::TypeArgs;
use super::plan::{self, Conflict, Dropped, Outcome, OwnerChange, Refusal, Request};
use super::render::{self, ColorChoice, Paint};
use super::textdiff;
use super::{Failure, Outcome as Stop};

/// The `diff` command's arguments.
#[derive(Debug, Args)]
pub(crate) struct DiffArgs {
    /// LIVE then APPLIED: the live objects (`kubectl get -o yaml --show-managed-fields`; `-`
    /// for stdin) and the manifests to apply. With one file, every manifest is a create.
    #[arg(value_name = "FILE", num_args = 1..=2, required = true)]
    pub(crate) files: Vec<PathBuf>,
    #[command(flatten)]
    pub(crate) apply: ApplyFlags,
    /// Output: a colored diff with the ownership report, or the report as YAML or JSON
    /// (`apiVersion: smd/v1`, `kind: DiffReport`; see docs/cli.md).
    #[arg(short = 'o', long = "output", value_enum, default_value_t = DiffFormat::Diff)]
    pub(crate) output: DiffFormat,
    /// Color the diff.
    #[arg(long, value_enum, default_value_t = ColorChoice::Auto)]
    pub(crate) color: ColorChoice,
    /// Include metadata.managedFields in the object diff.
    #[arg(long)]
    pub(crate) show_managed_fields: bool,
}

/// The flags of a server-side apply, shared by `diff` and `apply`.
#[derive(Debug, Args)]
pub(crate) struct ApplyFlags {
    /// The field manager applying (kubectl uses `kubectl`; controllers their own name).
    #[arg(
        long = "manager",
        visible_alias = "field-manager",
        value_name = "NAME",
        required = true
    )]
    pub(crate) manager: String,
    /// Take the fields other managers own instead of failing with conflicts.
    #[arg(long = "force-conflicts", alias = "force")]
    pub(crate) force_conflicts: bool,
    /// Apply through a subresource: `status` or `scale` (the manifest is then an
    /// autoscaling/v1 Scale).
    #[arg(long, value_name = "NAME", default_value = "")]
    pub(crate) subresource: String,
    /// The time the API server would stamp on entries (RFC 3339); default: now.
    #[arg(long, value_name = "RFC3339")]
    pub(crate) now: Option<String>,
    /// Documents processed at once; default: one per core.
    #[arg(short = 'j', long, value_name = "N")]
    pub(crate) jobs: Option<std::num::NonZeroUsize>,
    /// Field validation, as kubectl asks the API server for it: strict (or true) refuses a
    /// manifest that sets a key twice with the server's 400, warn prints the server's
    /// warnings, ignore (or false) stays silent; the last value wins.
    #[arg(long, value_name = "MODE", default_value = "strict", num_args = 0..=1, require_equals = true, default_missing_value = "strict", value_parser = super::objects::parse_validation)]
    pub(crate) validate: super::objects::Validation,
    #[command(flatten)]
    pub(crate) types: TypeArgs,
}

impl ApplyFlags {
    pub(crate) fn request(&self) -> Result<Request<'_>, Failure> {
        let now = match &self.now {
            None => Timestamp::now(),
            Some(text) => {
                Timestamp::parse(text).map_err(|e| Failure::new(format!("--now: {e}")))?
            }
        };
        if !matches!(self.subresource.as_str(), "" | "status" | "scale") {
            return Err(Failure::new(format!(
                "--subresource {:?}: smd serves the main resource, status and scale",
                self.subresource
            )));
        }
        Ok(Request {
            manager: &self.manager,
            force: self.force_conflicts,
            subresource: &self.subresource,
            now,
            jobs: self
                .jobs
                .map_or_else(super::parallel::default_jobs, |n| n.get()),
            preview_forced: false,
            validation: self.validate,
        })
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum DiffFormat {
    Diff,
    Yaml,
    Json,
}

/// The exit status of `diff`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum DiffStatus {
    Same,
    Changes,
    Conflicts,
}

/// One manifest's report.
struct Item<'a> {
    outcome: &'a Outcome,
    before: Value,
    /// What the server stores; with conflicts, what a forced apply would store.
    after: Option<Value>,
    owners: Vec<OwnerChange>,
    dropped: Vec<Dropped>,
    conflicts: Vec<Conflict>,
    changed: bool,
}

pub(crate) fn run(
    args: DiffArgs,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> Result<DiffStatus, Stop> {
    let request = Request {
        // With conflicts, the diff shows what a forced apply would store.
        preview_forced: true,
        ..args.apply.request()?
    };
    let planned = plan::plan_files(&args.files, &args.apply.types, request)?;
    let mut items = Vec::new();
    for outcome in &planned.outcomes {
        items.push(item(outcome, &request)?);
    }
    let status = if items.iter().any(|i| !i.conflicts.is_empty()) {
        DiffStatus::Conflicts
    } else if items.iter().any(|i| i.changed) {
        DiffStatus::Changes
    } else {
        DiffStatus::Same
    };
    let mut text = String::new();
    match args.output {
        DiffFormat::Json => {
            let report = report(&items, &planned.unmatched, &request);
            text = serde_json::to_string_pretty(&report).unwrap_or_default();
            text.push('\n');
        }
        DiffFormat::Yaml => {
            let report = Value::from(report(&items, &planned.unmatched, &request));
            text = smd::fieldpath::yaml::to_string(&report);
        }
        DiffFormat::Diff => {
            let paint = Paint {
                on: args.color.enabled(),
            };
            for item in &items {
                text.push_str(&render_item(
                    item,
                    &request,
                    paint,
                    args.show_managed_fields,
                )?);
            }
            for object in &planned.unmatched {
                text.push_str(&format!(
                    "{} {} ({}): no manifest names it; left alone\n",
                    paint.dim("#"),
                    object.identity(),
                    object.origin
                ));
            }
        }
    }
    for warning in &planned.warnings {
        let _ = writeln!(err, "smd: warning: {warning}");
    }
    out.write_all(text.as_bytes())?;
    Ok(status)
}

fn item<'a>(outcome: &'a Outcome, request: &Request<'_>) -> Result<Item<'a>, Failure> {
    let pair = &outcome.pair;
    let before = pair
        .live
        .as_ref()
        .map_or_else(|| Value::Map(Default::default()), |l| l.value.clone());
    let (after, conflicts) = match &outcome.result {
        Ok(object) => (Some(object.clone()), Vec::new()),
        Err(Refusal::Server(e @ Error::Conflict(_))) => (
            outcome.forced.clone(),
            plan::conflicts(e, &before, &pair.applied.value),
        ),
        Err(Refusal::Server(e)) => return Err(plan::refusal(&pair.applied.origin, e)),
        Err(Refusal::Unserved(message)) => {
            return Err(Failure::new(format!("{}: {message}", pair.applied.origin)));
        }
    };
    // Entries the API server cannot read count as none, as it counts them (plan_files warns).
    let live_managers = pair
        .live
        .as_ref()
        .and_then(|l| plan::managers(&l.value).ok())
        .unwrap_or_default();
    let (owners, dropped) = match &after {
        Some(after) => {
            let after_managers = plan::managers(after).map_err(Failure::new)?;
            (
                plan::owner_changes(&live_managers, &after_managers),
                plan::dropped(request, &before, &live_managers, after, &after_managers),
            )
        }
        None => (Vec::new(), Vec::new()),
    };
    let changed = after.as_ref().is_some_and(|a| *a != before);
    Ok(Item {
        outcome,
        before,
        after,
        owners,
        dropped,
        conflicts,
        changed,
    })
}

/// `apps.v1.Deployment.default.web`, the file name kubectl diff gives an object.
fn object_name(outcome: &Outcome) -> String {
    let object = outcome.pair.live.as_ref().unwrap_or(&outcome.pair.applied);
    let gvk = object.gvk();
    let mut parts = Vec::new();
    if !gvk.group.is_empty() {
        parts.push(gvk.group.clone());
    }
    parts.push(gvk.version.clone());
    parts.push(gvk.kind.clone());
    let identity = object.identity();
    if !identity.namespace.is_empty() {
        parts.push(identity.namespace);
    }
    parts.push(identity.name);
    parts.join(".")
}

/// Who a manager is, in words: `"kubectl" (Apply)`, `"hpa" (Update, apps/v1, subresource scale)`.
pub(crate) fn manager_words(id: &ManagerId) -> String {
    let mut out = format!(
        "{} ({}",
        render::inline(&Value::from(id.manager.as_str())),
        id.operation
    );
    if !id.api_version.is_empty() {
        out.push_str(", ");
        out.push_str(&id.api_version);
    }
    if !id.subresource.is_empty() {
        out.push_str(", subresource ");
        out.push_str(&id.subresource);
    }
    out.push(')');
    out
}

fn render_item(
    item: &Item<'_>,
    request: &Request<'_>,
    paint: Paint,
    show_managed: bool,
) -> Result<String, Failure> {
    let mut out = String::new();
    let name = object_name(item.outcome);
    let pair = &item.outcome.pair;
    let creating = pair.live.is_none();
    out.push_str(&paint.bold(&format!(
        "# {} {} — {} by {}\n",
        if creating { "create" } else { "apply to" },
        pair.applied.identity(),
        pair.applied.origin,
        render::inline(&Value::from(request.manager))
    )));
    if let Err(Refusal::Server(e)) = &item.outcome.result {
        out.push_str(&paint.yellow(&format!(
            "# The API server would refuse this apply (409 Conflict):\n#   {}\n# With --force-conflicts it would store:\n",
            e.to_string().replace('\n', "\n#   ")
        )));
    }
    if let Some(after) = &item.after {
        let shown = |v: &Value| {
            if show_managed {
                render::yaml(v)
            } else {
                render::yaml(&render::without_managed_fields(v))
            }
        };
        let old = if creating {
            String::new()
        } else {
            shown(&item.before)
        };
        let new = shown(after);
        let diff = match std::env::var("KUBECTL_EXTERNAL_DIFF") {
            Ok(program) if !program.trim().is_empty() => {
                external_diff(&program, &name, &old, &new)?
            }
            _ => textdiff::unified(
                &format!("live/{name}"),
                &old,
                &format!("merged/{name}"),
                &new,
                3,
            ),
        };
        if diff.is_empty() {
            out.push_str(&paint.dim("# The object would not change.\n"));
        }
        for line in diff.lines() {
            let colored = if line.starts_with("+++") || line.starts_with("---") {
                paint.bold(line)
            } else if line.starts_with('+') {
                paint.green(line)
            } else if line.starts_with('-') {
                paint.red(line)
            } else if line.starts_with("@@") {
                paint.cyan(line)
            } else {
                line.to_owned()
            };
            out.push_str(&colored);
            out.push('\n');
        }
    }
    if !item.owners.is_empty() {
        out.push_str(&paint.bold("\nOwnership:\n"));
        for change in &item.owners {
            let status = if change.arrives {
                " (new manager)"
            } else if change.leaves {
                " (owns nothing more: its entry goes)"
            } else {
                ""
            };
            out.push_str(&format!("  {}{status}\n", manager_words(&change.id)));
            for path in change.gained.leaves().iter() {
                out.push_str(&format!("    {} {path}\n", paint.green("+")));
            }
            for path in change.lost.leaves().iter() {
                out.push_str(&format!("    {} {path}\n", paint.red("-")));
            }
        }
    }
    let (kept, removed): (Vec<&Dropped>, Vec<&Dropped>) =
        item.dropped.iter().partition(|d| !d.owners.is_empty());
    if !removed.is_empty() {
        out.push_str(
            &paint.bold("\nRemoved (no longer in the manifest, and no one else owns them):\n"),
        );
        for d in removed {
            out.push_str(&format!("  {} {}\n", paint.red("-"), d.path));
        }
    }
    if !kept.is_empty() {
        out.push_str(
            &paint.bold("\nKept (no longer in the manifest, but other managers own them):\n"),
        );
        for d in kept {
            let owners: Vec<String> = d.owners.iter().map(manager_words).collect();
            out.push_str(&format!("  {} (owned by {})\n", d.path, owners.join(", ")));
        }
    }
    if !item.conflicts.is_empty() {
        out.push_str(
            &paint.yellow(&paint.bold(&format!("\nConflicts ({}):\n", item.conflicts.len()))),
        );
        for c in &item.conflicts {
            let owner = c
                .owner
                .as_ref()
                .map_or_else(|| "an unknown manager".to_owned(), manager_words);
            out.push_str(&format!("  {}\n", paint.bold(&c.path.to_string())));
            out.push_str(&format!("    owned by {owner}\n"));
            out.push_str(&format!(
                "    live:     {}\n",
                c.live
                    .as_ref()
                    .map_or("(absent)".to_owned(), render::inline)
            ));
            out.push_str(&format!(
                "    manifest: {}\n",
                c.applied
                    .as_ref()
                    .map_or("(absent)".to_owned(), render::inline)
            ));
        }
        out.push_str(&format!(
            "  Ways out:\n    1. take the fields: apply with --force-conflicts ({} then owns them; their owners may change them back)\n    2. give them up: remove them from the manifest and leave them to their owners\n    3. share them: apply the live values, and {} co-owns them\n",
            render::inline(&Value::from(request.manager)),
            render::inline(&Value::from(request.manager)),
        ));
    }
    out.push('\n');
    Ok(out)
}

/// Runs `KUBECTL_EXTERNAL_DIFF` as kubectl does: the program and its flags, then two
/// directories holding the live and merged object as files named like the object.
fn external_diff(program: &str, name: &str, old: &str, new: &str) -> Result<String, Failure> {
    static N: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let base = std::env::temp_dir().join(format!(
        "smd-diff-{}-{}",
        std::process::id(),
        N.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
    ));
    let live_dir = base.join("live");
    let merged_dir = base.join("merged");
    let write = |dir: &Path, text: &str| -> std::io::Result<()> {
        std::fs::create_dir_all(dir)?;
        std::fs::write(dir.join(name), text)
    };
    let result = write(&live_dir, old)
        .and_then(|()| write(&merged_dir, new))
        .and_then(|()| {
            let mut words = program.split_whitespace();
            let command = words.next().unwrap_or_default();
            std::process::Command::new(command)
                .args(words)
                .arg(&live_dir)
                .arg(&merged_dir)
                .output()
        });
    let _ = std::fs::remove_dir_all(&base);
    let output =
        result.map_err(|e| Failure::new(format!("KUBECTL_EXTERNAL_DIFF={program}: {e}")))?;
    // diff exits 1 when the files differ; only a higher status is a failure.
    if output.status.code().is_none_or(|c| c > 1) {
        return Err(Failure::new(format!(
            "KUBECTL_EXTERNAL_DIFF={program} failed ({}): {}",
            output.status,
            String::from_utf8_lossy(&output.stderr).trim()
        )));
    }
    Ok(String::from_utf8_lossy(&output.stdout).into_owned())
}

/// The report in its versioned shape (docs/cli.md, "smd diff -o json").
fn report(
    items: &[Item<'_>],
    unmatched: &[super::objects::Object],
    request: &Request<'_>,
) -> serde_json::Value {
    let items: Vec<serde_json::Value> = items
        .iter()
        .map(|item| {
            let pair = &item.outcome.pair;
            let identity = pair.applied.identity();
            let manager = |id: &ManagerId| {
                json!({
                    "manager": id.manager,
                    "operation": id.operation,
                    "apiVersion": id.api_version,
                    "subresource": id.subresource,
                })
            };
            let paths = |set: &smd::fieldpath::Set| -> Vec<String> {
                set.leaves().iter().map(|p| p.to_string()).collect()
            };
            json!({
                "object": {
                    "apiVersion": pair.applied.text(&["apiVersion"]),
                    "kind": identity.kind,
                    "namespace": identity.namespace,
                    "name": identity.name,
                },
                "live": pair.live.as_ref().map(|l| l.origin.to_string()),
                "applied": pair.applied.origin.to_string(),
                "operation": if pair.live.is_some() { "update" } else { "create" },
                "refused": !item.conflicts.is_empty(),
                "changed": item.changed,
                "diff": item.after.as_ref().map(|after| {
                    let old = if pair.live.is_some() {
                        render::yaml(&render::without_managed_fields(&item.before))
                    } else {
                        String::new()
                    };
                    let new = render::yaml(&render::without_managed_fields(after));
                    textdiff::unified("live", &old, "merged", &new, 3)
                }),
                "result": item.after.as_ref().map(|a| render::to_json(&render::sorted(a))),
                "managers": item.owners.iter().map(|c| json!({
                    "manager": manager(&c.id),
                    "gained": paths(&c.gained),
                    "lost": paths(&c.lost),
                    "new": c.arrives,
                    "gone": c.leaves,
                })).collect::<Vec<_>>(),
                "removed": item.dropped.iter().filter(|d| d.owners.is_empty()).map(|d| d.path.to_string()).collect::<Vec<_>>(),
                "kept": item.dropped.iter().filter(|d| !d.owners.is_empty()).map(|d| json!({
                    "path": d.path.to_string(),
                    "owners": d.owners.iter().map(manager).collect::<Vec<_>>(),
                })).collect::<Vec<_>>(),
                "conflicts": item.conflicts.iter().map(|c| json!({
                    "path": c.path.to_string(),
                    "owner": c.owner.as_ref().map(manager),
                    "live": c.live.as_ref().map(render::to_json),
                    "applied": c.applied.as_ref().map(render::to_json),
                })).collect::<Vec<_>>(),
            })
        })
        .collect();
    json!({
        "apiVersion": "smd/v1",
        "kind": "DiffReport",
        "manager": request.manager,
        "force": request.force,
        "subresource": request.subresource,
        "time": request.now.to_string(),
        "items": items,
        "unmatchedLive": unmatched.iter().map(|o| json!({
            "object": o.identity().to_string(),
            "origin": o.origin.to_string(),
        })).collect::<Vec<_>>(),
    })
}
