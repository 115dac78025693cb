//! `smd diff`: what a server-side apply would change, who would own what, what it removes,
//! and whom it conflicts with — without a cluster.

use std::io::Write;
use std::path::PathBuf;

use clap::{Args, ValueEnum};
use smd::fieldpath::Value;
use smd::managedfields::{Error, ManagerId, Timestamp};

use super::batch::{self, Answer, Emitted};
use super::endpoints::TypeArgs;
use super::external_diff::{self, Program};
use super::plan::{self, Conflict, Dropped, OwnerChange, Refusal, Request};
use super::render::{self, ColorChoice, Paint};
use super::report;
use super::secrets;
use super::terminal::escape;
use super::textdiff;
use super::{Failure, Outcome as Stop, Status};
use smd::report::{Outcome, Summary};

/// The `diff` command's arguments.
#[derive(Debug, Args)]
pub(crate) struct DiffArgs {
    /// LIVE then APPLIED: the live objects (`kubectl get -o yaml --show-managed-fields`; `-`
    /// for stdin) and the manifests to apply. With one file, every manifest is a create. Or
    /// give the manifests with -f and the live objects with --live.
    #[arg(value_name = "FILE", num_args = 1..=2, required_unless_present = "filenames", conflicts_with_all = ["filenames", "live"])]
    pub(crate) files: Vec<PathBuf>,
    #[command(flatten)]
    pub(crate) inputs: super::sources::LiveArgs,
    #[command(flatten)]
    pub(crate) apply: ApplyFlags,
    /// Output: a colored diff with the ownership report, or the report as YAML or JSON
    /// (`apiVersion: smd/v2`, `kind: DiffReport`; see docs/cli.md).
    #[arg(short = 'o', long = "output", value_enum, default_value_t = DiffFormat::Diff)]
    pub(crate) output: DiffFormat,
    /// Color the diff.
    #[arg(long, value_enum, default_value_t = ColorChoice::Auto)]
    pub(crate) color: ColorChoice,
    /// Include metadata.managedFields in the object diff.
    #[arg(long)]
    pub(crate) show_managed_fields: bool,
    /// Show the values of Secrets; by default they are masked as kubectl masks them (`***`,
    /// and `*** (before)`/`*** (after)` where a value changes).
    #[arg(long)]
    pub(crate) show_secrets: bool,
    /// Print no section and no summary: only errors on stderr, and the exit status.
    #[arg(short = 'q', long, conflicts_with = "only")]
    pub(crate) quiet: bool,
    /// Print the sections of these objects only (the summary still counts every object).
    #[arg(long, value_enum, value_name = "WHICH")]
    pub(crate) only: Option<Only>,
}

/// The flags of a server-side apply, shared by `diff` and `apply`.
#[derive(Debug, Args)]
pub(crate) struct ApplyFlags {
    /// The field manager applying: `kubectl` by default, as `kubectl apply --server-side`
    /// (controllers apply with their own name).
    #[arg(
        long = "manager",
        visible_alias = "field-manager",
        value_name = "NAME",
        default_value = "kubectl"
    )]
    pub(crate) manager: String,
    /// Take the fields other managers own instead of failing with conflicts.
    #[arg(long = "force-conflicts", alias = "force")]
    pub(crate) force_conflicts: bool,
    /// Show the field manager's result alone: the merged object and managedFields as
    /// structured-merge-diff's apply computes them (Go's field manager gives the same), before
    /// the API server's defaulting, registry strategies, validation, admission and storage.
    /// The live object is taken as given, not defaulted. Compare with the default output to
    /// tell what the merge did from what the server adds.
    #[arg(long)]
    pub(crate) field_manager_only: bool,
    /// Apply through a subresource: `status` or `scale` (the manifest is then an
    /// autoscaling/v1 Scale).
    #[arg(long, value_name = "NAME", default_value = "")]
    pub(crate) subresource: String,
    /// The time the API server would stamp on entries (RFC 3339); default: now.
    #[arg(long, value_name = "RFC3339")]
    pub(crate) now: Option<String>,
    /// Documents processed at once; default: one per core, at most 64.
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
            Some(text) => Timestamp::parse(text).map_err(|e| super::hints::now(&e))?,
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
            field_manager_only: self.field_manager_only,
        })
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum DiffFormat {
    Diff,
    Yaml,
    Json,
}

/// `--only`: which objects' sections are printed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum Only {
    /// Objects the apply would change or create, and conflicts.
    Changes,
    /// Objects whose apply would be refused with conflicts.
    Conflicts,
}

