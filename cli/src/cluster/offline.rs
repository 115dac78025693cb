//! Without the `cluster` feature (the fuzz targets' build: no kube-rs, tokio or TLS to
//! compile): there is no client, and `-f` without `--live` says so.

use super::super::Failure;
use super::super::objects::Object;
use super::{ClusterArgs, Wanted};

/// Never made: this build cannot connect.
#[derive(Debug)]
pub(crate) enum ClusterLive {}

impl ClusterLive {
    /// Refuses, saying what to pass instead.
    pub(crate) fn connect(
        _args: &ClusterArgs,
        _namespace: Option<&str>,
    ) -> Result<ClusterLive, Failure> {
        Err(Failure::new(
            "-f without --live reads the live objects from a cluster, and this smd was built \
             without the `cluster` feature: pass the live objects with --live FILE|DIR \
             (`kubectl get -o yaml --show-managed-fields`), or --live none if every manifest \
             is a create"
                .to_string(),
        ))
    }

    pub(crate) fn namespace(&self) -> &str {
        match *self {}
    }

    pub(crate) fn namespaced(&self, _group: &str, _version: &str, _kind: &str) -> Option<bool> {
        match *self {}
    }

    pub(crate) fn fetch(
        &self,
        _wanted: &[Wanted],
        _jobs: usize,
    ) -> Vec<Result<Option<Object>, String>> {
        match *self {}
    }
}
