//! What C, C++ and Java declarations share: a function declared as `[type] name(`, and a
//! leading `template <...>`.

use super::lexical::{is_ident_char, is_statement_word, leading_ident, trim, trim_end, trim_start};

/// `s` without a leading `template <...>` (balanced); `None` when nothing follows it.
pub(super) fn strip_template(s: &str) -> Option<&str> {
    let Some(rest) = s.strip_prefix("template") else {
        return Some(s);
    };
    let rest = trim_start(rest);
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
                    let after = trim_start(&rest[i + 1..]);
                    return (!after.is_empty()).then_some(after);
                }
            }
            _ => {}
        }
    }
    None
}

/// The bytes of a qualified name's last token, looked up in one load: letters, digits,
/// `_`, `$`, `:`, `~`, and every byte outside ASCII.
const NAME_BYTE: [bool; 256] = {
    let mut table = [false; 256];
    let mut b = 0;
    while b < 256 {
        let c = b as u8;
        table[b] = c.is_ascii_alphanumeric() || matches!(c, b'_' | b'$' | b':' | b'~') || c >= 0x80;
        b += 1;
    }
    table
};

/// Where the qualified name that ends `head` starts: letters, digits, `_`, `::`, a
/// leading `~`, and the template arguments of a qualifier (`Cache<T>::lookup`).
fn name_start(head: &str) -> usize {
    let bytes = head.as_bytes();
    let mut i = bytes.len();
    loop {
        while i > 0 && NAME_BYTE[bytes[i - 1] as usize] {
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
    let open = memchr::memchr(b'(', s.as_bytes())?;
    let head = trim_end(&s[..open]);
    if head.is_empty()
        || refuses_head(head.as_bytes())
        // a member access is a call (`obj.run(`); a pack expanded in the return type's
        // template arguments is not (`AnyOfMatcher<typename std::decay<T>::type...> AnyOf(`)
        || (head.contains('.') && head.replace("...>", ">").contains('.'))
    {
        return None;
    }
    let first = leading_ident(head)?;
    if is_statement_word(first) {
        return None;
    }
    // the name is the last token: letters, digits, `_`, `::`, a leading `~`, and the
    // template arguments of a qualifier (`Cache<T>::lookup`)
    let start = name_start(head);
    let mut name = &head[start..];
    while let Some(rest) = name.strip_prefix("::") {
        name = rest;
    }
    // the part after the last `::` (found by bytes: a string search was set up per line)
    let qualified = last_colons(name.as_bytes());
    let bare = qualified
        .map_or(name, |at| &name[at + 2..])
        .trim_start_matches('~');
    if bare.is_empty() || bare.starts_with(|c: char| c.is_ascii_digit()) || is_statement_word(bare)
    {
        return None;
    }
    let has_type = !trim(&head[..start]).is_empty();
    if needs_return_type && !has_type && qualified.is_none() {
        return None;
    }
    Some(name)
}

/// Where the last `::` of `bytes` starts.
fn last_colons(bytes: &[u8]) -> Option<usize> {
    let mut end = bytes.len();
    while let Some(at) = memchr::memrchr(b':', &bytes[..end]) {
        if at > 0 && bytes[at - 1] == b':' {
            return Some(at - 1);
        }
        end = at;
    }
    None
}

/// True when the text before a line's first `(` holds a byte or a pair of bytes no function
/// declaration has there (an assignment, a statement's end, a string, a body, a shift, a
/// member access through a pointer), read in one pass over its bytes (a search for each
/// was a twentieth of a C header's scan).
fn refuses_head(head: &[u8]) -> bool {
    // most bytes are none of these: one load tells (a `match` jumped through a table for
    // every byte of a line's head)
    head.iter()
        .enumerate()
        .any(|(i, &b)| match HEAD_BYTE[b as usize] {
            HeadByte::Other => false,
            HeadByte::Refused => true,
            HeadByte::Less => head.get(i + 1) == Some(&b'<'),
            HeadByte::Minus => head.get(i + 1) == Some(&b'>'),
        })
}

/// What a byte of a function's head is to [`refuses_head`].
#[derive(Clone, Copy, PartialEq, Eq)]
enum HeadByte {
    Other,
    /// No function declaration has it before its `(`.
    Refused,
    /// Refused when doubled (`<<`).
    Less,
    /// Refused before `>` (`->`).
    Minus,
}

const HEAD_BYTE: [HeadByte; 256] = {
    let mut table = [HeadByte::Other; 256];
    let refused = b"=;\"')}{!|?,";
    let mut k = 0;
    while k < refused.len() {
        table[refused[k] as usize] = HeadByte::Refused;
        k += 1;
    }
    table[b'<' as usize] = HeadByte::Less;
    table[b'-' as usize] = HeadByte::Minus;
    table
};

/// Words that stand before `(` in a call or a constructor's chaining, never a member's name.
const NOT_A_NAME: &[&str] = &[
    "this", "base", "super", "typeof", "nameof", "default", "var",
];

/// Words that start a statement or expression in Java or C#, never a member's type.
const NOT_A_TYPE: &[&str] = &[
    "var",
    "using",
    "lock",
    "foreach",
    "nameof",
    "typeof",
    "base",
    "this",
    "super",
    "throw",
    "return",
    "await",
    "get",
    "set",
    "init",
    "add",
    "remove",
    "value",
    "where",
    "operator",
    "implicit",
    "explicit",
    "event",
    "const",
    "fixed",
    "checked",
    "unchecked",
    "instanceof",
];

/// A member of a Java or C# type body: its name and whether a type stands before it. The
/// name is the identifier before its parameters (`(`), type parameters (`<`), body (`{`,
/// `=>`) or the line's end; the words before it must read as a type (`Task<IList<int>>`,
/// `Map<String, Object>`, `string?`, `int[]`, `Ns.Type`, `void IDisposable.`).
pub(super) fn member_head(s: &str) -> Option<(&str, bool)> {
    let stop = s.find(['(', '{', '=', ';']).unwrap_or(s.len());
    let head = trim_end(&s[..stop]);
    // generic parameters after the name: `Get<T>`
    let head = match head.strip_suffix('>') {
        Some(_) => {
            let open = generic_open(head)?;
            trim_end(&head[..open])
        }
        None => head,
    };
    let start = head.rfind(|c: char| !is_ident_char(c)).map_or(0, |i| i + 1);
    let name = &head[start..];
    let first = leading_ident(name)?;
    if first.len() != name.len() || is_statement_word(name) || NOT_A_NAME.contains(&name) {
        return None;
    }
    let before = trim_end(&head[..start]);
    // an explicit interface implementation: `void IDisposable.Dispose`
    let before = before.strip_suffix('.').map_or(before, |b| {
        let s = b.rfind(|c: char| !is_ident_char(c)).map_or(0, |i| i + 1);
        trim_end(&b[..s])
    });
    if before.is_empty() {
        return Some((name, false));
    }
    let word = leading_ident(before)?;
    if is_statement_word(word) || NOT_A_TYPE.contains(&word) {
        return None;
    }
    let is_type = before.chars().all(|c| {
        is_ident_char(c)
            || matches!(
                c,
                '<' | '>' | ',' | '.' | '?' | '[' | ']' | ' ' | '(' | ')' | ':'
            )
    });
    is_type.then_some((name, true))
}

/// Where the type parameters that close `head` open (`head` ends with `>`).
fn generic_open(head: &str) -> Option<usize> {
    let mut depth = 0;
    for (i, c) in head.char_indices().rev() {
        match c {
            '>' => depth += 1,
            '<' => {
                depth -= 1;
                if depth == 0 {
                    return Some(i);
                }
            }
            _ => {}
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::{last_colons, refuses_head};
    use proptest::prelude::*;

    proptest! {
        /// The last `::` is where splitting from the right at `::` cuts.
        #[test]
        fn the_last_colons_are_where_rsplit_cuts(name in "[a:~<>]{0,12}") {
            let cut = name.rsplit("::").next().unwrap_or(&name);
            let found = last_colons(name.as_bytes()).map_or(name.as_str(), |at| &name[at + 2..]);
            prop_assert_eq!(found, cut);
            prop_assert_eq!(last_colons(name.as_bytes()).is_some(), name.contains("::"));
        }

        /// One pass over the bytes refuses what the searches for each byte and pair did.
        #[test]
        fn a_head_is_refused_for_what_it_holds(head in "[a-z =;\"'){}!|?,<>*:.-]{0,24}") {
            let searched = head.contains(['=', ';', '"', '\'', ')', '{', '}', '!', '|', '?', ','])
                || head.contains("<<")
                || head.contains("->");
            prop_assert_eq!(refuses_head(head.as_bytes()), searched);
        }
    }
}
