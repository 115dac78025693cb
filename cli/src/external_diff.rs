//! `KUBECTL_EXTERNAL_DIFF`, run as `kubectl diff` runs it (kubectl's `DiffProgram`): once per
//! run, over two fresh private directories `LIVE-XXXXXX` and `MERGED-XXXXXX` holding one file
//! per object, named `[<group>.]<version>.<kind>.<namespace>.<name>`.
//!
//! The names come from the objects, that is from whoever wrote the manifests and the schema,
//! so every part is encoded to a plain file name (a kind `/../x` cannot climb out of the
//! directory), and every file is created new (`O_CREAT|O_EXCL`, which also refuses to follow
//! a symbolic link) with mode 0600 in a directory of mode 0700.

use std::collections::BTreeMap;
use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};

use super::Failure;

/// The environment variable naming the program.
pub(crate) const VARIABLE: &str = "KUBECTL_EXTERNAL_DIFF";

/// The longest file name Linux and macOS file systems accept, in bytes.
const NAME_MAX: usize = 255;

/// The program and the arguments kubectl would give it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Program {
    /// The variable's value, for messages.
    pub(crate) text: String,
    pub(crate) command: String,
    /// Passed after the two directories, as kubectl passes them.
    pub(crate) args: Vec<String>,
    /// Words kubectl leaves out (anything but letters, digits, `-` and `=`).
    pub(crate) dropped: Vec<String>,
}

impl Program {
    /// The program named by `KUBECTL_EXTERNAL_DIFF`, or `None` when it is unset or empty.
    pub(crate) fn from_env() -> Result<Option<Program>, Failure> {
        match std::env::var_os(VARIABLE) {
            None => Ok(None),
            Some(value) if value.is_empty() => Ok(None),
            Some(value) => match value.to_str() {
                Some(text) => Program::parse(text).map(Some),
                None => Err(Failure::new(format!("{VARIABLE} is not UTF-8"))),
            },
        }
    }

    /// kubectl's reading: the value cut at each space; the first word is the program, and of
    /// the others only those made of letters, digits, `-` and `=` are passed.
    pub(crate) fn parse(text: &str) -> Result<Program, Failure> {
        let mut words = text.split(' ');
        let command = words.next().unwrap_or_default().to_owned();
        if command.is_empty() {
            return Err(Failure::new(format!(
                "{VARIABLE}={text:?}: no program before the first space (kubectl runs the first \
                 space-separated word)"
            )));
        }
        let (args, dropped): (Vec<String>, Vec<String>) = words
            .filter(|w| !w.is_empty())
            .map(str::to_owned)
            .partition(|w| {
                w.bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'=')
            });
        Ok(Program {
            text: text.to_owned(),
            command,
            args,
            dropped,
        })
    }
}

/// The file name kubectl gives an object, `[<group>.]<version>.<kind>.<namespace>.<name>`
/// (`apps.v1.Deployment.default.web`, `v1.Namespace..web`), with each part encoded: bytes
/// other than ASCII letters, digits, `-`, `.` and `_` become `%XX`. Every name the API server
/// accepts is made of those, so real objects keep kubectl's names.
pub(crate) fn file_name(
    group: &str,
    version: &str,
    kind: &str,
    namespace: &str,
    name: &str,
) -> String {
    let mut out = String::new();
    if !group.is_empty() {
        encode(group, &mut out);
        out.push('.');
    }
    for (i, part) in [version, kind, namespace, name].into_iter().enumerate() {
        if i > 0 {
            out.push('.');
        }
        encode(part, &mut out);
    }
    out
}

fn encode(part: &str, out: &mut String) {
    for b in part.bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_') {
            out.push(char::from(b));
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
}

/// Why `name` cannot be a file of the directories; `None` when it can.
pub(crate) fn unusable(name: &str) -> Option<String> {
    if name.is_empty() || name == "." || name == ".." {
        return Some(format!("{name:?} is not a file name"));
    }
    if name.contains(['/', '\\', '\0']) {
        return Some(format!("{name:?} holds a path separator or NUL"));
    }
    if name.len() > NAME_MAX {
        return Some(format!(
            "the name kubectl would give it, {name}, is {} bytes long, over the {NAME_MAX} a file \
             name may have",
            name.len()
        ));
    }
    None
}

/// One object's two files.
#[derive(Debug)]
pub(crate) struct Entry {
    /// From [`file_name`].
    pub(crate) name: String,
    /// Where the object came from, for messages.
    pub(crate) origin: String,
    /// The live object's YAML (empty for a create).
    pub(crate) live: String,
    /// What the API server would store.
    pub(crate) merged: String,
}

/// What the program said.
#[derive(Debug)]
pub(crate) struct Ran {
    pub(crate) stdout: String,
    pub(crate) stderr: String,
    /// It exited 1: the directories differ (0: they do not).
    pub(crate) differs: bool,
}

