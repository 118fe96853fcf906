//! `warplint server`: a language server over stdio.
//!
//! Threads: a reader (framing, [`transport`]), a writer, one lint worker
//! ([`worker`]) and this main loop, which owns every document and decides
//! when to lint and what to publish. Linting runs off the main loop, so the
//! server keeps answering while a large document is checked.
//!
//! Publishing: didOpen and didSave lint at once; didChange waits for a quiet
//! period ([`ServerConfig::debounce`]) per document, and a save cancels that
//! wait. Every text snapshot gets a fresh generation number; a result is
//! published only if its document still has that generation, so the latest
//! text always wins and a closed document stays cleared.

pub mod actions;
pub mod convert;
pub mod transport;
pub mod worker;

use std::collections::HashMap;
use std::io::{self, BufRead, Write};
use std::path::Path;
use std::sync::Arc;
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::thread;
use std::time::{Duration, Instant};

use lsp_server::{ErrorCode, Message, Notification, Request, RequestId};
use lsp_types::{
    CodeActionKind, CodeActionOptions, CodeActionParams, CodeActionProviderCapability,
    DiagnosticSeverity, DidChangeTextDocumentParams, DidCloseTextDocumentParams,
    DidOpenTextDocumentParams, DidSaveTextDocumentParams, InitializeResult, Position,
    PublishDiagnosticsParams, Range, SaveOptions, ServerCapabilities, ServerInfo,
    TextDocumentSyncCapability, TextDocumentSyncKind, TextDocumentSyncOptions,
    TextDocumentSyncSaveOptions, Uri,
};
use serde::de::DeserializeOwned;
use serde_json::Value;

use self::convert::{DocView, Encoding, LineIndex};
use self::transport::{Incoming, log};
use self::worker::{Job, Linted};
use crate::engine::Options;

/// Quiet period after the last didChange before a document is linted.
pub const DEFAULT_DEBOUNCE: Duration = Duration::from_millis(150);
/// Stack of the lint worker thread (the default for spawned threads is 2 MiB):
/// the CLI's workers' own.
const LINT_STACK_BYTES: usize = crate::engine::WORKER_STACK_BYTES;
/// Documents larger than this are not linted; the server says so instead.
pub const MAX_DOCUMENT_BYTES: usize = 8 << 20;

#[derive(Debug, Clone)]
pub struct ServerConfig {
    /// Options no config file sets (the base the resolver starts from).
    pub options: Options,
    /// Command-line settings that override every config file.
    pub overrides: crate::config::Overrides,
    /// Where configuration comes from (`--config`, `--isolated`, or the
    /// nearest `warplint.toml` above each document).
    pub config_source: crate::config::ConfigSource,
    /// `codeDescription.href` is `{rules_base_url}{CODE}-{name}.md`.
    pub rules_base_url: String,
    pub debounce: Duration,
    pub max_document_bytes: usize,
}

impl Default for ServerConfig {
    fn default() -> Self {
        ServerConfig {
            options: Options::default(),
            overrides: crate::config::Overrides::default(),
            config_source: crate::config::ConfigSource::Discover,
            rules_base_url: convert::default_rules_base_url(),
            debounce: DEFAULT_DEBOUNCE,
            max_document_bytes: MAX_DOCUMENT_BYTES,
        }
    }
}

/// Serve on stdin/stdout until `exit`; returns the process exit code (0
/// after a proper shutdown, 1 otherwise, as the specification asks).
pub fn run_stdio(config: ServerConfig) -> u8 {
    let input = io::BufReader::with_capacity(1 << 16, io::stdin());
    run(input, io::stdout(), config)
}

pub fn run(
    input: impl BufRead + Send + 'static,
    output: impl Write + Send + 'static,
    config: ServerConfig,
) -> u8 {
    let (events_tx, events) = mpsc::channel::<Event>();
    spawn_reader(input, events_tx.clone());
    let (out, writer) = spawn_writer(output);
    let (jobs, job_rx) = mpsc::channel::<Job>();
    let done = worker::sender(events_tx, |l| Event::Linted(Box::new(l)));
    // The engine walks trees without recursion, but a generous stack keeps
    // any deep path in a rule or the executor from ending the server.
    let spawned = thread::Builder::new()
        .name("warplint-lint".into())
        .stack_size(LINT_STACK_BYTES)
        .spawn(move || worker::run(job_rx, done));
    if let Err(e) = spawned {
        log(&format!("cannot start the lint thread: {e}"));
        return 1;
    }
    let mut server = Server::new(config, out, jobs);
    let code = server.main_loop(&events);
    // Closing the output channel lets the writer flush what is queued (the
    // shutdown response) and stop.
    drop(server);
    if let Ok(w) = writer {
        let _ = w.join();
    }
    code
}

