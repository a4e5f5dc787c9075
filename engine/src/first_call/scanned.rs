//! What the first call on a root (`first_call/mod.rs`) knows of one file's symbols, and so
//! what the symbol table of its tree (`TreeState::FirstCall`) can answer for it.
//!
//! A table lookup (`SymbolTable::names`, `containing`, `members`) finds the symbols whose
//! snake form contains its key or whose qualifier is the key. So a file need not give the
//! table every symbol to answer a key in full: the symbols whose snake form or qualifier
//! contains the key are all the lookup can find, and they answer every key that contains
//! it too (a snake form holding `cursor_binary` holds `binary`). A file scanned for a
//! key held by a thousand files (a single word such as `cursor`) gives the table only
//! those: half a million symbols of a cargo registry were kept and tabled for a few
//! thousand that a lookup could reach.

use super::snake_key::SnakeKey;
use crate::text::camel::snake_letters;
#[cfg(test)]
use crate::text::camel::snake_letters_by_line;
use crate::tree::symbol_table::qualifier_of;
use crate::tree::symbols::{
    all_in_comments, scan_file_keeping, scan_lines_keeping, Language, PackedSymbols, Symbol,
    SymbolList,
};
use memchr::memmem;

static NO_SYMBOLS: PackedSymbols = PackedSymbols::EMPTY;

/// One file's symbols as far as a first call's table holds them.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) enum Scanned {
    /// Not scanned: the table holds none of its symbols.
    #[default]
    Not,
    /// Every symbol (none for a file that holds no text or is in no language the tree
    /// scans).
    Whole(PackedSymbols),
    /// Only the symbols a lookup of one of `keys`, or of a key containing one of them,
    /// can find.
    ForKeys {
        keys: Vec<String>,
        symbols: PackedSymbols,
    },
}

impl Scanned {
    /// The symbols of `symbols` that a lookup of one of `keys` can find, or of a key
    /// containing one: those whose snake form or qualifier contains one of them (an empty
    /// key keeps none, and answers no lookup).
    pub(crate) fn for_keys(symbols: &[Symbol], keys: Vec<String>) -> Scanned {
        let kept: Vec<Symbol> = symbols
            .iter()
            .filter(|s| {
                let qualifier = qualifier_of(&s.name);
                keys.iter().filter(|k| !k.is_empty()).any(|k| {
                    s.snake.contains(k.as_str())
                        || qualifier.as_deref().is_some_and(|q| q.contains(k.as_str()))
                })
            })
            .cloned()
            .collect();
        Scanned::ForKeys {
            keys,
            symbols: PackedSymbols::of(&kept),
        }
    }

    /// [`Scanned::for_keys`] of the symbols of `text` (in `language`), scanning only the
    /// names that may be kept into symbols: a name whose snake form or qualifier contains a
    /// key holds the key's letters (without its `_`s) in its `snake_letters`, as a snake
    /// form is its `snake_letters` cut by `_`; a name that does not is refused before its
    /// symbol is made (most of them, in a file holding a common word). `folded` is the
    /// folding of the text's bytes to ASCII lower case when the caller has made it (made
    /// here when it is needed).
    pub(crate) fn for_keys_in(
        language: Language,
        text: &str,
        folded: Option<&[u8]>,
        keys: Vec<String>,
    ) -> Scanned {
        let letters: Vec<Vec<u8>> = keys
            .iter()
            .filter(|k| !k.is_empty())
            .map(|k| k.bytes().filter(|&b| b != b'_').collect())
            .collect();
        let finders: Vec<memmem::Finder<'_>> = letters.iter().map(memmem::Finder::new).collect();
        let mut name_letters = Vec::new();
        let mut keep = |name: &str| {
            name_letters.clear();
            snake_letters(name, &mut name_letters);
            finders.iter().any(|f| f.find(&name_letters).is_some())
        };
        // letters of a key of `_`s alone are in every name: no line is passed over
        let symbols = if language.skims_lines() && letters.iter().all(|l| !l.is_empty()) {
            // a name is written on its line, so its letters are the line's: the other
            // lines are passed over, or in C and C++ only followed for what they leave
            // open (most of a file holding a common word)
            let made;
            let folded = match folded {
                Some(folded) => folded,
                None => {
                    made = text.as_bytes().to_ascii_lowercase();
                    &made
                }
            };
            let lines = if language.leaves_statements_open() && text.is_ascii() {
                c_lines_holding(language, text, folded, &keys)
            } else {
                lines_holding(text, folded, &keys, &finders)
            };
            if lines.is_empty() {
                // no line may declare a name kept: nothing to follow
                Vec::new()
            } else {
                scan_lines_keeping(language, text, &lines, &mut keep)
            }
        } else {
            scan_file_keeping(language, text, &mut keep)
        };
        Scanned::for_keys(&symbols, keys)
    }

