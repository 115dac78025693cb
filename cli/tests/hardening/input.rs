//! Reading inputs (issue 11, items 11, 12, 14, 15): one nesting limit for JSON and YAML, JSON
//! streams read as kubectl reads them, a per-document size limit, and duplicate keys answered
//! as the API server answers them under kubectl's field validation.

use super::{Scratch, smd_in};

const CONFIGMAP: &str = r#"{"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "NAME"}, "data": {"k": "v"}}"#;

fn configmap(name: &str) -> String {
    CONFIGMAP.replace("NAME", name)
}

/// A ConfigMap whose `data` holds lists nested `depth` levels below it, as JSON and as YAML
/// (flow style, which is the same text: JSON is YAML).
fn deep(depth: usize) -> String {
    format!(
        r#"{{"apiVersion": "v1", "kind": "ConfigMap", "metadata": {{"name": "deep"}}, "data": {{"k": {}{}}}}}"#,
        "[".repeat(depth),
        "]".repeat(depth)
    )
}

/// The same run on a JSON file and on a YAML file: stderr with the file names made equal.
fn both(text: &str, args: &[&str]) -> (super::Run, super::Run) {
    let s = Scratch::new();
    s.file("x.json", text);
    // A comment first: the sniffing sees YAML; the text is the same flow mapping.
    s.file("x.yaml", format!("# yaml\n{text}"));
    let with = |file: &str| {
        let mut a: Vec<&str> = args.to_vec();
        a.push(file);
        s.smd(&a)
    };
    (with("x.json"), with("x.yaml"))
}

#[test]
fn json_nests_as_deep_as_yaml() {
    // 500 levels (plus the object's own 2): far past serde_json's 128, inside smd's 1000.
    let (json, yaml) = both(&deep(500), &["validate"]);
    assert!(!json.stderr.contains("recursion limit"), "{}", json.stderr);
    assert!(!json.stderr.contains("not valid JSON"), "{}", json.stderr);
    assert_eq!(json.code, yaml.code, "{json:?}\n{yaml:?}");
    assert_eq!(
        json.stderr.replace("x.json", "FILE"),
        yaml.stderr
            .replace("x.yaml", "FILE")
            .replace("(line 2)", "(line 1)"),
    );
    // Past the documented limit (1000 levels): both refused, with the same words.
    let (json, yaml) = both(&deep(1000), &["validate"]);
    assert_eq!((json.code, yaml.code), (2, 2), "{json:?}\n{yaml:?}");
    for run in [&json, &yaml] {
        assert!(
            run.stderr
                .contains("maps and lists nest deeper than 1000 levels"),
            "{}",
            run.stderr
        );
    }
    assert!(
        json.stderr.contains("x.json: document 1"),
        "{}",
        json.stderr
    );
    assert!(
        yaml.stderr.contains("x.yaml: document 1"),
        "{}",
        yaml.stderr
    );
}

/// The names of the objects `smd validate` read, from `smd fields` output.
fn names(run: &super::Run) -> Vec<String> {
    run.stdout
        .lines()
        .filter_map(|l| l.strip_prefix("# ConfigMap "))
        .map(|l| l.split_whitespace().next().unwrap_or_default().to_owned())
        .collect()
}

