//! `warplint server` at the protocol level: spawn the binary and speak
//! JSON-RPC over its stdin/stdout, as an editor does.

use std::collections::VecDeque;
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::thread;
use std::time::{Duration, Instant};

use serde_json::{Value, json};

const TIMEOUT: Duration = Duration::from_secs(20);
const URI: &str = "file:///tmp/warplint-lsp-test/kernel.cu";

/// The emoji (2 UTF-16 units, 4 UTF-8 bytes) before the call on line 2
/// makes UTF-16 and UTF-8 columns differ.
const BUGGY: &str = "__device__ float warp_sum(float v) {\n    for (int o = 16; o > 0; o /= 2)\n        /* 😀 */ v += __shfl_down(v, o);\n    return v;\n}\n";
const FIXED: &str = "__device__ float warp_sum(float v) {\n    for (int o = 16; o > 0; o /= 2)\n        /* 😀 */ v += __shfl_down_sync(0xffffffff, v, o);\n    return v;\n}\n";

struct Client {
    child: Child,
    stdin: Option<ChildStdin>,
    rx: Receiver<Value>,
    pending: VecDeque<Value>,
    next_id: i64,
}

impl Client {
    fn start(args: &[&str]) -> Client {
        let mut child = Command::new(env!("CARGO_BIN_EXE_warplint"))
            .arg("server")
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("spawn warplint server");
        let stdout = child.stdout.take().unwrap();
        let (tx, rx) = mpsc::channel();
        thread::spawn(move || {
            let mut r = BufReader::new(stdout);
            while let Some(msg) = read_frame(&mut r) {
                if tx.send(msg).is_err() {
                    return;
                }
            }
        });
        Client {
            stdin: child.stdin.take(),
            child,
            rx,
            pending: VecDeque::new(),
            next_id: 0,
        }
    }

    fn start_initialized(args: &[&str], capabilities: Value) -> (Client, Value) {
        let mut c = Client::start(args);
        let init = c.request(
            "initialize",
            json!({"processId": null, "rootUri": null, "capabilities": capabilities}),
        );
        assert!(init.get("error").is_none(), "{init}");
        c.notify("initialized", json!({}));
        (c, init["result"].clone())
    }

    fn send_bytes(&mut self, bytes: &[u8]) {
        let stdin = self.stdin.as_mut().expect("stdin open");
        stdin.write_all(bytes).unwrap();
        stdin.flush().unwrap();
    }

    fn send(&mut self, msg: Value) {
        self.send_body(msg.to_string().as_bytes());
    }

    fn send_body(&mut self, body: &[u8]) {
        let mut framed = format!("Content-Length: {}\r\n\r\n", body.len()).into_bytes();
        framed.extend_from_slice(body);
        self.send_bytes(&framed);
    }

    fn notify(&mut self, method: &str, params: Value) {
        self.send(json!({"jsonrpc": "2.0", "method": method, "params": params}));
    }

    fn request(&mut self, method: &str, params: Value) -> Value {
        self.next_id += 1;
        let id = self.next_id;
        self.send(json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
        self.response(json!(id))
    }

    /// The next message matching `pred`, keeping the others for later.
    fn wait_for(&mut self, what: &str, timeout: Duration, pred: impl Fn(&Value) -> bool) -> Value {
        self.try_wait_for(timeout, pred)
            .unwrap_or_else(|| panic!("no {what} within {timeout:?}; unread: {:?}", self.pending))
    }

    fn try_wait_for(&mut self, timeout: Duration, pred: impl Fn(&Value) -> bool) -> Option<Value> {
        if let Some(i) = self.pending.iter().position(&pred) {
            return self.pending.remove(i);
        }
        let deadline = Instant::now() + timeout;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.rx.recv_timeout(left) {
                Ok(m) if pred(&m) => return Some(m),
                Ok(m) => self.pending.push_back(m),
                Err(RecvTimeoutError::Timeout) => return None,
                Err(RecvTimeoutError::Disconnected) => return None,
            }
        }
    }

    fn response(&mut self, id: Value) -> Value {
        self.wait_for(&format!("response to {id}"), TIMEOUT, |m| {
            m.get("method").is_none() && m.get("id") == Some(&id)
        })
    }

    fn publish(&mut self, uri: &str) -> Value {
        let m = self.wait_for("publishDiagnostics", TIMEOUT, |m| is_publish(m, uri));
        m["params"].clone()
    }

