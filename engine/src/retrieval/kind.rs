//! What a file is, for the prior of task ranking: an implementation file is what a task
//! changes; tests, documentation (changelogs included), data and other text mention the
//! same words without being the place to change. Decided by the rules that already say what
//! a file is: its language or source extension, the test patterns of `find code`, and the
//! documentation and data extensions of `grep`.
//!
//! `find code` asks the same question in finer terms ([`Secondary`]): a test, an example or
//! bench, or a generated file ranks below the implementation.

use crate::profile::{CodeWeights, Profile, TaskRankingWeights};
use crate::text::camel::last_word;
use crate::tree::TreeFile;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FileKind {
    Source,
    Test,
    Docs,
    Data,
    Other,
}

impl FileKind {
    pub fn of(file: &TreeFile, profile: &Profile) -> FileKind {
        let has = |list: &[String]| list.iter().any(|e| e == file.ext());
        let source = file.language.is_some() || has(&profile.grep.source_extensions);
        if is_test_file(file, &profile.code) {
            FileKind::Test
        } else if source {
            FileKind::Source
        } else if has(&profile.grep.docs_extensions) {
            FileKind::Docs
        } else if has(&profile.grep.data_extensions) {
            FileKind::Data
        } else {
            FileKind::Other
        }
    }

    pub fn is_source(self) -> bool {
        self == FileKind::Source
    }

    /// The prior the profile gives this kind.
    pub fn prior(self, w: &TaskRankingWeights) -> f64 {
        match self {
            FileKind::Source => w.source_prior,
            FileKind::Test => w.test_prior,
            FileKind::Docs => w.docs_prior,
            FileKind::Data => w.data_prior,
            FileKind::Other => w.other_prior,
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            FileKind::Source => "source",
            FileKind::Test => "test",
            FileKind::Docs => "docs",
            FileKind::Data => "data",
            FileKind::Other => "text",
        }
    }
}

/// Files that are not the implementation: ranked below it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Secondary {
    Test,
    Example,
    Generated,
}

impl Secondary {
    pub fn as_str(self) -> &'static str {
        match self {
            Secondary::Test => "test",
            Secondary::Example => "example or bench",
            Secondary::Generated => "generated",
        }
    }
}

/// What a file is when it is not the implementation: a test (by `test_dirs` or
/// `test_names`), an example or bench (by `example_dirs`), or generated (by a directory in
/// `generated_dirs`, or a marker of `generated_markers` in its first
/// `generated_header_bytes`).
pub fn secondary_kind(f: &TreeFile, w: &CodeWeights) -> Option<Secondary> {
    if is_test_file(f, w) {
        return Some(Secondary::Test);
    }
    let in_dir = |dirs: &[String]| {
        !f.dir().is_empty()
            && f.dir()
                .split('/')
                .any(|c| dirs.iter().any(|d| d.eq_ignore_ascii_case(c)))
    };
    if in_dir(&w.example_dirs) {
        return Some(Secondary::Example);
    }
    if in_dir(&w.generated_dirs) {
        return Some(Secondary::Generated);
    }
    if w.generated_markers.iter().all(String::is_empty) {
        return None;
    }
    // only the header is read: a candidate's whole text is not needed, nor kept
    let head = f.folded_head(w.generated_header_bytes).unwrap_or_default();
    w.generated_markers
        .iter()
        .any(|m| !m.is_empty() && head.contains(m.as_str()))
        .then_some(Secondary::Generated)
}

/// True when the file is a test by the profile's patterns: a directory component in
/// `test_dirs` (or ending in one as its last word), or a file name matching one of
/// `test_names`.
pub fn is_test_file(f: &TreeFile, w: &CodeWeights) -> bool {
    // the directory as written: a hump is lost when folded (`commonTest`)
    let written_dir = f.path.rsplit_once('/').map_or("", |(dir, _)| dir);
    let in_test_dir = !written_dir.is_empty()
        && written_dir.split('/').any(|c| {
            // its last word: a .NET test project (`Newtonsoft.Json.Tests`), a Kotlin or
            // Android test source set (`commonTest`), `integration-tests`; `latest` is one word
            let last = last_word(c);
            w.test_dirs
                .iter()
                .any(|d| d.eq_ignore_ascii_case(c) || d.eq_ignore_ascii_case(last))
        });
    if in_test_dir {
        return true;
    }
    let name = f.path.rsplit('/').next().unwrap_or(&f.path);
    w.test_names
        .iter()
        .any(|p| glob_match(p.as_bytes(), name.as_bytes()))
}

