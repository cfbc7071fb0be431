//! The input side: a thread that reads the GUI's lines and hands them to the loop on a
//! channel, so that the loop is free to answer `stop` and `isready` while the engine works.
//!
//! Memory stays bounded whatever arrives: a line longer than [`MAX_LINE_BYTES`] is not kept
//! (only its length is passed on, for a report), and the channel holds a few lines at most
//! (a GUI that writes faster than the loop reads waits, as on any full pipe). Bytes that are
//! not UTF-8 are replaced, never fatal.

use crossbeam_channel::Receiver;
use std::io::{BufRead, ErrorKind};

/// Longest input line taken, in bytes: far beyond any real command (a game of 10 000 moves
/// is about 50 KB), and a bound on the memory one line can take.
pub const MAX_LINE_BYTES: usize = 1 << 20;

/// Lines read but not yet taken by the loop.
const QUEUED_LINES: usize = 64;

/// What the reader passes on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Input {
    /// One line (with its line end, if it had one).
    Line(String),
    /// A line longer than [`MAX_LINE_BYTES`], dropped: its length in bytes, line end excluded.
    TooLong(usize),
}

/// Start the reader thread; the channel closes at the end of input.
pub fn spawn(input: impl BufRead + Send + 'static) -> Receiver<Input> {
    let (tx, rx) = crossbeam_channel::bounded(QUEUED_LINES);
    let reader = move || {
        let mut input = input;
        let mut buf = Vec::new();
        while let Ok(Some(len)) = read_line(&mut input, &mut buf, MAX_LINE_BYTES) {
            let item = if len > MAX_LINE_BYTES {
                Input::TooLong(len)
            } else {
                Input::Line(String::from_utf8_lossy(&buf).into_owned())
            };
            if tx.send(item).is_err() {
                break;
            }
        }
    };
    std::thread::Builder::new()
        .name("stdin".into())
        .spawn(reader)
        .expect("spawn the input reader");
    rx
}

/// Read one line into `buf`, keeping at most `max` bytes of it (plus its `\n`, if it has one
/// and fits): None at the end of input, else the line's whole length in bytes without `\n`.
fn read_line(
    input: &mut impl BufRead,
    buf: &mut Vec<u8>,
    max: usize,
) -> std::io::Result<Option<usize>> {
    buf.clear();
    let mut len = 0;
    loop {
        let chunk = match input.fill_buf() {
            Ok(c) => c,
            Err(e) if e.kind() == ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if chunk.is_empty() {
            return Ok((len > 0).then_some(len));
        }
        let (take, end) = match chunk.iter().position(|&b| b == b'\n') {
            Some(i) => (i + 1, true),
            None => (chunk.len(), false),
        };
        let room = (max + 1).saturating_sub(buf.len());
        buf.extend_from_slice(&chunk[..take.min(room)]);
        len += take - usize::from(end);
        input.consume(take);
        if end {
            return Ok(Some(len));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::BufReader;

    #[test]
    fn long_lines_are_measured_not_kept() {
        let long = "x".repeat(5000);
        let text = format!("uci\n{long}\nisready\r\nlast");
        // A small buffer: lines arrive in many pieces.
        let mut input = BufReader::with_capacity(7, text.as_bytes());
        let mut buf = Vec::new();
        assert_eq!(read_line(&mut input, &mut buf, 100).unwrap(), Some(3));
        assert_eq!(buf, b"uci\n");
        assert_eq!(read_line(&mut input, &mut buf, 100).unwrap(), Some(5000));
        assert!(buf.len() <= 101, "{}", buf.len());
        assert_eq!(read_line(&mut input, &mut buf, 100).unwrap(), Some(8));
        assert_eq!(buf, b"isready\r\n");
        assert_eq!(read_line(&mut input, &mut buf, 100).unwrap(), Some(4));
        assert_eq!(buf, b"last");
        assert_eq!(read_line(&mut input, &mut buf, 100).unwrap(), None);
    }

    #[test]
    fn the_channel_passes_lines_and_lengths() {
        let long = "y".repeat(MAX_LINE_BYTES + 10);
        let text = format!("go\n{long}\n\u{fffd}\u{0}\n");
        let rx = spawn(std::io::Cursor::new(text.into_bytes()));
        let got: Vec<Input> = rx.iter().collect();
        assert_eq!(
            got,
            [
                Input::Line("go\n".into()),
                Input::TooLong(MAX_LINE_BYTES + 10),
                Input::Line("\u{fffd}\u{0}\n".into()),
            ]
        );
    }
}