    fn open(&mut self, uri: &str, version: i64, text: &str) {
        self.notify(
            "textDocument/didOpen",
            json!({"textDocument": {"uri": uri, "languageId": "cuda", "version": version, "text": text}}),
        );
    }

    fn change_full(&mut self, uri: &str, version: i64, text: &str) {
        self.notify(
            "textDocument/didChange",
            json!({"textDocument": {"uri": uri, "version": version}, "contentChanges": [{"text": text}]}),
        );
    }

    fn shutdown_and_exit(mut self) -> ExitStatus {
        let r = self.request("shutdown", Value::Null);
        assert_eq!(r["result"], Value::Null, "{r}");
        assert!(r.get("error").is_none(), "{r}");
        self.notify("exit", Value::Null);
        self.wait_exit()
    }

    fn wait_exit(&mut self) -> ExitStatus {
        let deadline = Instant::now() + TIMEOUT;
        loop {
            if let Some(s) = self.child.try_wait().unwrap() {
                return s;
            }
            assert!(Instant::now() < deadline, "server did not exit");
            thread::sleep(Duration::from_millis(20));
        }
    }
}

impl Drop for Client {
    fn drop(&mut self) {
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

fn is_publish(m: &Value, uri: &str) -> bool {
    m["method"] == "textDocument/publishDiagnostics" && m["params"]["uri"] == uri
}

fn read_frame(r: &mut impl BufRead) -> Option<Value> {
    let mut len = None;
    loop {
        let mut line = String::new();
        if r.read_line(&mut line).ok()? == 0 {
            return None;
        }
        let line = line.trim_end();
        if line.is_empty() {
            break;
        }
        if let Some(v) = line.strip_prefix("Content-Length: ") {
            len = v.parse::<usize>().ok();
        }
    }
    let mut body = vec![0; len?];
    r.read_exact(&mut body).ok()?;
    Some(serde_json::from_slice(&body).expect("server sent invalid JSON"))
}

fn pos(line: u64, character: u64) -> Value {
    json!({"line": line, "character": character})
}

#[test]
fn diagnostics_follow_open_change_and_close() {
    let (mut c, caps) = Client::start_initialized(&[], json!({}));
    assert_eq!(caps["capabilities"]["positionEncoding"], "utf-16");
    assert_eq!(caps["capabilities"]["textDocumentSync"]["change"], 2);
    assert_eq!(caps["capabilities"]["textDocumentSync"]["openClose"], true);
    assert_eq!(
        caps["capabilities"]["codeActionProvider"]["codeActionKinds"],
        json!(["quickfix"])
    );
    assert_eq!(caps["serverInfo"]["name"], "warplint");

    c.open(URI, 1, BUGGY);
    let p = c.publish(URI);
    assert_eq!(p["version"], 1);
    let diags = p["diagnostics"].as_array().unwrap();
    assert_eq!(diags.len(), 1, "{p}");
    let d = &diags[0];
    assert_eq!(d["code"], "WL001");
    assert_eq!(d["source"], "warplint");
    assert_eq!(d["severity"], 1);
    // `        /* 😀 */ v += ` is 22 UTF-16 units (the emoji counts 2).
    assert_eq!(d["range"]["start"], pos(2, 22));
    assert_eq!(d["range"]["end"], pos(2, 39));
    assert!(
        d["codeDescription"]["href"]
            .as_str()
            .unwrap()
            .ends_with("rules/WL001-legacy-warp-primitive.md"),
        "{d}"
    );
    let msg = d["message"].as_str().unwrap();
    assert!(
        msg.starts_with("`__shfl_down` is a legacy warp primitive"),
        "{msg}"
    );
    // The executor confirmed it: the witness summary is in the message and
    // its event is related information.
    assert!(msg.contains("does not compile for sm_70 or later"), "{msg}");
    assert!(
        msg.contains("\nhelp: use `__shfl_down_sync(mask, var, delta)`"),
        "{msg}"
    );
    assert_eq!(d["data"]["status"], "confirmed");
    let related = d["relatedInformation"].as_array().unwrap();
    assert!(
        related.iter().any(|r| r["location"]["uri"] == URI
            && r["location"]["range"]["start"] == pos(2, 0)
            && r["message"]
                .as_str()
                .unwrap()
                .starts_with("witness, warp 0: lanes 0–31: ")),
        "{related:?}"
    );
    assert_eq!(d["data"]["version"], 1);
    assert_eq!(d["data"]["fix"]["applicability"], "unsafe");

    // Full-text change to the fixed code: diagnostics clear.
    c.change_full(URI, 2, FIXED);
    let p = c.publish(URI);
    assert_eq!(p["version"], 2);
    assert_eq!(p["diagnostics"], json!([]), "{p}");

    // Incremental change that brings the bug back: replace
    // `__shfl_down_sync(0xffffffff, ` (UTF-16 columns 22..51) with `__shfl_down(`.
    c.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": URI, "version": 3}, "contentChanges": [
            {"range": {"start": pos(2, 22), "end": pos(2, 51)}, "text": "__shfl_down("}
        ]}),
    );
    let p = c.publish(URI);
    assert_eq!(p["version"], 3);
    assert_eq!(p["diagnostics"].as_array().unwrap().len(), 1, "{p}");
    assert_eq!(p["diagnostics"][0]["range"]["start"], pos(2, 22));

    c.notify(
        "textDocument/didClose",
        json!({"textDocument": {"uri": URI}}),
    );
    let p = c.publish(URI);
    assert_eq!(p["diagnostics"], json!([]));
    assert!(p.get("version").is_none(), "{p}");

    assert_eq!(c.shutdown_and_exit().code(), Some(0));
}

