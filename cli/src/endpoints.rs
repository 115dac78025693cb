//! The API server the commands talk to, offline: smd's in-memory API server
//! (`smd::apiserver`) typing objects with the embedded Kubernetes 1.37 schema, extended by
//! `--crd` files (whose resources it then serves) or replaced by `--schema`.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::Arc;

use clap::Args;
use smd::apiserver::{ApiServer, Resource};
use smd::fieldpath::Value;
use smd::managedfields::{Endpoint, TypeResolver};
use smd_schema::gvk::GroupVersionKind;

use super::Failure;
use super::input;
use super::schema::load;
use super::schema::source::{Part, convert_crds, is_crd, read_tree, union_failure, unpack_lists};
use super::sources::expand;
use smd_schema::crd::Converted;

/// Where types come from.
#[derive(Debug, Clone, Default, Args)]
pub(crate) struct TypeArgs {
    /// CustomResourceDefinitions whose kinds extend the schema: a file (YAML stream, JSON,
    /// or a `List` as `kubectl get crd -o yaml` prints) or a directory (its .yaml, .yml and
    /// .json files, subdirectories included); may be repeated.
    #[arg(long = "crd", value_name = "FILE|DIR")]
    pub(crate) crds: Vec<PathBuf>,
    /// Replace the embedded schema: an OpenAPI v2 or v3 document as a cluster serves it
    /// (`kubectl get --raw /openapi/v3/apis/apps/v1`), or what `smd schema convert` writes;
    /// repeat it for each group-version's document (they are merged).
    #[arg(long, value_name = "FILE")]
    pub(crate) schema: Vec<PathBuf>,
}

/// The types and CRDs in force, and the API server serving them.
pub(crate) struct Server {
    types: TypeResolver,
    crds: Vec<Value>,
    described: String,
    api: ApiServer,
}

impl Server {
    pub(crate) fn load(args: &TypeArgs) -> Result<Server, Failure> {
        let (mut types, described) = match args.schema.as_slice() {
            [] => (
                TypeResolver::kubernetes(),
                "the embedded Kubernetes 1.37 schema".to_owned(),
            ),
            paths => {
                let loaded = load::load(paths)?;
                let names: Vec<String> = paths
                    .iter()
                    .map(|p| match p.as_os_str() == "-" {
                        true => "<stdin>".to_owned(),
                        false => p.display().to_string(),
                    })
                    .collect();
                (
                    TypeResolver::new(Arc::new(loaded.schema), loaded.gvk.unwrap_or_default()),
                    format!("the schema of {}", names.join(", ")),
                )
            }
        };
        let mut crds = Vec::new();
        if !args.crds.is_empty() {
            let mut parts: Vec<Part> = Vec::new();
            for path in &expand(&args.crds, true, "--crd")? {
                let input = input::read(Some(path))?;
                let documents = read_tree(&input.bytes)
                    .map(unpack_lists)
                    .map_err(|e| Failure::new(format!("{}: {e}", input.name)))?;
                if let Some(at) = documents.iter().position(|d| !is_crd(d)) {
                    return Err(Failure::new(format!(
                        "{}: document {} is not a CustomResourceDefinition",
                        input.name,
                        at + 1
                    )));
                }
                parts.extend(convert_crds(&input.name, &documents)?);
                crds.extend(documents);
            }
            let origins: Vec<String> = std::iter::once(described.clone())
                .chain(parts.iter().map(|p| p.origin.clone()))
                .collect();
            let converted = parts.into_iter().map(|p| Converted {
                name: p.origin,
                schema: p.schema,
                index: p.gvk,
            });
            types = types
                .with_crds(converted)
                .map_err(|e| union_failure(&origins, &e))?;
        }
        let mut api = ApiServer::with_types(types.clone());
        for crd in &crds {
            // The CRD converted above; its resources are served as the server serves them.
            api.add_crd(crd).map_err(|e| Failure::new(e.to_string()))?;
        }
        Ok(Server {
            types,
            crds,
            described,
            api,
        })
    }

    /// The API server, no object stored.
    pub(crate) fn api(&self) -> &ApiServer {
        &self.api
    }

    pub(crate) fn types(&self) -> &TypeResolver {
        &self.types
    }

    /// The resource serving `gvk`: a custom resource when a `--crd` defines the kind, else a
    /// built-in resource, else (a kind only `--schema` types) one served like a built-in
    /// kind's, its plural guessed as kubectl guesses it and `namespaced` as the object says.
    /// An unknown kind is an error that says which kinds of its group are known and how to
    /// add one.
    pub(crate) fn resource(
        &self,
        gvk: &GroupVersionKind,
        namespaced: bool,
    ) -> Result<Resource, String> {
        if self.types.type_ref(gvk).is_none() {
            return Err(self.unknown(gvk));
        }
        if let Some(r) = self.api.resource_of_kind(gvk) {
            return Ok(r.clone());
        }
        for crd in &self.crds {
            let text = |path: &[&str]| {
                let mut at = crd;
                for key in path {
                    match at.as_map().and_then(|m| m.get(key)) {
                        Some(v) => at = v,
                        None => return "",
                    }
                }
                at.as_str().unwrap_or_default()
            };
            if text(&["spec", "group"]) == gvk.group && text(&["spec", "names", "kind"]) == gvk.kind
            {
                return Err(format!(
                    "CRD {} does not serve version {}",
                    text(&["metadata", "name"]),
                    gvk.version
                ));
            }
        }
        Ok(Resource {
            group: gvk.group.clone(),
            version: gvk.version.clone(),
            plural: guess_plural(&gvk.kind),
            kind: gvk.kind.clone(),
            namespaced,
            verbs: ["create", "delete", "get", "patch", "update"]
                .iter()
                .map(|v| (*v).to_owned())
                .collect(),
            status: false,
            scale: false,
            custom: false,
        })
    }