enum Event {
    Input(Incoming),
    InputEnded,
    // Boxed: a lint result is much larger than the other events.
    Linted(Box<Linted>),
}

fn spawn_reader(mut input: impl BufRead + Send + 'static, tx: Sender<Event>) {
    let spawned = thread::Builder::new()
        .name("warplint-reader".into())
        .spawn(move || {
            loop {
                match transport::read_message(&mut input) {
                    Ok(Some(m)) => {
                        if tx.send(Event::Input(m)).is_err() {
                            return;
                        }
                    }
                    Ok(None) => break,
                    Err(e) => {
                        log(&format!("cannot read from the client: {e}"));
                        break;
                    }
                }
            }
            let _ = tx.send(Event::InputEnded);
        });
    if let Err(e) = spawned {
        log(&format!("cannot start the reader thread: {e}"));
    }
}

fn spawn_writer(
    mut output: impl Write + Send + 'static,
) -> (Sender<String>, io::Result<thread::JoinHandle<()>>) {
    let (tx, rx) = mpsc::channel::<String>();
    let handle = thread::Builder::new()
        .name("warplint-writer".into())
        .spawn(move || {
            for body in rx {
                if let Err(e) = transport::write_frame(&mut output, &body) {
                    log(&format!("cannot write to the client: {e}"));
                    return;
                }
            }
        });
    (tx, handle)
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum State {
    Uninitialized,
    Running,
    ShutdownRequested,
}

struct Document {
    /// What the engine is told the file is called: its path, or the URI
    /// for documents that are not files.
    path: String,
    version: i32,
    text: Arc<String>,
    index: LineIndex,
    generation: u64,
    /// When a debounced lint is due.
    lint_due: Option<Instant>,
}

struct Server {
    config: ServerConfig,
    options: Arc<Options>,
    /// Per-document options from config files; rebuilt when one is saved.
    resolver: Option<crate::config::Resolver>,
    out: Sender<String>,
    jobs: Sender<Job>,
    state: State,
    encoding: Encoding,
    /// The client applies versioned `documentChanges` edits.
    document_changes: bool,
    docs: HashMap<Uri, Document>,
    next_generation: u64,
}

impl Server {
    fn new(config: ServerConfig, out: Sender<String>, jobs: Sender<Job>) -> Server {
        let resolver = Self::resolver(&config);
        Server {
            options: Arc::new(config.options.clone()),
            resolver,
            config,
            out,
            jobs,
            state: State::Uninitialized,
            encoding: Encoding::Utf16,
            document_changes: false,
            docs: HashMap::new(),
            next_generation: 0,
        }
    }

    fn main_loop(&mut self, events: &Receiver<Event>) -> u8 {
        loop {
            let next = self.docs.values().filter_map(|d| d.lint_due).min();
            let event = match next {
                Some(due) => events.recv_timeout(due.saturating_duration_since(Instant::now())),
                None => events.recv().map_err(|_| RecvTimeoutError::Disconnected),
            };
            match event {
                Ok(Event::Input(Incoming::Message(msg))) => {
                    if let Some(code) = self.on_message(msg) {
                        return code;
                    }
                }
                Ok(Event::Input(Incoming::Invalid { id, code, message })) => {
                    log(&format!("invalid message: {message}"));
                    match id {
                        Some(id) => self.reply_err(id, code, message),
                        None => self.send(transport::encode_error(None, code, &message)),
                    }
                }
                Ok(Event::Input(Incoming::BadResponse(e))) => {
                    log(&format!(
                        "ignored a malformed response from the client: {e}"
                    ));
                }
                Ok(Event::InputEnded) | Err(RecvTimeoutError::Disconnected) => {
                    if self.state == State::ShutdownRequested {
                        return 0;
                    }
                    log("the client closed the connection without shutdown and exit");
                    return 1;
                }
                Ok(Event::Linted(l)) => self.on_linted(*l),
                Err(RecvTimeoutError::Timeout) => {}
            }
            self.start_due_lints(Instant::now());
        }
    }

    /// Handle one message; `Some(code)` ends the server.
    fn on_message(&mut self, msg: Message) -> Option<u8> {
        match msg {
            Message::Request(req) => self.on_request(req),
            Message::Notification(n) if n.method == "exit" => {
                return Some(if self.state == State::ShutdownRequested {
                    0
                } else {
                    1
                });
            }
            Message::Notification(n) => self.on_notification(n),
            // The server sends no requests, so there is nothing to match.
            Message::Response(_) => {}
        }
        None
    }

    fn on_request(&mut self, req: Request) {
        match (self.state, req.method.as_str()) {
            (State::Uninitialized, "initialize") => self.initialize(req),
            (State::Uninitialized, _) => self.reply_err(
                req.id,
                ErrorCode::ServerNotInitialized,
                "the server has not been initialized".into(),
            ),
            (State::ShutdownRequested, _) => self.reply_err(
                req.id,
                ErrorCode::InvalidRequest,
                "shutdown was requested; only exit is accepted now".into(),
            ),
            (State::Running, "initialize") => self.reply_err(
                req.id,
                ErrorCode::InvalidRequest,
                "initialize was already received".into(),
            ),
            (State::Running, "shutdown") => {
                self.state = State::ShutdownRequested;
                self.reply_ok(req.id, Value::Null);
            }
            (State::Running, "textDocument/codeAction") => self.code_action(req),
            (State::Running, _) => self.reply_err(
                req.id,
                ErrorCode::MethodNotFound,
                format!("unsupported method `{}`", req.method),
            ),
        }
    }

    fn initialize(&mut self, req: Request) {
        if !req.params.is_object() {
            return self.reply_err(
                req.id,
                ErrorCode::InvalidParams,
                "initialize needs InitializeParams".into(),
            );
        }
        // Read only what the server uses, so that a client's unusual
        // capability values cannot make initialize fail.
        let offered: Vec<String> = req
            .params
            .pointer("/capabilities/general/positionEncodings")
            .and_then(Value::as_array)
            .map(|a| {
                a.iter()
                    .filter_map(|e| e.as_str().map(str::to_owned))
                    .collect()
            })
            .unwrap_or_default();
        self.encoding = Encoding::negotiate(&offered);
        self.document_changes = req
            .params
            .pointer("/capabilities/workspace/workspaceEdit/documentChanges")
            .and_then(Value::as_bool)
            .unwrap_or(false);
        let capabilities = ServerCapabilities {
            position_encoding: Some(self.encoding.kind()),
            text_document_sync: Some(TextDocumentSyncCapability::Options(
                TextDocumentSyncOptions {
                    open_close: Some(true),
                    change: Some(TextDocumentSyncKind::INCREMENTAL),
                    save: Some(TextDocumentSyncSaveOptions::SaveOptions(SaveOptions {
                        include_text: Some(false),
                    })),
                    ..TextDocumentSyncOptions::default()
                },
            )),
            code_action_provider: Some(CodeActionProviderCapability::Options(CodeActionOptions {
                code_action_kinds: Some(vec![CodeActionKind::QUICKFIX]),
                resolve_provider: Some(false),
                ..CodeActionOptions::default()
            })),
            ..ServerCapabilities::default()
        };
        let result = InitializeResult {
            capabilities,
            server_info: Some(ServerInfo {
                name: "warplint".into(),
                version: Some(env!("CARGO_PKG_VERSION").into()),
            }),
        };
        self.state = State::Running;
        self.reply_ok(req.id, result);
    }

    fn on_notification(&mut self, mut n: Notification) {
        if self.state != State::Running {
            // Before initialize and after shutdown, notifications are dropped.
            return;
        }
        let method = std::mem::take(&mut n.method);
        match method.as_str() {
            "textDocument/didOpen" => {
                if let Some(p) = parse::<DidOpenTextDocumentParams>(&method, n.params) {
                    self.did_open(p);
                }
            }
            "textDocument/didChange" => {
                if let Some(p) = parse::<DidChangeTextDocumentParams>(&method, n.params) {
                    self.did_change(p);
                }
            }
            // Sent by clients that watch files for the server.
            "workspace/didChangeWatchedFiles" => self.reload_config(),
            "textDocument/didSave" => {
                if let Some(p) = parse::<DidSaveTextDocumentParams>(&method, n.params) {
                    let uri = p.text_document.uri.as_str();
                    if uri.ends_with("/warplint.toml") || uri.ends_with("/.warplint.toml") {
                        self.reload_config();
                        return;
                    }
                    match self.docs.get_mut(&p.text_document.uri) {
                        Some(doc) => {
                            doc.lint_due = None;
                            self.lint(&p.text_document.uri);
                        }
                        None => log(&format!(
                            "didSave for a document that is not open: {}",
                            p.text_document.uri.as_str()
                        )),
                    }
                }
            }
            "textDocument/didClose" => {
                if let Some(p) = parse::<DidCloseTextDocumentParams>(&method, n.params) {
                    let uri = p.text_document.uri;
                    if self.docs.remove(&uri).is_some() {
                        self.publish(uri, Vec::new(), None);
                    }
                }
            }
            // Notifications the server has no use for are ignored, as the
            // specification asks ($/cancelRequest, initialized, …).
            _ => {}
        }
    }

    fn did_open(&mut self, p: DidOpenTextDocumentParams) {
        let item = p.text_document;
        let path = match convert::uri_to_path(&item.uri) {
            Some(path) => path.to_string_lossy().into_owned(),
            None => item.uri.as_str().to_owned(),
        };
        let generation = self.bump();
        self.docs.insert(
            item.uri.clone(),
            Document {
                path,
                version: item.version,
                index: LineIndex::new(&item.text),
                text: Arc::new(item.text),
                generation,
                lint_due: None,
            },
        );
        self.lint(&item.uri);
    }

    fn did_change(&mut self, p: DidChangeTextDocumentParams) {
        let generation = self.bump();
        let due = Instant::now() + self.config.debounce;
        let encoding = self.encoding;
        let uri = p.text_document.uri;
        let Some(doc) = self.docs.get_mut(&uri) else {
            log(&format!(
                "didChange for a document that is not open: {}",
                uri.as_str()
            ));
            return;
        };
        let mut text = String::clone(&doc.text);
        for change in p.content_changes {
            match change.range {
                Some(range) => {
                    let index = LineIndex::new(&text);
                    let start = index.offset(&text, range.start, encoding);
                    let end = index.offset(&text, range.end, encoding).max(start);
                    text.replace_range(start..end, &change.text);
                }
                None => text = change.text,
            }
        }
        doc.index = LineIndex::new(&text);
        doc.text = Arc::new(text);
        doc.version = p.text_document.version;
        doc.generation = generation;
        doc.lint_due = Some(due);
    }

    fn bump(&mut self) -> u64 {
        self.next_generation += 1;
        self.next_generation
    }

    fn start_due_lints(&mut self, now: Instant) {
        let due: Vec<Uri> = self
            .docs
            .iter()
            .filter(|(_, d)| d.lint_due.is_some_and(|t| t <= now))
            .map(|(u, _)| u.clone())
            .collect();
        for uri in due {
            if let Some(doc) = self.docs.get_mut(&uri) {
                doc.lint_due = None;
            }
            self.lint(&uri);
        }
    }

    /// Queue the document's current text for the worker.
    fn lint(&mut self, uri: &Uri) {
        let Some(doc) = self.docs.get(uri) else {
            return;
        };
        if doc.text.len() > self.config.max_document_bytes {
            let note = lsp_types::Diagnostic {
                range: Range::new(Position::new(0, 0), Position::new(0, 0)),
                severity: Some(DiagnosticSeverity::INFORMATION),
                source: Some("warplint".into()),
                message: format!(
                    "warplint did not check this document: {} MiB is over the language server's {} MiB limit (run `warplint check` on the file instead)",
                    doc.text.len() >> 20,
                    self.config.max_document_bytes >> 20
                ),
                ..lsp_types::Diagnostic::default()
            };
            let version = doc.version;
            self.publish(uri.clone(), vec![note], Some(version));
            return;
        }
        let job = Job {
            uri: uri.clone(),
            generation: doc.generation,
            path: doc.path.clone(),
            text: doc.text.clone(),
            options: self.options_for(Path::new(&doc.path)),
        };
        if self.jobs.send(job).is_err() {
            log("the lint thread has stopped; diagnostics are no longer updated");
        }
    }

    fn resolver(config: &ServerConfig) -> Option<crate::config::Resolver> {
        match crate::config::Resolver::new(
            config.config_source.clone(),
            config.overrides.clone(),
            config.options.clone(),
        ) {
            Ok(r) => Some(r),
            Err(e) => {
                log(&format!(
                    "configuration error: {e}; using the command-line options"
                ));
                None
            }
        }
    }

    /// The options a document is checked with: its nearest config file
    /// under the command-line overrides, as `warplint check` would use.
    fn options_for(&self, path: &Path) -> Arc<Options> {
        match &self.resolver {
            Some(r) => match r.options_for(path) {
                Ok(o) => o,
                Err(e) => {
                    log(&format!(
                        "configuration error: {e}; using the command-line options"
                    ));
                    self.options.clone()
                }
            },
            None => self.options.clone(),
        }
    }

    /// A config file changed: forget cached configs and re-check every open
    /// document under the new settings.
    fn reload_config(&mut self) {
        self.resolver = Self::resolver(&self.config);
        let uris: Vec<Uri> = self.docs.keys().cloned().collect();
        for uri in uris {
            self.lint(&uri);
        }
    }

    fn on_linted(&mut self, l: Linted) {
        let Some(doc) = self.docs.get(&l.uri) else {
            return;
        };
        if doc.generation != l.generation {
            return;
        }
        let Some(outcome) = l.outcome else {
            return;
        };
        let view = DocView {
            uri: &l.uri,
            text: &l.text,
            index: &doc.index,
            version: doc.version,
            encoding: self.encoding,
            rules_base_url: &self.config.rules_base_url,
        };
        let diagnostics = outcome
            .diagnostics
            .iter()
            .map(|d| convert::to_lsp(d, outcome.source.as_deref(), &view))
            .collect();
        let version = doc.version;
        self.publish(l.uri, diagnostics, Some(version));
    }

    fn code_action(&mut self, req: Request) {
        let p: CodeActionParams = match serde_json::from_value(req.params) {
            Ok(p) => p,
            Err(e) => return self.reply_err(req.id, ErrorCode::InvalidParams, e.to_string()),
        };
        let actions = match self.docs.get(&p.text_document.uri) {
            Some(doc) => actions::code_actions(
                &p,
                &actions::ActionDoc {
                    uri: &p.text_document.uri,
                    text: &doc.text,
                    index: &doc.index,
                    version: doc.version,
                    document_changes: self.document_changes,
                },
            ),
            None => Vec::new(),
        };
        self.reply_ok(req.id, actions);
    }

    fn publish(&self, uri: Uri, diagnostics: Vec<lsp_types::Diagnostic>, version: Option<i32>) {
        let params = PublishDiagnosticsParams {
            uri,
            diagnostics,
            version,
        };
        match transport::encode_notification("textDocument/publishDiagnostics", &params) {
            Ok(body) => self.send(body),
            Err(e) => log(&format!("cannot encode diagnostics: {e}")),
        }
    }

    fn reply_ok(&self, id: RequestId, result: impl serde::Serialize) {
        match transport::encode_result(&id, &result) {
            Ok(body) => self.send(body),
            Err(e) => self.reply_err(id, ErrorCode::InternalError, e.to_string()),
        }
    }

    fn reply_err(&self, id: RequestId, code: ErrorCode, message: String) {
        self.send(transport::encode_error(Some(&id), code, &message));
    }

    fn send(&self, body: String) {
        // Fails only once the writer has stopped (the client is gone); the
        // reader will see the end of input and stop the loop.
        let _ = self.out.send(body);
    }
}

/// A notification's params, or a log line saying why they are unusable
/// (notifications get no error response).
fn parse<P: DeserializeOwned>(method: &str, params: Value) -> Option<P> {
    match serde_json::from_value(params) {
        Ok(p) => Some(p),
        Err(e) => {
            log(&format!("ignored {method} with invalid params: {e}"));
            None
        }
    }
}