#[test]
fn secondary_spans_and_witness_events_are_related_information() {
    let divergent = "__global__ void k(float *out) {\n    float v = out[threadIdx.x];\n    int lane = threadIdx.x % 32;\n    if (lane < 16) {\n        v += __shfl_down_sync(0xffffffff, v, 1);\n    }\n    out[threadIdx.x] = v;\n}\n";
    let (mut c, _) = Client::start_initialized(&[], json!({}));
    c.open(URI, 1, divergent);
    let p = c.publish(URI);
    let d = &p["diagnostics"][0];
    assert_eq!(d["code"], "WL002", "{p}");
    assert_eq!(d["range"]["start"], pos(4, 13));
    assert_eq!(d["data"]["status"], "confirmed");
    let related: Vec<(Value, String)> = d["relatedInformation"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            assert_eq!(r["location"]["uri"], URI);
            (
                r["location"]["range"]["start"].clone(),
                r["message"].as_str().unwrap().to_owned(),
            )
        })
        .collect();
    // The rule's label on the branch, then each witness event on its line.
    assert_eq!(
        related[0],
        (pos(3, 8), "lanes of a warp diverge here".to_owned())
    );
    assert!(
        related.iter().any(|(at, m)| *at == pos(4, 0)
            && m.starts_with("witness, warp 0: lanes 0–15: call __shfl_down_sync")),
        "{related:?}"
    );
    assert!(
        related.iter().any(|(at, m)| *at == pos(3, 0)
            && m.starts_with("witness, warp 0: lanes 16–31: skipped the branch")),
        "{related:?}"
    );
    assert_eq!(c.shutdown_and_exit().code(), Some(0));
}

#[test]
fn utf8_positions_when_the_client_offers_them() {
    let (mut c, caps) = Client::start_initialized(
        &[],
        json!({"general": {"positionEncodings": ["utf-8", "utf-16"]}}),
    );
    assert_eq!(caps["capabilities"]["positionEncoding"], "utf-8");
    c.open(URI, 1, BUGGY);
    let p = c.publish(URI);
    // The emoji is 4 bytes: `        /* 😀 */ v += ` is 24 bytes.
    assert_eq!(p["diagnostics"][0]["range"]["start"], pos(2, 24));
    assert_eq!(c.shutdown_and_exit().code(), Some(0));
}

