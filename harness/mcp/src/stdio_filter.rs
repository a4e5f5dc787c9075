//! The server's stdin and stdout, between the client and rmcp.
//!
//! rmcp ignores a line that is not JSON (its transport answers nothing, so a client waits
//! forever), and ends the session on a notification that comes before `initialize`. So a
//! thread reads stdin line by line first and answers what rmcp would not: a line that is
//! not JSON gets a JSON-RPC parse error (`-32700`, `id: null`); before `initialize`, a
//! notification or a response is dropped (a request is passed on: rmcp answers it with an
//! error and keeps waiting for `initialize`). A line longer than [`MAX_LINE`] bytes is
//! never held whole: it is skipped and answered with a parse error. Everything else goes
//! to rmcp unchanged, through a channel; the end of stdin is the end of that channel.
//!
//! Both writers, rmcp's and the filter's, write whole lines to stdout under its lock, so
//! their lines never interleave.

use serde_json::{json, Value};
use std::io::{BufRead, Write};
use std::pin::Pin;
use std::task::{Context, Poll};
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::sync::mpsc;

/// The longest line read (rmcp's own limit on stdio).
pub const MAX_LINE: usize = 16 << 20;

/// What to do with one line of stdin.
#[derive(Debug, PartialEq)]
pub enum Triage {
    /// Hand it to rmcp.
    Pass,
    /// Answer the client with this line; rmcp never sees it.
    Answer(String),
    /// Nothing to do (a blank line, a notification before `initialize`).
    Drop,
}

/// The JSON-RPC parse error for a line that is not JSON.
pub fn parse_error(why: &str) -> String {
    json!({"jsonrpc": "2.0", "id": null, "error": {"code": -32700, "message": format!("Parse error: {why}")}})
        .to_string()
}

/// Decides what happens to one line (without its newline); `initialized` turns true once an
/// `initialize` request passed.
pub fn triage(line: &[u8], initialized: &mut bool) -> Triage {
    let line = line.strip_suffix(b"\r").unwrap_or(line);
    let line = line.strip_prefix("\u{feff}".as_bytes()).unwrap_or(line);
    if line.iter().all(u8::is_ascii_whitespace) {
        return Triage::Drop;
    }
    let value: Value = match serde_json::from_slice(line) {
        Ok(v) => v,
        Err(e) => return Triage::Answer(parse_error(&e.to_string())),
    };
    if *initialized {
        return Triage::Pass;
    }
    let method = value.get("method").and_then(Value::as_str);
    let is_request = value.get("id").is_some_and(|id| !id.is_null());
    match method {
        Some("initialize") if is_request => {
            *initialized = true;
            Triage::Pass
        }
        Some(_) if is_request => Triage::Pass,
        // a notification or a response before `initialize` would end rmcp's session
        Some(_) | None if value.is_object() => Triage::Drop,
        // not a message at all (an array, a number): rmcp answers an invalid request
        _ => Triage::Pass,
    }
}

/// Writes one line (and its newline) to stdout under its lock.
fn write_line(line: &str) -> std::io::Result<()> {
    let mut out = std::io::stdout().lock();
    out.write_all(line.as_bytes())?;
    out.write_all(b"\n")?;
    out.flush()
}

/// One line of input, at most `max` bytes kept.
enum Line {
    Bytes(Vec<u8>),
    TooLong,
    Eof,
}

/// Reads up to the next newline, keeping at most `max` bytes (the rest is skipped).
fn read_line(input: &mut impl BufRead, max: usize) -> std::io::Result<Line> {
    let mut line = Vec::new();
    let mut too_long = false;
    loop {
        let buf = input.fill_buf()?;
        if buf.is_empty() {
            return Ok(match (too_long, line.is_empty()) {
                (true, _) => Line::TooLong,
                (false, true) => Line::Eof,
                // a last line without its newline
                (false, false) => Line::Bytes(line),
            });
        }
        let (chunk, done) = match buf.iter().position(|b| *b == b'\n') {
            Some(at) => (&buf[..at], at + 1),
            None => (buf, buf.len()),
        };
        let ends = done > chunk.len();
        if !too_long && line.len() + chunk.len() <= max {
            line.extend_from_slice(chunk);
        } else {
            too_long = true;
            line = Vec::new();
        }
        input.consume(done);
        if ends {
            return Ok(if too_long {
                Line::TooLong
            } else {
                Line::Bytes(line)
            });
        }
    }
}

