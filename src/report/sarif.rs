//! SARIF 2.1.0, for GitHub code scanning and other SARIF viewers.
//!
//! - `tool.driver.rules`: every code, with its summary, the "What it does"
//!   section as fullDescription and the whole page as help.
//! - Results point at paths relative to `%SRCROOT%` (the working directory,
//!   given in `originalUriBaseIds`); columns count Unicode code points.
//! - `partialFingerprints` carry the baseline fingerprint, so code scanning
//!   tracks a finding across edits the same way `--baseline` does.
//! - Secondary labels become `relatedLocations`; the executor's verdict and
//!   witness go in the result's property bag; fixes become `fixes`.

use std::io::{self, Write};
use std::path::Path;

use percent_encoding::{AsciiSet, CONTROLS, utf8_percent_encode};
use serde_json::{Value, json};

use crate::diagnostic::{Applicability, Diagnostic, Severity};
use crate::docs::RulePage;
use crate::outcome::RunResult;
use crate::rules::{self, RuleMeta};
use crate::source::{SourceFile, Span};

/// The OASIS schema location the SARIF validator expects.
pub const SARIF_SCHEMA: &str =
    "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json";

/// The `partialFingerprints` key; versioned with the fingerprint recipe.
pub const FINGERPRINT_KEY: &str = "warplintFingerprint/v1";

const SRCROOT: &str = "%SRCROOT%";

/// Characters escaped in a URI path (RFC 3986 leaves `/` alone).
const PATH: &AsciiSet = &CONTROLS
    .add(b' ')
    .add(b'"')
    .add(b'#')
    .add(b'%')
    .add(b'<')
    .add(b'>')
    .add(b'?')
    .add(b'[')
    .add(b'\\')
    .add(b']')
    .add(b'^')
    .add(b'`')
    .add(b'{')
    .add(b'|')
    .add(b'}');

pub fn write(run: &RunResult, out: &mut dyn Write) -> io::Result<()> {
    let cwd = std::env::current_dir().ok();
    let log = to_value(run, cwd.as_deref());
    serde_json::to_writer_pretty(&mut *out, &log).map_err(io::Error::other)?;
    writeln!(out)
}

/// The whole log. `cwd` becomes `%SRCROOT%`; without it, relative paths
/// stay relative references with no base.
pub fn to_value(run: &RunResult, cwd: Option<&Path>) -> Value {
    let metas: Vec<&'static RuleMeta> = rules::all_meta().collect();
    let mut results = Vec::new();
    for f in &run.files {
        for d in &f.diagnostics {
            results.push(result(d, f.source.as_deref(), &metas));
        }
    }
    let notifications: Vec<Value> = run
        .io_errors
        .iter()
        .map(|(path, message)| {
            json!({
                "level": "error",
                "message": { "text": format!("{path}: {message}") },
                "locations": [{ "physicalLocation": { "artifactLocation": artifact(path) } }],
            })
        })
        .collect();
    let mut driver = json!({
        "name": "warplint",
        "version": env!("CARGO_PKG_VERSION"),
        "semanticVersion": env!("CARGO_PKG_VERSION"),
        "rules": metas.iter().map(|m| rule(m)).collect::<Vec<_>>(),
    });
    if let Some(uri) = information_uri() {
        driver["informationUri"] = json!(uri);
    }
    let mut sarif_run = json!({
        "tool": { "driver": driver },
        "invocations": [{
            "executionSuccessful": run.io_errors.is_empty(),
            "toolExecutionNotifications": notifications,
        }],
        "results": results,
        "columnKind": "unicodeCodePoints",
    });
    if let Some(cwd) = cwd {
        let mut uri = file_uri(cwd);
        if !uri.ends_with('/') {
            uri.push('/');
        }
        sarif_run["originalUriBaseIds"] = json!({ SRCROOT: { "uri": uri } });
    }
    json!({
        "$schema": SARIF_SCHEMA,
        "version": "2.1.0",
        "runs": [sarif_run],
    })
}

/// The project's URL from Cargo metadata, when it has one.
fn information_uri() -> Option<&'static str> {
    [env!("CARGO_PKG_HOMEPAGE"), env!("CARGO_PKG_REPOSITORY")]
        .into_iter()
        .find(|u| !u.is_empty())
}

