//! Reading lines from people, clients and engines without trusting them: bounded in
//! length, and not failing on bytes that are not UTF-8.

/// Longest line read from a person, a client or an engine (a move, a command, a whole GGF
/// game record of a few kilobytes fit many times over); longer lines are skipped, so a peer
/// that never sends a newline cannot make the process grow without bound.
pub const MAX_LINE_BYTES: usize = 64 * 1024;

/// What reading one line found.
#[derive(Debug, PartialEq, Eq)]
pub enum LineRead {
    /// The input has ended.
    End,
    /// A line of text (in the caller's buffer).
    Text,
    /// A line that is not UTF-8: a person's typo or a client's garbage, to be answered,
    /// not a reason to end the session.
    NotText,
    /// A line longer than [`MAX_LINE_BYTES`], read to its end and dropped.
    TooLong,
}

/// Reads one line of `input` into `line` (replacing its contents) without failing on
/// bytes that are not UTF-8, and holding at most [`MAX_LINE_BYTES`] of it in memory.
pub fn read_text_line(
    input: &mut impl std::io::BufRead,
    line: &mut String,
) -> std::io::Result<LineRead> {
    use std::io::{BufRead, Read};
    let mut bytes = Vec::new();
    line.clear();
    let mut limited = (&mut *input).take(MAX_LINE_BYTES as u64 + 1);
    if limited.read_until(b'\n', &mut bytes)? == 0 {
        return Ok(LineRead::End);
    }
    if bytes.len() > MAX_LINE_BYTES {
        skip_line(input)?;
        return Ok(LineRead::TooLong);
    }
    match String::from_utf8(bytes) {
        Ok(text) => {
            *line = text;
            Ok(LineRead::Text)
        }
        Err(_) => Ok(LineRead::NotText),
    }
}

/// Consumes `input` up to and including the next newline (or its end) without keeping it.
fn skip_line(input: &mut impl std::io::BufRead) -> std::io::Result<()> {
    loop {
        let buffer = match input.fill_buf() {
            Ok(buffer) => buffer,
            Err(error) if error.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(error) => return Err(error),
        };
        if buffer.is_empty() {
            return Ok(());
        }
        match buffer.iter().position(|&byte| byte == b'\n') {
            Some(end) => {
                input.consume(end + 1);
                return Ok(());
            }
            None => {
                let all = buffer.len();
                input.consume(all);
            }
        }
    }
}