#[test]
fn code_actions_fix_and_suppress() {
    let (mut c, _) = Client::start_initialized(
        &[],
        json!({"workspace": {"workspaceEdit": {"documentChanges": true}}}),
    );
    c.open(URI, 1, BUGGY);
    let p = c.publish(URI);
    let diag = p["diagnostics"][0].clone();
    let r = c.request(
        "textDocument/codeAction",
        json!({"textDocument": {"uri": URI}, "range": diag["range"],
               "context": {"diagnostics": [diag]}}),
    );
    let actions = r["result"].as_array().unwrap().clone();
    assert_eq!(actions.len(), 2, "{r}");
    let fix = &actions[0];
    assert!(
        fix["title"]
            .as_str()
            .unwrap()
            .starts_with("Unsafe fix for WL001"),
        "{fix}"
    );
    assert_eq!(fix["kind"], "quickfix");
    assert!(
        fix.get("isPreferred").is_none(),
        "unsafe fixes are never preferred"
    );
    let doc_edit = &fix["edit"]["documentChanges"][0];
    assert_eq!(doc_edit["textDocument"]["version"], 1);

    let suppress = &actions[1];
    assert!(
        suppress["title"]
            .as_str()
            .unwrap()
            .starts_with("Suppress WL001")
    );
    let s_edit = &suppress["edit"]["documentChanges"][0]["edits"][0];
    assert_eq!(s_edit["range"]["start"], pos(2, 0));
    assert_eq!(s_edit["newText"], "        // warplint: ignore[WL001]\n");

    // Apply the fix as an editor would (edits last-first, one change each);
    // the server then publishes no diagnostics.
    let mut edits = doc_edit["edits"].as_array().unwrap().clone();
    edits.sort_by_key(|e| {
        let s = &e["range"]["start"];
        std::cmp::Reverse((s["line"].as_u64(), s["character"].as_u64()))
    });
    let changes: Vec<Value> = edits
        .iter()
        .map(|e| json!({"range": e["range"], "text": e["newText"]}))
        .collect();
    c.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": URI, "version": 2}, "contentChanges": changes}),
    );
    c.notify(
        "textDocument/didSave",
        json!({"textDocument": {"uri": URI}}),
    );
    let p = c.publish(URI);
    assert_eq!(p["version"], 2);
    assert_eq!(p["diagnostics"], json!([]), "{p}");

    // Data computed for version 1 is stale now: no actions from it.
    let r = c.request(
        "textDocument/codeAction",
        json!({"textDocument": {"uri": URI}, "range": diag["range"],
               "context": {"diagnostics": [p_diag_v1()]}}),
    );
    assert_eq!(r["result"], json!([]), "{r}");
    assert_eq!(c.shutdown_and_exit().code(), Some(0));
}

fn p_diag_v1() -> Value {
    json!({"range": {"start": pos(2, 22), "end": pos(2, 39)}, "message": "m",
           "source": "warplint", "code": "WL001",
           "data": {"version": 1, "name": "legacy-warp-primitive", "status": "undecided"}})
}

#[test]
fn changes_wait_for_the_quiet_period_but_save_does_not() {
    // A debounce far longer than the test: only didSave can publish.
    let (mut c, _) = Client::start_initialized(&["--debounce-ms", "600000"], json!({}));
    c.open(URI, 1, FIXED);
    assert_eq!(c.publish(URI)["diagnostics"], json!([]));
    for v in 2..=11 {
        let text = if v % 2 == 0 { BUGGY } else { FIXED };
        c.change_full(URI, v, &format!("{text}// edit {v}\n"));
    }
    c.change_full(URI, 12, BUGGY);
    let early = c.try_wait_for(Duration::from_millis(1500), |m| is_publish(m, URI));
    assert!(
        early.is_none(),
        "published before the quiet period: {early:?}"
    );
    c.notify(
        "textDocument/didSave",
        json!({"textDocument": {"uri": URI}}),
    );
    let p = c.publish(URI);
    assert_eq!(p["version"], 12, "the latest text wins");
    assert_eq!(p["diagnostics"].as_array().unwrap().len(), 1);
    drop(c);

    // A short debounce fires by itself, once, with the last text.
    let (mut c, _) = Client::start_initialized(&["--debounce-ms", "300"], json!({}));
    c.open(URI, 1, FIXED);
    assert_eq!(c.publish(URI)["diagnostics"], json!([]));
    for v in 2..=6 {
        c.change_full(URI, v, if v == 6 { BUGGY } else { FIXED });
    }
    let p = c.wait_for("debounced publish", TIMEOUT, |m| {
        is_publish(m, URI) && m["params"]["version"] == 6
    })["params"]
        .clone();
    assert_eq!(p["diagnostics"].as_array().unwrap().len(), 1);
    assert_eq!(c.shutdown_and_exit().code(), Some(0));
}

