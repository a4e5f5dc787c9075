//! `findbench corpus symbols`: a corpus for any source tree, asking for the definitions
//! Universal Ctags finds in it, so the exam is independent of the engine's own reader.
//!
//! The files are the ones the engine's walk keeps (the same ignore rules), handed to
//! `ctags --output-format=json`. A name is eligible when it is defined in at most
//! [`MAX_DEFINING_FILES`] files, is at least [`MIN_NAME_CHARS`] characters long and is not a
//! private or reserved name (a leading `_`). Names are picked by a seeded hash, so a seed
//! gives the same corpus on every machine that has the same tree and ctags. Each name is
//! asked as `find code NAME`, and through `ask` with the exact name, with its words split and
//! lower-cased, and as the bare words; a member of a type (ctags' scope: a class, struct,
//! `impl`, trait, interface, enum, namespace) is asked once more, qualified by its owner as
//! its language writes it (`WalkBuilder::hidden`, `Future.add_done_callback`,
//! `Rack::Request#params`), by `find code` and `ask`, expecting the files that define it in
//! that owner. Every case expects the defining files within 5, and at rank 1 when one file
//! defines the name.

use crate::error::{HarnessError, Result};
use findbench_engine::modes::code::is_test_file;
use findbench_engine::text::camel::{snake, split_words};
use findbench_engine::{Tree, TreeOptions};
use serde::Deserialize;
use std::collections::{BTreeMap, BTreeSet};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// Most files that may define a picked name: more, and the question has no one answer.
pub const MAX_DEFINING_FILES: usize = 3;
/// Shortest name picked.
pub const MIN_NAME_CHARS: usize = 4;
/// The rank window every case expects the defining files in.
pub const WITHIN: usize = 5;

/// What to generate.
#[derive(Debug, Clone)]
pub struct SymbolCorpusOptions {
    pub root: PathBuf,
    pub seed: u64,
    /// Names picked from the tree.
    pub per_tree: usize,
    /// The ctags program (`ctags` on the PATH by default).
    pub ctags: PathBuf,
    /// The suite name (default: `symbols-` and the root's last component).
    pub suite: Option<String>,
    /// Where the corpus is written: its `root` is relative to this file's directory.
    pub out: PathBuf,
    /// Files whose definitions are never picked (globs on the path under the root).
    pub exclude: Vec<String>,
    /// Pick definitions in the profile's test files too.
    pub include_tests: bool,
    /// How the tree is walked, and whether through the kept index.
    pub tree: TreeOptions,
}

/// A picked definition and the files that define its name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PickedSymbol {
    pub name: String,
    /// ctags' kind of the first definition (`function`, `struct`, ...).
    pub kind: String,
    /// Relative, `/`-separated, sorted.
    pub files: Vec<String>,
    /// The name qualified by the type that holds a definition of it, and the files that
    /// define it there; `None` when no definition is a member.
    pub qualified: Option<QualifiedName>,
}

/// A member qualified by its owner, as its language writes it (`WalkBuilder::hidden`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct QualifiedName {
    pub term: String,
    /// Relative, `/`-separated, sorted.
    pub files: Vec<String>,
}

/// A definition ctags reports.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Definition {
    pub name: String,
    /// ctags' kind (`function`, `struct`, ...).
    pub kind: String,
    pub path: String,
    /// The type or namespace whose body holds it (the last part of ctags' scope, when the
    /// scope is one of [`OWNER_KINDS`]).
    pub owner: Option<String>,
    /// ctags' language name.
    pub language: String,
}

/// ctags' scope kinds that own members an agent names qualified: a function's nested
/// helpers and a module's functions are not.
const OWNER_KINDS: &[&str] = &[
    "class",
    "struct",
    "implementation",
    "interface",
    "trait",
    "enum",
    "union",
    "record",
    "object",
    "namespace",
];

/// How `language` writes a member of a type: `::` (Rust, C++, PHP), `#` (Ruby's docs), `.`.
fn member_separator(language: &str) -> &'static str {
    match language {
        "Rust" | "C++" | "PHP" => "::",
        "Ruby" => "#",
        _ => ".",
    }
}

