//! The error for a line that is not a USI message.

use std::fmt;

/// A line that cannot be read as the message it claims to be, with the reason in words.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseMessageError(pub String);

impl fmt::Display for ParseMessageError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for ParseMessageError {}

/// An `Err` with this reason.
pub(crate) fn err<T>(reason: impl Into<String>) -> Result<T, ParseMessageError> {
    Err(ParseMessageError(reason.into()))
}
