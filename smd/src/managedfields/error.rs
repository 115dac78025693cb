//! Why the API server refuses a write, as the field manager and the request checks around it
//! word it.

use super::conflict::ConflictError;
use super::managed::DecodeError;

/// A refused apply or update, with the API server's message.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// The apply would change fields other managers own (HTTP 409).
    #[error("{0}")]
    Conflict(ConflictError),
    /// The live object's managedFields cannot be decoded (an apply; HTTP 500).
    #[error("failed to decode managed fields: {0}")]
    ManagedFields(DecodeError),
    /// The request is malformed: a kind the endpoint does not serve, managedFields in an
    /// applied configuration (HTTP 400).
    #[error("{0}")]
    BadRequest(String),
    /// The request's options are invalid: an empty or too long manager name (HTTP 422), with
    /// one cause per problem.
    #[error("{message}")]
    Invalid {
        /// The whole message.
        message: String,
        /// Each problem.
        causes: Vec<Cause>,
    },
    /// The endpoint has no such subresource, or the request needs a stored object and there
    /// is none (HTTP 404).
    #[error("{0}")]
    NotFound(String),
    /// The stored object does not fit its type, so the field manager cannot work on it
    /// (HTTP 500): the fault is in the live object, not in the request.
    #[error("{0}")]
    LiveObject(String),
    /// Anything else: a request body that does not fit its type, a kind with no type (HTTP 500).
    #[error("{0}")]
    Internal(String),
    /// smd's own limit, not an answer of the API server: the object would be stored with
    /// managedFields nested deeper than smd reads back (see
    /// [`MAX_MANAGED_PATH`](super::MAX_MANAGED_PATH)). [`Error::code`] says 500 for callers that
    /// need a status.
    #[error("{0}")]
    Limit(String),
}

impl Error {
    /// The HTTP status code the API server answers with.
    pub fn code(&self) -> u16 {
        match self {
            Error::Conflict(_) => 409,
            Error::BadRequest(_) => 400,
            Error::Invalid { .. } => 422,
            Error::NotFound(_) => 404,
            Error::ManagedFields(_)
            | Error::LiveObject(_)
            | Error::Internal(_)
            | Error::Limit(_) => 500,
        }
    }

    /// The reason of the API server's status (`Conflict`, `Invalid`, `BadRequest`,
    /// `NotFound`); `None` for a 500, which has none.
    pub fn reason(&self) -> Option<&'static str> {
        match self {
            Error::Conflict(_) => Some("Conflict"),
            Error::BadRequest(_) => Some("BadRequest"),
            Error::Invalid { .. } => Some("Invalid"),
            Error::NotFound(_) => Some("NotFound"),
            Error::ManagedFields(_)
            | Error::LiveObject(_)
            | Error::Internal(_)
            | Error::Limit(_) => None,
        }
    }

    /// The `details.causes` of the API server's status: one per conflicting field, one per
    /// invalid option; none for other errors.
    pub fn causes(&self) -> Vec<Cause> {
        match self {
            Error::Conflict(c) => c
                .causes()
                .into_iter()
                .map(|(message, field)| Cause {
                    kind: "FieldManagerConflict".to_owned(),
                    message,
                    field,
                })
                .collect(),
            Error::Invalid { causes, .. } => causes.clone(),
            _ => Vec::new(),
        }
    }

    /// Whether the fault is in the stored object (its managedFields or its fields) rather
    /// than in the request: a caller holding both names the live object's source.
    pub fn is_live_object_fault(&self) -> bool {
        matches!(self, Error::ManagedFields(_) | Error::LiveObject(_))
    }

    pub(crate) fn internal(message: impl Into<String>) -> Error {
        Error::Internal(message.into())
    }
}

/// One cause of a refusal, as the API server's `StatusCause`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Cause {
    /// `type`: `FieldManagerConflict`, `FieldValueRequired`, `FieldValueTooLong`,
    /// `FieldValueInvalid`.
    pub kind: String,
    /// What is wrong with the field.
    pub message: String,
    /// The field: a path like `.spec.replicas`, or an option like `fieldManager`.
    pub field: String,
}
