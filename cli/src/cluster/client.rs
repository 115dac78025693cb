//! The client: kube-rs over the kubeconfig's context, sending only `GET`s (built with the
//! `cluster` feature, the default).

use std::collections::BTreeMap;
use std::fmt;
use std::path::PathBuf;
use std::sync::Arc;

use kube::config::{KubeConfigOptions, Kubeconfig};

use super::super::Failure;
use super::super::objects::Object;
use super::requests::{
    Done, GroupVersion, Read, Reader, api_root, discovery, error_chain, escape_segment,
    group_version, list, read_one, segment,
};
use super::{ClusterArgs, Wanted};

/// Reads in flight at once, at most, whatever `-j` says: a cluster's API server is shared.
const MAX_IN_FLIGHT: usize = 16;

/// From this many manifests of one kind in one namespace, the collection is listed (in pages,
/// until all are found) rather than each object read: fewer round trips for a directory of
/// many objects.
const LIST_AT_LEAST: usize = 8;

/// The words when no kubeconfig can be used: what to pass instead.
fn unusable(why: &str) -> Failure {
    Failure::new(format!(
        "-f without --live reads the live objects from the cluster of the kubeconfig's \
         context, and there is no usable kubeconfig ({}): pass the live objects with \
         --live FILE|DIR (`kubectl get -o yaml --show-managed-fields`), or --live none if \
         every manifest is a create",
        super::super::terminal::escape(why)
    ))
}

/// A connection to the kubeconfig context's cluster, for reads.
pub(crate) struct ClusterLive {
    runtime: tokio::runtime::Runtime,
    client: Reader,
    context: String,
    namespace: String,
    discovered: std::sync::Mutex<BTreeMap<String, GroupVersion>>,
}

impl fmt::Debug for ClusterLive {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ClusterLive")
            .field("context", &self.context)
            .field("namespace", &self.namespace)
            .finish_non_exhaustive()
    }
}

impl ClusterLive {
    /// Loads the kubeconfig as kubectl does and prepares a client for its context; `namespace`
    /// is `-n` (absent: the context's namespace, else `default`). Nothing is sent yet.
    pub(crate) fn connect(
        args: &ClusterArgs,
        namespace: Option<&str>,
    ) -> Result<ClusterLive, Failure> {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .map_err(|e| Failure::new(format!("cannot start the cluster client: {e}")))?;
        let kubeconfig = load(args)?;
        let context = args
            .context
            .clone()
            .or_else(|| kubeconfig.current_context.clone())
            .unwrap_or_default();
        let options = KubeConfigOptions {
            context: args.context.clone(),
            ..KubeConfigOptions::default()
        };
        let (config, client) = runtime.block_on(async {
            let config = Kubeconfig::clone(&kubeconfig);
            let config = kube::Config::from_custom_kubeconfig(config, &options)
                .await
                .map_err(|e| unusable(&error_chain(&e)))?;
            // The client's buffer task needs the runtime: made inside it.
            let client =
                kube::Client::try_from(config.clone()).map_err(|e| unusable(&error_chain(&e)))?;
            Ok::<_, Failure>((config, client))
        })?;
        let namespace = namespace
            .map(str::to_owned)
            .unwrap_or(config.default_namespace);
        Ok(ClusterLive {
            runtime,
            client: Reader {
                client,
                limit: super::super::input::document_limit(),
            },
            context,
            namespace,
            discovered: std::sync::Mutex::new(BTreeMap::new()),
        })
    }

    /// The namespace of manifests that name none: `-n`, else the context's.
    pub(crate) fn namespace(&self) -> &str {
        &self.namespace
    }

    /// Whether the cluster serves `kind` of `group`/`version` as a namespaced resource (none:
    /// not known, before [`ClusterLive::fetch`] or not served).
    pub(crate) fn namespaced(&self, group: &str, version: &str, kind: &str) -> Option<bool> {
        let discovered = self.discovered.lock().ok()?;
        match discovered.get(&group_version(group, version))? {
            Ok(kinds) => kinds.get(kind).map(|s| s.namespaced),
            Err(_) => None,
        }
    }

