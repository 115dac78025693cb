//! Evaluation errors: cel-go's error values, kept as their message (the texts a rule's failure
//! reports), and the cancellation that stops an evaluation over its cost limit.

/// Why an evaluation produced no value.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Error {
    /// A CEL error value (`no such key: x`, `division by zero`, ...), cel-go's text.
    #[error("{0}")]
    Value(String),
    /// The evaluation went over its cost limit; nothing absorbs this one.
    #[error("operation cancelled: actual cost limit exceeded")]
    CostLimitExceeded,
    /// The program cannot be built: cel-go's planner folds a constant conversion that fails
    /// (`int("1.5")`) or compiles a constant regex that does not compile, refusing the program
    /// before any evaluation.
    #[error("{0}")]
    Program(String),
    /// The expression nests deeper than the interpreter evaluates.
    #[error("max recursion depth exceeded")]
    TooDeep,
    /// The evaluation ran more loop iterations than [`crate::eval::MAX_LOOP_STEPS`]: smd's
    /// own bound on time (loop steps that cost nothing can nest a cubic amount of work under
    /// any cost limit; the API server stops those at its request timeout, with cel-go's
    /// interrupt, whose text this is). Nothing absorbs it.
    #[error("operation interrupted")]
    Interrupted,
}

impl Error {
    /// A CEL error value with cel-go's text.
    pub fn new(message: impl Into<String>) -> Self {
        Error::Value(message.into())
    }

    /// cel-go's plain `no such overload`.
    pub fn no_such_overload() -> Self {
        Error::new("no such overload")
    }

    /// Whether `&&`, `||` and the comprehensions' `@not_strictly_false` may absorb it.
    pub fn absorbable(&self) -> bool {
        matches!(self, Error::Value(_))
    }
}

/// An evaluation's outcome.
pub type Result<T> = std::result::Result<T, Error>;
