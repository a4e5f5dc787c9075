//! The examples of README.md and docs/guide.md are part of the contract: every fenced block
//! marked runnable is run as written against the built binary, and must exit as its marker
//! says. Every relative link of both files must lead to a file of the repository, and a link
//! to a heading (`#anchor`) to a heading that exists.
//!
//! Marker convention (an HTML comment, invisible on GitHub, on the line before the fence):
//!
//! - `<!-- runnable -->`: every command line of the block exits 0.
//! - `<!-- runnable: 0 100 - ci -->`: one token per command line, in order: an exit code;
//!   `-` for a setup line the test stands in for (`cargo build`, `alias findbench=...`: the
//!   test puts the built binary on PATH as `findbench`); `ci` for a line this test cannot
//!   run (`cargo test --workspace`) that must be, word for word, a line of `.ci/run`.
//! - In a block whose commands start with `$ `, the lines after a command are its expected
//!   stdout: each must appear in the output, `...` standing for any text, a line of only
//!   `...` for any number of lines.
//!
//! Blocks without a marker (example output, YAML, other helpers' sections) are not run.
//! `cargo run --release -p findbench -- ARGS` runs the built binary with ARGS. Commands run
//! with `sh -c`, in order, in one scratch directory that links the repository's corpora,
//! traces, scripts and committed baseline, so what they write stays out of the checkout.

mod common;

use common::repo_root;
use std::path::Path;
use std::process::Command;

/// The documents whose examples run and whose links are checked, relative to the repository.
const DOCUMENTS: [&str; 2] = ["README.md", "docs/guide.md"];

/// One runnable block: the line of its marker, its commands and expectations.
struct Block {
    line: usize,
    commands: Vec<Example>,
}

struct Example {
    command: String,
    expect: Expect,
    output: Vec<String>,
}

#[derive(Debug, Clone, PartialEq)]
enum Expect {
    Exit(i32),
    Setup,
    Ci,
}

fn parse_doc(doc: &str, text: &str) -> Vec<Block> {
    let lines: Vec<&str> = text.lines().collect();
    let mut blocks = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let line = lines[i].trim();
        let Some(marker) = line
            .strip_prefix("<!-- runnable")
            .and_then(|m| m.strip_suffix("-->"))
        else {
            i += 1;
            continue;
        };
        let tokens: Vec<Expect> = marker
            .trim()
            .trim_start_matches(':')
            .split_whitespace()
            .map(|t| match t {
                "-" => Expect::Setup,
                "ci" => Expect::Ci,
                n => Expect::Exit(
                    n.parse()
                        .unwrap_or_else(|_| panic!("{doc}:{}: bad runnable token `{t}`", i + 1)),
                ),
            })
            .collect();
        assert!(
            lines.get(i + 1).is_some_and(|l| l.starts_with("```")),
            "{doc}:{}: a runnable marker must be right before a fenced block",
            i + 1
        );
        let mut body = Vec::new();
        let mut j = i + 2;
        while j < lines.len() && !lines[j].starts_with("```") {
            body.push(lines[j]);
            j += 1;
        }
        let transcript = body.iter().any(|l| l.starts_with("$ "));
        let mut commands: Vec<Example> = Vec::new();
        for l in body {
            if transcript {
                match l.strip_prefix("$ ") {
                    Some(cmd) => commands.push(Example {
                        command: cmd.to_string(),
                        expect: Expect::Exit(0),
                        output: Vec::new(),
                    }),
                    None => {
                        if let Some(last) = commands.last_mut() {
                            last.output.push(l.to_string());
                        }
                    }
                }
            } else if !l.trim().is_empty() && !l.trim_start().starts_with('#') {
                commands.push(Example {
                    command: l.to_string(),
                    expect: Expect::Exit(0),
                    output: Vec::new(),
                });
            }
        }
        if !tokens.is_empty() {
            assert_eq!(
                tokens.len(),
                commands.len(),
                "{doc}:{}: {} tokens for {} commands",
                i + 1,
                tokens.len(),
                commands.len()
            );
            for (c, t) in commands.iter_mut().zip(tokens) {
                c.expect = t;
            }
        }
        blocks.push(Block {
            line: i + 1,
            commands,
        });
        i = j + 1;
    }
    blocks
}

/// Whether `actual` holds `expected`, `...` in it standing for any text: its pieces appear
/// in `actual` in order.
fn line_matches(expected: &str, actual: &str) -> bool {
    let mut rest = actual;
    for part in expected.trim().split("...").filter(|p| !p.is_empty()) {
        match rest.find(part) {
            Some(at) => rest = &rest[at + part.len()..],
            None => return false,
        }
    }
    true
}

/// The scratch directory: links to what the examples read, nothing they write.
fn scratch() -> tempfile::TempDir {
    let root = repo_root().canonicalize().unwrap();
    let dir = tempfile::tempdir().unwrap();
    #[cfg(unix)]
    {
        use std::os::unix::fs::symlink;
        for name in ["corpora", "traces", "scripts", "schemas"] {
            symlink(root.join(name), dir.path().join(name)).unwrap();
        }
        std::fs::create_dir_all(dir.path().join("reports")).unwrap();
        symlink(
            root.join("reports/baseline"),
            dir.path().join("reports/baseline"),
        )
        .unwrap();
        std::fs::create_dir_all(dir.path().join("bin")).unwrap();
        symlink(
            env!("CARGO_BIN_EXE_findbench"),
            dir.path().join("bin/findbench"),
        )
        .unwrap();
    }
    dir
}

