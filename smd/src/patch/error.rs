//! Why a patch cannot be applied, in the API server's words, with the HTTP status it answers.

/// A patch the API server refuses. The text is the server's `message`; [`PatchError::status`]
/// is its HTTP status.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PatchError {
    /// A merge patch applied to `null` (json-patch's `ErrBadJSONDoc`; the server's current
    /// object is never `null`).
    #[error("Invalid JSON Document")]
    InvalidDocument,
    /// A merge patch that is neither an object nor an array (json-patch's `ErrBadJSONPatch`,
    /// a 400 Bad Request).
    #[error("Invalid JSON Patch")]
    InvalidMergePatch,
    /// A JSON patch that does not decode as a list of operations (`DecodePatch`: Go's
    /// `encoding/json` type error, a 400 Bad Request).
    #[error("{message}")]
    Decode {
        /// `encoding/json`'s words.
        message: String,
    },
    /// A JSON patch of more operations than the server takes (413 Request Entity Too Large).
    #[error("The allowed maximum operations in a JSON patch is {max}, got {got}")]
    TooManyOperations {
        /// The server's limit, [`super::MAX_OPERATIONS`].
        max: usize,
        /// The number of operations in the patch.
        got: usize,
    },
    /// An operation of a JSON patch that cannot be applied (a 422 Unprocessable Entity).
    #[error("{message}")]
    Apply {
        /// json-patch's words.
        message: String,
    },
    /// A strategic merge patch the server refuses; `status` is 400 for a malformed patch, 422 for
    /// a list of lists or `$retainKeys` that disagree with the patch, 500 for the other errors
    /// of `strategicpatch`, which the server passes on unclassified.
    #[error("{message}")]
    Strategic {
        /// `strategicpatch`'s words.
        message: String,
        /// The HTTP status the server answers.
        status: u16,
    },
    /// An input on which the server's patch code panics (json-patch dereferences a missing
    /// value, or writes into a `null` it took for an object); the server recovers and answers
    /// 500 with this text.
    #[error("This request caused apiserver to panic. Look in the logs for details.")]
    ServerPanic {
        /// What panics in Go, for people.
        reason: &'static str,
    },
    /// An object or patch nested deeper than smd's limit ([`smd_fieldpath::MAX_DEPTH`]); the
    /// server's own readers stop at 10,000 levels.
    #[error("the patch or the object nests deeper than {max} levels (smd's limit)")]
    TooDeep {
        /// The limit.
        max: usize,
    },
}

impl PatchError {
    /// The HTTP status of the server's answer.
    pub fn status(&self) -> u16 {
        match self {
            PatchError::InvalidMergePatch | PatchError::Decode { .. } => 400,
            PatchError::TooManyOperations { .. } => 413,
            PatchError::Apply { .. } | PatchError::TooDeep { .. } => 422,
            PatchError::Strategic { status, .. } => *status,
            PatchError::InvalidDocument | PatchError::ServerPanic { .. } => 500,
        }
    }

    pub(crate) fn apply(message: impl Into<String>) -> PatchError {
        PatchError::Apply {
            message: message.into(),
        }
    }
}