    /// True when the table answers a lookup of `key` in full for this file.
    pub(crate) fn answers(&self, key: &str) -> bool {
        match self {
            Scanned::Not => false,
            Scanned::Whole(_) => true,
            Scanned::ForKeys { keys, .. } => covers(keys, key),
        }
    }

    /// The keys this file was scanned for, when only some of its symbols are held.
    pub(crate) fn keys(&self) -> &[String] {
        match self {
            Scanned::ForKeys { keys, .. } => keys,
            _ => &[],
        }
    }

    /// The symbols the table holds for this file.
    pub(crate) fn symbols(&self) -> &PackedSymbols {
        match self {
            Scanned::Not => &NO_SYMBOLS,
            Scanned::Whole(symbols) | Scanned::ForKeys { symbols, .. } => symbols,
        }
    }
}

/// How many symbols a first call's scan of `text` (in `language`; `folded`: its bytes in
/// ASCII lower case) for `keys` keeps: [`Scanned::for_keys_in`], for a bench that times that
/// scan alone (`benches/examples/key_scan_speed.rs`).
pub fn key_scan_count(language: Language, text: &str, folded: &[u8], keys: &[&str]) -> usize {
    let keys = keys.iter().map(|k| k.to_string()).collect();
    Scanned::for_keys_in(language, text, Some(folded), keys)
        .symbols()
        .count()
}

/// The lines of an ASCII text (`folded` to lower case) that may declare a name whose snake form contains one of
/// `keys` (numbered from 1, ascending): those where the key's words are written as such
/// a name writes them ([`SnakeKey`]: found from its longest word, without making the
/// lines' letters, which took as long as the scan it spared). They are among the lines
/// whose letters hold the key's ([`lines_holding`]). Each line is found once per key.
fn ascii_lines_holding(folded: &[u8], keys: &[String]) -> Vec<u32> {
    let mut starts: Vec<usize> = Vec::new();
    for key in keys.iter().filter_map(|k| SnakeKey::new(k)) {
        let mut from = 0;
        while let Some(at) = key.find(folded, from, true) {
            starts.push(at);
            // the rest of this line is not looked at again for this key
            from = memchr::memchr(b'\n', &folded[at..]).map_or(folded.len(), |n| at + n + 1);
        }
    }
    line_numbers(folded, starts)
}

/// [`lines_holding`] of a C or C++ text of ASCII (`folded`: its bytes in lower case), from
/// every place where `keys` are written as a name writes them ([`SnakeKey::find_each`]; a
/// name holding a key holds one): none when every place is inside a comment
/// ([`all_in_comments`], which reads the text only up to the first place in code), as a
/// name is written in code.
fn c_lines_holding(language: Language, text: &str, folded: &[u8], keys: &[String]) -> Vec<u32> {
    let mut places: Vec<usize> = Vec::new();
    for key in keys.iter().filter_map(|k| SnakeKey::new(k)) {
        places.extend(key.find_each(folded, true));
    }
    places.sort_unstable();
    if all_in_comments(language, text.as_bytes(), &places) {
        return Vec::new();
    }
    line_numbers(folded, places)
}