#[test]
fn json_stream_is_read_as_kubectl_reads_it() {
    let s = Scratch::new();
    // Objects one after another (kubectl: a JSON stream), and objects separated by `---`
    // (kubectl: one JSON object, then the rest read as YAML).
    let (a, b, c) = (configmap("a"), configmap("b"), configmap("c"));
    for (name, text) in [
        ("back-to-back.json", format!("{a}{b}\n{c}\n")),
        ("dashes.json", format!("{a}\n---\n{b}\n---\n{c}\n")),
        (
            "mixed.json",
            format!("{a}\n---\napiVersion: v1\nkind: ConfigMap\nmetadata: {{name: b}}\n---\n{c}\n"),
        ),
    ] {
        s.file(name, &text);
        let run = s.smd(&["validate", name]);
        assert_eq!(run.code, 0, "{name}: {run:?}");
        let run = s.smd(&[
            "apply",
            "--manager",
            "m",
            "--now",
            "2026-01-01T00:00:00Z",
            name,
        ]);
        assert_eq!(run.code, 0, "{name}: {run:?}");
        assert_eq!(
            run.stdout.matches("kind: ConfigMap").count(),
            3,
            "{name}: {}",
            run.stdout
        );
        for n in ["a", "b", "c"] {
            assert!(
                run.stdout.contains(&format!("name: {n}\n")),
                "{name}: {}",
                run.stdout
            );
        }
    }
    // Once more than one JSON object was read the stream is JSON: `---` is then an error, as
    // kubectl's (encoding/json's) words say, naming the file and the document.
    s.file("three.json", format!("{a}{b}\n---\n{c}\n"));
    let run = s.smd(&["validate", "three.json"]);
    assert_eq!(run.code, 2, "{run:?}");
    assert!(
        run.stderr.contains("three.json: document 3"),
        "{}",
        run.stderr
    );
    assert!(run.stderr.contains("invalid character"), "{}", run.stderr);
    // Line numbers of JSON documents.
    s.file(
        "lines.json",
        format!("{a}\n\n{b}\n{{\"apiVersion\": \"v1\"}}\n"),
    );
    let run = s.smd(&["validate", "lines.json"]);
    assert_eq!(run.code, 2, "{run:?}");
    assert!(
        run.stderr.contains("lines.json: document 3 (line 4)"),
        "{}",
        run.stderr
    );
    let _ = names;
}

/// Max RSS of a finished child in KiB, from `/usr/bin/time -v`, when that tool exists.
fn max_rss(stderr: &str) -> Option<u64> {
    stderr
        .lines()
        .find_map(|l| {
            l.trim()
                .strip_prefix("Maximum resident set size (kbytes): ")
        })
        .and_then(|v| v.trim().parse().ok())
}

#[test]
fn endless_input_is_refused_at_the_document_limit() {
    let s = Scratch::new();
    // 200 MB of one document without any marker, on stdin.
    let mut big = b"apiVersion: v1\nkind: ConfigMap\nmetadata: {name: big}\ndata:\n  k: ".to_vec();
    big.resize(200 << 20, b'x');
    let started = std::time::Instant::now();
    let run = smd_in(s.path(), &["validate", "-"], &big, &[]);
    let took = started.elapsed();
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(
        run.stderr.contains("<stdin>: document 1 (line 1)"),
        "{}",
        run.stderr
    );
    assert!(run.stderr.contains("64Mi"), "{}", run.stderr);
    assert!(run.stderr.contains("--max-document-size"), "{}", run.stderr);
    assert!(took.as_secs() < 30, "{took:?}");
    // The same through a file, measured: memory stays near the limit, far from the input.
    let path = s.file("big.yaml", &big);
    drop(big);
    if std::path::Path::new("/usr/bin/time").exists() {
        let out = std::process::Command::new("/usr/bin/time")
            .arg("-v")
            .arg(env!("CARGO_BIN_EXE_smd"))
            .args(["validate"])
            .arg(&path)
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(stderr.contains("64Mi"), "{stderr}");
        let rss = max_rss(&stderr).unwrap();
        eprintln!("max RSS of a refused 200 MB document: {rss} KiB");
        assert!(rss < 160 << 10, "{rss} KiB");
    }
    // A raised limit reads it (in another, smaller case: 80 MiB document, limit 100Mi).
    let mut text = b"apiVersion: v1\nkind: ConfigMap\nmetadata: {name: big}\ndata:\n  k: ".to_vec();
    text.resize(80 << 20, b'x');
    text.push(b'\n');
    s.file("eighty.yaml", &text);
    let run = s.smd(&["validate", "eighty.yaml"]);
    assert_eq!(run.code, 2, "{run:?}");
    let run = s.smd(&["validate", "--max-document-size", "100Mi", "eighty.yaml"]);
    assert_eq!(run.code, 0, "{run:?}");
    // /dev/zero: refused, quickly.
    if std::path::Path::new("/dev/zero").exists() {
        let started = std::time::Instant::now();
        let run = s.smd(&["validate", "/dev/zero"]);
        assert_eq!(run.code, 2, "{run:?}");
        assert!(
            run.stderr.contains("/dev/zero: document 1"),
            "{}",
            run.stderr
        );
        assert!(started.elapsed().as_secs() < 30);
    }
}

