//! Which terms of a question come from its code-shaped tokens: the names, paths and
//! messages a task quotes from the code are what an engineer greps for first, before the
//! prose around them.
//!
//! A token (a run without white space, its surrounding punctuation cut) is code-shaped when
//! it is:
//! - inside backticks, or inside double quotes (a quoted message);
//! - an identifier with an inner `_` or a lower-to-upper hump (`num_threads`, `parseArgs`,
//!   `GzipHeader`), or joined by `::` or `->`;
//! - a path or file name (`src/walk.rs`, `walk.rs:120`, `os.path.join`): a `/` or `\`
//!   between names, or a `.` between two names of two characters or more;
//! - a call (`parse()`), a flag (`--no-ignore`, `-L`) or an assignment (`key=value`);
//! - the scope that opens a subject (`printer: fix ...`, `fix(parser): ...`): the part of
//!   the tree the change is in.
//!
//! The terms are those [`super::tokens::question_terms`] makes of the token; a term met in
//! prose and in a code-shaped token is code-shaped.

use super::tokens::{for_each_part, term_of};

/// For each term of `terms` (the question's terms, in their order), whether a code-shaped
/// token of `question` makes it.
pub fn code_shaped(question: &str, terms: &[String]) -> Vec<bool> {
    let mut shaped = vec![false; terms.len()];
    let mut mark = |token: &str| {
        for_each_part(token, |part| {
            let term = term_of(part);
            if let Some(k) = terms.iter().position(|t| *t == term) {
                shaped[k] = true;
            }
        })
    };
    // backticked and double-quoted spans, whatever they hold
    let rest = outside_quotes(question, |_, span| mark(span));
    for (i, raw) in rest.split_whitespace().enumerate() {
        if (i == 0 && is_scope(raw)) || is_code(raw) {
            mark(scope_of(raw).unwrap_or(raw));
        }
    }
    shaped
}

/// `question` with its backticked and double-quoted spans cut out (each left as a space),
/// every span handed to `on_span` with the quote that opened it; an unclosed quote quotes
/// nothing (what follows it is kept).
fn outside_quotes(question: &str, mut on_span: impl FnMut(char, &str)) -> String {
    let mut rest = String::with_capacity(question.len());
    let mut open: Option<char> = None;
    let mut span = String::new();
    for c in question.chars() {
        match open {
            Some(q) if c == q => {
                on_span(q, &span);
                span.clear();
                open = None;
                rest.push(' ');
            }
            Some(_) => span.push(c),
            None if c == '`' || c == '"' => open = Some(c),
            None => rest.push(c),
        }
    }
    rest.push_str(&span);
    rest
}

/// The names of code a question quotes, as written, at most `limit` (distinct by their
/// snake form), in the question's order: the identifiers of its backticked spans, and of
/// its other tokens those shaped as code names (an inner `_`, a lower-to-upper hump, a
/// call `name(`, a segment joined by `::` or `->`, the owner of a member so shaped
/// (`logger` of `logger.ReplaceHooks`), a class and its method written `URLMap#remap`;
/// four bytes at least, so that `NaN` is not one). A path's directories, a file's
/// extension, a flag and a quoted message name no declaration: they are not names.
pub fn named_identifiers(question: &str, limit: usize) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut seen: Vec<String> = Vec::new();
    let mut push = |name: &str| {
        let snake = crate::text::camel::snake(name);
        if out.len() < limit && !seen.contains(&snake) {
            seen.push(snake);
            out.push(name.to_string());
        }
    };
    let rest = outside_quotes(question, |quote, span| {
        if quote == '`' {
            identifiers_in(span, |name, _| {
                if name.len() >= 3 {
                    push(name)
                }
            });
        }
    });
    for raw in rest.split_whitespace() {
        // a flag, or the scope that opens a subject (`fix(parser):`, not a call)
        if raw.starts_with('-') || is_scope(raw) {
            continue;
        }
        let joined = raw.contains("::") || raw.contains("->");
        let spans: Vec<(usize, usize)> = identifier_spans(raw).collect();
        let b = raw.as_bytes();
        // the separator between identifier `i` and the next, when nothing else is
        let joint = |i: usize| {
            let (end, next) = (spans[i].1, spans.get(i + 1)?);
            (next.0 == end + 1).then_some(b[end])
        };
        let shaped = |i: usize| {
            let (start, end) = spans[i];
            shaped_as_name(&raw[start..end], b.get(end).copied())
        };
        for i in 0..spans.len() {
            // `owner.member` with a member shaped as a name, and `Class#member` as Ruby
            // and JSDoc write a method: the owner is named too (`logger.ReplaceHooks`,
            // `URLMap#remap`), as `::` joins them; a URL's `page.md#usage` is no method
            let name = &raw[spans[i].0..spans[i].1];
            let class = |i: usize| b[spans[i].0].is_ascii_uppercase();
            let owner = match joint(i) {
                Some(b'#') => class(i),
                Some(b'.') => shaped(i + 1),
                _ => false,
            };
            let member = i > 0 && joint(i - 1) == Some(b'#') && class(i - 1);
            if name.len() >= 4 && (joined || owner || member || shaped(i)) {
                push(name);
            }
        }
    }
    out
}

