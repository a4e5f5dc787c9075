//! What a shell command an agent ran did, as far as retrieval goes: a search of the tree
//! (`rg`, `grep`, `git grep`, `find`, `fd`), and the files it read (`cat`, `sed -n`, `head`,
//! `tail`, `nl`, `less`, `bat`). A search is the first command of its pipeline (`git log |
//! grep x` filters text, it searches no tree); `cd DIR` moves where later relative paths
//! point. Also: the lines of a result, which is what a search returned.

use super::shell_words::{segments, Segment};

/// What one command line did.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ShellCall {
    /// The search command as written (`rg -n cursor_binary src`), when it ran one.
    pub search: Option<String>,
    /// Files it read, each with the directory a relative path is relative to (from `cd`,
    /// relative to where the command started; empty when it did not move).
    pub reads: Vec<ShellRead>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ShellRead {
    pub path: String,
    pub dir: String,
}

/// Programs that search a tree.
const SEARCHES: &[&str] = &["rg", "grep", "egrep", "fgrep", "find", "fd", "fdfind"];

/// Programs that print a file.
const READERS: &[&str] = &["cat", "head", "tail", "nl", "less", "more", "bat", "sed"];

/// Reads `script` (a shell command line).
pub fn classify(script: &str) -> ShellCall {
    let mut call = ShellCall::default();
    let mut dir = String::new();
    for segment in segments(script) {
        let words = program_words(&segment.words);
        let Some(program) = words.first().map(|w| base_name(w)) else {
            continue;
        };
        if program == "cd" {
            let to = words.get(1).map_or("", String::as_str);
            dir = if to.starts_with('/') || dir.is_empty() {
                to.to_string()
            } else {
                format!("{dir}/{to}")
            };
            continue;
        }
        if call.search.is_none() && is_search(&segment, words) {
            call.search = Some(segment.raw.clone());
            continue;
        }
        if READERS.contains(&program) && !segment.after_pipe {
            for path in read_paths(program, &words[1..]) {
                call.reads.push(ShellRead {
                    path,
                    dir: dir.clone(),
                });
            }
        }
    }
    call
}

/// The words from the program on: leading `VAR=value`, `env`, `time`, `command` and `sudo`
/// left out.
fn program_words(words: &[String]) -> &[String] {
    let mut i = 0;
    while i < words.len() {
        let w = words[i].as_str();
        let assignment = w.split_once('=').is_some_and(|(k, _)| {
            !k.is_empty() && k.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
        });
        if assignment || matches!(w, "env" | "time" | "command" | "sudo" | "nice") {
            i += 1;
        } else {
            break;
        }
    }
    &words[i..]
}

fn base_name(program: &str) -> &str {
    program.rsplit('/').next().unwrap_or(program)
}

fn is_search(segment: &Segment, words: &[String]) -> bool {
    if segment.after_pipe {
        return false;
    }
    let program = base_name(&words[0]);
    if program == "git" {
        // `git grep`, past options such as `-C dir` or `--no-pager`
        let mut rest = words[1..].iter();
        while let Some(w) = rest.next() {
            match w.as_str() {
                "grep" => return true,
                "-C" | "-c" | "--git-dir" | "--work-tree" => {
                    rest.next();
                }
                w if w.starts_with('-') => {}
                _ => return false,
            }
        }
        return false;
    }
    SEARCHES.contains(&program)
}

/// The files a reader prints: its operands past options (and `sed`'s script, `head -n N`).
fn read_paths(program: &str, args: &[String]) -> Vec<String> {
    let mut out = Vec::new();
    let mut script_seen = program != "sed";
    let mut i = 0;
    while i < args.len() {
        let a = args[i].as_str();
        i += 1;
        if a == "--" {
            continue;
        }
        if a.starts_with('-') && a.len() > 1 {
            // options of head/tail/sed/nl that take a value as the next word
            let takes_value = matches!(
                (program, a),
                ("head" | "tail", "-n" | "-c")
                    | ("sed", "-e" | "-f")
                    | ("nl", "-b" | "-w" | "-s" | "-v" | "-i")
                    | ("bat", "-r" | "--line-range" | "-l" | "--language")
            );
            if takes_value {
                if program == "sed" {
                    script_seen = true;
                }
                i += 1;
            }
            continue;
        }
        if !script_seen {
            script_seen = true;
            continue;
        }
        out.push(a.to_string());
    }
    out
}

/// What a search returned, as a count: the non-blank lines of its output, less a `Found N
/// files` header; none for `No files found` / `No matches found`.
pub fn result_lines(text: &str) -> u64 {
    let mut lines = text.lines().map(str::trim).filter(|l| !l.is_empty());
    let Some(first) = lines.clone().next() else {
        return 0;
    };
    if first.starts_with("No files found") || first.starts_with("No matches found") {
        return 0;
    }
    let header = first.starts_with("Found ")
        && first
            .split_whitespace()
            .nth(1)
            .is_some_and(|n| n.parse::<u64>().is_ok());
    if header {
        lines.next();
    }
    lines.count() as u64
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(path: &str, dir: &str) -> ShellRead {
        ShellRead {
            path: path.into(),
            dir: dir.into(),
        }
    }

    #[test]
    fn searches_are_recognised_in_each_program_and_only_at_a_pipeline_start() {
        for script in [
            "rg -n cursor_binary src",
            "grep -rn 'cursor binary' .",
            "git grep -n cursor_binary",
            "git --no-pager grep -n x",
            "find . -name '*.cpp'",
            "fd terminal_probe",
            "LC_ALL=C /usr/bin/grep -r x .",
        ] {
            assert!(classify(script).search.is_some(), "{script}");
        }
        for script in [
            "git log | grep fix",
            "cat a.txt | rg x",
            "git status",
            "cargo test",
            "echo rg",
        ] {
            assert_eq!(classify(script).search, None, "{script}");
        }
        let call = classify("cd src && rg -n 'x y' | head -5");
        assert_eq!(call.search.as_deref(), Some("rg -n 'x y'"));
    }

    #[test]
    fn reads_are_files_past_options_scripts_and_counts() {
        assert_eq!(
            classify("sed -n '1,120p' src/main.cpp").reads,
            [read("src/main.cpp", "")]
        );
        assert_eq!(
            classify("nl -ba include/a.h | sed -n 10,40p").reads,
            [read("include/a.h", "")]
        );
        assert_eq!(
            classify("head -n 50 README.md && cat -n docs/x.md").reads,
            [read("README.md", ""), read("docs/x.md", "")]
        );
        assert_eq!(
            classify("cd src/cursor && cat cursor_binary.cpp").reads,
            [read("cursor_binary.cpp", "src/cursor")]
        );
        // `sed -i` edits the file: read or edited, it counts alike
        assert_eq!(
            classify("sed -i s/a/b/ x.rs | cat").reads,
            [read("x.rs", "")]
        );
        assert_eq!(classify("rg x | cat").reads, []);
    }

    #[test]
    fn result_lines_count_paths_and_skip_headers() {
        assert_eq!(result_lines("Found 2 files\n/a/b.rs\n/a/c.rs\n"), 2);
        assert_eq!(result_lines("No files found"), 0);
        assert_eq!(result_lines("src/a.rs:3:x\n\nsrc/b.rs:9:x\n"), 2);
        assert_eq!(result_lines(""), 0);
        assert_eq!(result_lines("Found the bug\nsrc/a.rs"), 2);
    }
}