/// Writes every entry's files and runs `program` once over the two directories; they are
/// removed before this returns. Exit status 0 and 1 are the program's answer, anything else
/// (or a signal) is a failure, as kubectl takes them.
pub(crate) fn run(program: &Program, entries: &[Entry]) -> Result<Ran, Failure> {
    let mut names: BTreeMap<&str, &str> = BTreeMap::new();
    for entry in entries {
        if let Some(why) = unusable(&entry.name) {
            return Err(Failure::new(format!(
                "{}: cannot name this object's file for {VARIABLE}: {why}",
                entry.origin
            )));
        }
        if let Some(first) = names.insert(&entry.name, &entry.origin) {
            return Err(Failure::new(format!(
                "{}: this object's file for {VARIABLE}, {}, is also that of {first}",
                entry.origin, entry.name
            )));
        }
    }
    let live = private_dir("LIVE")?;
    let merged = private_dir("MERGED")?;
    for entry in entries {
        for (dir, text) in [(live.path(), &entry.live), (merged.path(), &entry.merged)] {
            write_new(dir, &entry.name, text).map_err(|e| {
                Failure::new(format!(
                    "{}: writing {}: {e}",
                    entry.origin,
                    dir.join(&entry.name).display()
                ))
            })?;
        }
    }
    let output = Command::new(&program.command)
        .arg(live.path())
        .arg(merged.path())
        .args(&program.args)
        .stdin(Stdio::null())
        .output();
    // Removed now, not at the end of the run: the live objects may be Secrets.
    let _ = live.close();
    let _ = merged.close();
    let output =
        output.map_err(|e| Failure::new(format!("failed to run {:?}: {e}", program.command)))?;
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    let differs = match output.status.code() {
        Some(0) => false,
        Some(1) => true,
        other => {
            let status =
                other.map_or_else(|| output.status.to_string(), |c| format!("exit status {c}"));
            let mut message = format!("failed to run {:?}: {status}", program.command);
            let said = stderr.trim();
            if !said.is_empty() {
                message.push_str(": ");
                message.push_str(said);
            }
            return Err(Failure::new(message));
        }
    };
    Ok(Ran {
        stdout,
        stderr,
        differs,
    })
}

/// A new directory `PREFIX-XXXXXX` (random) in the temp dir, mode 0700.
fn private_dir(prefix: &str) -> Result<tempfile::TempDir, Failure> {
    let prefix = format!("{prefix}-");
    let mut builder = tempfile::Builder::new();
    builder.prefix(&prefix).rand_bytes(6);
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        builder.permissions(std::fs::Permissions::from_mode(0o700));
    }
    builder.tempdir().map_err(|e| {
        Failure::new(format!(
            "{VARIABLE}: making a directory in {}: {e}",
            std::env::temp_dir().display()
        ))
    })
}

/// Creates `dir/name` (it must not exist, not even as a symbolic link), mode 0600, holding
/// `text`.
fn write_new(dir: &Path, name: &str, text: &str) -> std::io::Result<()> {
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.mode(0o600);
    }
    let mut file = options.open(dir.join(name))?;
    file.write_all(text.as_bytes())?;
    file.flush()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_objects_as_kubectl_does() {
        assert_eq!(
            file_name("apps", "v1", "Deployment", "default", "web"),
            "apps.v1.Deployment.default.web"
        );
        assert_eq!(
            file_name("", "v1", "ConfigMap", "default", "web"),
            "v1.ConfigMap.default.web"
        );
        // Cluster-scoped: the namespace part is there, empty.
        assert_eq!(
            file_name("", "v1", "Namespace", "", "web"),
            "v1.Namespace..web"
        );
    }

    #[test]
    fn encodes_what_could_leave_the_directory() {
        let name = file_name("", ".", "/../../x/", "", "a\0b%");
        assert_eq!(name, "..%2F..%2F..%2Fx%2F..a%00b%25");
        assert_eq!(unusable(&name), None);
        assert!(unusable(".").is_some());
        assert!(unusable("..").is_some());
        assert!(unusable("a/b").is_some());
        assert!(unusable(&"x".repeat(256)).is_some());
        assert_eq!(unusable(&"x".repeat(255)), None);
    }

    #[test]
    fn every_character_is_either_kept_or_encoded_to_a_safe_name() {
        let chars = (0..=0x3000u32)
            .chain([0xFEFF, 0x1F600, 0x10FFFF])
            .filter_map(char::from_u32);
        let mut seen = std::collections::BTreeSet::new();
        for c in chars {
            let part = format!("{c}{c}");
            let name = file_name("", "v1", &part, "", "x");
            assert!(
                name.bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b"-._%".contains(&b)),
                "{c:?}: {name}"
            );
            assert_eq!(unusable(&name), None, "{c:?}");
            // Distinct parts give distinct names ('%' is encoded too).
            assert!(seen.insert(name), "{c:?}");
        }
    }

    #[test]
    fn reads_the_variable_as_kubectl_does() {
        let p = Program::parse("colordiff -N -u --label=/etc/x  --color=always").unwrap();
        assert_eq!(p.command, "colordiff");
        assert_eq!(p.args, ["-N", "-u", "--color=always"]);
        assert_eq!(p.dropped, ["--label=/etc/x"]);
        assert!(Program::parse(" diff").is_err());
    }

    #[cfg(unix)]
    #[test]
    fn never_writes_through_a_link_or_over_a_file() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("target");
        assert!(std::fs::write(&target, "kept").is_ok());
        assert!(std::os::unix::fs::symlink(&target, dir.path().join("link")).is_ok());
        assert!(
            std::os::unix::fs::symlink(dir.path().join("nowhere"), dir.path().join("dangling"))
                .is_ok()
        );
        assert!(write_new(dir.path(), "link", "written").is_err());
        assert!(write_new(dir.path(), "dangling", "written").is_err());
        assert!(!dir.path().join("nowhere").exists());
        assert!(write_new(dir.path(), "target", "written").is_err());
        assert_eq!(
            std::fs::read_to_string(&target).ok().as_deref(),
            Some("kept")
        );
        assert!(write_new(dir.path(), "fresh", "written").is_ok());
        use std::os::unix::fs::PermissionsExt;
        let mode =
            std::fs::metadata(dir.path().join("fresh")).map(|m| m.permissions().mode() & 0o777);
        assert_eq!(mode.ok(), Some(0o600));
    }
}
