//! Item 10, nesting: the API server accepts CRD schemas hundreds of levels deep, so smd reads
//! them up to its readers' one nesting limit (1000 maps and lists, `MAX_DEPTH`) and, past it,
//! says the limit is smd's. Every command runs in-process on a 2 MiB thread (Rust's default for
//! spawned threads, and the test harness's), in the unoptimised build tests use, so a reader or a
//! walk that spends too much stack per level overflows here.

use super::Scratch;

const HEAD: &str = "apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: deeps.example.com}
spec:
  group: example.com
  scope: Namespaced
  names: {plural: deeps, kind: Deep}
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec: ";

/// Maps and lists around the schema of `spec` in [`HEAD`]: the CRD, `spec`, `versions`, the
/// version, `schema`, `openAPIV3Schema` and its `properties`.
const ABOVE_SPEC: usize = 7;

/// How a schema level nests.
#[derive(Clone, Copy, Debug)]
enum Via {
    /// `{type: object, properties: {a: …}}`: two maps a level.
    Properties,
    /// `{type: array, x-kubernetes-list-type: atomic, items: …}`: one map a level.
    Items,
    /// `{type: object, additionalProperties: …}`: one map a level.
    Additional,
}

/// A CRD whose `spec` schema nests `levels` schemas deep, and a `Deep` whose `spec` nests as
/// deep (`levels` maps or lists), with a string at the bottom.
fn deep(levels: usize, via: Via) -> (String, String) {
    let mut schema = String::from("{type: string}");
    let mut value = String::from("x");
    for _ in 0..levels {
        (schema, value) = match via {
            Via::Properties => (
                format!("{{type: object, properties: {{a: {schema}}}}}"),
                format!("{{a: {value}}}"),
            ),
            Via::Items => (
                format!("{{type: array, x-kubernetes-list-type: atomic, items: {schema}}}"),
                format!("[{value}]"),
            ),
            Via::Additional => (
                format!("{{type: object, additionalProperties: {schema}}}"),
                format!("{{a: {value}}}"),
            ),
        };
    }
    let object = format!(
        "apiVersion: example.com/v1\nkind: Deep\nmetadata: {{name: d, namespace: default}}\nspec: {value}\n"
    );
    (format!("{HEAD}{schema}\n"), object)
}

/// The deepest schema the readers' limit lets a CRD hold, nesting `via`.
fn deepest(via: Via) -> usize {
    let room = 1000 - ABOVE_SPEC - 1; // the leaf `{type: string}` is a map too
    match via {
        Via::Properties => room / 2,
        Via::Items | Via::Additional => room,
    }
}

/// `smd args` run in-process on a fresh 2 MiB thread: (exit code, stdout, stderr).
fn smd_2mib(dir: &std::path::Path, args: &[&str]) -> (u8, String, String) {
    let args: Vec<std::ffi::OsString> = std::iter::once("smd")
        .chain(args.iter().copied())
        .map(Into::into)
        .collect();
    let dir = dir.to_owned();
    let thread = std::thread::Builder::new()
        .stack_size(2 << 20)
        .spawn(move || {
            let (mut out, mut err) = (Vec::new(), Vec::new());
            // Paths are absolute: the process's directory is shared with other tests.
            let args: Vec<std::ffi::OsString> = args
                .into_iter()
                .map(|a| match a.to_str() {
                    Some(name) if name.ends_with(".yaml") => dir.join(name).into_os_string(),
                    _ => a,
                })
                .collect();
            let code = smd_cli::run(args, &mut out, &mut err);
            (
                format!("{code:?}"),
                String::from_utf8_lossy(&out).into_owned(),
                String::from_utf8_lossy(&err).into_owned(),
            )
        })
        .unwrap();
    let (code, out, err) = thread.join().expect("smd overflowed or panicked");
    // `ExitCode` shows as `ExitCode(unix_exit_status(N))`: keep the number.
    let digits: String = code
        .chars()
        .filter(char::is_ascii_digit)
        .collect::<String>();
    (digits.parse().unwrap(), out, err)
}

/// Every command that reads a CRD, on `levels` schema levels nesting `via`: all succeed.
fn every_command_reads(levels: usize, via: Via) {
    let s = Scratch::new();
    let (crd, object) = deep(levels, via);
    s.file("crd.yaml", crd);
    s.file("obj.yaml", object);
    let what = format!("{levels} levels via {via:?}");
    for args in [
        &["schema", "convert", "crd.yaml"][..],
        &["schema", "lint", "crd.yaml"],
        &["validate", "--crd", "crd.yaml", "obj.yaml"],
        &["apply", "obj.yaml", "--manager", "m", "--crd", "crd.yaml"],
    ] {
        let (code, out, err) = smd_2mib(s.path(), args);
        assert_eq!(
            code,
            0,
            "{what}: smd {args:?}: {}",
            &err[..err.len().min(600)]
        );
        assert!(err.is_empty(), "{what}: smd {args:?}: {err}");
        assert!(!out.is_empty() || args[1] == "lint", "{what}: smd {args:?}");
        if args[0] == "apply" {
            assert!(
                out.contains("kind: Deep") && out.contains("manager: m"),
                "{what}"
            );
        }
    }
}

#[test]
fn crd_schemas_hundreds_of_levels_deep_are_read_like_the_server_reads_them() {
    // Smd refused both (its limit was 100 schema levels); the API server accepts them.
    every_command_reads(150, Via::Properties);
    every_command_reads(500, Via::Items);
}

#[test]
fn crd_schemas_nest_up_to_the_readers_limit() {
    for via in [Via::Properties, Via::Items, Via::Additional] {
        every_command_reads(deepest(via), via);
    }
}

#[test]
fn one_level_past_the_limit_is_refused_as_smds_limit() {
    for via in [Via::Properties, Via::Items, Via::Additional] {
        let s = Scratch::new();
        let (crd, _) = deep(deepest(via) + 1, via);
        s.file("crd.yaml", crd);
        for args in [
            &["schema", "convert", "crd.yaml"][..],
            &["schema", "lint", "crd.yaml"],
        ] {
            let (code, out, err) = smd_2mib(s.path(), args);
            assert_eq!(
                (code, out.as_str()),
                (2, ""),
                "{via:?}: smd {args:?}: {err}"
            );
            assert!(
                err.contains(
                    "maps and lists nest deeper than 1000 levels (smd's limit, not the API \
                     server's)"
                ),
                "{via:?}: smd {args:?}: {err}"
            );
        }
    }
}

/// Not a regression test (smd refused these before, cutting the schemas at 100 levels): a
/// guard that the rendering of Go's error, which shows each version's whole schema, fits the
/// stack at the limit.
#[test]
fn a_refused_crd_at_the_limit_is_shown_whole() {
    // Two storage versions with different schemas.
    for via in [Via::Properties, Via::Items, Via::Additional] {
        let s = Scratch::new();
        let (crd, _) = deep(deepest(via), via);
        let at = crd.find("  - name: v1").unwrap();
        let second = crd[at..].replacen("name: v1", "name: v2", 1).replacen(
            "type: object\n",
            "type: object\n        description: v2\n",
            1,
        );
        s.file("crd.yaml", format!("{crd}{second}"));
        let (code, out, err) = smd_2mib(s.path(), &["schema", "lint", "crd.yaml"]);
        assert_eq!((code, out.as_str()), (2, ""), "{via:?}");
        assert!(
            err.contains("must have exactly one version marked as storage version"),
            "{via:?}: {}",
            &err[..err.len().min(600)]
        );
    }
}
