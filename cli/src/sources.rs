//! Where objects come from, as kubectl's `-f` takes them (`k8s.io/cli-runtime/pkg/resource`,
//! `Builder.FilenameParam` and `FilePathVisitor`): files, directories (their `.json`, `.yaml`
//! and `.yml` files in lexical order, subdirectories only with `-R`), `-` for stdin (once in a
//! command line), and a comma-separated list in one flag (`-f a.yaml,b.yaml`, as pflag splits
//! it). A file named explicitly is read whatever its name; a path that does not exist is a
//! pattern (`glob.rs`), as kubectl expands it.
//!
//! A walk never follows a symbolic link to a directory (Go's `filepath.Walk` does not either),
//! so no link makes it loop; a link to a file with one of the extensions is read, as kubectl
//! reads it. Anything else in a directory that has one of the extensions (a FIFO, a device, a
//! link to a directory or to nothing) is refused rather than opened: opening a FIFO would wait
//! forever. A walk is bounded: [`MAX_DEPTH`] directory levels, [`MAX_ENTRIES`] entries seen.

use std::path::{Path, PathBuf};

use clap::Args;

use super::Failure;

/// The extensions kubectl reads in a directory (`resource.FileExtensions`), compared as Go's
/// `filepath.Ext` gives them: from the last dot of the name, case as it is.
const EXTENSIONS: [&str; 3] = [".json", ".yaml", ".yml"];

/// The deepest a walk goes below the directory named (`-R`).
pub(crate) const MAX_DEPTH: usize = 64;

/// The most directory entries one walk looks at.
pub(crate) const MAX_ENTRIES: usize = 1_000_000;

/// The manifests, as `kubectl apply -f`, `kubectl diff -f` take them.
#[derive(Debug, Clone, Default, Args)]
pub(crate) struct FileArgs {
    /// A file, a directory (its .json, .yaml and .yml files, in lexical order) or `-` for
    /// stdin; may be repeated, or a comma-separated list (kubectl's -f).
    #[arg(
        short = 'f',
        long = "filename",
        value_name = "PATH",
        value_delimiter = ','
    )]
    pub(crate) filenames: Vec<PathBuf>,
    /// Read the directories of -f (and --live) with their subdirectories.
    #[arg(short = 'R', long)]
    pub(crate) recursive: bool,
    /// The namespace of the manifests that name none (default: `default`); a manifest of a
    /// namespaced kind naming another is refused with kubectl's words. Cluster-scoped kinds
    /// take none.
    #[arg(short = 'n', long, value_name = "NAMESPACE")]
    pub(crate) namespace: Option<String>,
}

impl FileArgs {
    /// `-n` as kubectl takes it: an empty value is no value.
    pub(crate) fn namespace(&self) -> Option<&str> {
        self.namespace.as_deref().filter(|n| !n.is_empty())
    }
}

/// Where `diff` and `apply` take their inputs from, besides the positional LIVE and APPLIED.
#[derive(Debug, Clone, Default, Args)]
pub(crate) struct LiveArgs {
    #[command(flatten)]
    pub(crate) from: FileArgs,
    /// With -f: the live objects, from files or directories (repeatable; multi-document
    /// streams, Lists, a whole `kubectl get -A -o yaml --show-managed-fields` dump), or `none`:
    /// every manifest is a create. Manifests pair with them by group, kind, namespace and name.
    #[arg(long = "live", value_name = "FILE|DIR|none", value_delimiter = ',')]
    pub(crate) live: Vec<PathBuf>,
    /// Accepted for kubectl's command lines: smd always answers for a server-side apply.
    #[arg(long = "server-side")]
    pub(crate) server_side: bool,
    /// Also report the live objects of --live that no manifest names (a dump's are left
    /// silent by default; those of a positional LIVE file are always reported).
    #[arg(long)]
    pub(crate) show_unmatched: bool,
    #[command(flatten)]
    pub(crate) cluster: super::cluster::ClusterArgs,
}