/// The generated corpus: its YAML text and what it asks for.
#[derive(Debug, Clone)]
pub struct SymbolCorpus {
    pub yaml: String,
    pub symbols: Vec<PickedSymbol>,
    pub cases: usize,
    /// `ctags --version`'s first line.
    pub ctags_version: String,
}

/// One line of ctags' JSON output (other fields ignored).
#[derive(Debug, Deserialize)]
struct CtagsTag {
    #[serde(rename = "_type")]
    kind_of_line: String,
    #[serde(default)]
    name: String,
    #[serde(default)]
    path: String,
    #[serde(default)]
    kind: String,
    #[serde(default)]
    language: String,
    /// ctags' extra flags of the tag: `anonymous` for a name it made up for a function or
    /// class written without one (`AnonymousFunction2dfcb5970a00`), which no agent asks for.
    #[serde(default)]
    extras: String,
    /// The name of what holds the definition (`WalkBuilder`, `Outer.Inner`).
    #[serde(default)]
    scope: String,
    #[serde(default, rename = "scopeKind")]
    scope_kind: String,
}

/// The kinds that define something an agent asks for: types, functions, methods, macros.
/// C and C++ `member` is a data member and is left out; Python's `member` is a method.
fn is_wanted(kind: &str, language: &str) -> bool {
    match kind {
        "function" | "func" | "method" | "class" | "struct" | "enum" | "interface" | "trait"
        | "typedef" | "macro" | "union" | "type" | "record" => true,
        "member" => language == "Python",
        _ => false,
    }
}

/// Runs ctags over the tree's source files and writes the corpus text.
pub fn generate(options: &SymbolCorpusOptions) -> Result<SymbolCorpus> {
    if options.per_tree == 0 {
        return Err(HarnessError::invalid("--per-tree must be at least 1"));
    }
    let root = options
        .root
        .canonicalize()
        .map_err(|e| HarnessError::file(&options.root, format!("cannot open the root: {e}")))?;
    if !root.is_dir() {
        return Err(HarnessError::file(&root, "the root is not a directory"));
    }
    let excludes = options
        .exclude
        .iter()
        .map(|g| {
            glob::Pattern::new(g)
                .map_err(|e| HarnessError::invalid(format!("bad --exclude glob `{g}`: {e}")))
        })
        .collect::<Result<Vec<_>>>()?;
    let ctags_version = ctags_version(&options.ctags)?;
    let tree = Tree::load(&root, &options.tree)?;
    let code = findbench_engine::Profile::default().code;
    let sources: Vec<&str> = tree
        .files()
        .iter()
        .filter(|f| f.language.is_some() && f.text().is_some())
        .filter(|f| options.include_tests || !is_test_file(f, &code))
        .filter(|f| !excludes.iter().any(|g| g.matches(&f.path)))
        .map(|f| f.path.as_str())
        .collect();
    let tags = run_ctags(&options.ctags, &root, &sources)?;
    let symbols = pick(&tags, options.seed, options.per_tree);
    let suite = options.suite.clone().unwrap_or_else(|| {
        format!(
            "symbols-{}",
            root.file_name()
                .map_or("root".into(), |n| n.to_string_lossy().into_owned())
        )
    });
    let root_path = super::relative::fixture_path(&options.out, &root);
    let (yaml, cases) = write_yaml(&suite, &root_path, options, &ctags_version, &symbols);
    Ok(SymbolCorpus {
        yaml,
        symbols,
        cases,
        ctags_version,
    })
}

fn missing_ctags(ctags: &Path, why: impl std::fmt::Display) -> HarnessError {
    HarnessError::file(
        ctags,
        format!(
            "Universal Ctags is needed for the ground truth and could not be run ({why}); \
             install it (`apt-get install universal-ctags`, `brew install universal-ctags`) \
             or name it with --ctags"
        ),
    )
}

fn ctags_version(ctags: &Path) -> Result<String> {
    let out = Command::new(ctags)
        .arg("--version")
        .stdin(Stdio::null())
        .output()
        .map_err(|e| missing_ctags(ctags, e))?;
    let text = String::from_utf8_lossy(&out.stdout);
    let first = text.lines().next().unwrap_or("").trim().to_string();
    // `Universal Ctags 5.9.0, Copyright ...`: the name and version
    let first = first.split(',').next().unwrap_or("").to_string();
    if !out.status.success() || !first.contains("Universal Ctags") {
        return Err(missing_ctags(
            ctags,
            format!("`{first}` is not Universal Ctags, which alone writes JSON"),
        ));
    }
    Ok(first)
}

