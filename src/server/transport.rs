//! The LSP base protocol: `Content-Length` framed JSON-RPC over a byte
//! stream.
//!
//! lsp-server's own stdio transport ends the connection at the first
//! malformed message and allocates whatever `Content-Length` claims. An
//! editor's server must survive both, so the framing lives here and only the
//! message types come from lsp-server.

use std::io::{self, BufRead, Read, Write};

use lsp_server::{ErrorCode, Message, RequestId};
use serde::Serialize;
use serde_json::Value;

/// Larger messages are skipped (read and dropped, never buffered) and
/// answered with an error.
pub const MAX_MESSAGE_BYTES: usize = 64 << 20;
/// A header line longer than this is garbage; it is dropped unbuffered.
const MAX_HEADER_LINE: u64 = 8 << 10;
const CONTENT_LENGTH: &str = "content-length:";

/// One framed message, decoded as far as it could be.
#[derive(Debug)]
pub enum Incoming {
    Message(Message),
    /// Unusable input. JSON-RPC wants an error response, with the request's
    /// id when it could be read and `null` otherwise.
    Invalid {
        id: Option<RequestId>,
        code: ErrorCode,
        message: String,
    },
    /// A malformed *response* from the client. JSON-RPC never answers a
    /// response, so this is only logged.
    BadResponse(String),
}

/// Read the next message. `Ok(None)` is the end of the stream; `Err` only
/// comes from the stream itself, never from its contents.
pub fn read_message(r: &mut impl BufRead) -> io::Result<Option<Incoming>> {
    let mut content_length: Option<Result<usize, String>> = None;
    let mut saw_header = false;
    loop {
        let Some(line) = read_header_line(r)? else {
            return Ok(None);
        };
        let line = line.trim_end_matches(['\r', '\n']);
        if line.is_empty() {
            if saw_header {
                break;
            }
            // Stray blank lines between messages are harmless.
            continue;
        }
        saw_header = true;
        // Searching the whole line resynchronises after a body sent without
        // framing: that garbage and the next real header arrive as one line.
        // (ASCII lowercasing keeps byte offsets.)
        if let Some(at) = line.to_ascii_lowercase().rfind(CONTENT_LENGTH) {
            let value = line[at + CONTENT_LENGTH.len()..].trim();
            content_length = Some(
                value
                    .parse::<usize>()
                    .map_err(|_| format!("invalid Content-Length `{value}`")),
            );
        }
    }
    let len = match content_length {
        Some(Ok(len)) => len,
        Some(Err(e)) => return Ok(Some(invalid(None, ErrorCode::ParseError, e))),
        None => {
            return Ok(Some(invalid(
                None,
                ErrorCode::ParseError,
                "message without a Content-Length header".to_owned(),
            )));
        }
    };
    if len > MAX_MESSAGE_BYTES {
        let skipped = io::copy(&mut r.by_ref().take(len as u64), &mut io::sink())?;
        if skipped < len as u64 {
            return Ok(None);
        }
        return Ok(Some(invalid(
            None,
            ErrorCode::InvalidRequest,
            format!(
                "message of {len} bytes is over the {} MiB limit; it was skipped",
                MAX_MESSAGE_BYTES >> 20
            ),
        )));
    }
    let mut body = vec![0; len];
    match r.read_exact(&mut body) {
        Ok(()) => {}
        Err(e) if e.kind() == io::ErrorKind::UnexpectedEof => return Ok(None),
        Err(e) => return Err(e),
    }
    Ok(Some(decode(&body)))
}

/// Turn one message body into a [`Message`] or the error to answer with.
pub fn decode(body: &[u8]) -> Incoming {
    let value: Value = match serde_json::from_slice(body) {
        Ok(v) => v,
        // A client that sends raw non-UTF-8 bytes inside a string (a Latin-1
        // document) still gets its document checked, with U+FFFD in place
        // of the bad bytes.
        Err(_) if std::str::from_utf8(body).is_err() => {
            match serde_json::from_str(&String::from_utf8_lossy(body)) {
                Ok(v) => {
                    log("message was not valid UTF-8; invalid bytes were replaced");
                    v
                }
                Err(e) => return invalid(None, ErrorCode::ParseError, e.to_string()),
            }
        }
        Err(e) => return invalid(None, ErrorCode::ParseError, e.to_string()),
    };
    let raw_id = value.get("id").filter(|v| !v.is_null());
    let id = raw_id.and_then(request_id);
    if raw_id.is_some() && id.is_none() {
        return invalid(
            None,
            ErrorCode::InvalidRequest,
            "`id` must be a string or a 32-bit integer".to_owned(),
        );
    }
    if !value.is_object() {
        return invalid(
            None,
            ErrorCode::InvalidRequest,
            "a message must be a JSON object (batches are not part of LSP)".to_owned(),
        );
    }
    let is_response = value.get("method").is_none()
        && (value.get("result").is_some() || value.get("error").is_some());
    match serde_json::from_value::<Message>(value) {
        Ok(m) => Incoming::Message(m),
        Err(e) if is_response => Incoming::BadResponse(e.to_string()),
        Err(e) => invalid(id, ErrorCode::InvalidRequest, e.to_string()),
    }
}