/// Reads `input` line by line on its own thread: lines for rmcp go to the returned reader,
/// the filter's answers to stdout. The reader ends when `input` does.
pub fn filter(input: impl BufRead + Send + 'static) -> ChannelReader {
    let (tx, rx) = mpsc::channel::<Vec<u8>>(64);
    std::thread::spawn(move || {
        let mut input = input;
        let mut initialized = false;
        loop {
            let answer = match read_line(&mut input, MAX_LINE) {
                Ok(Line::Eof) | Err(_) => break,
                Ok(Line::TooLong) => {
                    Triage::Answer(parse_error(&format!("a line longer than {MAX_LINE} bytes")))
                }
                Ok(Line::Bytes(line)) => match triage(&line, &mut initialized) {
                    Triage::Pass => {
                        let mut line = line;
                        line.push(b'\n');
                        if tx.blocking_send(line).is_err() {
                            break;
                        }
                        continue;
                    }
                    other => other,
                },
            };
            if let Triage::Answer(line) = answer {
                if write_line(&line).is_err() {
                    break;
                }
            }
        }
        // dropping `tx` is the end of input for rmcp
    });
    ChannelReader {
        rx,
        pending: Vec::new(),
        at: 0,
    }
}

/// The lines the filter passes on, as an `AsyncRead` for rmcp's transport.
pub struct ChannelReader {
    rx: mpsc::Receiver<Vec<u8>>,
    pending: Vec<u8>,
    at: usize,
}

impl AsyncRead for ChannelReader {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<std::io::Result<()>> {
        let this = &mut *self;
        if this.at == this.pending.len() {
            match this.rx.poll_recv(cx) {
                Poll::Ready(Some(line)) => {
                    this.pending = line;
                    this.at = 0;
                }
                // the end of stdin: a read of nothing
                Poll::Ready(None) => return Poll::Ready(Ok(())),
                Poll::Pending => return Poll::Pending,
            }
        }
        let n = buf.remaining().min(this.pending.len() - this.at);
        buf.put_slice(&this.pending[this.at..this.at + n]);
        this.at += n;
        Poll::Ready(Ok(()))
    }
}

/// stdout for rmcp: each write goes out whole under stdout's lock (rmcp hands over whole
/// encoded messages), so the filter's lines never land inside one of rmcp's.
pub struct StdoutLines;

impl AsyncWrite for StdoutLines {
    fn poll_write(
        self: Pin<&mut Self>,
        _cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<std::io::Result<usize>> {
        let mut out = std::io::stdout().lock();
        Poll::Ready(out.write_all(buf).map(|()| buf.len()))
    }

    fn poll_flush(self: Pin<&mut Self>, _cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Poll::Ready(std::io::stdout().lock().flush())
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        self.poll_flush(cx)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_are_passed_answered_or_dropped() {
        let mut init = false;
        let e = triage(b"not json", &mut init);
        match e {
            Triage::Answer(line) => {
                let v: Value = serde_json::from_str(&line).unwrap();
                assert_eq!(v["error"]["code"], -32700);
                assert_eq!(v["id"], Value::Null);
                assert!(v["error"]["message"]
                    .as_str()
                    .unwrap()
                    .starts_with("Parse error: "));
            }
            other => panic!("{other:?}"),
        }
        assert_eq!(triage(b"  \r", &mut init), Triage::Drop);
        // before initialize: a notification is dropped, a request passed
        let note = br#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#;
        assert_eq!(triage(note, &mut init), Triage::Drop);
        let call = br#"{"jsonrpc":"2.0","id":1,"method":"tools/call"}"#;
        assert_eq!(triage(call, &mut init), Triage::Pass);
        assert!(!init);
        let initialize = br#"{"jsonrpc":"2.0","id":2,"method":"initialize","params":{}}"#;
        assert_eq!(triage(initialize, &mut init), Triage::Pass);
        assert!(init);
        assert_eq!(triage(note, &mut init), Triage::Pass);
        // a byte order mark and a carriage return are not JSON errors
        let bom = [b"\xef\xbb\xbf".as_slice(), note.as_slice(), b"\r"].concat();
        assert_eq!(triage(&bom, &mut init), Triage::Pass);
    }

    #[test]
    fn a_line_over_the_limit_is_skipped_without_holding_it() {
        let input = b"0123456789\nabc\nlast";
        let mut reader = std::io::BufReader::with_capacity(4, &input[..]);
        let mut got = Vec::new();
        loop {
            match read_line(&mut reader, 5).unwrap() {
                Line::Eof => break,
                Line::TooLong => got.push("(too long)".to_string()),
                Line::Bytes(b) => got.push(String::from_utf8(b).unwrap()),
            }
        }
        assert_eq!(got, ["(too long)", "abc", "last"]);
    }
}