/// Every definition ctags reports.
fn run_ctags(ctags: &Path, root: &Path, files: &[&str]) -> Result<Vec<Definition>> {
    let mut child = Command::new(ctags)
        .current_dir(root)
        .args([
            "--output-format=json",
            "--fields=+nlKE",
            "--extras=-F",
            "-f",
            "-",
            "-L",
            "-",
        ])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .map_err(|e| missing_ctags(ctags, e))?;
    let mut stdin = child.stdin.take().expect("stdin is piped");
    let list: String = files.iter().map(|f| format!("{f}\n")).collect();
    // write from a thread: ctags writes while it reads, and both pipes have a bound
    let writer = std::thread::spawn(move || stdin.write_all(list.as_bytes()));
    let out = child
        .wait_with_output()
        .map_err(|e| missing_ctags(ctags, e))?;
    let _ = writer.join();
    if !out.status.success() {
        return Err(missing_ctags(ctags, format!("exit status {}", out.status)));
    }
    Ok(definitions_in(&String::from_utf8_lossy(&out.stdout)))
}

/// The wanted definitions of ctags' JSON lines, leaving out the names ctags made up for
/// anonymous functions and classes.
fn definitions_in(ctags_json: &str) -> Vec<Definition> {
    let mut tags = Vec::new();
    for line in ctags_json.lines() {
        let Ok(tag) = serde_json::from_str::<CtagsTag>(line) else {
            continue;
        };
        let anonymous = tag.extras.split(',').any(|e| e == "anonymous");
        if tag.kind_of_line == "tag" && !anonymous && is_wanted(&tag.kind, &tag.language) {
            // PHP writes a namespace's members as a path (`GuzzleHttp\Cookie\CookieJar`),
            // not as a member: only its types own members here
            let php_namespace = tag.language == "PHP" && tag.scope_kind == "namespace";
            let owner = tag
                .scope
                .rsplit(['.', ':', '\\'])
                .next()
                .filter(|o| !o.is_empty() && OWNER_KINDS.contains(&tag.scope_kind.as_str()))
                .filter(|_| !php_namespace)
                .map(str::to_string);
            tags.push(Definition {
                name: tag.name,
                kind: tag.kind,
                path: tag.path.replace('\\', "/"),
                owner,
                language: tag.language,
            });
        }
    }
    tags
}

/// FNV-1a of the seed and the name: the pick order.
fn pick_hash(seed: u64, name: &str) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in seed.to_le_bytes().iter().chain(name.as_bytes()) {
        h ^= u64::from(*b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}

/// True for a name an agent would ask for by name.
fn is_eligible(name: &str) -> bool {
    name.chars().count() >= MIN_NAME_CHARS
        && !name.starts_with('_')
        && name.chars().all(|c| c.is_alphanumeric() || c == '_')
        && name.chars().any(char::is_alphabetic)
        && !name.starts_with("anon")
}

/// The picked names, in pick order.
/// Names that differ only in case or separators (`Usage`, `usage`; `ArgMatcher`,
/// `arg_matcher`) are one question when asked in words, so they are one pick: its files
/// are every file that defines any of them, and it is asked by the first of them.
pub fn pick(tags: &[Definition], seed: u64, per_tree: usize) -> Vec<PickedSymbol> {
    // snake form -> (first name, its kind, files, every name is eligible, its definitions)
    type Group<'t> = (
        &'t str,
        &'t str,
        BTreeSet<&'t str>,
        bool,
        Vec<&'t Definition>,
    );
    let mut by_key: BTreeMap<String, Group> = BTreeMap::new();
    for tag in tags {
        let (name, kind) = (tag.name.as_str(), tag.kind.as_str());
        let entry = by_key
            .entry(snake(name))
            .or_insert_with(|| (name, kind, BTreeSet::new(), true, Vec::new()));
        if name < entry.0 {
            (entry.0, entry.1) = (name, kind);
        }
        entry.2.insert(tag.path.as_str());
        entry.3 &= is_eligible(name);
        entry.4.push(tag);
    }
    let mut eligible: Vec<(u64, PickedSymbol)> = by_key
        .into_values()
        .filter(|(_, _, files, ok, _)| *ok && files.len() <= MAX_DEFINING_FILES)
        .map(|(name, kind, files, _, definitions)| {
            (
                pick_hash(seed, name),
                PickedSymbol {
                    name: name.to_string(),
                    kind: kind.to_string(),
                    files: files.into_iter().map(str::to_string).collect(),
                    qualified: qualified_name(&definitions),
                },
            )
        })
        .collect();
    eligible.sort_by(|a, b| a.0.cmp(&b.0).then_with(|| a.1.name.cmp(&b.1.name)));
    eligible
        .into_iter()
        .take(per_tree)
        .map(|(_, s)| s)
        .collect()
}

