//! Live objects read from a cluster, read-only: with `-f` and no `--live`, `diff` and `apply`
//! read each manifest's live object from the cluster of the kubeconfig's context, as
//! `kubectl get -o yaml --show-managed-fields` reads it (managedFields kept).
//!
//! Only `GET`s are sent: discovery (`/api/v1`, `/apis/GROUP/VERSION`) to learn each kind's
//! resource and scope, then one read per manifest, a bounded number at a time. The kubeconfig
//! is loaded as kubectl loads it (`--kubeconfig`, else `KUBECONFIG` with its files merged, else
//! `~/.kube/config`; `--context`), with its tokens, client certificates and exec credential
//! plugins, by kube-rs, the ecosystem's client. A 404 is the manifest's answer (no live object:
//! a create), a 403 or any other error that manifest's failure with the server's message; the
//! run goes on.

use std::path::PathBuf;

use clap::Args;
use smd::fieldpath::Value;

use super::objects::Object;

#[cfg(feature = "cluster")]
mod client;
#[cfg(not(feature = "cluster"))]
mod offline;
#[cfg(feature = "cluster")]
mod requests;

#[cfg(feature = "cluster")]
pub(crate) use client::ClusterLive;
#[cfg(not(feature = "cluster"))]
pub(crate) use offline::ClusterLive;

/// Where the cluster is, as kubectl takes it.
#[derive(Debug, Clone, Default, Args)]
pub(crate) struct ClusterArgs {
    /// With -f and no --live: the kubeconfig to read live objects with (default: KUBECONFIG,
    /// its files merged, else ~/.kube/config). Only get and list requests are sent.
    #[arg(long, value_name = "FILE")]
    pub(crate) kubeconfig: Option<PathBuf>,
    /// With -f and no --live: the kubeconfig context to use (default: its current context).
    #[arg(long, value_name = "NAME")]
    pub(crate) context: Option<String>,
}

impl ClusterArgs {
    /// Whether either flag was given.
    pub(crate) fn given(&self) -> bool {
        self.kubeconfig.is_some() || self.context.is_some()
    }
}

/// One object to read: a manifest's identity, at the manifest's version.
#[derive(Debug, Clone)]
#[cfg_attr(not(feature = "cluster"), allow(dead_code))]
pub(crate) struct Wanted {
    pub(crate) group: String,
    pub(crate) version: String,
    pub(crate) kind: String,
    /// Empty: the command's namespace, when the kind is namespaced.
    pub(crate) namespace: String,
    pub(crate) name: String,
}

/// The live objects of `manifests` from the cluster (the hook `batch.rs` calls on each window):
/// gives each manifest of a kind the cluster serves as namespaced, and that names no namespace,
/// the command's namespace; one answer per manifest, in order: its live object (`None`: there
/// is none, a create), or why it could not be read.
pub(crate) fn read_live(
    cluster: &ClusterLive,
    manifests: &mut [Object],
    jobs: usize,
) -> Vec<Result<Option<Object>, String>> {
    let wanted: Vec<Wanted> = manifests
        .iter()
        .map(|m| {
            let gvk = m.gvk();
            Wanted {
                group: gvk.group,
                version: gvk.version,
                kind: gvk.kind,
                namespace: m.text(&["metadata", "namespace"]).to_owned(),
                name: m.text(&["metadata", "name"]).to_owned(),
            }
        })
        .collect();
    let answers = cluster.fetch(&wanted, jobs);
    for (manifest, w) in manifests.iter_mut().zip(&wanted) {
        if w.namespace.is_empty()
            && cluster.namespaced(&w.group, &w.version, &w.kind) == Some(true)
            && let Some(metadata) = manifest
                .value
                .as_map_mut()
                .and_then(|m| m.get_mut("metadata"))
                .and_then(Value::as_map_mut)
        {
            metadata.insert("namespace", Value::from(cluster.namespace()));
        }
    }
    answers
}
