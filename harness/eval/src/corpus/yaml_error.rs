//! The YAML parser's errors in a corpus author's words: the field, the rule and the limit,
//! never the parser's API (its messages name Rust types and options the user cannot set).

use serde_saphyr::budget::BudgetBreach;
use serde_saphyr::Error;

/// Most YAML values (mappings, lists, scalars) one corpus file may hold: a case takes
/// about 16, so this is about 120,000 cases. Parsing holds the whole file in memory; the
/// cap bounds what a mistaken or hostile file can make the harness allocate.
pub const MAX_YAML_NODES: usize = 2_000_000;

/// Deepest nesting of lists and mappings a corpus file may use (a corpus needs 4).
pub const MAX_YAML_DEPTH: usize = 64;

/// The parser options of every corpus file: the limits above, everything else default.
pub fn options() -> serde_saphyr::Options {
    let mut budget = serde_saphyr::Budget::default();
    budget.max_nodes = MAX_YAML_NODES;
    budget.max_depth = MAX_YAML_DEPTH;
    let mut options = serde_saphyr::Options::default();
    options.budget = Some(budget);
    options
}

/// Whether a file holds no YAML content at all: only blank lines and comments.
pub fn is_blank(text: &str) -> bool {
    text.lines()
        .map(str::trim)
        .all(|l| l.is_empty() || l.starts_with('#') || l == "---" || l == "...")
}

/// Where `e` is in `text` (1-based line and column) and what it says in an author's
/// words. Two mistakes the parser reports on another line are placed where they are: an
/// indent with a tab (reported on the line before) and a quote left open (reported where
/// the quoted value runs into the next key).
pub fn located(e: &Error, text: &str) -> (usize, usize, String) {
    let location = e.location();
    let line = location.map(|l| l.line() as usize).unwrap_or(0);
    let column = location.map(|l| l.column() as usize).unwrap_or(0);
    let raw = e.to_string();
    let lines: Vec<&str> = text.lines().collect();
    // the reported line, and the one after it, bound where the mistake can be
    let upto = (line + 1).min(lines.len());
    if raw.contains("tab") {
        let tabbed = lines[..upto].iter().position(|l| {
            l.chars()
                .take_while(|c| c.is_whitespace())
                .any(|c| c == '\t')
        });
        if let Some(i) = tabbed {
            return (
                i + 1,
                0,
                "this line is indented with a tab: YAML indents with spaces only".into(),
            );
        }
    }
    if raw.contains("quoted scalar") {
        let open = (0..upto.max(1).min(lines.len()))
            .rev()
            .find_map(|i| open_quote(lines[i]).map(|q| (i, q)));
        if let Some((i, q)) = open {
            return (
                i + 1,
                0,
                format!("a value opened with {q} on this line is never closed: end it with {q}"),
            );
        }
    }
    (line, column, message(e, text, line, column))
}

/// The quote a value on `line` opens and never closes (`query: "x`), if it does: a value
/// starts after `: `, `- `, `[`, `{` or `, `; `\"` escapes in double quotes, `''` in single.
fn open_quote(line: &str) -> Option<char> {
    let chars: Vec<char> = line.chars().collect();
    let mut i = 0;
    let mut prev = ' ';
    while i < chars.len() {
        let c = chars[i];
        if c == '#' && (i == 0 || prev == ' ') {
            return None;
        }
        let starts_value = matches!(prev, ' ' | '[' | '{' | ',') || i == 0;
        if (c == '"' || c == '\'') && starts_value {
            let q = c;
            i += 1;
            let mut closed = false;
            while i < chars.len() {
                match chars[i] {
                    '\\' if q == '"' => i += 1,
                    x if x == q && q == '\'' && chars.get(i + 1) == Some(&'\'') => i += 1,
                    x if x == q => {
                        closed = true;
                        break;
                    }
                    _ => {}
                }
                i += 1;
            }
            if !closed {
                return Some(q);
            }
        }
        prev = chars.get(i).copied().unwrap_or(' ');
        i += 1;
    }
    None
}