/// `*`-only glob: `*` matches any run of bytes (none included), every other byte itself.
fn glob_match(pattern: &[u8], text: &[u8]) -> bool {
    let (mut p, mut t) = (0, 0);
    // the last `*` seen, and where in `text` its run currently ends
    let mut star: Option<(usize, usize)> = None;
    while t < text.len() {
        if p < pattern.len() && pattern[p] == b'*' {
            star = Some((p, t));
            p += 1;
        } else if p < pattern.len() && pattern[p] == text[t] {
            p += 1;
            t += 1;
        } else if let Some((sp, st)) = star {
            p = sp + 1;
            t = st + 1;
            star = Some((sp, st + 1));
        } else {
            return false;
        }
    }
    pattern[p..].iter().all(|&b| b == b'*')
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tree::Tree;

    /// One file of each kind under the default profile: a language's file and a source
    /// extension's are source, and only they; a test by its directory; docs, data and
    /// other text by their extensions.
    #[test]
    fn only_an_implementation_file_is_source() {
        let profile = Profile::default();
        let paths = [
            "src/lib.rs",
            "tools/run.pl",
            "tests/it.rs",
            "README.md",
            "data.json",
            "notes.xyz",
        ];
        let tree = Tree::from_memory("t", paths.map(|p| (p, "")));
        let kinds: Vec<FileKind> = paths
            .iter()
            .map(|p| {
                let f = tree.files().iter().find(|f| f.path == *p).unwrap();
                FileKind::of(f, &profile)
            })
            .collect();
        use FileKind::*;
        assert_eq!(kinds, [Source, Source, Test, Docs, Data, Other]);
        assert_eq!(
            kinds.iter().map(|k| k.is_source()).collect::<Vec<_>>(),
            [true, true, false, false, false, false]
        );
        assert_eq!(
            kinds.iter().map(|k| k.as_str()).collect::<Vec<_>>(),
            ["source", "source", "test", "docs", "data", "text"]
        );
    }

    /// Each path of a tree of them is of its kind under the default profile.
    fn assert_kinds(paths: &[(&str, FileKind)]) {
        let tree = Tree::from_memory("t", paths.iter().map(|&(p, _)| (p, "")));
        for &(path, kind) in paths {
            let f = tree.files().iter().find(|f| f.path == path).unwrap();
            assert_eq!(FileKind::of(f, &Profile::default()), kind, "{path}");
        }
    }

    /// A directory's last word names tests as its whole name does: .NET test projects,
    /// Kotlin and Android test source sets, `integration-tests`; not a word that only
    /// holds the letters (`latest`, `contest`).
    #[test]
    fn a_directory_ending_in_a_test_directorys_name_holds_tests() {
        let paths = [
            (
                "Src/Newtonsoft.Json.Tests/Linq/JTokenReaderTest.cs",
                FileKind::Test,
            ),
            ("Src/Newtonsoft.Json/Linq/JTokenReader.cs", FileKind::Source),
            (
                "okio/src/commonTest/kotlin/okio/MockSink.kt",
                FileKind::Test,
            ),
            ("app/src/androidTest/java/Main.java", FileKind::Test),
            ("integration-tests/run.py", FileKind::Test),
            ("My.APITests/Client.cs", FileKind::Test),
            ("releases/latest/main.go", FileKind::Source),
            ("contest/solve.py", FileKind::Source),
            ("test-utils/fixtures.py", FileKind::Source),
        ];
        assert_kinds(&paths);
    }

    /// A test by its language's name alone, beside the file it tests: the test framework's
    /// convention (`*Test.php`, `*Test.java`, `test_*.py`, `*_test.go`).
    #[test]
    fn a_test_beside_its_subject_is_a_test_by_its_name() {
        let paths = [
            ("src/Ftp/FtpAdapterTest.php", FileKind::Test),
            ("src/Ftp/FtpAdapter.php", FileKind::Source),
            ("src/Testing.php", FileKind::Source),
            ("src/main/Walk.java", FileKind::Source),
            ("src/main/WalkTest.java", FileKind::Test),
            ("pkg/test_walk.py", FileKind::Test),
            ("pkg/walk_test.go", FileKind::Test),
        ];
        assert_kinds(&paths);
    }

    /// What a file is besides the implementation, by the default profile, with the names
    /// `find code` shows: by its directory, or by a marker in its first 1024 bytes (one
    /// further in marks nothing); a file at the root is in no directory.
    #[test]
    fn secondary_kinds_by_directory_and_header_marker() {
        let w = Profile::default().code;
        let late = format!("{}\n// Do not edit\n", "x".repeat(1100));
        let files = [
            ("tests/it.rs", ""),
            ("examples/demo.rs", ""),
            ("generated/api.rs", ""),
            (
                "src/api.rs",
                "// Code generated by a tool. DO NOT EDIT.\nfn a() {}\n",
            ),
            ("src/late.rs", late.as_str()),
            ("src/lib.rs", "fn a() {}\n"),
            ("lib.rs", "fn a() {}\n"),
        ];
        let tree = Tree::from_memory("t", files);
        let names: Vec<Option<&str>> = files
            .iter()
            .map(|(p, _)| {
                let f = tree.files().iter().find(|f| f.path == *p).unwrap();
                secondary_kind(f, &w).map(Secondary::as_str)
            })
            .collect();
        assert_eq!(
            names,
            [
                Some("test"),
                Some("example or bench"),
                Some("generated"),
                Some("generated"),
                None,
                None,
                None
            ]
        );
    }

    #[test]
    fn glob_matches_stars_only() {
        for (p, t, yes) in [
            ("*_test.*", "replay_service_test.cpp", true),
            ("*_test.*", "replay_service.cpp", false),
            ("test_*.py", "test_replay.py", true),
            ("test_*.py", "test_replay.pyc", false),
            ("*Test.java", "ReplayTest.java", true),
            ("*Test.java", "Latest.java", false),
            ("*.spec.*", "a.spec.ts", true),
            ("a*b*c", "aXbYbZc", true),
            ("a*b*c", "aXbYc_", false),
            ("*", "", true),
        ] {
            assert_eq!(glob_match(p.as_bytes(), t.as_bytes()), yes, "{p} ~ {t}");
        }
    }
}
