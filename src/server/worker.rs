//! The lint worker: runs `engine::check_source` off the main loop, so the
//! server keeps answering (code actions, shutdown) while a large document
//! is being checked.

use std::collections::VecDeque;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Arc;
use std::sync::mpsc::{Receiver, Sender};
use std::time::{Duration, Instant};

use lsp_types::Uri;

use crate::engine::{self, FileOutcome, Options};

/// One document snapshot to check.
pub struct Job {
    pub uri: Uri,
    /// Unique per text snapshot; a result is published only if the document
    /// still has this generation (latest text wins).
    pub generation: u64,
    /// The path handed to the engine (the file's path, or the URI).
    pub path: String,
    pub text: Arc<String>,
    pub options: Arc<Options>,
}

pub struct Linted {
    pub uri: Uri,
    pub generation: u64,
    pub text: Arc<String>,
    /// `None` when the engine panicked (logged; nothing is published).
    pub outcome: Option<FileOutcome>,
    pub elapsed: Duration,
}

/// Run jobs until `jobs` closes. Jobs queued behind a newer one for the same
/// document are dropped unchecked.
pub fn run(jobs: Receiver<Job>, done: impl Fn(Linted) -> bool) {
    let mut queue: VecDeque<Job> = VecDeque::new();
    loop {
        if queue.is_empty() {
            match jobs.recv() {
                Ok(j) => queue.push_back(j),
                Err(_) => return,
            }
        }
        queue.extend(jobs.try_iter());
        let Some(job) = queue.pop_front() else {
            continue;
        };
        if queue.iter().any(|newer| newer.uri == job.uri) {
            continue;
        }
        let start = Instant::now();
        let outcome = catch_unwind(AssertUnwindSafe(|| {
            engine::check_source(&job.path, job.text.as_bytes(), &job.options)
        }));
        let outcome = match outcome {
            Ok(o) => Some(o),
            Err(_) => {
                super::transport::log(&format!(
                    "internal error while checking {}; no diagnostics published for it",
                    job.path
                ));
                None
            }
        };
        let sent = done(Linted {
            uri: job.uri,
            generation: job.generation,
            text: job.text,
            outcome,
            elapsed: start.elapsed(),
        });
        if !sent {
            return;
        }
    }
}

/// Forward results into the server's event channel.
pub fn sender<E>(tx: Sender<E>, wrap: fn(Linted) -> E) -> impl Fn(Linted) -> bool {
    move |l| tx.send(wrap(l)).is_ok()
}