/// One manifest's report.
struct Item<'a> {
    outcome: &'a plan::Outcome,
    before: Value,
    /// What the server stores; with conflicts, what a forced apply would store.
    after: Option<Value>,
    /// `before` and `after` with Secret values masked, when they are a Secret's and
    /// `--show-secrets` is not given: what is printed.
    masked: Option<(Value, Option<Value>)>,
    owners: Vec<OwnerChange>,
    dropped: Vec<Dropped>,
    /// With values as printed (masked).
    conflicts: Vec<Conflict>,
    changed: bool,
    /// Through the status subresource: the manifest's fields the server ignores.
    ignored: Vec<String>,
}

impl Item<'_> {
    /// The live object as printed.
    fn shown_before(&self) -> &Value {
        self.masked.as_ref().map_or(&self.before, |(b, _)| b)
    }

    /// What the server would store, as printed.
    fn shown_after(&self) -> Option<&Value> {
        match &self.masked {
            Some((_, after)) => after.as_ref(),
            None => self.after.as_ref(),
        }
    }

    /// The YAML of the live object (empty for a create) and of what the server would store.
    fn texts(&self, show_managed: bool) -> Option<(String, String)> {
        let shown = |v: &Value| {
            if show_managed {
                render::yaml(v)
            } else {
                render::yaml(&render::without_managed_fields(v))
            }
        };
        let after = self.shown_after()?;
        let old = if self.outcome.pair.live.is_none() {
            String::new()
        } else {
            shown(self.shown_before())
        };
        Some((old, shown(after)))
    }
}

pub(crate) fn run(
    args: DiffArgs,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> Result<Status, Stop> {
    let request = Request {
        // With conflicts, the diff shows what a forced apply would store.
        preview_forced: true,
        ..args.apply.request()?
    };
    let inputs = args.inputs.inputs(&args.files)?;
    let paint = Paint {
        on: args.color.enabled(),
    };
    let program = match args.output {
        DiffFormat::Diff => Program::from_env()?,
        _ => None,
    };
    if let Some(program) = &program {
        for word in &program.dropped {
            writeln!(
                err,
                "smd: warning: {}: {word:?} is not passed to the program (kubectl passes \
                 only words of letters, digits, '-' and '=')",
                external_diff::VARIABLE
            )?;
        }
    }
    let shown = Shown {
        request: &request,
        args: &args,
        paint,
        external: program.is_some(),
    };
    let mut stream = report::Stream::new(args.output, &request);
    let mut summary = Summary::default();
    // With KUBECTL_EXTERNAL_DIFF, the program sees every object at once, and its output comes
    // first: the sections wait for it.
    let mut held = Held::default();
    let header = stream.header();
    out.write_all(header.as_bytes())?;
    let render = |answer: Answer| shown.render(answer);
    let mut emit = |emitted: Emitted<Rendered>| -> Result<(), Failure> {
        let Some(rendered) = batch::answer_of(emitted, err)? else {
            return Ok(());
        };
        summary.count(rendered.outcome);
        if let Some(error) = &rendered.error {
            batch::say_error(out, err, error)?;
        }
        if let Some(entry) = rendered.entry {
            held.entries.push(entry);
        }
        let text = match args.output {
            DiffFormat::Diff if !shown.selected(rendered.outcome) => return Ok(()),
            DiffFormat::Diff => rendered.text,
            _ => stream.item(&rendered.text),
        };
        if program.is_some() {
            held.sections.push_str(&text);
            return Ok(());
        }
        out.write_all(text.as_bytes()).map_err(batch::write_failure)
    };
    let finished =
        batch::run(&inputs, &args.apply.types, request, &render, &mut emit).map_err(Stop::from)?;
    let mut status = summary.most_severe().map_or(Status::Ok, Status::of);
    if let Some(program) = &program {
        let ran = external_diff::run(program, &held.entries)?;
        if !ran.stdout.is_empty() {
            out.write_all(ran.stdout.as_bytes())?;
            if !ran.stdout.ends_with('\n') {
                out.write_all(b"\n")?;
            }
            out.write_all(b"\n")?;
        }
        err.write_all(ran.stderr.as_bytes())?;
        // kubectl passes the program's answer on; a refusal still says so.
        if matches!(status, Status::Ok | Status::Warnings) {
            status = if ran.differs {
                Status::Warnings
            } else {
                Status::Ok
            };
        }
        out.write_all(held.sections.as_bytes())?;
    }
    let unmatched: Vec<smd::report::Unmatched> = finished
        .unmatched
        .iter()
        .map(|u| smd::report::Unmatched {
            object: report::object_ref(&u.api_version, &u.identity),
            origin: report::origin_ref(&u.origin),
        })
        .collect();
    let tail = match args.output {
        DiffFormat::Diff => {
            let mut text = String::new();
            for u in &finished.unmatched {
                text.push_str(&format!(
                    "{} {} ({}): no manifest names it; left alone\n",
                    paint.dim("#"),
                    u.identity,
                    u.origin
                ));
            }
            // A batch ends with its count; one object's section says it all.
            if !args.quiet && summary.objects > 1 {
                text.push_str(&paint.bold(&summary.to_string()));
                text.push('\n');
            }
            text
        }
        _ => stream.footer(unmatched, summary),
    };
    out.write_all(tail.as_bytes())?;
    Ok(status)
}

/// What the external program's run waits for.
#[derive(Default)]
struct Held {
    entries: Vec<external_diff::Entry>,
    sections: String,
}

/// One answer, made ready for the output on a worker thread.
pub(crate) struct Rendered {
    pub(crate) outcome: Outcome,
    /// Its section (text) or report item (JSON, YAML).
    pub(crate) text: String,
    /// What goes to stderr: a refusal or bad input, naming the place.
    pub(crate) error: Option<String>,
    /// Its files for KUBECTL_EXTERNAL_DIFF.
    entry: Option<external_diff::Entry>,
}

/// How answers are shown.
struct Shown<'a> {
    request: &'a Request<'a>,
    args: &'a DiffArgs,
    paint: Paint,
    external: bool,
}