impl LiveArgs {
    /// The inputs of a run given the positional `files` (LIVE then APPLIED, or APPLIED alone)
    /// or `-f` and `--live`.
    pub(crate) fn inputs(&self, files: &[PathBuf]) -> Result<super::plan::Inputs, Failure> {
        let namespace = self.from.namespace().map(str::to_owned);
        if self.cluster.given() && (!files.is_empty() || !self.live.is_empty()) {
            return Err(Failure::new(
                "--kubeconfig and --context read live objects from a cluster: they go with -f \
                 and no --live (the positional forms and --live never contact a cluster)",
            ));
        }
        if !files.is_empty() {
            check_stdin_once(files)?;
            let (live, applied) = match files {
                [applied] => (Vec::new(), vec![applied.clone()]),
                [live, applied] => (vec![live.clone()], vec![applied.clone()]),
                _ => return Err(Failure::new("give LIVE and APPLIED, or APPLIED alone")),
            };
            return Ok(super::plan::Inputs {
                live,
                applied,
                namespace,
                report_unmatched: true,
                cluster: None,
            });
        }
        check_stdin_once(self.from.filenames.iter().chain(&self.live))?;
        let applied = expand(&self.from.filenames, self.from.recursive, "-f")?;
        let live = match self.live.as_slice() {
            [] => {
                // No --live: the live objects come from the cluster (cluster/).
                return Ok(super::plan::Inputs {
                    live: Vec::new(),
                    applied,
                    namespace,
                    report_unmatched: false,
                    cluster: Some(self.cluster.clone()),
                });
            }
            [none] if none.as_os_str() == "none" => Vec::new(),
            several => {
                if several.iter().any(|p| p.as_os_str() == "none") {
                    return Err(Failure::new(
                        "--live none means no live object: it takes no other --live (a file \
                         named none is ./none)",
                    ));
                }
                expand(several, self.from.recursive, "--live")?
            }
        };
        Ok(super::plan::Inputs {
            live,
            applied,
            namespace,
            report_unmatched: self.show_unmatched,
            cluster: None,
        })
    }
}

/// The objects `blame`, `fields` and `validate` read: the positional `files`, then `-f`'s
/// (none of either: stdin), each given `-n`'s namespace as a manifest gets it, when `-n` is
/// given (`types`: where the kinds' scopes come from).
pub(crate) fn read_objects(
    files: &[PathBuf],
    from: &FileArgs,
    types: &super::endpoints::TypeArgs,
) -> Result<Vec<super::objects::Object>, Failure> {
    let mut paths = files.to_vec();
    paths.extend(expand(&from.filenames, from.recursive, "-f")?);
    check_stdin_once(&paths)?;
    let mut objects = super::objects::read_all(&paths, super::parallel::default_jobs())?;
    if let Some(namespace) = from.namespace() {
        let server = super::endpoints::Server::load(types)?;
        super::namespaces::Namespacing::new(Some(namespace)).manifests(&server, &mut objects)?;
    }
    Ok(objects)
}

/// The files `paths` name, in kubectl's order: each path in turn, a directory's files sorted
/// by name; `-` stays `-` (stdin). `flag` names the flag in messages.
pub(crate) fn expand(
    paths: &[PathBuf],
    recursive: bool,
    flag: &str,
) -> Result<Vec<PathBuf>, Failure> {
    let mut out = Vec::new();
    let mut walk = Walk {
        out: &mut out,
        seen: 0,
        recursive,
    };
    for named in paths {
        if named.as_os_str() == "-" {
            walk.out.push(named.clone());
            continue;
        }
        for path in &patterned(named, flag)? {
            walk.path(path, flag)?;
        }
    }
    Ok(out)
}

/// The paths `named` stands for: itself, or when no such path exists and it is a pattern, the
/// paths matching it (kubectl's `expandIfFilePattern`).
fn patterned(named: &Path, flag: &str) -> Result<Vec<PathBuf>, Failure> {
    let shown = named.display().to_string();
    let missing = || Failure::new(format!("{flag}: the path {shown:?} does not exist"));
    match std::fs::metadata(named) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            let Some(pattern) = named.to_str().filter(|p| super::glob::has_meta(p)) else {
                return Err(missing());
            };
            match super::glob::glob(pattern) {
                Ok(found) if found.is_empty() => Err(missing()),
                Ok(found) => Ok(found),
                Err(super::glob::BadPattern) => Err(Failure::new(format!(
                    "{flag}: pattern {shown:?} is not valid: syntax error in pattern"
                ))),
            }
        }
        _ => Ok(vec![named.to_path_buf()]),
    }
}

/// A walk of directories, gathering their files.
struct Walk<'a> {
    out: &'a mut Vec<PathBuf>,
    /// Directory entries looked at so far.
    seen: usize,
    recursive: bool,
}

