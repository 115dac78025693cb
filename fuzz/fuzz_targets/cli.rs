//! The whole command line, in process, on hostile files: `diff` (text, `-o json|yaml`),
//! `apply` (`-o yaml|json`), `blame`, `fields` (paths, fieldsV1, sizes), `validate`, `schema
//! lint|convert` and `fieldsv1`, with `--crd`/`--schema` combinations, `--subresource status|scale`
//! (Scale manifests), `--force-conflicts`, `--validate`, `--now` texts and colors.
//!
//! The input is three header bytes choosing the command and its flags, then up to five files
//! separated by a line `%%`: the manifests, the live objects, CRDs, a schema, and a `--now` text.
//!
//! Invariants: nothing panics; no terminal control reaches stdout or stderr (with colors on,
//! only smd's own color codes); `diff` and `apply` give the same answer at `-j 1` and `-j 4`;
//! what `apply` writes, `validate` reads and accepts; what `diff` and `blame` print does not
//! depend on the values of Secrets (each value is changed, keeping which values are equal:
//! the output must not change).
#![no_main]

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::OnceLock;

use libfuzzer_sys::fuzz_target;
use smd::fieldpath::{Value, yaml};
use smd_cli::fuzzing::SGR;

/// The files of one run, in a private directory made once per process.
fn dir() -> &'static Path {
    static DIR: OnceLock<tempfile::TempDir> = OnceLock::new();
    DIR.get_or_init(|| tempfile::tempdir().expect("a temp dir for the fuzz files"))
        .path()
}

const MANAGERS: [&str; 4] = [
    "kubectl",
    "helm",
    "horizontal-pod-autoscaler",
    "kube-controller-manager",
];
const NOWS: [&str; 6] = [
    "2026-01-01T00:00:00Z",
    "2026-06-01T12:00:00.5+02:00",
    "1970-01-01T00:00:00Z",
    "9999-12-31T23:59:59Z",
    "0001-01-01T00:00:00Z",
    "2026-01-01T1:00:00Z",
];
/// smd's own color codes: with `--color always` the only escape sequences allowed out.
struct Run {
    code: Option<u8>,
    out: Vec<u8>,
    err: Vec<u8>,
}

fn smd(args: &[String]) -> Run {
    let (mut out, mut err) = (Vec::new(), Vec::new());
    let exit = smd_cli::run(
        std::iter::once("smd".to_owned()).chain(args.iter().cloned()),
        &mut out,
        &mut err,
    );
    let code = (0..=3).find(|n| exit == ExitCode::from(*n));
    Run { code, out, err }
}

fn write(name: &str, bytes: &[u8]) -> String {
    let path: PathBuf = dir().join(name);
    std::fs::write(&path, bytes).expect("writing a fuzz file");
    path.to_string_lossy().into_owned()
}

fn assert_clean(what: &str, bytes: &[u8], colors: bool) {
    let mut text = String::from_utf8_lossy(bytes).into_owned();
    if colors {
        // smd's own color codes, the one list its terminal filter lets through.
        for code in SGR {
            text = text.replace(&*String::from_utf8_lossy(code), "");
        }
    }
    let bad = text
        .chars()
        .find(|&c| c != '\n' && c != '\t' && smd::fieldpath::is_terminal_control(c));
    assert!(
        bad.is_none(),
        "{what}: {bad:?} reaches the terminal:\n{text}"
    );
}

