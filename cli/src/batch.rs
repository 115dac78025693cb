//! A run over many manifests, answered one by one as they stream in: each document read,
//! given its namespace, paired with its live object by identity, sent as an apply request, and
//! its answer rendered and written, in input order at any `-j`. A document that is bad input
//! or refused is that document's answer; the others are still answered.
//!
//! Memory stays bounded: manifests are read in small batches and answered in windows of a few
//! dozen, live objects wait in a [`LiveIndex`] on disk, and only identities are remembered (to
//! refuse a manifest given twice).

use std::collections::HashMap;

use smd::fieldpath::Value;

use super::Failure;
use super::endpoints::{Prepared, Server, TypeArgs};
use super::live::{Claimed, LiveIndex};
use super::namespaces::{self, Namespacing};
use super::objects::{self, Identity, Object, Origin, Validation};
use super::plan::{self, Inputs, Outcome, Pair, Request};

/// A document that gives no apply request (or one refused before it is sent).
#[derive(Debug)]
pub(crate) struct Bad {
    /// Where it is; `None` when a whole input failed before its documents.
    pub(crate) origin: Option<Origin>,
    /// The object, when the document read as one.
    pub(crate) object: Option<Object>,
    /// The message, naming the place.
    pub(crate) message: String,
    /// The API server refuses it with this status code and reason (a key set twice under
    /// `--validate=strict`: 400 BadRequest); `None`: bad input.
    pub(crate) status: Option<(u16, &'static str)>,
}

/// One manifest's answer.
#[derive(Debug)]
pub(crate) enum Answer {
    /// Sent: what the API server answers.
    Sent(Box<Outcome>),
    /// Not sent.
    Bad(Bad),
}

/// What is left when every manifest is answered.
#[derive(Debug)]
pub(crate) struct Finished {
    /// The live objects of a positional LIVE file that no manifest names (with `--live`,
    /// none: a dump is a pool).
    pub(crate) unmatched: Vec<Unmatched>,
}

/// A live object no manifest names.
#[derive(Debug)]
pub(crate) struct Unmatched {
    pub(crate) identity: Identity,
    pub(crate) api_version: String,
    pub(crate) origin: Origin,
}

/// A manifest waiting in a window.
enum Job {
    Send {
        applied: Object,
        identity: Identity,
        live: Option<Claimed>,
    },
    Bad(Bad),
    /// A manifest whose live object was read from the cluster (none: a create).
    Read {
        applied: Object,
        identity: Identity,
        live: Option<Object>,
    },
}

/// How many manifests are answered at once per job: enough to keep the threads busy, few
/// enough that output starts early and memory stays small.
const WINDOW_PER_JOB: usize = 8;

/// What a run gives its writer, in input order.
#[derive(Debug)]
pub(crate) enum Emitted<R> {
    /// A warning, before the answer it concerns.
    Warning(String),
    /// An answer, as `render` made it.
    Answer(R),
}

/// A warning written on `err`; an answer passed back for its writer.
pub(crate) fn answer_of<R>(
    emitted: Emitted<R>,
    err: &mut dyn std::io::Write,
) -> Result<Option<R>, Failure> {
    match emitted {
        Emitted::Warning(warning) => {
            writeln!(err, "smd: warning: {warning}").map_err(write_failure)?;
            Ok(None)
        }
        Emitted::Answer(answer) => Ok(Some(answer)),
    }
}

/// An answer's error (bad input, a refusal) on `err`, after what `out` holds so far, so that a
/// terminal shows them in input order.
pub(crate) fn say_error(
    out: &mut dyn std::io::Write,
    err: &mut dyn std::io::Write,
    error: &str,
) -> Result<(), Failure> {
    out.flush().map_err(write_failure)?;
    writeln!(err, "smd: {error}").map_err(write_failure)
}

/// A write that failed, as the run's failure; the reader going away is [`BROKEN_PIPE`].
pub(crate) fn write_failure(e: std::io::Error) -> Failure {
    if e.kind() == std::io::ErrorKind::BrokenPipe {
        Failure::new(BROKEN_PIPE)
    } else {
        Failure::new(format!("writing output: {e}"))
    }
}

/// What a write that failed because the reader went away says (turned back into a quiet stop).
pub(crate) const BROKEN_PIPE: &str = "\u{0}broken pipe";

/// Answers every manifest of `inputs`: `render` makes each answer's output (on the worker
/// threads), `emit` writes it and the warnings (in input order).
pub(crate) fn run<R: Send>(
    inputs: &Inputs,
    types: &TypeArgs,
    request: Request<'_>,
    render: &(dyn Fn(Answer) -> R + Sync),
    emit: &mut dyn FnMut(Emitted<R>) -> Result<(), Failure>,
) -> Result<Finished, Failure> {
    let server = Server::load(types)?;
    // Cluster hook (1/3): connect first, so that an unusable kubeconfig stops the run at once;
    // without -n, the context's namespace is the manifests' (not enforced, as kubectl).
    let cluster = inputs
        .cluster
        .as_ref()
        .map(|args| super::cluster::ClusterLive::connect(args, inputs.namespace.as_deref()))
        .transpose()?;
    let namespacing = match &cluster {
        Some(cluster) if inputs.namespace.is_none() => Namespacing::defaulting(cluster.namespace()),
        _ => Namespacing::new(inputs.namespace.as_deref()),
    };
    let scale = request.subresource == "scale";
    let live = LiveIndex::read(&inputs.live, request.jobs, &server, &namespacing, scale)?;
    let mut batch = Batch {
        server: &server,
        request,
        namespacing,
        live,
        cluster: cluster.as_ref(),
        prepared: Prepared::new(&server, request.field_manager_only),
        seen: HashMap::new(),
        window: Vec::new(),
        documents: 0,
    };
    let window = request.jobs.max(1) * WINDOW_PER_JOB;
    for path in &inputs.applied {
        let mut each = |document: Result<objects::Document, Failure>| {
            batch.documents += 1;
            batch.queue(document);
            if batch.window.len() >= window {
                batch.answer(render, emit)?;
            }
            Ok(())
        };
        match objects::each_document(path, request.jobs, &mut each) {
            Ok(()) => {}
            // An input that does not open is its own answer.
            Err(Failure(message)) => {
                batch.documents += 1;
                batch.window.push((
                    Job::Bad(Bad {
                        origin: None,
                        object: None,
                        message,
                        status: None,
                    }),
                    Vec::new(),
                ));
            }
        }
    }
    batch.answer(render, emit)?;
    if batch.documents == 0 {
        let names: Vec<String> = inputs
            .applied
            .iter()
            .map(|p| match p.to_str() {
                Some("-") => "<stdin>".to_owned(),
                _ => super::terminal::escape(&p.display().to_string()).into_owned(),
            })
            .collect();
        return Err(Failure::new(format!(
            "{}: no object to apply",
            names.join(", ")
        )));
    }
    let unmatched = if inputs.report_unmatched {
        batch
            .live
            .unclaimed()
            .map(|e| Unmatched {
                identity: e.identity.clone(),
                api_version: e.api_version.clone(),
                origin: e.origin.clone(),
            })
            .collect()
    } else {
        Vec::new()
    };
    Ok(Finished { unmatched })
}

struct Batch<'s> {
    server: &'s Server,
    request: Request<'s>,
    namespacing: Namespacing,
    live: LiveIndex,
    /// Where the live objects come from instead of `live`, when -f has no --live.
    cluster: Option<&'s super::cluster::ClusterLive>,
    prepared: Prepared<'s>,
    /// Each manifest's identity, and where it was.
    seen: HashMap<Identity, String>,
    /// The manifests to answer next, with their warnings.
    window: Vec<(Job, Vec<String>)>,
    /// Documents (or inputs that failed whole) met.
    documents: usize,
}

