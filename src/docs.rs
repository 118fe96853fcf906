//! Rule pages from `rules/`: front matter, sections and code examples.
//!
//! The pages are embedded in the binary (each rule's `RuleMeta::page`), so
//! `warplint explain` and the SARIF/LSP help text never go stale.

/// A parsed rule page.
#[derive(Debug, Default)]
pub struct RulePage<'a> {
    pub front: Vec<(&'a str, &'a str)>,
    /// `## Heading` → body, in page order.
    pub sections: Vec<(&'a str, &'a str)>,
    pub title: &'a str,
}

/// The sections every page must have, in this order.
pub const REQUIRED_SECTIONS: &[&str] = &[
    "What it does",
    "Why is this a bug",
    "Example",
    "Use instead",
    "Fix safety",
    "Options",
];

impl<'a> RulePage<'a> {
    pub fn parse(page: &'a str) -> RulePage<'a> {
        let mut out = RulePage::default();
        let mut rest = page;
        if let Some(after) = page.strip_prefix("---\n")
            && let Some(end) = after.find("\n---\n")
        {
            for line in after[..end].lines() {
                if let Some((k, v)) = line.split_once(':') {
                    out.front.push((k.trim(), v.trim()));
                }
            }
            rest = &after[end + 5..];
        }
        let mut current: Option<(&'a str, usize)> = None;
        let mut offset = 0;
        for line in rest.split_inclusive('\n') {
            let trimmed = line.trim_end();
            if let Some(h) = trimmed.strip_prefix("## ") {
                if let Some((name, start)) = current.take() {
                    out.sections.push((name, &rest[start..offset]));
                }
                current = Some((h.trim(), offset + line.len()));
            } else if let Some(t) = trimmed.strip_prefix("# ") {
                out.title = t.trim();
            }
            offset += line.len();
        }
        if let Some((name, start)) = current {
            out.sections.push((name, &rest[start..]));
        }
        out
    }

    pub fn front(&self, key: &str) -> Option<&'a str> {
        self.front.iter().find(|(k, _)| *k == key).map(|(_, v)| *v)
    }

    pub fn section(&self, name: &str) -> Option<&'a str> {
        self.sections
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, b)| *b)
    }

    /// The fenced code blocks of a section, with their info strings.
    pub fn code_blocks(&self, section: &str) -> Vec<(&'a str, String)> {
        let Some(body) = self.section(section) else {
            return Vec::new();
        };
        let mut blocks = Vec::new();
        let mut lines = body.lines();
        while let Some(line) = lines.next() {
            if let Some(info) = line.trim_start().strip_prefix("```") {
                let mut code = String::new();
                for l in lines.by_ref() {
                    if l.trim_start().starts_with("```") {
                        break;
                    }
                    code.push_str(l);
                    code.push('\n');
                }
                blocks.push((info.trim(), code));
            }
        }
        blocks
    }

    /// The page as `warplint explain` prints it.
    pub fn render_terminal(&self) -> String {
        let mut s = format!(
            "{} ({}): {}\nSeverity: {}. Since: {}.\n",
            self.front("code").unwrap_or("?"),
            self.front("name").unwrap_or("?"),
            self.title,
            self.front("severity").unwrap_or("?"),
            self.front("since").unwrap_or("?"),
        );
        for (name, body) in &self.sections {
            s.push_str(&format!("\n## {name}\n{}", body.trim_end()));
            s.push('\n');
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_front_matter_sections_and_code() {
        let page = "---\ncode: XX009\nname: x\n---\n# Title\n\n## Example\n\ntext\n```cuda\nint a;\n```\n## Options\nNone.\n";
        let p = RulePage::parse(page);
        assert_eq!(p.front("code"), Some("XX009"));
        assert_eq!(p.title, "Title");
        assert_eq!(
            p.code_blocks("Example"),
            vec![("cuda", "int a;\n".to_owned())]
        );
        assert_eq!(p.section("options").map(str::trim), Some("None."));
    }
}