fn level(s: Severity) -> &'static str {
    match s {
        Severity::Error => "error",
        Severity::Warning => "warning",
    }
}

fn rule(m: &RuleMeta) -> Value {
    let page = RulePage::parse(m.page);
    let what = page
        .section("What it does")
        .map(|s| s.trim().to_owned())
        .unwrap_or_else(|| m.summary.to_owned());
    let markdown = match m
        .page
        .strip_prefix("---\n")
        .and_then(|p| p.split_once("\n---\n"))
    {
        Some((_, body)) => body.trim().to_owned(),
        None => m.page.trim().to_owned(),
    };
    let mut tags = vec!["cuda", "concurrency"];
    if rules::is_engine_rule(m.code) {
        tags = vec!["suppression"];
    }
    json!({
        "id": m.code,
        "name": m.name,
        "shortDescription": { "text": m.summary },
        "fullDescription": { "text": what },
        "help": { "text": page.render_terminal(), "markdown": markdown },
        "defaultConfiguration": { "level": level(m.severity) },
        "properties": { "tags": tags },
    })
}

fn result(d: &Diagnostic, source: Option<&SourceFile>, metas: &[&RuleMeta]) -> Value {
    let mut message = d.message.clone();
    if let Some(help) = &d.help {
        message.push_str("\nhelp: ");
        message.push_str(help);
    }
    let mut r = json!({
        "ruleId": d.code,
        "level": level(d.severity),
        "message": { "text": message },
        "locations": [{ "physicalLocation": physical(&d.path, &d.span, source) }],
        "partialFingerprints": { FINGERPRINT_KEY: d.fingerprint },
        "properties": { "confirmation": d.confirmation },
    });
    if let Some(i) = metas.iter().position(|m| m.code == d.code) {
        r["ruleIndex"] = json!(i);
    }
    if !d.labels.is_empty() {
        r["relatedLocations"] = d
            .labels
            .iter()
            .enumerate()
            .map(|(i, l)| {
                json!({
                    "id": i + 1,
                    "physicalLocation": physical(&d.path, &l.span, source),
                    "message": { "text": l.message },
                })
            })
            .collect();
    }
    if let Some(why) = &d.fix_withheld {
        r["properties"]["fixWithheld"] = json!(why);
    }
    if let (Some(fix), Some(src)) = (&d.fix, source) {
        let mut description = fix.message.clone();
        if fix.applicability == Applicability::Unsafe {
            description.push_str(" (unsafe: review before applying)");
        }
        let replacements: Vec<Value> = fix
            .edits
            .iter()
            .map(|e| {
                json!({
                    "deletedRegion": region(&src.span(e.start_byte, e.end_byte)),
                    "insertedContent": { "text": e.replacement },
                })
            })
            .collect();
        r["fixes"] = json!([{
            "description": { "text": description },
            "artifactChanges": [{
                "artifactLocation": artifact(&d.path),
                "replacements": replacements,
            }],
            "properties": { "applicability": fix.applicability },
        }]);
    }
    r
}

fn physical(path: &str, span: &Span, source: Option<&SourceFile>) -> Value {
    let mut region = region(span);
    if let Some(text) = source.and_then(|s| s.text.get(span.start..span.end))
        && !text.is_empty()
    {
        region["snippet"] = json!({ "text": text });
    }
    json!({ "artifactLocation": artifact(path), "region": region })
}

fn region(span: &Span) -> Value {
    json!({
        "startLine": span.line,
        "startColumn": span.column,
        "endLine": span.end_line,
        "endColumn": span.end_column,
    })
}

/// A relative path becomes a relative reference under `%SRCROOT%`; an
/// absolute one a `file://` URI.
fn artifact(path: &str) -> Value {
    let p = Path::new(path);
    if p.is_absolute() {
        json!({ "uri": file_uri(p) })
    } else {
        json!({ "uri": encode_path(&path.replace('\\', "/")), "uriBaseId": SRCROOT })
    }
}

fn file_uri(p: &Path) -> String {
    let s = p.to_string_lossy().replace('\\', "/");
    let s = if s.starts_with('/') {
        s
    } else {
        format!("/{s}")
    };
    format!("file://{}", encode_path(&s))
}

