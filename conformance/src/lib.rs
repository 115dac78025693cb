//! The conformance runner: scenarios in, comparison with Go's goldens out.