    fn unknown(&self, gvk: &GroupVersionKind) -> String {
        let same_group: Vec<String> = self
            .types
            .kinds()
            .into_iter()
            .filter(|g| g.group == gvk.group)
            .map(|g| {
                if g.group.is_empty() {
                    format!("{}/{}", g.version, g.kind)
                } else {
                    format!("{}/{}/{}", g.group, g.version, g.kind)
                }
            })
            .collect();
        let api_version = if gvk.group.is_empty() {
            gvk.version.clone()
        } else {
            format!("{}/{}", gvk.group, gvk.version)
        };
        let mut message = format!(
            "no type for kind {} in {api_version}: {} does not define it",
            gvk.kind, self.described
        );
        if same_group.is_empty() {
            message.push_str(&format!(" (nor any kind of group {:?})", gvk.group));
        } else {
            const SHOWN: usize = 12;
            message.push_str(&format!(
                "; group {:?} has {}{}",
                gvk.group,
                same_group
                    .iter()
                    .take(SHOWN)
                    .cloned()
                    .collect::<Vec<_>>()
                    .join(", "),
                if same_group.len() > SHOWN {
                    ", …"
                } else {
                    ""
                }
            ));
        }
        message.push_str(
            ". For a custom resource pass its CustomResourceDefinition with --crd FILE \
             (kubectl get crd NAME -o yaml), or the cluster's OpenAPI with --schema FILE",
        );
        message
    }
}

/// kubectl's guess of a kind's plural (`UnsafeGuessKindToResource`): lower case, `s` or
/// `es` or `ies` added.
fn guess_plural(kind: &str) -> String {
    let lower = kind.to_lowercase();
    if lower.ends_with('s') {
        format!("{lower}es")
    } else if let Some(stem) = lower.strip_suffix('y') {
        format!("{stem}ies")
    } else {
        format!("{lower}s")
    }
}

/// The API server prepared for a run: the resources of its kinds served, their endpoints
/// built once and shared by the documents (each sent to a copy holding its live object).
pub(crate) struct Prepared<'a> {
    server: &'a Server,
    api: ApiServer,
    resources: BTreeMap<GroupVersionKind, Result<Resource, String>>,
    /// With `--field-manager-only`: each resource's endpoint as the field-manager layer
    /// serves it alone, built once.
    field_managers: Option<BTreeMap<GroupVersionKind, Endpoint>>,
}

impl<'a> Prepared<'a> {
    /// `field_manager_only`: the run answers with the field manager's result alone.
    pub(crate) fn new(server: &'a Server, field_manager_only: bool) -> Prepared<'a> {
        Prepared {
            server,
            api: server.api().clone(),
            resources: BTreeMap::new(),
            field_managers: field_manager_only.then(BTreeMap::new),
        }
    }

    /// Serves `gvk` (namespaced as `namespaced` says, if no discovery or CRD says) unless it
    /// is served.
    pub(crate) fn prepare(&mut self, gvk: &GroupVersionKind, namespaced: bool) {
        if self.resources.contains_key(gvk) {
            return;
        }
        let resource = self.server.resource(gvk, namespaced);
        if let Ok(r) = &resource {
            if self.api.resource(&r.group, &r.version, &r.plural).is_none() {
                self.api.add_resource(r.clone());
            }
        }
        self.resources.insert(gvk.clone(), resource);
    }

    /// Builds every endpoint once, before the copies share them.
    pub(crate) fn build(&mut self) {
        let resources: Vec<Resource> = self
            .resources
            .values()
            .filter_map(|r| r.as_ref().ok().cloned())
            .collect();
        for r in &resources {
            let _ = self.api.endpoint(r);
        }
        if let Some(built) = &mut self.field_managers {
            for (gvk, resource) in &self.resources {
                let endpoint = resource
                    .as_ref()
                    .ok()
                    .and_then(|r| self.api.field_manager_endpoint(r));
                if let Some(endpoint) = endpoint {
                    built.insert(gvk.clone(), endpoint);
                }
            }
        }
    }

    /// The field-manager layer's endpoint of `gvk` (`--field-manager-only`).
    pub(crate) fn field_manager(&self, gvk: &GroupVersionKind) -> Result<&Endpoint, String> {
        if let Some(endpoint) = self.field_managers.as_ref().and_then(|m| m.get(gvk)) {
            return Ok(endpoint);
        }
        Err(match self.resources.get(gvk) {
            Some(Err(message)) => message.clone(),
            Some(Ok(_)) => {
                format!("{gvk}: its CustomResourceDefinition does not serve this version")
            }
            None => self.server.unknown(gvk),
        })
    }

    /// The resource of `gvk` and a copy of the server to send its request to.
    pub(crate) fn get(&self, gvk: &GroupVersionKind) -> Result<(&Resource, ApiServer), String> {
        match self.resources.get(gvk) {
            Some(Ok(r)) => Ok((r, self.api.clone())),
            Some(Err(message)) => Err(message.clone()),
            None => Err(self.server.unknown(gvk)),
        }
    }
}