impl Batch<'_> {
    /// Pairs the objects of a document with their live objects, or makes it a bad answer.
    fn queue(&mut self, document: Result<objects::Document, Failure>) {
        let document = match document {
            Ok(d) => d,
            Err(Failure(message)) => {
                self.bad(None, None, message, None, Vec::new());
                return;
            }
        };
        let mut warnings = Vec::new();
        if !document.duplicates.is_empty() {
            let lines = objects::duplicate_lines(&document.duplicates);
            match self.request.validation {
                Validation::Strict => {
                    let origin = document.origin.clone();
                    let message = format!(
                        "{origin}: the API server would refuse this apply (400 BadRequest): error \
                         strict decoding patch: error converting YAML to JSON: yaml: unmarshal \
                         errors:\n  {}",
                        lines.join("\n  ")
                    );
                    // The server refuses each object of the document alike.
                    for object in objects::objects_in(document) {
                        let (origin, object) = match object {
                            Ok(o) => (o.origin.clone(), Some(o)),
                            Err(_) => (origin.clone(), None),
                        };
                        self.bad(
                            Some(origin),
                            object,
                            message.clone(),
                            Some((400, "BadRequest")),
                            Vec::new(),
                        );
                    }
                    return;
                }
                Validation::Warn => warnings.extend(
                    lines
                        .iter()
                        .map(|line| format!("{}: Warning: {line}", document.origin)),
                ),
                Validation::Ignore => {}
            }
        }
        let origin = document.origin.clone();
        for object in objects::objects_in(document) {
            match object {
                Ok(object) => self.pair(object, std::mem::take(&mut warnings)),
                Err(Failure(message)) => {
                    self.bad(Some(origin.clone()), None, message, None, Vec::new())
                }
            }
        }
    }

    fn bad(
        &mut self,
        origin: Option<Origin>,
        object: Option<Object>,
        message: String,
        status: Option<(u16, &'static str)>,
        warnings: Vec<String>,
    ) {
        let bad = Bad {
            origin,
            object,
            message,
            status,
        };
        self.window.push((Job::Bad(bad), warnings));
    }

    fn pair(&mut self, mut applied: Object, warnings: Vec<String>) {
        if let Err(Failure(message)) = self
            .namespacing
            .manifests(self.server, std::slice::from_mut(&mut applied))
        {
            let origin = applied.origin.clone();
            return self.bad(Some(origin), Some(applied), message, None, warnings);
        }
        if let Some(message) =
            super::hints::scale_without_subresource(&applied, self.request.subresource)
        {
            let origin = applied.origin.clone();
            return self.bad(Some(origin), Some(applied), message, None, warnings);
        }
        let identity = namespaces::identity(self.server, &applied);
        if let Some(first) = self.seen.get(&identity) {
            let message = format!(
                "{}: {identity} is also applied at {first}: one manifest per object",
                applied.origin
            );
            let origin = applied.origin.clone();
            return self.bad(Some(origin), Some(applied), message, None, warnings);
        }
        self.seen
            .insert(identity.clone(), applied.origin.to_string());
        let mut live = self.live.take(&identity);
        if live.is_none() && self.request.subresource == "scale" && is_scale(&identity) {
            let namespace = self.namespacing.namespace().to_owned();
            match self.live.take_scaled(&identity, &namespace, &applied) {
                Ok(found) => live = found,
                Err(Failure(message)) => {
                    let origin = applied.origin.clone();
                    return self.bad(Some(origin), Some(applied), message, None, warnings);
                }
            }
        }
        // The endpoints this request may reach are built before the window is answered.
        let applied_gvk = applied.gvk();
        let held = live.as_ref().map_or_else(
            || applied_gvk.clone(),
            |l| smd_schema::gvk::GroupVersionKind::from_api_version(&l.api_version, &l.kind),
        );
        let namespaced = !live
            .as_ref()
            .map_or(&identity.namespace, |l| &l.namespace)
            .is_empty();
        self.prepared.prepare(&held, namespaced);
        self.prepared.prepare(&applied_gvk, namespaced);
        self.window.push((
            Job::Send {
                applied,
                identity,
                live,
            },
            warnings,
        ));
    }

    /// Answers the window: in parallel, then written in order.
    fn answer<R: Send>(
        &mut self,
        render: &(dyn Fn(Answer) -> R + Sync),
        emit: &mut dyn FnMut(Emitted<R>) -> Result<(), Failure>,
    ) -> Result<(), Failure> {
        if self.window.is_empty() {
            return Ok(());
        }
        // Cluster hook (2/3): the window's live objects, read from the cluster.
        if let Some(cluster) = self.cluster {
            read_window(cluster, &mut self.window, self.request.jobs);
        }
        self.prepared.build();
        let jobs = std::mem::take(&mut self.window);
        let (live, prepared, request) = (&self.live, &self.prepared, self.request);
        let answered = super::parallel::map(jobs, request.jobs, |(job, mut warnings)| {
            let answer = send(live, prepared, request, job, &mut warnings);
            (render(answer), warnings)
        });
        for (rendered, warnings) in answered {
            for warning in warnings {
                emit(Emitted::Warning(warning))?;
            }
            emit(Emitted::Answer(rendered))?;
        }
        Ok(())
    }
}