#[test]
fn malformed_input_is_answered_and_survived() {
    let (mut c, _) = Client::start_initialized(&[], json!({}));

    // Not JSON: a parse error with a null id.
    c.send_bytes(b"Content-Length: 9\r\n\r\n{not json");
    let e = c.wait_for("parse error", TIMEOUT, |m| m["error"]["code"] == -32700);
    assert_eq!(e["id"], Value::Null);

    // JSON but not a request: invalid request, with the id it had.
    c.send(json!({"jsonrpc": "2.0", "id": 77}));
    let e = c.response(json!(77));
    assert_eq!(e["error"]["code"], -32600);

    // A request id that is neither string nor integer.
    c.send(json!({"jsonrpc": "2.0", "id": 1.5, "method": "shutdown"}));
    let e = c.wait_for("invalid id error", TIMEOUT, |m| {
        m["error"]["code"] == -32600 && m["id"].is_null()
    });
    assert!(e["error"]["message"].as_str().unwrap().contains("id"));

    // Unknown method; bad params; a message without Content-Length.
    let e = c.request("textDocument/hover", json!({}));
    assert_eq!(e["error"]["code"], -32601);
    let e = c.request("textDocument/codeAction", json!({"textDocument": 5}));
    assert_eq!(e["error"]["code"], -32602);
    c.send_bytes(b"Content-Type: x\r\n\r\n");
    c.wait_for("missing length error", TIMEOUT, |m| {
        m["error"]["code"] == -32700
    });

    // Notifications with a bad URI or bad params: logged, nothing breaks.
    c.notify(
        "textDocument/didOpen",
        json!({"textDocument": {"uri": "not a uri", "languageId": "cuda", "version": 1, "text": BUGGY}}),
    );
    c.notify("textDocument/didOpen", json!(5));
    c.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": URI, "version": 9}, "contentChanges": []}),
    );
    c.notify("$/unknownNotification", json!({}));
    c.notify("workspace/somethingNew", json!({}));

    // A lone surrogate escape makes the whole message unreadable JSON.
    c.send_body(br#"{"jsonrpc":"2.0","method":"x","id":"\ud800"}"#);
    c.wait_for("surrogate parse error", TIMEOUT, |m| {
        m["error"]["code"] == -32700
    });

    // Raw non-UTF-8 bytes inside the document: still checked.
    let uri2 = "file:///tmp/warplint-lsp-test/latin1.cu";
    let mut body = format!(
        r#"{{"jsonrpc":"2.0","method":"textDocument/didOpen","params":{{"textDocument":{{"uri":"{uri2}","languageId":"cuda","version":1,"text":"// caf"#
    )
    .into_bytes();
    body.push(0xe9); // Latin-1 'é'
    body.extend_from_slice(br#"\n__device__ int f(int v) { return __shfl(v, 0); }\n"}}}"#);
    c.send_body(&body);
    let p = c.publish(uri2);
    assert_eq!(p["diagnostics"][0]["code"], "WL001", "{p}");
    assert_eq!(p["diagnostics"][0]["range"]["start"]["line"], 1);

    // After all that, the server still works.
    c.open(URI, 1, BUGGY);
    assert_eq!(c.publish(URI)["diagnostics"].as_array().unwrap().len(), 1);
    assert_eq!(c.shutdown_and_exit().code(), Some(0));
}

#[test]
fn huge_documents_and_messages_are_refused_politely() {
    let (mut c, _) = Client::start_initialized(&[], json!({}));
    // 9 MiB of text: over the document limit, under the message limit.
    let mut big = String::from("__device__ int f(int v) { return __shfl(v, 0); }\n");
    while big.len() < 9 << 20 {
        big.push_str("// padding padding padding padding padding padding padding\n");
    }
    c.open(URI, 1, &big);
    let p = c.publish(URI);
    let d = &p["diagnostics"][0];
    assert_eq!(d["severity"], 3, "{d}");
    assert!(
        d["message"].as_str().unwrap().contains("did not check"),
        "{d}"
    );

    // A 65 MiB message: skipped without buffering, answered, survived.
    let n = (64 << 20) + 1;
    c.send_bytes(format!("Content-Length: {n}\r\n\r\n").as_bytes());
    let chunk = vec![b' '; 1 << 20];
    let mut left = n;
    while left > 0 {
        let k = left.min(chunk.len());
        c.send_bytes(&chunk[..k]);
        left -= k;
    }
    let e = c.wait_for("too-large error", TIMEOUT, |m| m["error"]["code"] == -32600);
    assert!(
        e["error"]["message"].as_str().unwrap().contains("limit"),
        "{e}"
    );

    c.change_full(URI, 2, BUGGY);
    c.notify(
        "textDocument/didSave",
        json!({"textDocument": {"uri": URI}}),
    );
    let p = c.publish(URI);
    assert_eq!(p["diagnostics"][0]["code"], "WL001", "{p}");
    assert_eq!(c.shutdown_and_exit().code(), Some(0));
}

#[test]
fn deeply_nested_code_is_checked_without_harm() {
    let (mut c, _) = Client::start_initialized(&[], json!({}));
    let n = 20_000;
    let parens = format!(
        "__global__ void k(int *o) {{ int v = {}threadIdx.x{}; o[0] = __shfl(v, 0); }}\n",
        "(".repeat(n),
        ")".repeat(n)
    );
    c.open(URI, 1, &parens);
    assert_eq!(c.publish(URI)["diagnostics"][0]["code"], "WL001");
    let n = 2_000;
    let ifs = format!(
        "__global__ void k(int *o) {{ int v = 0; {} v = __shfl(v, 0); {} o[0] = v; }}\n",
        "if (threadIdx.x) {".repeat(n),
        "}".repeat(n)
    );
    c.change_full(URI, 2, &ifs);
    c.notify(
        "textDocument/didSave",
        json!({"textDocument": {"uri": URI}}),
    );
    let p = c.publish(URI);
    assert_eq!(p["version"], 2);
    assert_eq!(
        p["diagnostics"][0]["code"],
        "WL001",
        "{}",
        &p.to_string()[..500]
    );
    assert_eq!(c.shutdown_and_exit().code(), Some(0));
}

#[test]
fn lifecycle_rules_of_the_specification() {
    // Before initialize: requests are refused, notifications dropped.
    let mut c = Client::start(&[]);
    let e = c.request("textDocument/codeAction", json!({}));
    assert_eq!(e["error"]["code"], -32002);
    c.open(URI, 1, BUGGY);
    // exit without shutdown: exit code 1.
    c.notify("exit", Value::Null);
    assert_eq!(c.wait_exit().code(), Some(1));
    let published = c.try_wait_for(Duration::from_millis(300), |m| is_publish(m, URI));
    assert!(
        published.is_none(),
        "didOpen before initialize was not dropped"
    );

    // After shutdown: requests are invalid; a second initialize too.
    let (mut c, _) = Client::start_initialized(&[], json!({}));
    let e = c.request("initialize", json!({"capabilities": {}}));
    assert_eq!(e["error"]["code"], -32600);
    let r = c.request("shutdown", Value::Null);
    assert!(r.get("error").is_none());
    let e = c.request("textDocument/codeAction", json!({}));
    assert_eq!(e["error"]["code"], -32600);
    c.notify("exit", Value::Null);
    assert_eq!(c.wait_exit().code(), Some(0));

    // The client going away without exit: the server stops, code 1.
    let (mut c, _) = Client::start_initialized(&[], json!({}));
    c.stdin = None;
    assert_eq!(c.wait_exit().code(), Some(1));
}

/// The server reads the nearest `warplint.toml` for each document, honours
/// suppression comments, and re-checks open documents when a config file is
/// saved.
#[test]
fn config_files_and_suppressions_are_honoured() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    let kernel = root.join("kernel.cu");
    std::fs::write(&kernel, BUGGY).unwrap();
    let uri = format!("file://{}", kernel.display());
    let config_uri = format!("file://{}", root.join("warplint.toml").display());

    let (mut c, _) = Client::start_initialized(&[], json!({}));
    c.open(&uri, 1, BUGGY);
    let p = c.publish(&uri);
    assert_eq!(p["diagnostics"].as_array().unwrap().len(), 1, "{p}");

    // A config that ignores the rule, announced by saving it.
    std::fs::write(root.join("warplint.toml"), "ignore = [\"WL001\"]\n").unwrap();
    c.notify(
        "textDocument/didSave",
        json!({"textDocument": {"uri": config_uri}}),
    );
    let p = c.publish(&uri);
    assert_eq!(p["diagnostics"], json!([]), "{p}");

    // Without the config, a suppression comment hides the finding.
    std::fs::remove_file(root.join("warplint.toml")).unwrap();
    c.notify("workspace/didChangeWatchedFiles", json!({"changes": []}));
    let p = c.publish(&uri);
    assert_eq!(p["diagnostics"].as_array().unwrap().len(), 1, "{p}");
    let suppressed = BUGGY.replace(
        "/* 😀 */ v += __shfl_down(v, o);",
        "/* 😀 */ v += __shfl_down(v, o); // warplint: ignore[WL001] pre-Volta build only",
    );
    c.change_full(&uri, 2, &suppressed);
    c.notify(
        "textDocument/didSave",
        json!({"textDocument": {"uri": uri}}),
    );
    let p = c.publish(&uri);
    assert_eq!(p["diagnostics"], json!([]), "{p}");
    assert!(c.shutdown_and_exit().success());
}