/// The member of `definitions` (one name's) with the first owner (by path, then owner),
/// qualified as its language writes it, and every file that defines the name in that owner.
fn qualified_name(definitions: &[&Definition]) -> Option<QualifiedName> {
    let first = definitions
        .iter()
        .filter(|d| d.owner.is_some())
        .min_by(|a, b| (&a.path, &a.owner).cmp(&(&b.path, &b.owner)))?;
    let owner = first.owner.as_deref()?;
    let files: BTreeSet<&str> = definitions
        .iter()
        .filter(|d| d.owner.as_deref() == Some(owner) && d.language == first.language)
        .map(|d| d.path.as_str())
        .collect();
    Some(QualifiedName {
        term: format!("{owner}{}{}", member_separator(&first.language), first.name),
        files: files.into_iter().map(str::to_string).collect(),
    })
}

/// Questions with the exact name; `{}` is the name.
const EXACT_QUESTIONS: &[&str] = &[
    "where is {} defined",
    "where is {} implemented",
    "find {}",
    "show me {}",
    "which file defines {}",
    "open the definition of {}",
    "{}",
];

/// Questions with the words split and lower-cased.
const SPLIT_QUESTIONS: &[&str] = &[
    "where is the {} defined",
    "where is the {} implemented",
    "find the {}",
    "show me the {}",
    "which file defines the {}",
    "how does the {} work",
];

/// A JSON string, which is also a YAML flow scalar.
fn quoted(s: &str) -> String {
    serde_json::to_string(s).expect("a string serialises")
}