/// An identifier shaped as a code name on its own: an inner `_` beside a letter, a
/// lower-to-upper hump, or a call (`next`, the byte after it, is `(`).
pub(crate) fn shaped_as_name(name: &str, next: Option<u8>) -> bool {
    let b = name.as_bytes();
    let snake = b.contains(&b'_') && b.iter().any(|c| c.is_ascii_alphabetic());
    let hump = b
        .windows(2)
        .any(|w| w[0].is_ascii_lowercase() && w[1].is_ascii_uppercase());
    snake || hump || next == Some(b'(')
}

/// The files a question names by name or path, as written, at most `limit`, in the
/// question's order: `licenses.go`, `src/walk.rs` (of `src/walk.rs:120`), `axios.js` (of
/// `docs(axios.js)`). A name is a run of letters, digits and `_ - . /` whose last part
/// (after its last `/`) has a name before a `.` and an extension after it that starts with a
/// letter and holds letters and digits only: a version (`1.2.3`), `e.g` (its name is one
/// letter, so it may be one: only the tree tells) and a sentence's last word are not.
pub fn named_paths(question: &str, limit: usize) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let part = |c: char| c.is_ascii_alphanumeric() || "_-./".contains(c);
    for run in question.split(|c: char| !part(c)) {
        let run = run
            .trim_start_matches("./")
            .trim_end_matches(['.', '/', '-']);
        let last = run.rsplit('/').next().unwrap_or(run);
        let Some((name, ext)) = last.rsplit_once('.') else {
            continue;
        };
        let name_ok = name.bytes().any(|b| b.is_ascii_alphanumeric());
        let ext_ok = ext.bytes().next().is_some_and(|b| b.is_ascii_alphabetic())
            && ext.bytes().all(|b| b.is_ascii_alphanumeric());
        if name_ok && ext_ok && out.len() < limit && !out.iter().any(|o| o == run) {
            out.push(run.to_string());
        }
    }
    out
}

/// Calls `each` with every identifier of `text` (a run of ASCII letters, digits, `_` and
/// `$` that does not start with a digit) and the byte after it.
pub(super) fn identifiers_in<'t>(text: &'t str, mut each: impl FnMut(&'t str, Option<u8>)) {
    for (start, end) in identifier_spans(text) {
        each(&text[start..end], text.as_bytes().get(end).copied());
    }
}

/// A byte of an identifier: an ASCII letter or digit, `_` or `$`.
pub(crate) fn is_identifier_byte(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_' || c == b'$'
}

/// `s` is one identifier: identifier bytes, not starting with a digit.
pub(crate) fn is_identifier(s: &str) -> bool {
    s.bytes().next().is_some_and(|b| !b.is_ascii_digit()) && s.bytes().all(is_identifier_byte)
}

/// The last identifier of a name as declared (`route` of `CommandRouter::route`).
pub(crate) fn last_identifier(name: &str) -> &str {
    name.rsplit(|c: char| !c.is_ascii() || !is_identifier_byte(c as u8))
        .find(|s| !s.is_empty())
        .unwrap_or("")
}

/// The byte spans of the identifiers of `text`, as [`identifiers_in`] reads them.
fn identifier_spans(text: &str) -> impl Iterator<Item = (usize, usize)> + '_ {
    let b = text.as_bytes();
    let ident = is_identifier_byte;
    let mut i = 0;
    std::iter::from_fn(move || {
        while i < b.len() {
            if !ident(b[i]) {
                i += 1;
                continue;
            }
            let start = i;
            while i < b.len() && ident(b[i]) {
                i += 1;
            }
            if !b[start].is_ascii_digit() {
                return Some((start, i));
            }
        }
        None
    })
}