fn request_id(v: &Value) -> Option<RequestId> {
    match v {
        Value::Number(n) => n
            .as_i64()
            .and_then(|n| i32::try_from(n).ok())
            .map(RequestId::from),
        Value::String(s) => Some(RequestId::from(s.clone())),
        _ => None,
    }
}

fn invalid(id: Option<RequestId>, code: ErrorCode, message: String) -> Incoming {
    Incoming::Invalid { id, code, message }
}

/// One header line, or `None` at the end of the stream. Overlong lines are
/// consumed without being kept and come back empty of meaning ("x").
fn read_header_line(r: &mut impl BufRead) -> io::Result<Option<String>> {
    let mut buf = Vec::new();
    let n = r
        .by_ref()
        .take(MAX_HEADER_LINE)
        .read_until(b'\n', &mut buf)?;
    if n == 0 {
        return Ok(None);
    }
    if buf.last() != Some(&b'\n') && n as u64 == MAX_HEADER_LINE {
        // Drop the rest of the line without buffering it.
        loop {
            let chunk = r.fill_buf()?;
            if chunk.is_empty() {
                return Ok(None);
            }
            match memchr::memchr(b'\n', chunk) {
                Some(i) => {
                    r.consume(i + 1);
                    break;
                }
                None => {
                    let len = chunk.len();
                    r.consume(len);
                }
            }
        }
        return Ok(Some("x".to_owned()));
    }
    Ok(Some(String::from_utf8_lossy(&buf).into_owned()))
}

// Outgoing messages are serialised straight to text, never through a
// `serde_json::Value` tree: a publish for a large file is half a megabyte,
// and building and copying that tree cost more than the lint itself.

#[derive(Serialize)]
struct NotificationOut<'a, P> {
    jsonrpc: &'static str,
    method: &'a str,
    params: &'a P,
}

#[derive(Serialize)]
struct ResultOut<'a, R> {
    jsonrpc: &'static str,
    id: &'a RequestId,
    result: &'a R,
}

#[derive(Serialize)]
struct ErrorOut<'a> {
    jsonrpc: &'static str,
    /// `null` when the request's id could not be read.
    id: Option<&'a RequestId>,
    error: ErrorBody<'a>,
}

#[derive(Serialize)]
struct ErrorBody<'a> {
    code: i32,
    message: &'a str,
}

pub fn encode_notification(method: &str, params: &impl Serialize) -> serde_json::Result<String> {
    serde_json::to_string(&NotificationOut {
        jsonrpc: "2.0",
        method,
        params,
    })
}

pub fn encode_result(id: &RequestId, result: &impl Serialize) -> serde_json::Result<String> {
    serde_json::to_string(&ResultOut {
        jsonrpc: "2.0",
        id,
        result,
    })
}

pub fn encode_error(id: Option<&RequestId>, code: ErrorCode, message: &str) -> String {
    let out = ErrorOut {
        jsonrpc: "2.0",
        id,
        error: ErrorBody {
            code: code as i32,
            message,
        },
    };
    // Only strings and numbers: serialisation cannot fail.
    serde_json::to_string(&out).unwrap_or_default()
}

pub fn write_frame(w: &mut impl Write, body: &str) -> io::Result<()> {
    write!(w, "Content-Length: {}\r\n\r\n", body.len())?;
    w.write_all(body.as_bytes())?;
    w.flush()
}

/// Everything the server says about itself goes to stderr, which editors
/// keep as the server's log.
pub fn log(msg: &str) {
    eprintln_quiet!("warplint server: {msg}");
}

#[cfg(test)]
mod tests {
    use super::*;

    fn frame(body: &str) -> String {
        format!("Content-Length: {}\r\n\r\n{body}", body.len())
    }

    fn read_all(input: &[u8]) -> Vec<Incoming> {
        let mut r = io::BufReader::new(input);
        let mut out = Vec::new();
        while let Some(m) = read_message(&mut r).unwrap() {
            out.push(m);
        }
        out
    }