fuzz_target!(|data: &[u8]| {
    let [command, flags, choice, rest @ ..] = data else {
        return;
    };
    // KUBECTL_EXTERNAL_DIFF would run a program: the in-process runs use smd's own diff.
    if std::env::var_os("KUBECTL_EXTERNAL_DIFF").is_some() {
        return;
    }
    let mut parts: Vec<&[u8]> = Vec::new();
    let text = rest;
    let mut start = 0;
    let marker = b"\n%%\n";
    let mut i = 0;
    while i + marker.len() <= text.len() && parts.len() < 4 {
        if &text[i..i + marker.len()] == marker {
            parts.push(&text[start..i]);
            i += marker.len();
            start = i;
        } else {
            i += 1;
        }
    }
    parts.push(&text[start..]);
    let part = |n: usize| parts.get(n).copied();
    let applied = write("applied.yaml", part(0).unwrap_or_default());
    let live = part(1).map(|b| write("live.yaml", b));
    let crd = part(2).map(|b| write("crd.yaml", b));
    let schema = part(3).map(|b| write("schema.yaml", b));
    let now = match choice >> 4 {
        n if usize::from(n) < NOWS.len() => NOWS[usize::from(n)].to_owned(),
        _ => String::from_utf8_lossy(part(4).unwrap_or_default()).into_owned(),
    };
    let manager = MANAGERS[usize::from(choice & 3)];
    let colors = flags & 0x80 != 0;

    let s = |x: &str| x.to_owned();
    let mut types = Vec::new();
    if flags & 0x10 != 0 {
        if let Some(crd) = &crd {
            types.extend([s("--crd"), crd.clone()]);
        }
    }
    if flags & 0x20 != 0 {
        if let Some(schema) = &schema {
            types.extend([s("--schema"), schema.clone()]);
        }
    }
    let mut files = Vec::new();
    if flags & 1 != 0 {
        if let Some(live) = &live {
            files.push(live.clone());
        }
    }
    files.push(applied.clone());
    let mut apply_flags = vec![s("--manager"), s(manager), s("--now"), now];
    if flags & 2 != 0 {
        apply_flags.push(s("--force-conflicts"));
    }
    match (choice >> 2) & 3 {
        1 => apply_flags.push(s("--validate=warn")),
        2 => apply_flags.push(s("--validate=ignore")),
        3 => apply_flags.push(s("--validate=false")),
        _ => {}
    }
    match (flags >> 2) & 3 {
        1 => apply_flags.extend([s("--subresource"), s("status")]),
        2 => apply_flags.extend([s("--subresource"), s("scale")]),
        _ => {}
    }
    let color = [s("--color"), s(if colors { "always" } else { "never" })];

    let (args, parallel): (Vec<String>, bool) = match command % 13 {
        0..=2 => {
            let mut a = vec![s("diff")];
            a.extend(files.iter().cloned());
            a.extend(apply_flags.iter().cloned());
            a.extend(types.iter().cloned());
            a.extend(color.iter().cloned());
            if flags & 0x40 != 0 {
                a.push(s("--show-managed-fields"));
            }
            match command % 13 {
                1 => a.extend([s("-o"), s("json")]),
                2 => a.extend([s("-o"), s("yaml")]),
                _ => {}
            }
            (a, true)
        }
        3 | 4 => {
            let mut a = vec![s("apply")];
            a.extend(files.iter().cloned());
            a.extend(apply_flags.iter().cloned());
            a.extend(types.iter().cloned());
            if command % 13 == 4 {
                a.extend([s("-o"), s("json")]);
            }
            (a, true)
        }
        5 => {
            let mut a = vec![s("blame"), applied.clone()];
            a.extend(color.iter().cloned());
            (a, false)
        }
        6 => (vec![s("fields"), applied.clone()], false),
        7 => (
            vec![s("fields"), applied.clone(), s("-o"), s("fieldsv1")],
            false,
        ),
        8 => (
            vec![
                s("fields"),
                applied.clone(),
                s("--sizes"),
                s("--manager"),
                s(manager),
            ],
            false,
        ),
        9 => {
            let mut a = vec![s("validate"), applied.clone()];
            a.extend(types.iter().cloned());
            (a, false)
        }
        10 => (vec![s("schema"), s("lint"), applied.clone()], false),
        11 => (vec![s("schema"), s("convert"), applied.clone()], false),
        _ => (
            vec![
                s("fieldsv1"),
                s(if flags & 1 != 0 { "fmt" } else { "paths" }),
                applied.clone(),
            ],
            false,
        ),
    };

    let first = smd(&args);
    let what = args.join(" ");
    assert!(first.code.is_some(), "{what}: an exit code outside 0-3");
    assert_clean(&what, &first.out, colors);
    assert_clean(&what, &first.err, false);
    // Last: it writes the files again.
    let secrets = |args: &[String]| {
        if matches!(args[0].as_str(), "diff" | "blame") {
            secrets_do_not_show(args, &parts);
        }
    };
    if !parallel {
        secrets(&args);
        return;
    }
    // One job or four: the same answer, byte for byte.
    let with_jobs = |jobs: &str| {
        let mut a = args.clone();
        a.extend([s("-j"), s(jobs)]);
        smd(&a)
    };
    let (one, four) = (with_jobs("1"), with_jobs("4"));
    assert_eq!(one.code, four.code, "{what}: exit codes differ with -j");
    assert!(
        one.out == four.out && one.err == four.err,
        "{what}: output differs with -j"
    );
    // What `apply` stores, `validate` accepts (the same types in force).
    if args[0] == "apply" && one.code == Some(0) && !one.out.is_empty() {
        let stored = write("stored.out", &one.out);
        let mut a = vec![s("validate"), stored];
        a.extend(types.iter().cloned());
        let check = smd(&a);
        assert_eq!(
            check.code,
            Some(0),
            "{what}: smd cannot read back what it wrote:\n{}\n{}",
            String::from_utf8_lossy(&check.err),
            String::from_utf8_lossy(&one.out)
        );
    }
    secrets(&args);
});

/// Each letter and digit moved one place on in its class (`z` to `a`, `9` to `0`): a value of
/// the same length and alphabet (base64 stays base64), distinct values stay distinct.
fn rotate(text: &str) -> String {
    text.chars()
        .map(|c| match c {
            'a'..='y' | 'A'..='Y' | '0'..='8' => char::from(c as u8 + 1),
            'z' => 'a',
            'Z' => 'A',
            '9' => '0',
            other => other,
        })
        .collect()
}