/// What the scope token `raw` (`printer:`, `fix(parser):`) names: the part in parentheses
/// when it has one, else the name before the colon; `None` for a token that is no scope.
pub(super) fn scope_named(raw: &str) -> Option<&str> {
    if !is_scope(raw) {
        return None;
    }
    match scope_of(raw) {
        Some(inner) => Some(inner),
        None if raw.contains('(') => None,
        None => raw.strip_suffix(':').map(|n| n.trim_end_matches('!')),
    }
}

/// `printer:` or `fix(parser):`, a subject's first token naming where the change is.
fn is_scope(raw: &str) -> bool {
    let Some(name) = raw.strip_suffix(':') else {
        return false;
    };
    let name = name.trim_end_matches('!');
    !name.is_empty()
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"_-/.()*,".contains(&b))
}

/// The scope inside `type(scope):`; `None` for any other token.
fn scope_of(raw: &str) -> Option<&str> {
    let inner = raw.strip_suffix(':')?.trim_end_matches('!');
    let open = inner.find('(')?;
    inner[open + 1..].strip_suffix(')')
}

fn is_code(raw: &str) -> bool {
    let opened = raw.trim_start_matches(['(', '[', '{', '<', '\'']);
    let token = opened.trim_end_matches(['.', ',', ';', ':', '!', '?', ')', ']', '}', '>', '\'']);
    let b = token.as_bytes();
    if b.len() < 2 {
        return false;
    }
    let word = |c: u8| c.is_ascii_alphanumeric();
    // a flag: `--name`, `-L`
    if b[0] == b'-' && b.len() >= 2 && (b[1] == b'-' || b[1].is_ascii_alphabetic()) {
        return b.iter().skip(1).any(|c| c.is_ascii_alphabetic());
    }
    let inner = |c: u8| {
        b.windows(3)
            .any(|w| w[1] == c && word(w[0]) && (word(w[2]) || w[2] == c))
    };
    let hump = b
        .windows(2)
        .any(|w| w[0].is_ascii_lowercase() && w[1].is_ascii_uppercase());
    let snake = b.contains(&b'_') && b.iter().any(|&c| c.is_ascii_alphabetic());
    let joined = token.contains("::") || token.contains("->");
    let path = inner(b'/') || inner(b'\\');
    // a call ends in the `)` cut from the token
    let called = opened.trim_end_matches(['.', ',', ';', ':', '!', '?', '\'']);
    let call = called.contains("()") || (called.contains('(') && called.ends_with(')'));
    let assignment = inner(b'=');
    // a `.` between names of two characters or more (`walk.rs`, `os.path`), not `e.g`
    let dotted = token.split('.').filter(|s| !s.is_empty()).count() >= 2
        && token
            .split('.')
            .all(|s| s.len() >= 2 && s.bytes().next().is_some_and(word));
    let located = token
        .rsplit_once(':')
        .is_some_and(|(file, line)| file.contains('.') && line.bytes().all(|c| c.is_ascii_digit()));
    hump || snake || joined || path || call || assignment || dotted || located
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::profile::Profile;
    use crate::retrieval::tokens::question_terms;

    fn shaped(question: &str) -> Vec<String> {
        let terms = question_terms(question, &Profile::default().task_ranking.stop_words);
        let marks = code_shaped(question, &terms);
        terms
            .into_iter()
            .zip(marks)
            .filter(|(_, m)| *m)
            .map(|(t, _)| t)
            .collect()
    }

    #[test]
    fn the_files_a_question_names_are_its_names_with_an_extension() {
        assert_eq!(
            named_paths(
                "cmd: Move functions from helpers.go to licenses.go, see src/walk.rs:120",
                8
            ),
            ["helpers.go", "licenses.go", "src/walk.rs"]
        );
        assert_eq!(
            named_paths("docs(axios.js): fix ./lib/a.js.", 8),
            ["axios.js", "lib/a.js"]
        );
        // versions, sentences and a URL's last part with no extension are not files
        assert!(named_paths("Release 3.0.0rc2. Done. v1.2.3", 8).is_empty());
        assert!(named_paths("see code.google.com/p/issues/detail?id=353", 8).is_empty());
        assert_eq!(named_paths("a.rs a.rs b.rs c.rs", 2), ["a.rs", "b.rs"]);
    }

    #[test]
    fn identifiers_paths_flags_and_messages_are_code_and_prose_is_not() {
        assert!(shaped("Exit immediately when Ctrl-C has been pressed twice").is_empty());
        assert!(shaped("Fix the build, e.g. on Windows.").is_empty());
        assert_eq!(
            shaped("printer: fix --vimgrep for multi-line mode"),
            ["print", "vimgrep"]
        );
        assert_eq!(
            shaped("fix(parser): handle NaN in parseNumber()"),
            ["pars", "na", "parse", "numb"]
        );
        assert_eq!(
            shaped("Crash in src/walk.rs:120 when `max_depth` is zero"),
            ["src", "walk", "rs", "max", "depth"]
        );
        assert_eq!(
            shaped("Raise \"unknown encoding\" from GzipHeader.read"),
            ["unknown", "encod", "gzip", "head", "read"]
        );
        assert_eq!(
            shaped("Support key=value in setup.cfg"),
            ["key", "value", "setup", "cfg"]
        );
        // an unclosed quote quotes nothing, and a capital at the start is not a hump
        assert!(shaped("Don\"t panic on Empty input").is_empty());
    }

    #[test]
    fn the_names_a_question_quotes_are_its_code_identifiers() {
        let named = |q: &str| named_identifiers(q, 8);
        assert_eq!(
            named("fix(parser): handle NaN in parseNumber() and cJSON_Print"),
            ["parseNumber", "cJSON_Print"]
        );
        assert_eq!(
            named("Crash in src/walk.rs:120 when `max_depth` is zero"),
            ["max_depth"]
        );
        assert_eq!(
            named("call `Walk::new` via Builder::build"),
            ["Walk", "new", "Builder", "build"]
        );
        assert_eq!(named("open(file) before read_all()"), ["open", "read_all"]);
        // the owner of a member shaped as a name, and a class's method written with `#`
        assert_eq!(
            named("Add logger.ReplaceHooks and URLMap#remap, not self.kind"),
            ["logger", "ReplaceHooks", "URLMap", "remap"]
        );
        // a file's extension, a URL's anchor and a sentence's end are no member
        assert!(named("see walk.rs, README.md#usage or page#Intro. Done.Next").is_empty());
        // a flag, a quoted message, a path and plain prose name nothing
        assert!(named("printer: fix --vimgrep for \"max_depth\" in src/walk.rs").is_empty());
        // one name however it is written, and at most the limit
        assert_eq!(named("parseArgs and parse_args"), ["parseArgs"]);
        assert_eq!(named_identifiers("a_b1 c_d2 e_f3", 2), ["a_b1", "c_d2"]);
    }

    /// Each shape alone makes its token code, with no other shape of the token: the prose
    /// word beside it (`read`) is not.
    #[test]
    fn each_shape_alone_makes_a_token_code() {
        for (question, code) in [
            ("read parseArgs", &["parse", "arg"][..]),
            ("read max_depth", &["max", "depth"]),
            ("read std::fs", &["std", "fs"]),
            ("read node->next", &["node", "next"]),
            ("read src/walk", &["src", "walk"]),
            ("read src\\walk", &["src", "walk"]),
            ("read parse()", &["parse"]),
            ("read open(file).", &["open", "file"]),
            ("read key=value", &["key", "value"]),
            ("read mode==auto", &["mode", "auto"]),
            ("read walk.rs", &["walk", "rs"]),
            ("read .env:3", &["env"]),
            ("read --ignore", &["ignore"]),
            ("read `Walk` and \"the words\"", &["walk", "word"]),
        ] {
            assert_eq!(shaped(question), code, "{question}");
        }
    }

    /// Tokens near a shape that are prose: a word in parentheses, a version, a name and a
    /// number without a file, a subject's first word with a sign no scope holds, a lone
    /// ellipsis; and a scope with no type before it.
    #[test]
    fn near_shapes_are_prose() {
        for question in [
            "read (optional) here",
            "Upgrade to v2.x now",
            "read step:2 again",
            "Bug#12: crash on load",
            "fix the ... build",
            "read -12 here",
        ] {
            assert!(
                shaped(question).is_empty(),
                "{question}: {:?}",
                shaped(question)
            );
        }
        assert_eq!(shaped("(parser): handle NaN"), ["pars", "na"]);
    }
}