/// The lines of `text` (numbered from 1, ascending; `folded`: its bytes folded to ASCII
/// lower case) that may declare a name whose snake form contains one of `keys` (whose
/// letters `finders` find): a line of ASCII where the key's words are written as such a
/// name writes them ([`ascii_lines_holding`]), any other line when its `snake_letters`
/// hold the key's letters (a character outside ASCII may fold into ASCII letters: `ß`
/// into `ss`).
fn lines_holding(
    text: &str,
    folded: &[u8],
    keys: &[String],
    finders: &[memmem::Finder<'_>],
) -> Vec<u32> {
    let mut lines = ascii_lines_holding(folded, keys);
    if text.is_ascii() {
        return lines;
    }
    let bytes = text.as_bytes();
    let mut letters = Vec::new();
    let (mut from, mut number, mut counted) = (0, 1u32, 0);
    while let Some(k) = crate::text::first_non_ascii(&bytes[from..]) {
        let at = from + k;
        let start = memchr::memrchr(b'\n', &bytes[..at]).map_or(0, |n| n + 1);
        let end = memchr::memchr(b'\n', &bytes[at..]).map_or(bytes.len(), |n| at + n);
        number += memchr::memchr_iter(b'\n', &bytes[counted..start]).count() as u32;
        counted = start;
        letters.clear();
        snake_letters(&text[start..end], &mut letters);
        if finders.iter().any(|f| f.find(&letters).is_some()) {
            lines.push(number);
        }
        from = end;
    }
    lines.sort_unstable();
    lines.dedup();
    lines
}

/// The lines of `text` (numbered from 1, ascending) whose `snake_letters` hold what one of
/// `finders` finds: the lines a name holding a key may be written on, found from every
/// line's letters (what [`lines_holding`] narrows).
#[cfg(test)]
fn letters_lines_holding(text: &str, finders: &[memmem::Finder<'_>]) -> Vec<u32> {
    let mut letters = Vec::new();
    snake_letters_by_line(text, &mut letters);
    let found: Vec<usize> = finders.iter().flat_map(|f| f.find_iter(&letters)).collect();
    line_numbers(&letters, found)
}

/// The numbers (from 1, ascending, each once) of the lines of `text` that hold the
/// offsets `at`, lines being cut at `\n`.
fn line_numbers(text: &[u8], mut at: Vec<usize>) -> Vec<u32> {
    at.sort_unstable();
    let mut lines = Vec::with_capacity(at.len());
    let (mut line, mut counted) = (1u32, 0usize);
    for offset in at {
        line += memchr::memchr_iter(b'\n', &text[counted..offset]).count() as u32;
        counted = offset;
        lines.push(line);
    }
    lines.dedup();
    lines
}

/// True when a lookup of `key` finds nothing beyond what `keys`' symbols hold: `key`
/// contains one of them (an empty key, found in every name, is contained by none).
pub(crate) fn covers(keys: &[String], key: &str) -> bool {
    keys.iter()
        .any(|k| !k.is_empty() && key.contains(k.as_str()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tree::symbol_table::SymbolTable;
    use crate::tree::symbols::{scan_file, Language, SymbolList};
    use memchr::memmem::Finder;

    const TEXT: &str = "pub struct ReplayCursor;\nimpl ReplayCursor {\n    pub fn new() -> Self \
                        { Self }\n    fn binary_cursor_at(&self) {}\n}\nfn cursor() {}\nfn \
                        binary() {}\nfn other() {}\nconst CURSOR_MAX: u8 = 1;\n";

    /// What a table of the whole file and one of only the symbols kept for keys give for a key.
    fn lookups(table: &SymbolTable, key: &str) -> (bool, Vec<String>, Vec<String>) {
        let names = |syms: Vec<u32>| -> Vec<String> {
            syms.into_iter().map(|s| table.symbol(s).name).collect()
        };
        (
            table.names(key),
            names(table.containing(key, &Finder::new(key.as_bytes()))),
            names(table.members(key)),
        )
    }

    /// Every key a scan for keys answers gives the same lookups from the kept symbols as
    /// from every symbol; a key it does not answer is said so.
    #[test]
    fn a_scan_for_keys_answers_the_keys_it_covers_as_a_whole_one() {
        // a C++ method defined outside its class has a qualified name
        let cpp = "int ReplayCursor::advance() { return 0; }\nint Other::binary() { return 1; }\n";
        let files = [
            scan_file(Language::Rust, TEXT),
            scan_file(Language::Cpp, cpp),
        ];
        let whole = SymbolTable::build(files.iter().map(|f| &f[..]));
        let named: Vec<Scanned> = files
            .iter()
            .map(|f| Scanned::for_keys(f, vec!["cursor".to_string()]))
            .collect();
        let kept = SymbolTable::build(named.iter().map(Scanned::symbols));
        // some symbols are left out, so the comparison below can fail
        assert!(
            kept.len() < whole.len(),
            "{} of {}",
            kept.len(),
            whole.len()
        );
        assert!(kept.len() >= 4, "{}", kept.len());
        for key in [
            "cursor",
            "replay_cursor",
            "binary_cursor",
            "cursor_max",
            "cursor_at",
        ] {
            assert!(named.iter().all(|n| n.answers(key)), "{key}");
            assert_eq!(lookups(&kept, key), lookups(&whole, key), "{key}");
        }
        // the members of `ReplayCursor` are kept: their qualifier holds the key
        assert_eq!(lookups(&kept, "replay_cursor").2, ["ReplayCursor::advance"]);
        for key in ["binary", "new", "other", "curs", ""] {
            assert!(!named[0].answers(key), "{key}");
        }
        assert!(Scanned::Whole(PackedSymbols::of(&files[0])).answers("other"));
        assert!(!Scanned::Not.answers("cursor"));
    }

    /// Scanning only the names whose letters hold a key's keeps what filtering every
    /// symbol keeps: on every source file of this crate, for keys of one word, of two, of
    /// a name's qualifier, and keys no name holds.
    #[test]
    fn the_names_refused_before_the_scan_are_none_a_lookup_finds() {
        let key_sets = [
            vec!["symbol"],
            vec!["table", "scan"],
            vec!["symbol_table", "file"],
            vec!["tree_file", "zzqq"],
            vec!["new"],
        ];
        let mut kept = 0;
        for (path, language, bytes) in crate::own_sources::own_sources_by_language() {
            let text = String::from_utf8_lossy(&bytes);
            let all = scan_file(language, &text);
            for keys in &key_sets {
                let keys: Vec<String> = keys.iter().map(|k| k.to_string()).collect();
                let want = Scanned::for_keys(&all, keys.clone());
                kept += want.symbols().count();
                assert_eq!(
                    Scanned::for_keys_in(language, &text, None, keys),
                    want,
                    "{}",
                    path.display()
                );
            }
        }
        // names were kept: the comparison is not between empty tables
        assert!(kept > 100, "{kept}");
    }

    /// Passing over the lines whose letters hold no key's (Rust, Python, Ruby, shell) keeps
    /// what filtering every symbol keeps: on snippets that put declarations in strings,
    /// here-documents and block comments, a test attribute above a refused item, a name
    /// cut by `_`, and on this repository's Python and shell scripts.
    #[test]
    fn the_lines_passed_over_declare_nothing_kept() {
        let snippets = [
            (Language::Rust, "#[test]\nfn refused() {}\nfn cursor() {}\nfn cur_sor() {}\n#[test]\nfn cursor_test() {}\nconst S: &str = \"\nfn cursor_in_string() {}\n\";\n/*\nfn cursor_commented() {}\n*/\nstruct CURSOR;\n"),
            (Language::Python, "class Cursor:\n    '''\n    def cursor_in_docstring(self): pass\n    '''\n    def move(self):\n        pass\n\ndef binary_cursor():\n    return '''def cursor_x(): pass'''\n"),
            (Language::Ruby, "=begin\ndef cursor_in_comment\n=end\nclass Cursor\n  def at\n    <<~TXT\n    def cursor_in_heredoc\n    TXT\n  end\n  def self.cursor_for(x)\n  end\nend\n"),
            (Language::Shell, "cat <<EOF\ncursor() {\nEOF\ncursor_up() {\n  echo\n}\nfunction binary_cursor {\n  :\n}\n"),
            // C: a type line above a name, a typedef's name after its body, a body's brace
            // on the next line, a statement left open, comments and strings holding braces
            (Language::C, "#include <x.h>\n#define CURSOR_MAX 4\nstatic int\ncursor_next(int a)\n{\n  return a;\n}\ntypedef struct\n{\n  int x;\n} cursor_t;\ntypedef struct cursor_s cursor_s_t;\nstruct cursor_list\n{\n  struct cursor_list *next;\n  int (*cursor_cb)(int);\n};\nextern int cursor_count (int a,\n                         int b);\n/* } cursor_in_comment(void); { */\nconst char *s = \"{\";\nint cursor_after_string(void);\nenum cursor_kind { CURSOR_A, CURSOR_B };\nint\ncursor_last (void);\n"),
            // C++: a class opened on a line ending with `;` or `)`, a typedef left open
            // by a line ending with `;`, a typedef closed by a line no key is on
            (Language::Cpp, "struct Holder { int x;\n  int cursor_get();\n};\nclass Derived : public Base<decltype(f())>\n{\n  int cursor_m();\n};\ntypedef enum Kind : int;\n{\n  A\n} cursor_kind_t;\ntypedef struct\n{\n  int a;\n} plain_t;\nstruct cursor_box\n{\n  int b;\n} cursor_var;\n"),
            (Language::Cpp, "namespace cursors\n{\nclass Cursor\n{\n public:\n  Cursor();\n  int binary_cursor_at(int) const;\n  struct Inner { int cursor_field; };\n};\ninline const std::string&\ncursor_name(int);\ntemplate <typename T>\nT cursor_cast(T t) { return t; }\n}  // namespace cursors\nextern \"C\" {\nint cursor_c(void);\n}\n"),
        ];
        let mut texts: Vec<(Language, String)> =
            snippets.iter().map(|(l, t)| (*l, t.to_string())).collect();
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        let fixtures = [
            "corpora/fixtures/agent-cpp/include/cursor",
            "corpora/fixtures/agent-cpp/include/services",
            "corpora/fixtures/agent-cpp/src/cursor",
            "corpora/fixtures/agent-cpp/src/engine",
        ];
        for dir in ["benches", "scripts", "benches/ctags"]
            .into_iter()
            .chain(fixtures)
        {
            for entry in std::fs::read_dir(root.join(dir))
                .into_iter()
                .flatten()
                .flatten()
            {
                let path = entry.path();
                let language = path
                    .extension()
                    .and_then(|e| e.to_str())
                    .and_then(Language::from_extension);
                if let (Some(language), Ok(text)) = (language, std::fs::read_to_string(&path)) {
                    texts.push((language, text));
                }
            }
        }
        let scripts = texts
            .iter()
            .filter(|(l, _)| matches!(l, Language::Python | Language::Shell))
            .count();
        assert!(scripts > 10, "{scripts}");
        let c_family = texts
            .iter()
            .filter(|(l, _)| matches!(l, Language::C | Language::Cpp))
            .count();
        assert!(c_family > 6, "{c_family}");
        let key_sets = [
            vec!["cursor"],
            vec!["binary_cursor", "at"],
            vec!["path", "run"],
            vec!["args"],
            vec!["main", "read", "write"],
            vec!["report", "time", "load"],
            vec!["zzqq"],
            vec!["cursor_t", "name"],
            vec!["inner", "count"],
        ];
        let mut kept = 0;
        for (language, text) in &texts {
            let all = scan_file(*language, text);
            for keys in &key_sets {
                let keys: Vec<String> = keys.iter().map(|k| k.to_string()).collect();
                let want = Scanned::for_keys(&all, keys.clone());
                kept += want.symbols().count();
                assert_eq!(
                    Scanned::for_keys_in(*language, text, None, keys.clone()),
                    want,
                    "{language:?} {keys:?}: {text}"
                );
            }
        }
        assert!(kept > 30, "{kept}");
    }

    /// [`the_lines_passed_over_declare_nothing_kept`] on every C and C++ file the repository
    /// ships, or under the directory `FINDBENCH_C_TREE` names (by hand on a real tree, such
    /// as `/usr/include`: `FINDBENCH_C_TREE=/usr/include cargo test --release -p
    /// findbench-engine --lib -- every_c_file`).
    #[test]
    fn every_c_file_of_a_tree_keeps_what_its_whole_scan_keeps() {
        let mut kept = 0;
        let key_sets = [
            vec!["cursor"],
            vec!["binary"],
            vec!["header", "parse"],
            vec!["gzip_header"],
            vec!["init"],
            vec!["t"],
        ];
        let sources = crate::own_sources::tree_sources(
            "FINDBENCH_C_TREE",
            &["corpora/fixtures"],
            &[Language::C, Language::Cpp],
        );
        for (path, language, text) in &sources {
            let (language, text) = (*language, text.as_str());
            let all = scan_file(language, text);
            for keys in &key_sets {
                let keys: Vec<String> = keys.iter().map(|k| k.to_string()).collect();
                let want = Scanned::for_keys(&all, keys.clone());
                kept += want.symbols().count();
                let got = Scanned::for_keys_in(language, text, None, keys.clone());
                assert_eq!(got, want, "{} {keys:?}", path.display());
            }
        }
        assert!(kept > 20, "{kept}");
        eprintln!("{} files, {kept} symbols kept", sources.len());
    }

    /// The lines found from a text's bytes are among those found in its lines' letters
    /// (all of them on a line outside ASCII), and fewer on this crate's sources (which lines
    /// declare the names a key finds is held by
    /// `the_names_refused_before_the_scan_are_none_a_lookup_finds`): on texts that cut a
    /// key with `_`, `::`, spaces, case and line ends or write it outside ASCII, for keys
    /// of one word, of several, with digits, and absent.
    #[test]
    fn the_lines_found_from_the_bytes_are_among_those_of_the_letters() {
        let mut texts: Vec<String> = crate::own_sources::own_sources()
            .into_iter()
            .filter_map(|(_, bytes)| String::from_utf8(bytes).ok())
            .collect();
        texts
            .push("fn Straße() {}\nfn CURSORé() {}\nx\n\u{212a}ursor ﬁle\nfn cursor() {}\n".into());
        texts.push("cur_sor\nCUR::SOR x\ncur\nsor\nc u r s o r\n_cursor_\nCuRsOr2\n".into());
        texts.push("cursorcursor cursor\n\n\nbinary_Cursor9\ncursor".into());
        let key_sets: [&[&str]; 5] = [
            &["cursor"],
            &["cursor", "binary"],
            &["symbol_table", "tree"],
            &["cursor2", "utf8", "strasse", "file"],
            &["zzqq"],
        ];
        let (mut found, mut fewer, mut non_ascii, mut from_places) = (0, 0, 0, 0);
        for text in &texts {
            for keys in key_sets {
                let letters: Vec<Vec<u8>> = keys
                    .iter()
                    .map(|k| k.replace('_', "").into_bytes())
                    .collect();
                let finders: Vec<Finder<'_>> = letters.iter().map(Finder::new).collect();
                let wide = letters_lines_holding(text, &finders);
                let keys: Vec<String> = keys.iter().map(|k| k.to_string()).collect();
                let folded = text.to_ascii_lowercase().into_bytes();
                let lines = lines_holding(text, &folded, &keys, &finders);
                assert!(lines.iter().all(|l| wide.contains(l)), "{keys:?}: {text}");
                for (number, line) in (1..).zip(text.split('\n')) {
                    if !line.is_ascii() {
                        let held = wide.contains(&number);
                        assert_eq!(lines.contains(&number), held, "{keys:?}: {line}");
                        non_ascii += usize::from(held);
                    }
                }
                found += lines.len();
                fewer += wide.len() - lines.len();
                // a C text's lines come from every place a key is written: the same lines,
                // unless every place is in a comment
                if text.is_ascii() {
                    let c_lines = c_lines_holding(Language::Cpp, text, &folded, &keys);
                    assert!(c_lines.is_empty() || c_lines == lines, "{keys:?}: {text}");
                    from_places += c_lines.len();
                }
            }
        }
        assert!(from_places > 300, "{from_places}");
        assert!(found > 500, "{found}");
        assert!(fewer > 0, "{fewer}");
        assert!(non_ascii >= 2, "{non_ascii}");
    }

    /// A name outside ASCII is kept from its line, where its letters fold into the key's
    /// (`ß` into `ss`, `ﬁ` into `fi`) though its bytes do not hold them.
    #[test]
    fn a_name_outside_ascii_is_kept_from_its_line() {
        let text = "fn Straße() {}\nfn other() {}\nstruct ﬁleReader;\nfn cursor_é() {}\n";
        for key in ["strasse", "file_reader", "cursor"] {
            let keys = vec![key.to_string()];
            let want = Scanned::for_keys(&scan_file(Language::Rust, text), keys.clone());
            assert_eq!(want.symbols().count(), 1, "{key}");
            assert_eq!(
                Scanned::for_keys_in(Language::Rust, text, None, keys),
                want,
                "{key}"
            );
        }
    }

    /// An empty key covers nothing: a lookup of any key would need every symbol.
    #[test]
    fn an_empty_key_answers_no_lookup() {
        let symbols = scan_file(Language::Rust, TEXT);
        let named = Scanned::for_keys(&symbols, vec![String::new()]);
        assert_eq!(named.symbols().count(), 0);
        assert!(!named.answers("cursor"));
        assert!(!named.answers(""));
    }
}
