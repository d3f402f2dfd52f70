//! How every front end words an error: the message and each of its causes, so that a
//! wrapped error (a file that could not be read, and why) reads as one line.

/// The error and each of its causes, joined by ": ".
pub fn chain(error: &dyn std::error::Error) -> String {
    let mut text = error.to_string();
    let mut cause = error.source();
    while let Some(next) = cause {
        text.push_str(": ");
        text.push_str(&next.to_string());
        cause = next.source();
    }
    text
}