#[test]
fn many_documents_have_no_total_limit() {
    // 100k small documents in one stream, read document by document.
    let s = Scratch::new();
    let mut text = String::new();
    for i in 0..100_000 {
        text.push_str(&format!(
            "---\napiVersion: v1\nkind: ConfigMap\nmetadata: {{name: c{i}}}\n"
        ));
    }
    s.file("many.yaml", &text);
    let run = s.smd(&["validate", "--max-document-size", "1Ki", "many.yaml"]);
    assert_eq!(run.code, 0, "{run:?}");
}

const DUPLICATE: &str = "apiVersion: v1
kind: ConfigMap
metadata:
  name: dup
data:
  k: first
  k: second
";

#[test]
fn duplicate_keys_are_answered_as_the_server_answers_them() {
    let s = Scratch::new();
    s.file("dup.yaml", DUPLICATE);
    let apply = |extra: &[&str]| {
        let mut args = vec!["apply", "--manager", "m", "--now", "2026-01-01T00:00:00Z"];
        args.extend_from_slice(extra);
        args.push("dup.yaml");
        s.smd(&args)
    };
    // Strict is kubectl's default: the server's 400, naming the file and the document.
    for extra in [
        &[][..],
        &["--validate=strict"],
        &["--validate=true"],
        &["--validate"],
    ] {
        let run = apply(extra);
        assert_eq!(run.code, 2, "{extra:?}: {run:?}");
        assert!(run.stdout.is_empty());
        assert!(
            run.stderr.contains("dup.yaml: document 1 (line 1)"),
            "{}",
            run.stderr
        );
        assert!(
            run.stderr.contains(
                "error strict decoding patch: error converting YAML to JSON: yaml: unmarshal errors:\n  line 7: key \"k\" already set in map"
            ),
            "{}",
            run.stderr
        );
    }
    // Warn: the server's warning, as kubectl prints one; the apply goes on (last value wins).
    let run = apply(&["--validate=warn"]);
    assert_eq!(run.code, 0, "{run:?}");
    assert!(
        run.stderr
            .contains("Warning: line 7: key \"k\" already set in map"),
        "{}",
        run.stderr
    );
    assert!(run.stdout.contains("k: second"), "{}", run.stdout);
    // Ignore: silent.
    for extra in ["--validate=ignore", "--validate=false"] {
        let run = apply(&[extra]);
        assert_eq!(run.code, 0, "{run:?}");
        assert!(run.stderr.is_empty(), "{}", run.stderr);
        assert!(run.stdout.contains("k: second"), "{}", run.stdout);
    }
    // diff has the same flag and default.
    let run = s.smd(&["diff", "--manager", "m", "dup.yaml"]);
    assert_eq!(run.code, 2, "{run:?}");
    assert!(run.stderr.contains("already set in map"), "{}", run.stderr);
    // In JSON too, with the line the server would give.
    s.file(
        "dup.json",
        "{\"apiVersion\": \"v1\", \"kind\": \"ConfigMap\",\n \"metadata\": {\"name\": \"dup\"},\n \"data\": {\"k\": \"first\",\n  \"k\": \"second\"}}\n",
    );
    let run = s.smd(&["apply", "--manager", "m", "dup.json"]);
    assert_eq!(run.code, 2, "{run:?}");
    assert!(
        run.stderr.contains("dup.json: document 1 (line 1)"),
        "{}",
        run.stderr
    );
    assert!(
        run.stderr.contains("line 4: key \"k\" already set in map"),
        "{}",
        run.stderr
    );
}

#[test]
fn a_stream_of_non_objects_stops_at_the_first() {
    // 100 MB of `{}`: each document is read and refused as it comes, not collected first.
    let s = Scratch::new();
    let started = std::time::Instant::now();
    let run = smd_in(s.path(), &["validate"], &b"{}".repeat(50 << 20), &[]);
    assert_eq!(run.code, 2, "{run:?}");
    assert!(
        run.stderr
            .contains("<stdin>: document 1 (line 1): .apiVersion is missing"),
        "{}",
        run.stderr
    );
    assert!(started.elapsed().as_secs() < 30);
}