fn encode_path(s: &str) -> String {
    utf8_percent_encode(s, PATH).to_string()
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;
    use std::sync::Arc;

    use super::*;
    use crate::diagnostic::{Confirmation, Label, Launch, Witness, WitnessEvent};
    use crate::outcome::FileOutcome;

    /// A run with what no current rule produces yet: secondary labels and a
    /// confirmed witness.
    pub fn synthetic_run() -> RunResult {
        let text = "__global__ void k(int n) {\n  if (threadIdx.x < 16)\n    x = __shfl_sync(0xffffffff, x, 0);\n}\n";
        let source = Arc::new(SourceFile::new("src/k.cu", text.as_bytes()));
        let call = text.find("__shfl_sync").unwrap();
        let cond = text.find("threadIdx.x < 16").unwrap();
        let d = Diagnostic {
            code: "WL001",
            name: "legacy-warp-primitive",
            severity: Severity::Error,
            path: "src/k.cu".to_owned(),
            span: source.span(call, call + 11),
            message: "full mask in a divergent branch".to_owned(),
            help: None,
            labels: vec![Label {
                span: source.span(cond, cond + 16),
                message: "only lanes 0–15 take this branch".to_owned(),
            }],
            confirmation: Confirmation::confirmed(Witness {
                summary: "lanes 16–31 never reach the shuffle".to_owned(),
                launch: Launch {
                    block_dim: [32, 1, 1],
                    source: "assumed".to_owned(),
                },
                inputs: BTreeMap::from([("n".to_owned(), 20)]),
                warp: 0,
                schedule: None,
                events: vec![WitnessEvent {
                    lanes: 0xffff,
                    line: 3,
                    what: "wait at the shuffle".to_owned(),
                }],
                without_caller: false,
            }),
            fix: None,
            fix_withheld: None,
            fingerprint: "0123456789abcdef0123456789abcdef".to_owned(),
        };
        RunResult {
            files: vec![FileOutcome {
                path: "src/k.cu".to_owned(),
                diagnostics: vec![d],
                source: Some(source),
                ..FileOutcome::default()
            }],
            ..RunResult::default()
        }
    }

    #[test]
    fn labels_become_related_locations_and_the_witness_a_property() {
        let log = to_value(&synthetic_run(), Some(Path::new("/work/p")));
        let run = &log["runs"][0];
        assert_eq!(
            run["originalUriBaseIds"]["%SRCROOT%"]["uri"],
            "file:///work/p/"
        );
        let r = &run["results"][0];
        assert_eq!(r["ruleId"], "WL001");
        assert_eq!(r["ruleIndex"], 0);
        assert_eq!(run["tool"]["driver"]["rules"][0]["id"], "WL001");
        let related = &r["relatedLocations"][0];
        assert_eq!(related["id"], 1);
        assert_eq!(
            related["message"]["text"],
            "only lanes 0–15 take this branch"
        );
        assert_eq!(related["physicalLocation"]["region"]["startLine"], 2);
        assert_eq!(related["physicalLocation"]["region"]["startColumn"], 7);
        assert_eq!(
            related["physicalLocation"]["region"]["snippet"]["text"],
            "threadIdx.x < 16"
        );
        let c = &r["properties"]["confirmation"];
        assert_eq!(c["status"], "confirmed");
        assert_eq!(
            c["witness"]["summary"],
            "lanes 16–31 never reach the shuffle"
        );
        assert_eq!(c["witness"]["events"][0]["lanes"], "0x0000ffff");
        assert_eq!(
            r["partialFingerprints"][FINGERPRINT_KEY],
            "0123456789abcdef0123456789abcdef"
        );
        assert!(r.get("fixes").is_none());
    }

    #[test]
    fn paths_become_uris() {
        assert_eq!(
            artifact("src/a b#1.cu"),
            json!({"uri": "src/a%20b%231.cu", "uriBaseId": "%SRCROOT%"})
        );
        assert_eq!(
            artifact("/tmp/é.cu"),
            json!({"uri": "file:///tmp/%C3%A9.cu"})
        );
        assert_eq!(artifact("<stdin>")["uri"], "%3Cstdin%3E");
    }
}