    #[test]
    fn reads_consecutive_messages() {
        let input = frame(r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}"#)
            + &frame(r#"{"jsonrpc":"2.0","method":"initialized","params":{}}"#);
        let msgs = read_all(input.as_bytes());
        assert_eq!(msgs.len(), 2);
        assert!(
            matches!(&msgs[0], Incoming::Message(Message::Request(r)) if r.method == "initialize")
        );
        assert!(
            matches!(&msgs[1], Incoming::Message(Message::Notification(n)) if n.method == "initialized")
        );
    }

    #[test]
    fn bad_json_is_an_error_and_the_stream_goes_on() {
        let input = frame("{not json") + &frame(r#"{"jsonrpc":"2.0","id":"a","method":"x"}"#);
        let msgs = read_all(input.as_bytes());
        assert_eq!(msgs.len(), 2);
        assert!(matches!(
            &msgs[0],
            Incoming::Invalid {
                id: None,
                code: ErrorCode::ParseError,
                ..
            }
        ));
        assert!(matches!(&msgs[1], Incoming::Message(Message::Request(_))));
    }

    #[test]
    fn invalid_request_keeps_its_id() {
        let msgs = read_all(frame(r#"{"jsonrpc":"2.0","id":7}"#).as_bytes());
        match &msgs[0] {
            Incoming::Invalid { id, code, .. } => {
                assert_eq!(id, &Some(RequestId::from(7)));
                assert!(matches!(code, ErrorCode::InvalidRequest));
            }
            other => panic!("{other:?}"),
        }
        // A float id must not turn a request into a notification.
        let msgs = read_all(frame(r#"{"id":1.5,"method":"shutdown"}"#).as_bytes());
        assert!(matches!(&msgs[0], Incoming::Invalid { id: None, .. }));
    }

    #[test]
    fn malformed_responses_are_never_answered() {
        let msgs = read_all(frame(r#"{"jsonrpc":"2.0","id":null,"error":{"code":1}}"#).as_bytes());
        assert!(matches!(&msgs[0], Incoming::BadResponse(_)), "{msgs:?}");
    }

    #[test]
    fn missing_length_then_resync_on_the_next_header() {
        let input = "X-Junk: 1\r\n\r\n".to_owned()
            + "{\"garbage\":true}"
            + &frame(r#"{"jsonrpc":"2.0","method":"exit"}"#);
        let msgs = read_all(input.as_bytes());
        assert!(matches!(&msgs[0], Incoming::Invalid { .. }));
        assert!(
            matches!(msgs.last(), Some(Incoming::Message(Message::Notification(n))) if n.method == "exit"),
            "{msgs:?}"
        );
    }

    #[test]
    fn oversized_messages_are_skipped_without_buffering() {
        let big = MAX_MESSAGE_BYTES + 1;
        let mut input = format!("Content-Length: {big}\r\n\r\n").into_bytes();
        input.resize(input.len() + big, b' ');
        input.extend_from_slice(frame(r#"{"method":"exit"}"#).as_bytes());
        let msgs = read_all(&input);
        assert_eq!(msgs.len(), 2);
        assert!(matches!(
            &msgs[0],
            Incoming::Invalid {
                code: ErrorCode::InvalidRequest,
                ..
            }
        ));
        assert!(matches!(
            &msgs[1],
            Incoming::Message(Message::Notification(_))
        ));
    }

    #[test]
    fn absurd_length_at_end_of_stream_is_just_the_end() {
        let msgs = read_all(b"Content-Length: 99999999999999\r\n\r\n{}");
        assert!(msgs.is_empty());
    }

    #[test]
    fn non_utf8_bytes_in_a_string_are_replaced() {
        let mut body = br#"{"method":"textDocument/didOpen","params":{"text":"a"#.to_vec();
        body.push(0xff);
        body.extend_from_slice(br#"b"}}"#);
        match decode(&body) {
            Incoming::Message(Message::Notification(n)) => {
                assert_eq!(n.params["text"], "a\u{fffd}b");
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn overlong_header_lines_are_dropped() {
        let mut input = vec![b'a'; (MAX_HEADER_LINE as usize) * 3];
        input.extend_from_slice(b"\r\n");
        input.extend_from_slice(frame(r#"{"method":"exit"}"#).as_bytes());
        let msgs = read_all(&input);
        assert!(
            matches!(
                msgs.last(),
                Some(Incoming::Message(Message::Notification(_)))
            ),
            "{msgs:?}"
        );
    }

    #[test]
    fn outgoing_messages_are_jsonrpc_2() {
        let v: Value =
            serde_json::from_str(&encode_notification("x", &serde_json::json!({"a": 1})).unwrap())
                .unwrap();
        assert_eq!(
            v,
            serde_json::json!({"jsonrpc": "2.0", "method": "x", "params": {"a": 1}})
        );
        let v: Value =
            serde_json::from_str(&encode_result(&RequestId::from(3), &Value::Null).unwrap())
                .unwrap();
        assert_eq!(
            v,
            serde_json::json!({"jsonrpc": "2.0", "id": 3, "result": null})
        );
        let v: Value =
            serde_json::from_str(&encode_error(None, ErrorCode::ParseError, "bad")).unwrap();
        assert_eq!(
            v,
            serde_json::json!({"jsonrpc": "2.0", "id": null, "error": {"code": -32700, "message": "bad"}})
        );
        let id = RequestId::from("q".to_owned());
        let v: Value =
            serde_json::from_str(&encode_error(Some(&id), ErrorCode::MethodNotFound, "m")).unwrap();
        assert_eq!(v["id"], "q");
    }
}