fn is_secret(object: &Value) -> bool {
    let text = |key: &str| {
        object
            .as_map()
            .and_then(|m| m.get(key))
            .and_then(Value::as_str)
    };
    text("apiVersion") == Some("v1") && text("kind") == Some("Secret")
}

/// Rotates the string values of `data` and `stringData` of every Secret, in the object and in
/// the copy of it kubectl's `last-applied-configuration` annotation holds (the server compares
/// the two: rotating one alone would change its verdict, not only what is shown); whether any
/// changed.
fn rotate_secrets(object: &mut Value) -> bool {
    if !is_secret(object) {
        return false;
    }
    let mut changed = rotate_last_applied(object);
    for key in ["data", "stringData"] {
        let Some(values) = object
            .as_map_mut()
            .and_then(|m| m.get_mut(key))
            .and_then(Value::as_map_mut)
        else {
            continue;
        };
        for (_, value) in values.iter_mut() {
            let Some(text) = value.as_str() else {
                continue;
            };
            // `data` holds base64: its bytes are rotated and encoded again, so that a value
            // the server decodes still decodes (one it refuses stays as it is).
            let rotated = if key == "data" {
                match unbase64(text) {
                    Some(bytes) => base64(rotate(&String::from_utf8_lossy(&bytes)).as_bytes()),
                    None => text.to_owned(),
                }
            } else {
                rotate(text)
            };
            changed |= rotated != text;
            *value = Value::from(rotated);
        }
    }
    changed
}

const BASE64: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/// Standard base64 with padding, as Go's `StdEncoding` writes it.
fn base64(bytes: &[u8]) -> String {
    let mut out = String::new();
    for chunk in bytes.chunks(3) {
        let n = chunk
            .iter()
            .enumerate()
            .fold(0u32, |n, (i, b)| n | u32::from(*b) << (16 - 8 * i));
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(char::from(BASE64[((n >> (18 - 6 * i)) & 63) as usize]));
            } else {
                out.push('=');
            }
        }
    }
    out
}

/// The bytes of canonical standard base64 (what [`base64`] writes back the same), else `None`.
fn unbase64(text: &str) -> Option<Vec<u8>> {
    if text.len() % 4 != 0 {
        return None;
    }
    let mut out = Vec::new();
    let (mut n, mut bits) = (0u32, 0);
    for c in text.trim_end_matches('=').bytes() {
        let v = BASE64.iter().position(|b| *b == c)?;
        n = n << 6 | v as u32;
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((n >> bits) as u8);
        }
    }
    (base64(&out) == text).then_some(out)
}

/// Rotates the Secret values of the object in the `last-applied-configuration` annotation
/// (kept as JSON text when it reads as a Secret); whether any changed.
fn rotate_last_applied(object: &mut Value) -> bool {
    const KEY: &str = "kubectl.kubernetes.io/last-applied-configuration";
    let Some(annotations) = object
        .as_map_mut()
        .and_then(|m| m.get_mut("metadata"))
        .and_then(Value::as_map_mut)
        .and_then(|m| m.get_mut("annotations"))
        .and_then(Value::as_map_mut)
    else {
        return false;
    };
    let Some(mut applied) = annotations
        .get(KEY)
        .and_then(Value::as_str)
        .and_then(|text| Value::from_json(text).ok())
    else {
        return false;
    };
    if !rotate_secrets(&mut applied) {
        return false;
    }
    let mut text = String::new();
    if smd::value::value::gojson::write_value(&mut text, &applied).is_err() {
        return false;
    }
    annotations.insert(KEY, Value::from(text));
    true
}

/// The input files written by smd's own YAML writer, with the Secrets' values as they are and
/// rotated: `diff` and `blame` must print the same for both.
fn secrets_do_not_show(args: &[String], parts: &[&[u8]]) {
    let names = ["applied.yaml", "live.yaml", "crd.yaml", "schema.yaml"];
    let mut plain = Vec::new();
    let mut rotated = Vec::new();
    let mut any = false;
    for (part, name) in parts.iter().zip(names) {
        let Ok(documents) = yaml::documents_from_slice(part) else {
            return;
        };
        let write_all = |docs: &[Value]| {
            docs.iter()
                .map(yaml::to_string)
                .collect::<Vec<_>>()
                .join("---\n")
        };
        plain.push((name, write_all(&documents)));
        let mut changed = documents.clone();
        for document in &mut changed {
            any |= rotate_secrets(document);
        }
        rotated.push((name, write_all(&changed)));
    }
    if !any {
        return;
    }
    let run_with = |files: &[(&str, String)]| {
        for (name, text) in files {
            write(name, text.as_bytes());
        }
        smd(args)
    };
    let (a, b) = (run_with(&plain), run_with(&rotated));
    assert!(
        a.code == b.code && a.out == b.out && a.err == b.err,
        "{}: a Secret's values show in the output:\n{}\n---\n{}",
        args.join(" "),
        String::from_utf8_lossy(&a.out),
        String::from_utf8_lossy(&b.out)
    );
}
