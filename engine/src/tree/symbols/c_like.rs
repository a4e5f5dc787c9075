//! What C, C++ and Java declarations share: a function declared as `[type] name(`, and a
//! leading `template <...>`.

use super::lexical::{leading_ident, STATEMENT_WORDS};

/// `s` without a leading `template <...>` (balanced); `None` when nothing follows it.
pub(super) fn strip_template(s: &str) -> Option<&str> {
    let Some(rest) = s.strip_prefix("template") else {
        return Some(s);
    };
    let rest = rest.trim_start();
    if !rest.starts_with('<') {
        return Some(s);
    }
    let mut depth = 0;
    for (i, c) in rest.char_indices() {
        match c {
            '<' => depth += 1,
            '>' => {
                depth -= 1;
                if depth == 0 {
                    let after = rest[i + 1..].trim_start();
                    return (!after.is_empty()).then_some(after);
                }
            }
            _ => {}
        }
    }
    None
}

/// Where the qualified name that ends `head` starts: letters, digits, `_`, `::`, a
/// leading `~`, and the template arguments of a qualifier (`Cache<T>::lookup`).
fn name_start(head: &str) -> usize {
    let bytes = head.as_bytes();
    let mut i = bytes.len();
    loop {
        while i > 0
            && (bytes[i - 1].is_ascii_alphanumeric()
                || matches!(bytes[i - 1], b'_' | b'$' | b':' | b'~')
                || bytes[i - 1] >= 0x80)
        {
            i -= 1;
        }
        if !(i > 0 && bytes[i - 1] == b'>' && head[i..].starts_with("::")) {
            return i;
        }
        let mut depth = 0;
        let mut j = i;
        while j > 0 {
            j -= 1;
            match bytes[j] {
                b'>' => depth += 1,
                b'<' => {
                    depth -= 1;
                    if depth == 0 {
                        break;
                    }
                }
                _ => {}
            }
        }
        if depth != 0 {
            return i;
        }
        i = j;
    }
}

/// A C-like function declaration: `[type tokens] name(`, where the name may be qualified
/// (`Class::method`, `~Class`). Calls (`foo(x);`), assignments and control flow are not.
pub(super) fn c_like_function(s: &str, needs_return_type: bool) -> Option<&str> {
    let open = s.find('(')?;
    let head = s[..open].trim_end();
    if head.is_empty()
        || head.contains(['=', ';', '"', '\'', ')', '{', '}', '!', '|', '?', ','])
        || head.contains("<<")
        || head.contains("->")
        || head.contains('.')
    {
        return None;
    }
    let first = leading_ident(head)?;
    if STATEMENT_WORDS.contains(&first) {
        return None;
    }
    // the name is the last token: letters, digits, `_`, `::`, a leading `~`, and the
    // template arguments of a qualifier (`Cache<T>::lookup`)
    let start = name_start(head);
    let name = head[start..].trim_start_matches("::");
    let bare = name
        .rsplit("::")
        .next()
        .unwrap_or(name)
        .trim_start_matches('~');
    if bare.is_empty()
        || bare.starts_with(|c: char| c.is_ascii_digit())
        || STATEMENT_WORDS.contains(&bare)
    {
        return None;
    }
    let has_type = !head[..start].trim().is_empty();
    if needs_return_type && !has_type && !name.contains("::") {
        return None;
    }
    Some(name)
}