impl Shown<'_> {
    /// Whether a text section of this outcome is printed (`--quiet`, `--only`).
    fn selected(&self, outcome: Outcome) -> bool {
        if self.args.quiet {
            return false;
        }
        match self.args.only {
            None => true,
            Some(Only::Changes) => {
                matches!(
                    outcome,
                    Outcome::Change | Outcome::Create | Outcome::Conflict
                )
            }
            Some(Only::Conflicts) => outcome == Outcome::Conflict,
        }
    }

    fn render(&self, answer: Answer) -> Rendered {
        let json = self.args.output != DiffFormat::Diff;
        match answer {
            Answer::Bad(bad) => {
                let outcome = if bad.status.is_some() {
                    Outcome::Refused
                } else {
                    Outcome::BadInput
                };
                let text = if json {
                    report::item_text(self.args.output, &report::bad_item(&bad, outcome))
                } else {
                    String::new()
                };
                Rendered {
                    outcome,
                    text,
                    error: Some(bad.message),
                    entry: None,
                }
            }
            Answer::Sent(outcome) => self.render_sent(&outcome),
        }
    }

    fn render_sent(&self, outcome: &plan::Outcome) -> Rendered {
        let json = self.args.output != DiffFormat::Diff;
        match item(outcome, self.request, self.args.show_secrets) {
            Ok(item) => {
                let kind = if !item.conflicts.is_empty() {
                    Outcome::Conflict
                } else if outcome.pair.live.is_none() && item.after.is_some() {
                    Outcome::Create
                } else if item.changed {
                    Outcome::Change
                } else {
                    Outcome::Unchanged
                };
                let text = if json {
                    report::item_text(self.args.output, &report_item(&item, kind, self.request))
                } else {
                    render_item(
                        &item,
                        self.request,
                        self.paint,
                        self.args.show_managed_fields,
                        self.external,
                    )
                    .unwrap_or_else(|Failure(message)| message)
                };
                let entry = self
                    .external
                    .then(|| entry(&item, self.args.show_managed_fields))
                    .flatten();
                Rendered {
                    outcome: kind,
                    text,
                    error: None,
                    entry,
                }
            }
            Err(Failure(message)) => {
                let text = if json {
                    report::item_text(self.args.output, &report::refused_item(outcome))
                } else {
                    String::new()
                };
                Rendered {
                    outcome: Outcome::Refused,
                    text,
                    error: Some(message),
                    entry: None,
                }
            }
        }
    }
}

