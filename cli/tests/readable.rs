//! `blame` and `fields`, readable (issue 14, item 8), from the real binary: what a field owned
//! as a whole holds shows that field's owners; one color per manager with a legend, only
//! when colors are on; a bounded owner column; `fields` as a tree or in Go's order.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// `smd args` in the workspace root, stdout a pipe: exit code, stdout and stderr as one text.
fn smd(args: &[&str]) -> String {
    let output = Command::new(env!("CARGO_BIN_EXE_smd"))
        .args(args)
        .current_dir(root())
        .env_remove("NO_COLOR")
        .stdin(Stdio::null())
        .output()
        .unwrap();
    format!(
        "exit: {}\n--- stdout\n{}--- stderr\n{}",
        output.status.code().unwrap_or(-1),
        String::from_utf8(output.stdout).unwrap(),
        String::from_utf8(output.stderr).unwrap()
    )
}

const ATOMIC: &str = "cli/tests/data/atomic-list.yaml";

/// The owner column of the line ending in `text`.
fn owners_of<'a>(shown: &'a str, text: &str) -> &'a str {
    let line = shown
        .lines()
        .find(|l| l.ends_with(text))
        .unwrap_or_else(|| panic!("{text:?} in {shown}"));
    line.split(" | ").next().unwrap().trim_end()
}

#[test]
fn items_of_an_atomic_list_show_the_lists_owners() {
    let shown = smd(&["blame", ATOMIC]);
    assert!(shown.starts_with("exit: 0\n"), "{shown}");
    // The args list is atomic: its fieldsV1 names only `f:args`, yet each item is owned.
    for item in ["- --listen=:8080", "- --verbose"] {
        let owners = owners_of(&shown, item);
        assert!(owners.contains("kubectl"), "{item}: {owners}");
        assert!(
            owners.contains("a-very-long-controller-name"),
            "{item}: {owners}"
        );
    }
    assert_eq!(
        owners_of(&shown, "image: busybox:1.36"),
        "kubectl (Apply 2026-01-01T00:00:01Z)"
    );
    insta::assert_snapshot!("blame-atomic-list", shown);
    insta::assert_snapshot!(
        "blame-atomic-list-color",
        smd(&["blame", ATOMIC, "--color", "always"])
    );
}

#[test]
fn a_granular_atomic_struct_passes_its_owners_down() {
    // LabelSelector is `granular: atomic`: kubectl owns `.spec.selector` as a whole.
    let shown = smd(&["blame", "examples/deployment-hpa/live.yaml"]);
    assert_eq!(
        owners_of(&shown, "    matchLabels:"),
        "kubectl (Apply 2026-01-01T00:00:01Z)"
    );
}

#[test]
fn the_owner_column_is_bounded_and_escaped() {
    let shown = smd(&["blame", ATOMIC, "--color", "never"]);
    let widest = shown
        .lines()
        .filter_map(|l| l.split_once(" | "))
        .map(|(owners, _)| owners.trim_end().chars().count())
        .max()
        .unwrap();
    assert!(widest <= 64, "{widest}: {shown}");
    // The long name is cut, with an ellipsis.
    assert!(
        shown.contains("a-very-long-controller-name-tha…"),
        "{shown}"
    );
    assert!(!shown.contains("on-and-on-and-on"), "{shown}");
    // With colors, the legend names it whole.
    let colored = smd(&["blame", ATOMIC, "--color", "always"]);
    assert!(
        colored.contains("a-very-long-controller-name-that-goes-on-and-on-and-on (Update"),
        "{colored}"
    );
}

#[test]
fn no_color_and_no_legend_in_a_pipe_by_default() {
    for args in [
        &["blame", ATOMIC][..],
        &["blame", ATOMIC, "--color", "auto"][..],
        &["blame", ATOMIC, "--color", "never"][..],
    ] {
        let shown = smd(args);
        assert!(!shown.contains('\u{1b}'), "{args:?}: {shown}");
        assert!(!shown.contains("# owners:"), "{args:?}: {shown}");
    }
    let colored = smd(&["blame", ATOMIC, "--color", "always"]);
    assert!(colored.contains("# owners:"), "{colored}");
    // Two managers, two colors.
    assert!(
        colored.contains("\u{1b}[36m") && colored.contains("\u{1b}[33m"),
        "{colored}"
    );
}

#[test]
fn the_shipped_examples_blamed_and_listed() {
    for (name, args) in [
        (
            "crd-instance",
            &[
                "examples/crd-instance/live.yaml",
                "--crd",
                "examples/crd-instance/crd.yaml",
            ][..],
        ),
        (
            "service-two-appliers",
            &["examples/service-two-appliers/live.yaml"][..],
        ),
        (
            "client-side-to-server-side",
            &["examples/client-side-to-server-side/live.yaml"][..],
        ),
    ] {
        let blame: Vec<&str> = ["blame"].into_iter().chain(args.iter().copied()).collect();
        insta::assert_snapshot!(format!("blame-{name}"), smd(&blame));
        // `fields` takes no --crd: it needs no types.
        insta::assert_snapshot!(format!("fields-tree-{name}"), smd(&["fields", args[0]]));
    }
}

#[test]
fn fields_as_a_tree_or_in_gos_order() {
    let tree = smd(&["fields", ATOMIC]);
    assert!(
        tree.contains("      [name=\"app\"] (owned)\n        .args\n"),
        "{tree}"
    );
    insta::assert_snapshot!("fields-tree-atomic-list", tree);
    let go = smd(&["fields", ATOMIC, "--order", "go"]);
    assert!(
        go.contains("  .spec.containers[name=\"app\"].args\n"),
        "{go}"
    );
    insta::assert_snapshot!("fields-go-atomic-list", go);
    // Every path of Go's order is in the tree, as its last element.
    for path in go.lines().filter(|l| l.starts_with("  .")) {
        let path = path.trim();
        let last = path.rfind(['.', '[']).map(|at| &path[at..]).unwrap();
        assert!(tree.contains(last), "{last}: {tree}");
    }
}

#[test]
fn fields_colors_each_entry_as_blame_does() {
    let hpa = "examples/deployment-hpa/live.yaml";
    let fields = smd(&["fields", hpa, "--color", "always"]);
    let blame = smd(&["blame", hpa, "--color", "always"]);
    // Each entry's color in `fields` is its color in blame's legend.
    for (name, heading) in [
        ("kubectl (Apply", "kubectl (Apply, apps/v1"),
        (
            "horizontal-pod-autoscaler (Update",
            "horizontal-pod-autoscaler (Update, apps/v1",
        ),
    ] {
        let code = |text: &str, what: &str| {
            let at = text
                .find(what)
                .unwrap_or_else(|| panic!("{what:?} in {text}"));
            text[..at].rsplit('\u{1b}').next().unwrap().to_owned()
        };
        assert_eq!(code(&fields, heading), code(&blame, name), "{name}");
    }
    insta::assert_snapshot!("fields-color", fields);
    let plain = smd(&["fields", hpa]);
    assert!(!plain.contains('\u{1b}'), "{plain}");
}
