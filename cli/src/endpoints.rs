//! The API server the commands talk to, offline: the embedded Kubernetes 1.37 schema, extended
//! by `--crd` files or replaced by `--schema`, and one endpoint per kind.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::Arc;

use clap::Args;
use smd::fieldpath::Value;
use smd::managedfields::{Endpoint, TypeResolver};
use smd_schema::gvk::GroupVersionKind;

use super::Failure;
use super::input;
use super::schema::source::{Part, Source, convert_crds, is_crd, read_tree, union_failure};
use smd_schema::crd::Converted;

/// Where types come from.
#[derive(Debug, Clone, Default, Args)]
pub(crate) struct TypeArgs {
    /// A file of CustomResourceDefinitions (YAML stream or JSON) whose kinds extend the
    /// embedded Kubernetes 1.37 schema; may be repeated.
    #[arg(long = "crd", value_name = "FILE")]
    pub(crate) crds: Vec<PathBuf>,
    /// Replace the embedded schema: an OpenAPI v2 or v3 document as a cluster serves it
    /// (`kubectl get --raw /openapi/v3/apis/apps/v1`), or SMD schema YAML.
    #[arg(long, value_name = "FILE")]
    pub(crate) schema: Option<PathBuf>,
}

/// The types and CRDs in force, and the endpoints built so far.
pub(crate) struct Server {
    types: TypeResolver,
    crds: Vec<Value>,
    described: String,
}

impl Server {
    pub(crate) fn load(args: &TypeArgs) -> Result<Server, Failure> {
        let (mut types, described) = match &args.schema {
            None => (
                TypeResolver::kubernetes(),
                "the embedded Kubernetes 1.37 schema".to_owned(),
            ),
            Some(path) => {
                let input = input::read(Some(path))?;
                let (schema, index) = Source::read(&input)?.into_schema(&input.name)?;
                (
                    TypeResolver::new(Arc::new(schema), index),
                    format!("the schema of {}", input.name),
                )
            }
        };
        let mut crds = Vec::new();
        if !args.crds.is_empty() {
            let mut parts: Vec<Part> = Vec::new();
            for path in &args.crds {
                let input = input::read(Some(path))?;
                let documents = read_tree(&input.bytes)
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
        Ok(Server {
            types,
            crds,
            described,
        })
    }

    pub(crate) fn types(&self) -> &TypeResolver {
        &self.types
    }

    /// The endpoint serving `gvk`: a custom resource when a `--crd` defines the kind, else a
    /// built-in kind (with its registry's subresources and reset fields). An unknown kind is
    /// an error that says which kinds of its group are known and how to add one.
    pub(crate) fn endpoint(&self, gvk: &GroupVersionKind) -> Result<Endpoint, String> {
        if self.types.type_ref(gvk).is_none() {
            return Err(self.unknown(gvk));
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
                return Endpoint::custom_resource(crd, &gvk.version, self.types.clone())
                    .ok_or_else(|| {
                        format!(
                            "CRD {} does not serve version {}",
                            text(&["metadata", "name"]),
                            gvk.version
                        )
                    });
            }
        }
        Ok(Endpoint::kubernetes_with_types(
            gvk.clone(),
            self.types.clone(),
        ))
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

/// Endpoints built once per kind, shared by the documents of a run.
pub(crate) struct Endpoints<'a> {
    server: &'a Server,
    built: BTreeMap<GroupVersionKind, Result<Endpoint, String>>,
}

impl<'a> Endpoints<'a> {
    pub(crate) fn new(server: &'a Server) -> Endpoints<'a> {
        Endpoints {
            server,
            built: BTreeMap::new(),
        }
    }

    /// Builds the endpoint of `gvk` unless it is built.
    pub(crate) fn prepare(&mut self, gvk: &GroupVersionKind) {
        if !self.built.contains_key(gvk) {
            let endpoint = self.server.endpoint(gvk);
            self.built.insert(gvk.clone(), endpoint);
        }
    }

    pub(crate) fn get(&self, gvk: &GroupVersionKind) -> Result<&Endpoint, String> {
        match self.built.get(gvk) {
            Some(Ok(e)) => Ok(e),
            Some(Err(message)) => Err(message.clone()),
            None => Err(self.server.unknown(gvk)),
        }
    }
}