/// The message for `e`, met at 1-based `line` and `column` of `text`.
pub fn message(e: &Error, text: &str, line: usize, column: usize) -> String {
    let field = || key_before(text, line, column);
    let named = |what: String| match field() {
        Some(f) => format!("`{f}`: {what}"),
        None => what,
    };
    match e.without_snippet() {
        Error::DuplicateMappingKey { key, .. } => match key {
            Some(k) => format!("key `{k}` is given twice in one mapping (each key once)"),
            None => "a key is given twice in one mapping (each key once)".into(),
        },
        Error::MultipleDocuments { .. } => {
            "a second YAML document starts here (`---`): a corpus file holds one suite; put \
             the next suite in a file of its own"
                .into()
        }
        Error::NullIntoString { .. } => named("is empty (null); give it a text value".into()),
        Error::InvalidScalar { ty, .. } => {
            let value = value_at(text, line, column);
            named(format!("`{value}` is not {}", scalar_words(ty)))
        }
        Error::Eof { .. } => "the file ends in the middle of a value".into(),
        Error::Budget { breach, .. } => match breach {
            BudgetBreach::Depth { .. } => format!(
                "lists and mappings are nested more than {MAX_YAML_DEPTH} deep (the limit of a \
                 corpus file)"
            ),
            BudgetBreach::Nodes { .. } => format!(
                "more than {MAX_YAML_NODES} YAML values (about 120,000 cases, the limit of one \
                 corpus file): split the suite into several files"
            ),
            BudgetBreach::Aliases { .. } | BudgetBreach::Anchors { .. } => {
                "too many YAML aliases or anchors (`*name`, `&name`): write the values out".into()
            }
            other => format!("the file exceeds a parser limit ({})", breach_words(other)),
        },
        other => {
            let text = other.to_string();
            let line = text.lines().next().unwrap_or(&text).trim();
            // the parser appends "at line L, column C": the caller shows the place itself
            match line.rfind(" at line ") {
                Some(i) => line[..i].to_string(),
                None => line.to_string(),
            }
        }
    }
}

fn scalar_words(ty: &str) -> &'static str {
    match ty {
        "u8" | "u16" | "u32" | "u64" | "u128" | "usize" => "a whole number, 0 or more",
        "i8" | "i16" | "i32" | "i64" | "i128" | "isize" => "a whole number",
        "f32" | "f64" => "a number",
        "bool" => "true or false",
        "char" => "a single character",
        _ => "a value of the right kind",
    }
}

fn breach_words(b: &BudgetBreach) -> String {
    // the variant name without its fields: "Events", "Documents", ...
    let debug = format!("{b:?}");
    let name = debug
        .split([' ', '{', '('])
        .next()
        .unwrap_or("")
        .to_lowercase();
    format!("too many {name}")
}

/// The mapping key written before `column` on `line` (`max_bytes` in
/// `expect: {max_bytes: -5}`), or on the lines above when the value starts a line.
fn key_before(text: &str, line: usize, column: usize) -> Option<String> {
    let lines: Vec<&str> = text.lines().collect();
    let this = lines.get(line.checked_sub(1)?)?;
    let upto: String = this.chars().take(column.saturating_sub(1)).collect();
    let key_of = |s: &str| -> Option<String> {
        let s = s.trim_end();
        let s = s.strip_suffix(':')?;
        let key: String = s
            .chars()
            .rev()
            .take_while(|c| c.is_alphanumeric() || *c == '_' || *c == '-')
            .collect::<Vec<_>>()
            .into_iter()
            .rev()
            .collect();
        (!key.is_empty()).then_some(key)
    };
    key_of(&upto)
}

/// The scalar written at `column` of `line`, up to the next `,`, `}`, `]` or line end.
fn value_at(text: &str, line: usize, column: usize) -> String {
    let Some(l) = line.checked_sub(1).and_then(|i| text.lines().nth(i)) else {
        return String::new();
    };
    let rest: String = l.chars().skip(column.saturating_sub(1)).collect();
    let value: String = rest
        .chars()
        .take_while(|c| !matches!(c, ',' | '}' | ']' | '#'))
        .collect();
    let value = value.trim();
    value.chars().take(40).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn key_and_value_at_a_column() {
        let text = "cases:\n  - {id: a, expect: {max_bytes: -5}}\n";
        let col = text.lines().nth(1).unwrap().find("-5").unwrap() + 1;
        assert_eq!(key_before(text, 2, col).as_deref(), Some("max_bytes"));
        assert_eq!(value_at(text, 2, col), "-5");
    }

    #[test]
    fn blank_files() {
        assert!(is_blank("# only a comment\n\n"));
        assert!(is_blank(""));
        assert!(!is_blank("suite: s\n"));
    }
}
