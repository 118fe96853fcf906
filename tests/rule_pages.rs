//! Every rule has a page in `rules/`, the page agrees with the rule, and its
//! examples do what they say: `Example` triggers the rule, `Use instead` is
//! clean of it.

use warplint::docs::{REQUIRED_SECTIONS, RulePage};
use warplint::engine::{Options, check_source};
use warplint::rules::all_meta;

fn codes_in(snippet: &str) -> Vec<&'static str> {
    let diagnostics =
        check_source("example.cu", snippet.as_bytes(), &Options::default()).diagnostics;
    for d in &diagnostics {
        // One short sentence; the witness carries the run.
        assert!(
            d.message.chars().count() < 160,
            "{}: message of {} characters: {}",
            d.code,
            d.message.chars().count(),
            d.message
        );
    }
    diagnostics.iter().map(|d| d.code).collect()
}

#[test]
fn every_rule_has_a_consistent_page() {
    for meta in all_meta() {
        let page = RulePage::parse(meta.page);
        assert_eq!(page.front("code"), Some(meta.code), "{}", meta.code);
        assert_eq!(page.front("name"), Some(meta.name), "{}", meta.code);
        assert_eq!(
            page.front("severity"),
            Some(meta.severity.to_string().as_str()),
            "{}",
            meta.code
        );
        assert!(page.front("since").is_some(), "{}: no `since`", meta.code);
        let names: Vec<&str> = page.sections.iter().map(|(n, _)| *n).collect();
        assert_eq!(names, REQUIRED_SECTIONS, "{}: sections", meta.code);
    }
}

#[test]
fn every_page_in_rules_dir_belongs_to_a_rule() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("rules");
    for entry in std::fs::read_dir(dir).unwrap() {
        let name = entry.unwrap().file_name().to_string_lossy().into_owned();
        let code = &name[..5.min(name.len())];
        let meta = all_meta()
            .find(|m| m.code == code)
            .unwrap_or_else(|| panic!("rules/{name} has no rule"));
        assert_eq!(name, format!("{}-{}.md", meta.code, meta.name));
    }
}

#[test]
fn examples_trigger_and_fixes_are_clean() {
    for meta in all_meta() {
        let page = RulePage::parse(meta.page);
        let bad = page.code_blocks("Example");
        assert!(!bad.is_empty(), "{}: Example has no code", meta.code);
        for (_, code) in &bad {
            assert!(
                codes_in(code).contains(&meta.code),
                "{}: Example does not produce {}:\n{code}",
                meta.code,
                meta.code
            );
        }
        let good = page.code_blocks("Use instead");
        assert!(!good.is_empty(), "{}: Use instead has no code", meta.code);
        for (_, code) in &good {
            let got = codes_in(code);
            assert!(
                !got.contains(&meta.code),
                "{}: Use instead still produces {:?}:\n{code}",
                meta.code,
                got
            );
        }
    }
}
