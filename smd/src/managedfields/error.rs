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
    /// The request's options are invalid: an empty or too long manager name (HTTP 422).
    #[error("{0}")]
    Invalid(String),
    /// Anything else: an object that does not fit its type, a kind with no type (HTTP 500).
    #[error("{0}")]
    Internal(String),
}

impl Error {
    /// The HTTP status code the API server answers with.
    pub fn code(&self) -> u16 {
        match self {
            Error::Conflict(_) => 409,
            Error::BadRequest(_) => 400,
            Error::Invalid(_) => 422,
            Error::ManagedFields(_) | Error::Internal(_) => 500,
        }
    }

    pub(crate) fn internal(message: impl Into<String>) -> Error {
        Error::Internal(message.into())
    }
}
