//! `greeter`: a small kube-rs controller, and the example of testing one against smd's
//! in-memory API server (`tests/`), where field ownership, conflicts and watches behave as on
//! a real cluster.
//!
//! The controller watches ConfigMaps labelled [`SELECTOR`] and applies, as field manager
//! [`MANAGER`], one key to each: `data.greeting: "hello, <name>"`. It applies without
//! forcing: when another manager owns the key with another value, the server refuses with
//! a conflict, which [`reconcile`] reports instead of taking the field over.

use std::sync::Arc;
use std::time::Duration;

use futures::StreamExt;
use k8s_openapi::api::core::v1::ConfigMap;
use kube::api::{Api, Patch, PatchParams};
use kube::runtime::controller::{Action, Controller};
use kube::runtime::watcher;

/// The field manager the controller applies as.
pub const MANAGER: &str = "greeter";

/// The label selector of the ConfigMaps it manages.
pub const SELECTOR: &str = "greeter.example.com/enabled=true";

/// Why a reconciliation failed.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The API server refused or could not be reached.
    #[error("{0}")]
    Kube(#[from] kube::Error),
    /// The object has no name.
    #[error("a ConfigMap without a name")]
    Unnamed,
}

/// The key the controller owns and its value for a ConfigMap named `name`.
pub fn greeting(name: &str) -> String {
    format!("hello, {name}")
}

/// Applies the greeting to the ConfigMap `name` (forcing conflicts when `force`), and
/// returns the object the server stored.
pub async fn apply_greeting(
    api: &Api<ConfigMap>,
    name: &str,
    force: bool,
) -> Result<ConfigMap, kube::Error> {
    let applied = serde_json::json!({
        "apiVersion": "v1",
        "kind": "ConfigMap",
        "metadata": {"name": name},
        "data": {"greeting": greeting(name)},
    });
    let mut params = PatchParams::apply(MANAGER);
    if force {
        params = params.force();
    }
    api.patch(name, &params, &Patch::Apply(&applied)).await
}

/// What the controller works with.
#[derive(Debug, Clone)]
pub struct Context {
    /// The ConfigMaps of the namespace it runs in.
    pub api: Api<ConfigMap>,
}

/// Makes one ConfigMap hold its greeting.
pub async fn reconcile(object: Arc<ConfigMap>, ctx: Arc<Context>) -> Result<Action, Error> {
    let name = object.metadata.name.as_deref().ok_or(Error::Unnamed)?;
    let current = object.data.as_ref().and_then(|d| d.get("greeting"));
    if current != Some(&greeting(name)) {
        apply_greeting(&ctx.api, name, false).await?;
    }
    Ok(Action::await_change())
}

/// After a failure (a conflict), try again later.
pub fn error_policy(_: Arc<ConfigMap>, _: &Error, _: Arc<Context>) -> Action {
    Action::requeue(Duration::from_secs(60))
}

/// Runs the controller over `api`'s ConfigMaps until the stream of reconciliations ends.
pub async fn run(api: Api<ConfigMap>) {
    let context = Arc::new(Context { api: api.clone() });
    Controller::new(api, watcher::Config::default().labels(SELECTOR))
        .run(reconcile, error_policy, context)
        .for_each(|_| futures::future::ready(()))
        .await;
}