fn write_yaml(
    suite: &str,
    root: &str,
    options: &SymbolCorpusOptions,
    ctags_version: &str,
    symbols: &[PickedSymbol],
) -> (String, usize) {
    let mut y = String::new();
    y.push_str(&format!(
        "# Generated by `findbench corpus symbols --root {} --seed {} --per-tree {}`.\n\
         # Ground truth: {ctags_version}. Each definition is asked by its exact name\n\
         # (find code, ask), with its words split and lower-cased, and as the bare words;\n\
         # a member of a type also qualified by it (find code, ask).\n",
        options.root.display(),
        options.seed,
        options.per_tree
    ));
    y.push_str(&format!("suite: {}\n", quoted(suite)));
    y.push_str(&format!("fixture: {{root: {}}}\n", quoted(root)));
    y.push_str("budget: {p95_ms: 5000, per_1000_items_ms: 1000}\ncases:\n");
    let mut cases = 0;
    for (i, sym) in symbols.iter().enumerate() {
        let words = split_words(&sym.name).join(" ");
        let h = pick_hash(options.seed, &sym.name) as usize;
        let exact_q = EXACT_QUESTIONS[h % EXACT_QUESTIONS.len()].replace("{}", &sym.name);
        let split_q = SPLIT_QUESTIONS[(h / 7) % SPLIT_QUESTIONS.len()].replace("{}", &words);
        let mut expect = serde_json::Map::new();
        if sym.files.len() == 1 {
            expect.insert("top".into(), sym.files[0].clone().into());
        }
        expect.insert("contains".into(), sym.files.clone().into());
        expect.insert("within".into(), WITHIN.into());
        let ask_expect = {
            let mut e = expect.clone();
            e.insert("outcome".into(), "success".into());
            serde_json::Value::Object(e)
        };
        let expect = serde_json::Value::Object(expect);
        let id = format!("{i:03}-{}", sym.name);
        let mut phrasings = vec![
            ("code", "code", sym.name.clone(), "exact", expect),
            ("exact", "ask", exact_q, "exact", ask_expect.clone()),
            ("split", "ask", split_q, "split", ask_expect.clone()),
            ("bare", "ask", words, "bare", ask_expect),
        ];
        if let Some(q) = &sym.qualified {
            let mut expect = serde_json::Map::new();
            if q.files.len() == 1 {
                expect.insert("top".into(), q.files[0].clone().into());
            }
            expect.insert("contains".into(), q.files.clone().into());
            expect.insert("within".into(), WITHIN.into());
            let code = serde_json::Value::Object(expect.clone());
            expect.insert("outcome".into(), "success".into());
            let ask = serde_json::Value::Object(expect);
            phrasings.push(("qcode", "code", q.term.clone(), "qualified", code));
            phrasings.push(("qask", "ask", q.term.clone(), "qualified", ask));
        }
        for (suffix, mode, query, phrasing, expect) in phrasings {
            let case = serde_json::json!({
                "id": format!("{id}-{suffix}"),
                "query": query,
                "mode": mode,
                "expect": expect,
                "tags": ["symbols", phrasing, mode, sym.kind],
            });
            y.push_str(&format!("  - {case}\n"));
            cases += 1;
        }
    }
    (y, cases)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tag(name: &str, kind: &str, path: &str) -> Definition {
        Definition {
            name: name.into(),
            kind: kind.into(),
            path: path.into(),
            owner: None,
            language: "Rust".into(),
        }
    }

    fn member(name: &str, owner: &str, path: &str, language: &str) -> Definition {
        Definition {
            owner: Some(owner.into()),
            language: language.into(),
            ..tag(name, "method", path)
        }
    }

    #[test]
    fn a_name_ctags_made_up_for_an_anonymous_function_is_no_definition() {
        // Universal Ctags 5.9's JSON for `foo(function(){ return 1; });` and
        // `function realName() {}`
        let json = concat!(
            r#"{"_type": "tag", "name": "AnonymousFunctiona561cc5f0100", "path": "a.js", "language": "JavaScript", "line": 2, "kind": "function", "extras": "anonymous"}"#,
            "\n",
            r#"{"_type": "tag", "name": "realName", "path": "a.js", "language": "JavaScript", "line": 3, "kind": "function"}"#,
            "\n",
        );
        let realname = Definition {
            language: "JavaScript".into(),
            ..tag("realName", "function", "a.js")
        };
        assert_eq!(definitions_in(json), vec![realname]);
    }

    #[test]
    fn a_member_of_a_type_is_owned_by_the_last_part_of_its_scope() {
        // Universal Ctags 5.9's JSON for a Rust method, a Python method of a nested class,
        // and a function nested in a function (no owner)
        let json = concat!(
            r#"{"_type": "tag", "name": "hidden", "path": "src/walk.rs", "language": "Rust", "line": 9, "kind": "method", "scope": "WalkBuilder", "scopeKind": "implementation"}"#,
            "\n",
            r#"{"_type": "tag", "name": "feed", "path": "p.py", "language": "Python", "line": 3, "kind": "member", "scope": "Outer.Inner", "scopeKind": "class"}"#,
            "\n",
            r#"{"_type": "tag", "name": "helper", "path": "a.rs", "language": "Rust", "line": 4, "kind": "function", "scope": "outer", "scopeKind": "function"}"#,
            "\n",
            r#"{"_type": "tag", "name": "save", "path": "src/Jar.php", "language": "PHP", "line": 7, "kind": "method", "scope": "GuzzleHttp\\Cookie\\FileCookieJar", "scopeKind": "class"}"#,
            "\n",
            r#"{"_type": "tag", "name": "FileCookieJar", "path": "src/Jar.php", "language": "PHP", "line": 5, "kind": "class", "scope": "GuzzleHttp\\Cookie", "scopeKind": "namespace"}"#,
            "\n",
        );
        let owners: Vec<Option<String>> =
            definitions_in(json).into_iter().map(|d| d.owner).collect();
        let inner = Some("Inner".to_string());
        let jar = Some("FileCookieJar".to_string());
        assert_eq!(owners, [Some("WalkBuilder".into()), inner, None, jar, None]);
    }

    #[test]
    fn a_member_is_asked_qualified_by_its_first_owner_as_its_language_writes_it() {
        let tags = vec![
            member("hidden", "WalkBuilder", "src/walk.rs", "Rust"),
            member("hidden", "Other", "src/a_other.rs", "Rust"),
            member("params", "Request", "lib/rack/request.rb", "Ruby"),
            member("feed_eof", "StreamReader", "asyncio/streams.py", "Python"),
            tag("loose", "function", "src/loose.rs"),
        ];
        let qualified = |name: &str| {
            pick(&tags, 1, 10)
                .into_iter()
                .find(|s| s.name == name)
                .unwrap()
                .qualified
                .map(|q| (q.term, q.files))
        };
        // the first owner by path: `src/a_other.rs` before `src/walk.rs`
        assert_eq!(
            qualified("hidden"),
            Some(("Other::hidden".into(), vec!["src/a_other.rs".into()]))
        );
        assert_eq!(
            qualified("params"),
            Some(("Request#params".into(), vec!["lib/rack/request.rb".into()]))
        );
        assert_eq!(
            qualified("feed_eof"),
            Some((
                "StreamReader.feed_eof".into(),
                vec!["asyncio/streams.py".into()]
            ))
        );
        assert_eq!(qualified("loose"), None);
    }

    #[test]
    fn picks_are_seeded_unique_and_skip_ambiguous_or_private_names() {
        let tags = vec![
            tag("ArgMatcher", "struct", "src/parser/matcher.rs"),
            tag("feed_eof", "member", "lib/parser.py"),
            tag("new", "method", "a.rs"),
            tag("_private", "function", "a.py"),
            tag("common", "function", "a.c"),
            tag("common", "function", "b.c"),
            tag("common", "function", "c.c"),
            tag("common", "function", "d.c"),
            tag("twice", "function", "b.c"),
            tag("twice", "function", "a.c"),
            tag("Usage", "struct", "src/usage.rs"),
            tag("usage", "function", "src/styling.rs"),
        ];
        let picked = pick(&tags, 7, 10);
        let mut names: Vec<&str> = picked.iter().map(|s| s.name.as_str()).collect();
        names.sort();
        assert_eq!(names, ["ArgMatcher", "Usage", "feed_eof", "twice"]);
        // one question for names equal in words: every file that defines one of them
        let usage = picked.iter().find(|s| s.name == "Usage").unwrap();
        assert_eq!(usage.files, ["src/styling.rs", "src/usage.rs"]);
        let twice = picked.iter().find(|s| s.name == "twice").unwrap();
        assert_eq!(twice.files, ["a.c", "b.c"]);
        assert_eq!(pick(&tags, 7, 10), picked, "a seed gives one order");
        assert_eq!(pick(&tags, 7, 1).len(), 1);
    }

    #[test]
    fn the_yaml_is_a_valid_corpus_with_every_phrasing() {
        let symbols = vec![PickedSymbol {
            name: "ArgMatcher".into(),
            kind: "struct".into(),
            files: vec!["src/parser/matcher.rs".into()],
            qualified: Some(QualifiedName {
                term: "parser::ArgMatcher".into(),
                files: vec!["src/parser/matcher.rs".into()],
            }),
        }];
        let options = SymbolCorpusOptions {
            root: ".".into(),
            seed: 1,
            per_tree: 1,
            ctags: "ctags".into(),
            suite: None,
            tree: TreeOptions::default(),
            out: "s.yaml".into(),
            exclude: Vec::new(),
            include_tests: false,
        };
        let (yaml, cases) = write_yaml("s", "/tmp", &options, "U", &symbols);
        assert_eq!(cases, 6);
        assert!(yaml.contains(r#""query":"ArgMatcher","#), "{yaml}");
        assert!(yaml.contains(r#""query":"parser::ArgMatcher""#), "{yaml}");
        assert_eq!(yaml.matches(r#""qualified""#).count(), 2, "{yaml}");
        assert!(yaml.contains(r#""query":"arg matcher","#), "{yaml}");
        assert!(yaml.contains(r#""top":"src/parser/matcher.rs""#), "{yaml}");
        let corpus = crate::corpus::parse_corpus_str(Path::new("/tmp/s.yaml"), &yaml);
        assert!(corpus.is_ok(), "{:?}", corpus.err());
    }
}