impl Walk<'_> {
    /// A path named on the command line (or matching a pattern given there): a file, or a
    /// directory to walk.
    fn path(&mut self, path: &Path, flag: &str) -> Result<(), Failure> {
        let shown = path.display().to_string();
        // A path named on the command line is followed, links included: the user chose it.
        let meta = match std::fs::metadata(path) {
            Ok(meta) => meta,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                return Err(Failure::new(format!(
                    "{flag}: the path {shown:?} does not exist"
                )));
            }
            Err(e) => {
                return Err(Failure::new(format!(
                    "{flag}: the path {shown:?} cannot be accessed: {e}"
                )));
            }
        };
        if meta.is_dir() {
            self.directory(path, 0)?;
            if self.out.is_empty() {
                return Err(Failure::new(format!(
                    "{flag}: error reading [{shown}]: recognized file extensions are [.json .yaml .yml]"
                )));
            }
        } else {
            self.out.push(path.to_path_buf());
        }
        Ok(())
    }

    fn directory(&mut self, dir: &Path, depth: usize) -> Result<(), Failure> {
        let shown = dir.display().to_string();
        if depth > MAX_DEPTH {
            return Err(Failure::new(format!(
                "error reading {shown:?}: directories nest deeper than {MAX_DEPTH} levels"
            )));
        }
        let reading = |e: std::io::Error| Failure::new(format!("error reading {shown:?}: {e}"));
        let mut entries = Vec::new();
        for entry in std::fs::read_dir(dir).map_err(reading)? {
            self.seen += 1;
            if self.seen > MAX_ENTRIES {
                return Err(Failure::new(format!(
                    "error reading {shown:?}: more than {MAX_ENTRIES} directory entries"
                )));
            }
            let entry = entry.map_err(reading)?;
            entries.push(entry);
        }
        // Go's filepath.Walk visits names in byte order.
        entries.sort_by(|a, b| {
            a.file_name()
                .as_encoded_bytes()
                .cmp(b.file_name().as_encoded_bytes())
        });
        for entry in entries {
            // Named as Go's filepath.Join names it: `./a.yaml` is `a.yaml`.
            let path: PathBuf = entry
                .path()
                .components()
                .filter(|c| !matches!(c, std::path::Component::CurDir))
                .collect();
            // The entry itself, not what a link points to: links to directories are not walked.
            let kind = entry.file_type().map_err(reading)?;
            if kind.is_dir() {
                if self.recursive {
                    self.directory(&path, depth + 1)?;
                }
                continue;
            }
            if !has_extension(&entry.file_name()) {
                continue;
            }
            let regular = if kind.is_symlink() {
                std::fs::metadata(&path).is_ok_and(|m| m.is_file())
            } else {
                kind.is_file()
            };
            if !regular {
                return Err(Failure::new(format!(
                    "{:?}: not a regular file (in a directory smd reads files, and links to \
                     files; name anything else with its own -f)",
                    path.display().to_string()
                )));
            }
            self.out.push(path);
        }
        Ok(())
    }
}

/// Whether `name` ends in one of [`EXTENSIONS`] as Go's `filepath.Ext` reads it.
fn has_extension(name: &std::ffi::OsStr) -> bool {
    let bytes = name.as_encoded_bytes();
    let ext = bytes
        .iter()
        .rposition(|&b| b == b'.')
        .map_or(&[][..], |at| &bytes[at..]);
    EXTENSIONS.iter().any(|e| e.as_bytes() == ext)
}

/// kubectl's words when stdin is named twice (`resource.StdinMultiUseError`).
pub(crate) fn check_stdin_once<'a>(
    paths: impl IntoIterator<Item = &'a PathBuf>,
) -> Result<(), Failure> {
    if paths.into_iter().filter(|p| p.as_os_str() == "-").count() > 1 {
        return Err(Failure::new(
            "standard input cannot be used for multiple arguments\n  hint: stdin is read once; \
             save one of the inputs to a file and name that file instead of `-`",
        ));
    }
    Ok(())
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod tests {
    use super::*;

    #[test]
    fn extensions_are_gos() {
        for (name, yes) in [
            ("a.yaml", true),
            ("a.yml", true),
            ("a.json", true),
            (".yaml", true),
            ("a.YAML", false),
            ("a.yaml.bak", false),
            ("yaml", false),
            ("a.txt", false),
        ] {
            assert_eq!(has_extension(std::ffi::OsStr::new(name)), yes, "{name}");
        }
    }
}