fn run_example(dir: &Path, command: &str) -> std::process::Output {
    let command = command
        .trim()
        .replace("cargo run --release -p findbench -- ", "findbench ");
    let path = format!(
        "{}:{}",
        dir.join("bin").display(),
        std::env::var("PATH").unwrap_or_default()
    );
    Command::new("sh")
        .arg("-c")
        .arg(&command)
        .current_dir(dir)
        .env("PATH", path)
        .env_remove("FINDBENCH_STORE")
        .env_remove("GITHUB_STEP_SUMMARY")
        .output()
        .expect("sh runs")
}

/// Runs every runnable block of `doc` in a scratch directory of its own; `min_blocks` guards
/// against a marker convention the parser no longer recognises (nothing would run).
#[cfg(unix)]
fn run_examples_of(doc: &str, min_blocks: usize) {
    let text = std::fs::read_to_string(repo_root().join(doc)).unwrap();
    let ci = std::fs::read_to_string(repo_root().join(".ci/run")).unwrap();
    let blocks = parse_doc(doc, &text);
    assert!(
        blocks.len() >= min_blocks,
        "{doc}: {} runnable blocks found, expected at least {min_blocks}",
        blocks.len()
    );
    let dir = scratch();
    for block in &blocks {
        for ex in &block.commands {
            let at = format!("{doc}:{} `{}`", block.line, ex.command);
            let code = match ex.expect {
                Expect::Setup => {
                    assert!(
                        ex.command.starts_with("cargo build")
                            || ex.command.starts_with("alias findbench="),
                        "{at}: only a build or the alias is a setup line"
                    );
                    continue;
                }
                Expect::Ci => {
                    assert!(
                        ci.lines().any(|l| l.trim() == ex.command.trim()),
                        "{at}: not a line of .ci/run, so CI does not run what {doc} says"
                    );
                    continue;
                }
                Expect::Exit(code) => code,
            };
            let out = run_example(dir.path(), &ex.command);
            let stdout = String::from_utf8_lossy(&out.stdout);
            assert_eq!(
                out.status.code(),
                Some(code),
                "{at}\nstdout:\n{stdout}\nstderr:\n{}",
                String::from_utf8_lossy(&out.stderr)
            );
            let actual: Vec<&str> = stdout.lines().collect();
            for want in ex.output.iter().filter(|l| {
                let t = l.trim();
                !t.is_empty() && t != "..."
            }) {
                assert!(
                    actual.iter().any(|a| line_matches(want, a)),
                    "{at}: output has no line like\n  {want}\nstdout:\n{stdout}"
                );
            }
        }
    }
}

#[test]
#[cfg(unix)]
fn every_runnable_readme_example_runs_as_written() {
    run_examples_of(DOCUMENTS[0], 4);
}

#[test]
#[cfg(unix)]
fn every_runnable_guide_example_runs_as_written() {
    run_examples_of(DOCUMENTS[1], 4);
}

/// The lines of `text` outside fenced blocks, numbered from 1.
fn prose_lines(text: &str) -> impl Iterator<Item = (usize, &str)> {
    let mut fenced = false;
    text.lines().enumerate().filter_map(move |(i, l)| {
        if l.trim_start().starts_with("```") {
            fenced = !fenced;
            return None;
        }
        (!fenced).then_some((i + 1, l))
    })
}

/// The anchor GitHub gives a heading: lower-cased, spaces to `-`, punctuation dropped.
fn heading_anchor(title: &str) -> String {
    title
        .trim()
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c),
            _ => None,
        })
        .flat_map(char::to_lowercase)
        .collect()
}

/// Every heading anchor of a markdown text; a repeated heading gets `-1`, `-2`, as on GitHub.
fn heading_anchors(text: &str) -> Vec<String> {
    let mut seen: std::collections::HashMap<String, usize> = std::collections::HashMap::new();
    let mut anchors = Vec::new();
    for (_, line) in prose_lines(text) {
        let hashes = line.len() - line.trim_start_matches('#').len();
        if hashes == 0 || !line[hashes..].starts_with(' ') {
            continue;
        }
        let base = heading_anchor(&line[hashes..]);
        let times = seen.entry(base.clone()).or_default();
        anchors.push(match *times {
            0 => base,
            n => format!("{base}-{n}"),
        });
        *times += 1;
    }
    anchors
}

/// The targets of the inline links `[text](target)` of a markdown text, with their lines.
fn link_targets(text: &str) -> Vec<(usize, String)> {
    let mut links = Vec::new();
    for (n, line) in prose_lines(text) {
        let mut rest = line;
        while let Some(at) = rest.find("](") {
            rest = &rest[at + 2..];
            let Some(end) = rest.find(')') else { break };
            links.push((n, rest[..end].to_string()));
            rest = &rest[end..];
        }
    }
    links
}

