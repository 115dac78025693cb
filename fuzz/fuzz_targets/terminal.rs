//! The terminal filter every line of smd's output passes, and the escaping of names.
//!
//! Invariants: `clean` leaves no terminal control but line feeds, tabs and (with colors on)
//! smd's own color codes; text with nothing to escape passes unchanged; `escape` leaves no
//! control at all, so a name can never start a line of its own.
#![no_main]

use libfuzzer_sys::fuzz_target;
use smd::fieldpath::is_terminal_control;
use smd_cli::fuzzing::{SGR, clean, escape};

fuzz_target!(|data: &[u8]| {
    let Some((&flag, bytes)) = data.split_first() else {
        return;
    };
    let colors = flag & 1 == 1;
    let cleaned = clean(bytes, colors);
    let mut text = std::str::from_utf8(&cleaned)
        .expect("cleaned output is UTF-8")
        .to_owned();
    if colors {
        // smd's own color codes, the one list its terminal filter lets through.
        for code in SGR {
            text = text.replace(&*String::from_utf8_lossy(code), "");
        }
    }
    assert!(
        !text
            .chars()
            .any(|c| c != '\n' && c != '\t' && is_terminal_control(c)),
        "{text:?}"
    );
    if let Ok(plain) = std::str::from_utf8(bytes) {
        if !plain
            .chars()
            .any(|c| c != '\n' && c != '\t' && is_terminal_control(c))
        {
            assert_eq!(&*cleaned, bytes, "nothing to escape, yet changed");
        }
        let escaped = escape(plain);
        assert!(!escaped.chars().any(is_terminal_control), "{escaped:?}");
    }
});