    /// Reads every wanted object, at most `jobs` (bounded by [`MAX_IN_FLIGHT`]) at a time:
    /// one answer per wanted identity, in order. `Ok(None)`: the cluster has no such object.
    pub(crate) fn fetch(
        &self,
        wanted: &[Wanted],
        jobs: usize,
    ) -> Vec<Result<Option<Object>, String>> {
        let limit = jobs.clamp(1, MAX_IN_FLIGHT);
        self.discover(wanted, limit);
        let discovered = match self.discovered.lock() {
            Ok(d) => d.clone(),
            Err(_) => BTreeMap::new(),
        };
        let mut answers: Vec<Result<Option<Object>, String>> = Vec::with_capacity(wanted.len());
        let mut reads: BTreeMap<String, Vec<Read>> = BTreeMap::new();
        for (index, w) in wanted.iter().enumerate() {
            answers.push(Ok(None));
            let served = match discovered.get(&group_version(&w.group, &w.version)) {
                Some(Ok(kinds)) => kinds.get(&w.kind),
                Some(Err(message)) => {
                    answers[index] = Err(message.clone());
                    continue;
                }
                None => None,
            };
            let Some(served) = served else {
                answers[index] = Err(format!(
                    "the cluster serves no kind {:?} in version {:?} (no matches for kind)",
                    w.kind,
                    group_version(&w.group, &w.version)
                ));
                continue;
            };
            let namespace = match (served.namespaced, w.namespace.as_str()) {
                (false, _) => "",
                (true, "") => self.namespace.as_str(),
                (true, ns) => ns,
            };
            let ns = if served.namespaced {
                segment(namespace)
            } else {
                Some(String::new())
            };
            let (Some(name), Some(ns)) = (segment(&w.name), ns) else {
                answers[index] = Err(format!(
                    "{:?} in {:?} cannot name an object: an empty name, `.` or `..`",
                    w.name, namespace
                ));
                continue;
            };
            let mut collection = api_root(&w.group, &w.version);
            if served.namespaced {
                collection.push_str(&format!("/namespaces/{ns}"));
            }
            collection.push('/');
            collection.push_str(&escape_segment(&served.plural));
            let origin = format!(
                "cluster {:?}: {} {} {}",
                self.context,
                group_version(&w.group, &w.version),
                w.kind,
                if namespace.is_empty() {
                    w.name.clone()
                } else {
                    format!("{namespace}/{}", w.name)
                }
            );
            // Until a read answers: a read that never does must not pass for a create.
            answers[index] = Err(format!("{origin}: the read did not finish"));
            reads.entry(collection.clone()).or_default().push(Read {
                index,
                collection,
                segment: name,
                origin,
                wanted: w.clone(),
            });
        }
        let client = self.client.clone();
        let done = self.runtime.block_on(async move {
            let gate = Arc::new(tokio::sync::Semaphore::new(limit));
            let mut set = tokio::task::JoinSet::new();
            let get_each = |set: &mut tokio::task::JoinSet<Done>, group: Vec<Read>| {
                for read in group {
                    let (client, gate) = (client.clone(), Arc::clone(&gate));
                    set.spawn(async move {
                        let _permit = gate.acquire_owned().await;
                        let path = format!("{}/{}", read.collection, read.segment);
                        let answer = read_one(&client, &path, &read).await;
                        Done {
                            answers: vec![(read.index, answer)],
                            retry: Vec::new(),
                        }
                    });
                }
            };
            for group in reads.into_values() {
                if group.len() < LIST_AT_LEAST {
                    get_each(&mut set, group);
                    continue;
                }
                let (client, gate) = (client.clone(), Arc::clone(&gate));
                set.spawn(async move {
                    let _permit = gate.acquire_owned().await;
                    list(&client, group).await
                });
            }
            let mut done = Vec::new();
            while let Some(joined) = set.join_next().await {
                if let Ok(finished) = joined {
                    done.extend(finished.answers);
                    // A list refused (a role with get and no list) or broken off: one by one.
                    get_each(&mut set, finished.retry);
                }
            }
            done
        });
        for (index, answer) in done {
            if let Some(slot) = answers.get_mut(index) {
                *slot = answer;
            }
        }
        answers
    }

    /// Reads the discovery documents of the group-versions `wanted` names, once each.
    fn discover(&self, wanted: &[Wanted], limit: usize) {
        let mut todo: Vec<(String, String)> = Vec::new();
        {
            let Ok(discovered) = self.discovered.lock() else {
                return;
            };
            for w in wanted {
                let gv = group_version(&w.group, &w.version);
                if !discovered.contains_key(&gv) && !todo.iter().any(|(g, _)| *g == gv) {
                    todo.push((gv, api_root(&w.group, &w.version)));
                }
            }
        }
        let client = self.client.clone();
        let found = self.runtime.block_on(async move {
            let gate = Arc::new(tokio::sync::Semaphore::new(limit));
            let mut set = tokio::task::JoinSet::new();
            for (gv, path) in todo {
                let (client, gate) = (client.clone(), Arc::clone(&gate));
                set.spawn(async move {
                    let _permit = gate.acquire_owned().await;
                    let kinds = discovery(&client, &path).await;
                    (gv, kinds)
                });
            }
            let mut found = Vec::new();
            while let Some(joined) = set.join_next().await {
                if let Ok(one) = joined {
                    found.push(one);
                }
            }
            found
        });
        if let Ok(mut discovered) = self.discovered.lock() {
            discovered.extend(found);
        }
    }
}

/// The kubeconfig as kubectl's loading rules find it: `--kubeconfig`'s file; else KUBECONFIG's
/// files merged in order (the first to set a value wins), empty entries and missing files
/// skipped as kubectl skips them; else `~/.kube/config`.
fn load(args: &ClusterArgs) -> Result<Kubeconfig, Failure> {
    let failed = |e: kube::config::KubeconfigError| unusable(&error_chain(&e));
    if let Some(path) = &args.kubeconfig {
        return Kubeconfig::read_from(path).map_err(failed);
    }
    let listed: Vec<PathBuf> = std::env::var_os("KUBECONFIG")
        .map(|value| std::env::split_paths(&value).collect())
        .unwrap_or_default();
    let listed: Vec<PathBuf> = listed
        .into_iter()
        .filter(|p| !p.as_os_str().is_empty())
        .collect();
    if listed.is_empty() {
        return Kubeconfig::read().map_err(failed);
    }
    let present: Vec<&PathBuf> = listed.iter().filter(|p| p.exists()).collect();
    if present.is_empty() {
        return Err(unusable("none of the files KUBECONFIG names exists"));
    }
    present
        .into_iter()
        .try_fold(Kubeconfig::default(), |merged, path| {
            Kubeconfig::read_from(path).and_then(|next| merged.merge(next))
        })
        .map_err(failed)
}
