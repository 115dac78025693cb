//! cel-go's limits hold without exhausting the stack: expressions nested at, just past and far
//! past the recursion limit of 250 parse (or fail with cel-go's error) on a thread whose stack
//! is small, 1 MiB in a release build and 2.5 MiB in an unoptimised one (whose frames are
//! several times larger). The corpus test checks the error texts; this checks the stack.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

const STACK: usize = if cfg!(debug_assertions) {
    5 << 19
} else {
    1 << 20
};

fn nested(open: &str, inner: &str, close: &str, times: usize) -> String {
    format!("{}{inner}{}", open.repeat(times), close.repeat(times))
}

fn parse_on_small_stack(text: String) -> Result<(), String> {
    std::thread::Builder::new()
        .stack_size(STACK)
        .spawn(move || match smd_cel::parse(&text) {
            Ok(parsed) => {
                let _ = smd_cel::debug::to_adorned_string(&parsed);
                Ok(())
            }
            Err(e) => Err(e.to_string()),
        })
        .unwrap()
        .join()
        .unwrap()
}

#[test]
fn nesting_at_and_past_the_limit() {
    let shapes = [
        ("(", "1", ")"),
        ("[", "1", "]"),
        ("{1: ", "1", "}"),
        ("f(", "1", ")"),
        ("a.all(x, ", "1", ")"),
        ("a.optMap(x, ", "1", ")"),
        ("a.b(", "1", ")"),
        ("a[", "1", "]"),
        ("x ? 1 : ", "1", ""),
        ("1 + 2 * (", "1", ")"),
        ("A{f: ", "1", "}"),
        ("[?", "1", "]"),
    ];
    for (open, inner, close) in shapes {
        for times in [249, 250, 251, 5000] {
            let result = parse_on_small_stack(nested(open, inner, close, times));
            if let Err(e) = result {
                assert!(
                    e == "ERROR: <input>:-1:0: expression recursion limit exceeded: 250"
                        || e == "ERROR: <input>:-1:0: max recursion depth exceeded",
                    "{open}×{times}: {e}"
                );
            }
        }
    }
    for (inner, close) in [
        ("a", ".b"),
        ("a", "[0]"),
        ("a", ".f()"),
        ("1", " + 1"),
        ("a", ".?b"),
    ] {
        assert!(parse_on_small_stack(nested("", inner, close, 250)).is_ok());
        assert_eq!(
            parse_on_small_stack(nested("", inner, close, 251)),
            Err("ERROR: <input>:-1:0: max recursion depth exceeded".to_string())
        );
        assert!(parse_on_small_stack(nested("", inner, close, 50_000)).is_err());
    }
    for prefix in ["!", "-", "!-"] {
        assert!(
            parse_on_small_stack(format!("{}a", prefix.repeat(30_000))).is_ok() || prefix == "!-"
        );
    }
    assert!(parse_on_small_stack(format!("a{}", " && b".repeat(19_000))).is_ok());
}

/// `optMap` copies its target, so each link of a chain doubles the tree; cel-go has no bound
/// on that, this parser stops at a million nodes rather than run out of memory.
#[test]
fn chained_opt_maps_are_bounded() {
    let ten = format!("a{}", ".optMap(x, x)".repeat(10));
    assert!(smd_cel::parse(&ten).is_ok());
    let sixty = format!("a{}", ".optMap(x, x)".repeat(60));
    let started = std::time::Instant::now();
    let err = smd_cel::parse(&sixty).unwrap_err().to_string();
    assert!(err.contains("expression too large"), "{err}");
    assert!(started.elapsed() < std::time::Duration::from_secs(20));
}

/// Sizes from no schema.
struct NoSizes;

impl smd_cel::SizeEstimator for NoSizes {
    fn estimate_size(&self, _: &[String]) -> Option<smd_cel::SizeEstimate> {
        None
    }
}

/// Checks with `x` a dyn variable and, when that succeeds, estimates the cost.
fn check_and_estimate(parsed: &smd_cel::ast::Parsed) {
    let env = smd_cel::check::Env::new().variable("x", smd_cel::check::Type::Dyn);
    if let Ok(checked) = smd_cel::check_types(parsed, &env) {
        let _ = smd_cel::estimate_cost(parsed, &checked, &NoSizes);
    }
}

/// The type checker and the cost estimate walk every tree the parser accepts without
/// exhausting a small stack.
#[test]
fn checking_at_the_limit() {
    let shapes = [
        ("(", "1", ")"),
        ("[", "1", "]"),
        ("{1: ", "1", "}"),
        ("size(", "1", ")"),
        ("[1].all(x, ", "true", ")"),
        ("[1].map(x, ", "1", ")"),
        ("optional.of(1).optMap(x, ", "1", ")"),
        ("'a'.contains(", "'b'", ")"),
        ("[1][", "0", "]"),
        ("true ? 1 : ", "1", ""),
        ("1 + 2 * (", "1", ")"),
        ("[?", "optional.of(1)", "]"),
        ("{'a': 1}.", "a", ""),
    ];
    for (open, inner, close) in shapes {
        for times in [249, 250] {
            let text = nested(open, inner, close, times);
            let shown = format!("{open}×{times}");
            std::thread::Builder::new()
                .stack_size(STACK)
                .spawn(move || {
                    if let Ok(parsed) = smd_cel::parse(&text) {
                        check_and_estimate(&parsed);
                    }
                })
                .unwrap()
                .join()
                .unwrap_or_else(|_| panic!("{shown}"));
        }
    }
    for (inner, close) in [
        ("[1]", "[0]"),
        ("'a'", ".size()"),
        ("1", " + 1"),
        ("x", ".?b"),
        ("x", ".b"),
        ("x", ".all(e, e)"),
    ] {
        let text = nested("", inner, close, 250);
        std::thread::Builder::new()
            .stack_size(STACK)
            .spawn(move || {
                let parsed = smd_cel::parse(&text).unwrap();
                check_and_estimate(&parsed);
            })
            .unwrap()
            .join()
            .unwrap();
    }
}