/// Cluster hook (3/3): reads the live objects of the window's manifests from the cluster; each
/// becomes a [`Job::Read`] (its live object, or none: a create), or, when its read failed (a
/// 403, ...), a bad answer with the server's words: that manifest's answer, not the run's.
fn read_window(
    cluster: &super::cluster::ClusterLive,
    window: &mut [(Job, Vec<String>)],
    jobs: usize,
) {
    let mut at = Vec::new();
    let mut manifests = Vec::new();
    for (i, (job, _)) in window.iter_mut().enumerate() {
        if let Job::Send { .. } = job {
            let placeholder = Job::Bad(Bad {
                origin: None,
                object: None,
                message: String::new(),
                status: None,
            });
            if let Job::Send {
                applied, identity, ..
            } = std::mem::replace(job, placeholder)
            {
                at.push((i, identity));
                manifests.push(applied);
            }
        }
    }
    let answers = super::cluster::read_live(cluster, &mut manifests, jobs);
    for (((i, identity), applied), answer) in at.into_iter().zip(manifests).zip(answers) {
        window[i].0 = match answer {
            Ok(live) => Job::Read {
                applied,
                identity,
                live,
            },
            Err(message) => Job::Bad(Bad {
                origin: Some(applied.origin.clone()),
                message: format!("{}: {message}", applied.origin),
                object: Some(applied),
                status: None,
            }),
        };
    }
}