fn item<'a>(
    outcome: &'a plan::Outcome,
    request: &Request<'_>,
    show_secrets: bool,
) -> Result<Item<'a>, Failure> {
    let pair = &outcome.pair;
    match &outcome.result {
        Ok(_) | Err(Refusal::Server(Error::Conflict(_))) => {}
        Err(Refusal::Server(e)) => return Err(plan::refusal(pair, e)),
        Err(Refusal::Status(r)) => return Err(plan::status_refusal(pair, r)),
        Err(Refusal::Unserved(message)) => {
            return Err(Failure::new(format!("{}: {message}", pair.applied.origin)));
        }
    }
    let live = pair.live.as_ref().map(|l| &l.value);
    let answer = smd::preview::Answer {
        result: outcome.result.clone(),
        forced: outcome.forced.clone(),
        server_set: outcome.server_set.clone(),
    };
    let preview = smd::preview::preview(live, &pair.applied.value, &answer, &request.preview())
        .map_err(Failure::new)?;
    let secret = !show_secrets
        && (secrets::is_secret(&preview.before) || secrets::is_secret(&pair.applied.value));
    let mut conflicts = preview.conflicts.clone();
    if let (true, Err(Refusal::Server(e))) = (secret, &outcome.result) {
        // The live and manifest values of each conflict, masked as a pair.
        let (mut held, mut applied) = (
            live.unwrap_or(&preview.before).clone(),
            pair.applied.value.clone(),
        );
        secrets::mask_pair(&mut held, &mut applied);
        conflicts = plan::conflicts(e, &held, &applied);
    }
    let masked = secret.then(|| {
        let mut shown_before = preview.before.clone();
        let mut shown_after = preview.after.clone();
        match &mut shown_after {
            Some(after) => secrets::mask_pair(&mut shown_before, after),
            None => secrets::mask(&mut shown_before),
        }
        (shown_before, shown_after)
    });
    Ok(Item {
        outcome,
        ignored: preview.ignored.iter().map(ToString::to_string).collect(),
        before: preview.before,
        after: preview.after,
        masked,
        owners: preview.owners,
        dropped: preview.dropped,
        conflicts,
        changed: preview.changed,
    })
}

/// `apps.v1.Deployment.default.web`, the file name kubectl diff gives an object.
fn object_name(outcome: &plan::Outcome) -> String {
    let object = outcome.pair.live.as_ref().unwrap_or(&outcome.pair.applied);
    let gvk = object.gvk();
    let identity = &outcome.pair.identity;
    external_diff::file_name(
        &gvk.group,
        &gvk.version,
        &gvk.kind,
        &identity.namespace,
        &identity.name,
    )
}

