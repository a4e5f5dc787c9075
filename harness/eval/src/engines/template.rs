//! Command templates of engine files: an argument (or the cwd, or the stdin file) with
//! `{placeholder}`s for the values a case gives, expanded per case, quoted for `sh -c`.

use std::path::Path;

/// A value a command template takes from the case.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Placeholder {
    /// The case's query.
    Query,
    /// The source tree (absolute), for root fixtures.
    Root,
    /// The item store file (absolute), for store fixtures.
    Store,
    /// A file of paths, one a line: the path list of a paths fixture, or the files of a
    /// source tree as findbench walks them (written once per run).
    Paths,
    /// The case's result limit.
    Limit,
    /// The engine file's directory (absolute).
    EngineDir,
}

impl Placeholder {
    const ALL: [Placeholder; 6] = [
        Placeholder::Query,
        Placeholder::Root,
        Placeholder::Store,
        Placeholder::Paths,
        Placeholder::Limit,
        Placeholder::EngineDir,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Placeholder::Query => "query",
            Placeholder::Root => "root",
            Placeholder::Store => "store",
            Placeholder::Paths => "paths",
            Placeholder::Limit => "limit",
            Placeholder::EngineDir => "engine_dir",
        }
    }
}

#[derive(Debug, Clone, PartialEq)]
enum Piece {
    Text(String),
    Value(Placeholder),
}

/// One argument (or the cwd, or the stdin file) with `{placeholder}`s; `{{` and `}}` are
/// literal braces, and a brace that does not open `{name}` of letters and `_` is literal
/// too (so `awk '{print $1}'` needs no escaping).
#[derive(Debug, Clone, PartialEq)]
pub struct Template {
    pieces: Vec<Piece>,
    /// Substituted values are single-quoted for `sh -c`.
    quote: bool,
}

impl Template {
    pub fn literal(s: &str) -> Template {
        Template {
            pieces: vec![Piece::Text(s.to_string())],
            quote: false,
        }
    }

    /// Parses `s`; an unknown `{name}` is an error naming the known ones.
    pub fn parse(s: &str) -> std::result::Result<Template, String> {
        let mut pieces = Vec::new();
        let mut text = String::new();
        let mut rest = s;
        while let Some(i) = rest.find(['{', '}']) {
            text.push_str(&rest[..i]);
            let tail = &rest[i..];
            if tail.starts_with("{{") || tail.starts_with("}}") {
                text.push(tail.as_bytes()[0] as char);
                rest = &tail[2..];
                continue;
            }
            if tail.starts_with('{') {
                if let Some(end) = tail.find('}') {
                    let name = &tail[1..end];
                    if !name.is_empty() && name.chars().all(|c| c.is_ascii_lowercase() || c == '_')
                    {
                        let p = Placeholder::ALL
                            .into_iter()
                            .find(|p| p.as_str() == name)
                            .ok_or_else(|| {
                                let known: Vec<String> = Placeholder::ALL
                                    .iter()
                                    .map(|p| format!("{{{}}}", p.as_str()))
                                    .collect();
                                format!(
                                    "unknown placeholder `{{{name}}}` (placeholders are {}; `{{{{` is a literal brace)",
                                    known.join(", ")
                                )
                            })?;
                        if !text.is_empty() {
                            pieces.push(Piece::Text(std::mem::take(&mut text)));
                        }
                        pieces.push(Piece::Value(p));
                        rest = &tail[end + 1..];
                        continue;
                    }
                }
            }
            text.push(tail.as_bytes()[0] as char);
            rest = &tail[1..];
        }
        text.push_str(rest);
        if !text.is_empty() {
            pieces.push(Piece::Text(text));
        }
        Ok(Template {
            pieces,
            quote: false,
        })
    }

    /// The same template for a `sh -c` command line: every substituted value quoted.
    pub fn shell_quoted(mut self) -> Template {
        self.quote = true;
        self
    }

    pub fn placeholders(&self) -> Vec<Placeholder> {
        self.pieces
            .iter()
            .filter_map(|p| match p {
                Piece::Value(v) => Some(*v),
                Piece::Text(_) => None,
            })
            .collect()
    }

    /// The text when the template holds no placeholder besides `{engine_dir}`.
    pub fn expand_static(&self, engine_dir: &Path) -> Option<String> {
        let mut out = String::new();
        for p in &self.pieces {
            match p {
                Piece::Text(t) => out.push_str(t),
                Piece::Value(Placeholder::EngineDir) => out.push_str(&engine_dir.to_string_lossy()),
                Piece::Value(_) => return None,
            }
        }
        Some(out)
    }

    /// The text with every placeholder replaced; a placeholder without a value (`{root}`
    /// for a store fixture) is an error naming it.
    pub fn expand(
        &self,
        value: &dyn Fn(Placeholder) -> Option<String>,
    ) -> std::result::Result<String, String> {
        let mut out = String::new();
        for p in &self.pieces {
            match p {
                Piece::Text(t) => out.push_str(t),
                Piece::Value(v) => {
                    let s = value(*v).ok_or_else(|| {
                        format!("`{{{}}}` has no value for this case's fixture", v.as_str())
                    })?;
                    if self.quote {
                        out.push_str(&shell_quote(&s));
                    } else {
                        out.push_str(&s);
                    }
                }
            }
        }
        Ok(out)
    }
}

/// `s` single-quoted for a POSIX shell.
pub fn shell_quote(s: &str) -> String {
    format!("'{}'", s.replace('\'', r"'\''"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn values(p: Placeholder) -> Option<String> {
        match p {
            Placeholder::Query => Some("it's x".into()),
            Placeholder::Root => Some("/r".into()),
            Placeholder::Limit => Some("5".into()),
            _ => None,
        }
    }

    #[test]
    fn templates_substitute_escape_and_quote() {
        let t = Template::parse("--q={query} in {root}").unwrap();
        assert_eq!(t.expand(&values).unwrap(), "--q=it's x in /r");
        assert_eq!(
            t.clone().shell_quoted().expand(&values).unwrap(),
            r"--q='it'\''s x' in '/r'"
        );
        let t = Template::parse("awk '{print $1}' {{query}} {limit}").unwrap();
        assert_eq!(t.placeholders(), [Placeholder::Limit]);
        assert_eq!(t.expand(&values).unwrap(), "awk '{print $1}' {query} 5");
        let e = Template::parse("{store}").unwrap().expand(&values);
        assert_eq!(
            e.unwrap_err(),
            "`{store}` has no value for this case's fixture"
        );
        assert!(Template::parse("{quer}").unwrap_err().contains("{query}"));
    }
}