fn is_scale(identity: &Identity) -> bool {
    identity.group == "autoscaling" && identity.kind == "Scale"
}

/// The answer to one job: its live object read back, checked and decoded, then the apply sent.
fn send(
    live: &LiveIndex,
    prepared: &Prepared<'_>,
    request: Request<'_>,
    job: Job,
    warnings: &mut Vec<String>,
) -> Answer {
    let (applied, identity, claimed) = match job {
        Job::Bad(bad) => return Answer::Bad(bad),
        Job::Send {
            applied,
            identity,
            live,
        } => (applied, identity, live),
        Job::Read {
            applied,
            identity,
            live,
        } => {
            let live = live.map(|object| checked_live(object, request, warnings));
            let pair = Pair {
                live,
                applied,
                identity,
            };
            return Answer::Sent(Box::new(plan::one(prepared, pair, request)));
        }
    };
    let live = match claimed.map(|c| live.read_back(c)).transpose() {
        Ok(live) => live,
        Err(Failure(message)) => {
            return Answer::Bad(Bad {
                origin: Some(applied.origin.clone()),
                object: Some(applied),
                message,
                status: None,
            });
        }
    };
    let live = live.map(|object| checked_live(object, request, warnings));
    let pair = Pair {
        live,
        applied,
        identity,
    };
    Answer::Sent(Box::new(plan::one(prepared, pair, request)))
}

/// A live object as the API server would hold it, with warnings about its managedFields.
fn checked_live(mut live: Object, request: Request<'_>, warnings: &mut Vec<String>) -> Object {
    let has = live
        .value
        .as_map()
        .and_then(|m| m.get("metadata"))
        .and_then(Value::as_map)
        .is_some_and(|m| m.contains_key("managedFields"));
    if let Err(e) = plan::managers(&live.value) {
        warnings.push(format!(
            "{}: {} has managedFields the API server cannot read ({e}): it reads a malformed \
             list as none, and refuses to apply over an entry it cannot decode",
            live.origin,
            live.identity()
        ));
    }
    if !has {
        warnings.push(format!(
            "{}: {} has no metadata.managedFields, so smd cannot know who owns its fields and \
             the answer may be wrong; export it with `kubectl get -o yaml --show-managed-fields`",
            live.origin,
            live.identity()
        ));
    }
    // A cluster holds a built-in object decoded into its Go type and defaulted, and answers a
    // read with it: a live object from `kubectl get` is unchanged by this, a hand-written one
    // gains what the server would have added, so that neither side of a diff shows defaults
    // as changes. The field manager alone takes the live object as given.
    if !request.field_manager_only {
        let kind = live.gvk();
        if smd::builtin::is_builtin(&kind)
            && let Ok(decoded) = smd::builtin::decode(&kind, &live.value)
        {
            live.value = decoded.object;
        }
    }
    live
}
