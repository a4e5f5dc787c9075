//! The README's examples are part of the contract: every fenced block marked runnable is
//! run as written against the built binary, and must exit as its marker says.
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

/// One runnable block: the README line of its marker, its commands and expectations.
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

fn parse_readme(text: &str) -> Vec<Block> {
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
        let tokens: Vec<Expect> =
            marker
                .trim()
                .trim_start_matches(':')
                .split_whitespace()
                .map(|t| match t {
                    "-" => Expect::Setup,
                    "ci" => Expect::Ci,
                    n => Expect::Exit(n.parse().unwrap_or_else(|_| {
                        panic!("README.md:{}: bad runnable token `{t}`", i + 1)
                    })),
                })
                .collect();
        assert!(
            lines.get(i + 1).is_some_and(|l| l.starts_with("```")),
            "README.md:{}: a runnable marker must be right before a fenced block",
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
                "README.md:{}: {} tokens for {} commands",
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

#[test]
#[cfg(unix)]
fn every_runnable_readme_example_runs_as_written() {
    let readme = std::fs::read_to_string(repo_root().join("README.md")).unwrap();
    let ci = std::fs::read_to_string(repo_root().join(".ci/run")).unwrap();
    let blocks = parse_readme(&readme);
    assert!(
        blocks.len() >= 4,
        "the README's runnable blocks were not found"
    );
    let dir = scratch();
    for block in &blocks {
        for ex in &block.commands {
            let at = format!("README.md:{} `{}`", block.line, ex.command);
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
                        "{at}: not a line of .ci/run, so CI does not run what the README says"
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
fn markers_parse_and_wildcards_match() {
    let text = "x\n<!-- runnable: 0 100 - -->\n```sh\ncargo build --release\n# a comment\nfindbench a\nfindbench b\n```\n\n```sh\nnot run\n```\n<!-- runnable -->\n```\n$ findbench c\nline one\n...\nseen ... .. ...Z\n```\n";
    // the marker lists tokens in line order
    let text = text.replace("0 100 -", "- 0 100");
    let blocks = parse_readme(&text);
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