/// The files of an object with something to show, for `KUBECTL_EXTERNAL_DIFF`.
fn entry(item: &Item<'_>, show_managed: bool) -> Option<external_diff::Entry> {
    let (live, merged) = item.texts(show_managed)?;
    Some(external_diff::Entry {
        name: object_name(item.outcome),
        origin: item.outcome.pair.applied.origin.to_string(),
        live,
        merged,
    })
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

/// One object's section; with `external`, its object diff is in the external program's
/// output, printed before every section.
fn render_item(
    item: &Item<'_>,
    request: &Request<'_>,
    paint: Paint,
    show_managed: bool,
    external: bool,
) -> Result<String, Failure> {
    let mut out = String::new();
    let name = object_name(item.outcome);
    let pair = &item.outcome.pair;
    let creating = pair.live.is_none();
    out.push_str(&paint.bold(&format!(
        "# {} {} — {} by {}\n",
        if creating { "create" } else { "apply to" },
        pair.identity,
        pair.applied.origin,
        render::inline(&Value::from(request.manager))
    )));
    if request.field_manager_only {
        out.push_str(&paint.dim(
            "# The field manager's result alone (--field-manager-only): not defaulted, \
             prepared, validated or admitted by the API server.\n",
        ));
    }
    if let Err(Refusal::Server(e)) = &item.outcome.result {
        out.push_str(&paint.yellow(&format!(
            "# The API server would refuse this apply (409 Conflict):\n#   {}\n# With --force-conflicts it would store:\n",
            e.to_string().replace('\n', "\n#   ")
        )));
    }
    if !item.ignored.is_empty() {
        let paths: Vec<String> = item
            .ignored
            .iter()
            .map(|p| escape(p).into_owned())
            .collect();
        out.push_str(&paint.yellow(&format!(
            "# Through the status subresource the API server ignores the manifest's other \
             fields, and keeps the live values: {}\n",
            paths.join(", ")
        )));
    }
    if let Some((old, new)) = item.texts(show_managed) {
        if old == new && !item.owners.is_empty() {
            out.push_str(
                &paint.dim("# The object would not change: only ownership changes (below).\n"),
            );
        } else if old == new {
            out.push_str(&paint.dim("# The object would not change.\n"));
        } else if external {
            out.push_str(&paint.dim(&format!(
                "# Object diff: the files {name}, in the {} output above.\n",
                external_diff::VARIABLE
            )));
        } else {
            let diff = textdiff::unified(
                &format!("live/{name}"),
                &old,
                &format!("merged/{name}"),
                &new,
                3,
            );
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
    }
    if !item.outcome.server_set.is_empty() {
        out.push_str(
            &paint.bold("\nSet by the server (values of its own choosing, left out above):\n"),
        );
        for path in &item.outcome.server_set {
            out.push_str(&format!("  {}\n", escape(path)));
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
                out.push_str(&format!(
                    "    {} {}\n",
                    paint.green("+"),
                    escape(&path.to_string())
                ));
            }
            for path in change.lost.leaves().iter() {
                out.push_str(&format!(
                    "    {} {}\n",
                    paint.red("-"),
                    escape(&path.to_string())
                ));
            }
        }
    }
    let (kept, removed): (Vec<&Dropped>, Vec<&Dropped>) =
        item.dropped.iter().partition(|d| !d.owners.is_empty());
    if !removed.is_empty() {
        out.push_str(
            &paint
                .bold("\nRemoved (no longer in the manifest, and gone from the stored object):\n"),
        );
        for d in removed {
            out.push_str(&format!(
                "  {} {}\n",
                paint.red("-"),
                escape(&d.path.to_string())
            ));
            if !d.co_owners.is_empty() {
                let owners: Vec<String> = d.co_owners.iter().map(manager_words).collect();
                out.push_str(&format!(
                    "      co-owned by {}: what they set in it goes too\n",
                    owners.join(", ")
                ));
            }
        }
    }
    if !kept.is_empty() {
        out.push_str(
            &paint.bold("\nKept (no longer in the manifest, but other managers own them):\n"),
        );
        for d in kept {
            let owners: Vec<String> = d.owners.iter().map(manager_words).collect();
            out.push_str(&format!(
                "  {} (owned by {})\n",
                escape(&d.path.to_string()),
                owners.join(", ")
            ));
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
            out.push_str(&format!("  {}\n", paint.bold(&escape(&c.path.to_string()))));
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

/// The report item of an answered manifest (docs/cli.md, "smd diff -o json").
fn report_item(item: &Item<'_>, outcome: Outcome, request: &Request<'_>) -> smd::report::Item {
    let pair = &item.outcome.pair;
    let paths = |set: &smd::fieldpath::Set| -> Vec<String> {
        set.leaves().iter().map(|p| p.to_string()).collect()
    };
    let refusal = match &item.outcome.result {
        Err(Refusal::Server(e)) => Some(smd::report::Refusal {
            code: e.code(),
            reason: e.reason().unwrap_or("InternalError").to_owned(),
            message: e.to_string(),
        }),
        _ => None,
    };
    let _ = request;
    smd::report::Item {
        object: Some(report::object_ref(
            pair.applied.text(&["apiVersion"]),
            &pair.identity,
        )),
        outcome,
        applied: report::origin_ref(&pair.applied.origin),
        live: pair.live.as_ref().map(|l| report::origin_ref(&l.origin)),
        operation: if pair.live.is_some() {
            "update"
        } else {
            "create"
        }
        .to_owned(),
        changed: item.changed,
        refusal,
        error: None,
        diff: item
            .texts(false)
            .map(|(old, new)| textdiff::unified("live", &old, "merged", &new, 3)),
        result: item.shown_after().map(render::to_json),
        set_by_server: item.outcome.server_set.clone(),
        managers: item
            .owners
            .iter()
            .map(|c| smd::report::ManagerChange {
                manager: report::manager(&c.id),
                gained: paths(&c.gained),
                lost: paths(&c.lost),
                new: c.arrives,
                gone: c.leaves,
            })
            .collect(),
        removed: item
            .dropped
            .iter()
            .filter(|d| d.owners.is_empty())
            .map(|d| d.path.to_string())
            .collect(),
        removed_co_owned: item
            .dropped
            .iter()
            .filter(|d| d.owners.is_empty() && !d.co_owners.is_empty())
            .map(|d| smd::report::Kept {
                path: d.path.to_string(),
                owners: d.co_owners.iter().map(report::manager).collect(),
            })
            .collect(),
        ignored: item.ignored.clone(),
        kept: item
            .dropped
            .iter()
            .filter(|d| !d.owners.is_empty())
            .map(|d| smd::report::Kept {
                path: d.path.to_string(),
                owners: d.owners.iter().map(report::manager).collect(),
            })
            .collect(),
        conflicts: item
            .conflicts
            .iter()
            .map(|c| smd::report::Conflict {
                path: c.path.to_string(),
                owner: c.owner.as_ref().map(report::manager),
                live: c.live.as_ref().map(render::to_json),
                applied: c.applied.as_ref().map(render::to_json),
            })
            .collect(),
    }
}