/// Each relative link of `doc` (a path inside `root`, its text `text`) that leads nowhere:
/// to no file, out of the repository, or to a heading its file does not have.
fn broken_links(root: &Path, doc: &str, text: &str) -> Vec<String> {
    let base = Path::new(doc).parent().unwrap_or(Path::new(""));
    let root = root.canonicalize().unwrap();
    let mut broken = Vec::new();
    for (line, target) in link_targets(text) {
        if target.contains("://") || target.starts_with("mailto:") {
            continue;
        }
        let (path, anchor) = match target.split_once('#') {
            Some((p, a)) => (p, Some(a)),
            None => (target.as_str(), None),
        };
        let at = format!("{doc}:{line}: link `{target}`");
        let file = if path.is_empty() {
            root.join(doc)
        } else {
            match root.join(base).join(path).canonicalize() {
                Ok(f) if f.starts_with(&root) => f,
                Ok(_) => {
                    broken.push(format!("{at} leaves the repository"));
                    continue;
                }
                Err(_) => {
                    broken.push(format!("{at}: no such file"));
                    continue;
                }
            }
        };
        let Some(anchor) = anchor else { continue };
        let headings = if path.is_empty() {
            heading_anchors(text)
        } else {
            heading_anchors(&std::fs::read_to_string(&file).unwrap_or_default())
        };
        if !headings.iter().any(|h| h == anchor) {
            broken.push(format!("{at}: no heading with anchor `{anchor}`"));
        }
    }
    broken
}

#[test]
fn every_relative_link_leads_to_a_file_or_heading() {
    let root = repo_root();
    let mut broken = Vec::new();
    for doc in DOCUMENTS {
        let text = std::fs::read_to_string(root.join(doc)).unwrap();
        assert!(
            !link_targets(&text).is_empty(),
            "{doc}: no links found, so none were checked"
        );
        broken.extend(broken_links(&root, doc, &text));
    }
    assert!(broken.is_empty(), "broken links:\n{}", broken.join("\n"));
}

#[test]
fn broken_links_and_anchors_are_named() {
    let text = "# Set up: `run --engine`\n\n## Set up: `run --engine`\n\
        [ok](#set-up-run---engine) [twice](#set-up-run---engine-1) [file](ARCHITECTURE.md)\n\
        [guide](docs/guide.md#contents) [web](https://example.com/x)\n\
        [gone](#nowhere) [missing](docs/missing.md) [out](..)\n\
        [bad heading](docs/guide.md#no-such-heading)\n\
        ```\n[in a fence](nowhere.md)\n```\n";
    let broken = broken_links(&repo_root(), "README.md", text);
    assert_eq!(broken.len(), 4, "{broken:#?}");
    assert!(
        broken[0].starts_with("README.md:6: link `#nowhere`: no heading"),
        "{broken:#?}"
    );
    assert!(
        broken[1].contains("`docs/missing.md`: no such file"),
        "{broken:#?}"
    );
    assert!(
        broken[2].contains("`..` leaves the repository"),
        "{broken:#?}"
    );
    assert!(
        broken[3].starts_with("README.md:7: link `docs/guide.md#no-such-heading`"),
        "{broken:#?}"
    );
    assert_eq!(
        heading_anchor("`find name`, `find outline`, `get`"),
        "find-name-find-outline-get"
    );
    assert_eq!(
        heading_anchor("How does my tool compare? `run --engine`"),
        "how-does-my-tool-compare-run---engine"
    );
}

#[test]
fn markers_parse_and_wildcards_match() {
    let text = "x\n<!-- runnable: 0 100 - -->\n```sh\ncargo build --release\n# a comment\nfindbench a\nfindbench b\n```\n\n```sh\nnot run\n```\n<!-- runnable -->\n```\n$ findbench c\nline one\n...\nseen ... .. ...Z\n```\n";
    // the marker lists tokens in line order
    let text = text.replace("0 100 -", "- 0 100");
    let blocks = parse_doc("test.md", &text);
    assert_eq!(blocks.len(), 2);
    let expects: Vec<Expect> = blocks[0]
        .commands
        .iter()
        .map(|c| c.expect.clone())
        .collect();
    assert_eq!(expects, [Expect::Setup, Expect::Exit(0), Expect::Exit(100)]);
    assert_eq!(blocks[1].commands[0].command, "findbench c");
    assert_eq!(blocks[1].commands[0].output.len(), 3);
    assert!(line_matches(
        "seen 2026-06-19T... .. 2026-06-24T...",
        "   seen 2026-06-19T03:26:29Z .. 2026-06-24T13:59:39Z   fixture"
    ));
    assert!(!line_matches(
        "seen 2026-06-19T... .. 2026-06-25T...",
        "   seen 2026-06-19T03:26:29Z .. 2026-06-24T13:59:39Z"
    ));
    assert!(line_matches(
        "latency p50: ... ms (..., 95% CI [...]): ...",
        "latency p50: 0.089 -> 0.127 ms (+0.038 ms, 95% CI [+0.028, +0.047]): slower"
    ));
}
