//! The live objects of a run (`LIVE`, `--live`), read once and indexed by identity: each
//! object's value goes to a [`spill`](super::spill) file and is read back when the manifest that
//! names it comes, so that memory grows with the number of live objects only by the index, not
//! by their values (a whole `kubectl get -A -o yaml` dump costs a few hundred bytes an object).

use std::collections::HashMap;
use std::path::PathBuf;

use super::Failure;
use super::endpoints::Server;
use super::namespaces::{self, Namespacing};
use super::objects::{self, Identity, Object, Origin};
use super::spill::{Range, Spill, Spilled};

/// A live object of the index.
#[derive(Debug)]
pub(crate) struct Entry {
    pub(crate) identity: Identity,
    /// Its `apiVersion` (the version it is held at).
    pub(crate) api_version: String,
    pub(crate) origin: Origin,
    range: Range,
    /// A manifest named it.
    taken: bool,
}

/// A live object a manifest names, to be read ([`LiveIndex::read`]).
#[derive(Debug, Clone)]
pub(crate) struct Claimed {
    pub(crate) api_version: String,
    pub(crate) kind: String,
    pub(crate) namespace: String,
    pub(crate) origin: Origin,
    range: Range,
}

/// The live objects, by identity.
#[derive(Debug, Default)]
pub(crate) struct LiveIndex {
    spilled: Option<Spilled>,
    entries: Vec<Entry>,
    by_identity: HashMap<Identity, usize>,
    /// By namespace and name, for Scale manifests (which name their object so), when asked for.
    by_name: Option<HashMap<(String, String), Vec<usize>>>,
}

impl LiveIndex {
    /// The live objects of `paths` (`-`: stdin), given their namespaces as `namespacing` gives a
    /// live object one; with `scale`, also indexed by namespace and name. Any document that does
    /// not read stops the run: a pool with a hole would answer "create" for an object that lives.
    pub(crate) fn read(
        paths: &[PathBuf],
        jobs: usize,
        server: &Server,
        namespacing: &Namespacing,
        scale: bool,
    ) -> Result<LiveIndex, Failure> {
        let mut index = LiveIndex::default();
        if paths.is_empty() {
            return Ok(index);
        }
        let mut spill = Spill::new().map_err(|e| {
            Failure::new(format!("cannot create a temp file for live objects: {e}"))
        })?;
        for path in paths {
            objects::each_document(path, jobs, &mut |document| {
                let document = document?;
                if !document.duplicates.is_empty() {
                    return Err(Failure::new(format!(
                        "{}: a key is set twice (yaml: unmarshal errors:\n  {})",
                        document.origin,
                        objects::duplicate_lines(&document.duplicates).join("\n  ")
                    )));
                }
                for object in objects::objects_in(document) {
                    let mut object = object?;
                    namespacing.live(server, std::slice::from_mut(&mut object));
                    index.add(&mut spill, server, object)?;
                }
                Ok(())
            })?;
        }
        index.spilled = Some(
            spill
                .finish()
                .map_err(|e| Failure::new(format!("writing live objects to a temp file: {e}")))?,
        );
        if scale {
            let mut by_name: HashMap<(String, String), Vec<usize>> = HashMap::new();
            for (i, entry) in index.entries.iter().enumerate() {
                let key = (
                    entry.identity.namespace.clone(),
                    entry.identity.name.clone(),
                );
                by_name.entry(key).or_default().push(i);
            }
            index.by_name = Some(by_name);
        }
        Ok(index)
    }

    fn add(&mut self, spill: &mut Spill, server: &Server, object: Object) -> Result<(), Failure> {
        let identity = namespaces::identity(server, &object);
        if let Some(&first) = self.by_identity.get(&identity) {
            return Err(Failure::new(format!(
                "{}: {identity} is also at {}: one live object per identity",
                object.origin, self.entries[first].origin
            )));
        }
        let range = spill
            .put(&object.value)
            .map_err(|e| Failure::new(format!("writing live objects to a temp file: {e}")))?;
        self.by_identity
            .insert(identity.clone(), self.entries.len());
        self.entries.push(Entry {
            identity,
            api_version: object.text(&["apiVersion"]).to_owned(),
            origin: object.origin,
            range,
            taken: false,
        });
        Ok(())
    }

    /// The live object of `identity`, claimed by its manifest.
    pub(crate) fn take(&mut self, identity: &Identity) -> Option<Claimed> {
        let &i = self.by_identity.get(identity)?;
        self.claim(i)
    }

    /// The live object a Scale manifest of `identity` scales: the one of its namespace and name
    /// (a Scale naming no namespace: `namespace`'s first, then a cluster-scoped one).
    pub(crate) fn take_scaled(
        &mut self,
        identity: &Identity,
        namespace: &str,
        scale: &Object,
    ) -> Result<Option<Claimed>, Failure> {
        let namespaces: Vec<&str> = if identity.namespace.is_empty() {
            vec![namespace, ""]
        } else {
            vec![identity.namespace.as_str()]
        };
        for ns in namespaces {
            let found: Vec<usize> = self
                .by_name
                .as_ref()
                .and_then(|m| m.get(&(ns.to_owned(), identity.name.clone())))
                .map(|v| {
                    v.iter()
                        .copied()
                        .filter(|&i| !self.entries[i].taken)
                        .collect()
                })
                .unwrap_or_default();
            match found.as_slice() {
                [] => {}
                [one] => return Ok(self.claim(*one)),
                several => {
                    let names: Vec<String> = several
                        .iter()
                        .map(|&i| self.entries[i].identity.to_string())
                        .collect();
                    return Err(Failure::new(format!(
                        "{}: the Scale names {}, and several live objects have that name ({}): \
                         give only the one it scales",
                        scale.origin,
                        identity,
                        names.join(", ")
                    )));
                }
            }
        }
        Ok(None)
    }

    fn claim(&mut self, i: usize) -> Option<Claimed> {
        let entry = self.entries.get_mut(i)?;
        if entry.taken {
            return None;
        }
        entry.taken = true;
        Some(Claimed {
            api_version: entry.api_version.clone(),
            kind: entry.identity.kind.clone(),
            namespace: entry.identity.namespace.clone(),
            origin: entry.origin.clone(),
            range: entry.range,
        })
    }

    /// The claimed object, read back.
    pub(crate) fn read_back(&self, claimed: Claimed) -> Result<Object, Failure> {
        let value = self
            .spilled
            .as_ref()
            .ok_or_else(|| Failure::new("no live objects were read"))
            .and_then(|s| {
                s.get(claimed.range).map_err(|e| {
                    Failure::new(format!(
                        "{}: reading the live object back from its temp file: {e}",
                        claimed.origin
                    ))
                })
            })?;
        Ok(Object {
            origin: claimed.origin,
            value,
        })
    }

    /// The live objects no manifest claimed, in input order.
    pub(crate) fn unclaimed(&self) -> impl Iterator<Item = &Entry> {
        self.entries.iter().filter(|e| !e.taken)
    }
}
