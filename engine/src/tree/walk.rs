//! The parallel walk: `ignore`'s walker honours `.gitignore`; each worker reads, classifies
//! and scans the files it meets, so reading is parallel too.

use super::{Content, TreeFile, TreeOptions, WalkReport};
use crate::error::{EngineError, Result};
use ignore::{WalkBuilder, WalkState};
use std::io::Read;
use std::path::Path;
use std::sync::Mutex;

/// Bytes looked at for a NUL to call a file binary (what git and grep do).
const BINARY_PROBE: usize = 8192;
/// Walk errors kept verbatim in the report.
const MAX_MESSAGES: usize = 20;

pub(super) fn walk(root: &Path, options: &TreeOptions) -> Result<(Vec<TreeFile>, WalkReport)> {
    let meta = std::fs::metadata(root).map_err(|e| EngineError::File {
        path: root.to_path_buf(),
        message: format!("cannot open root: {e}"),
        hint: Some("pass an existing directory with --root".into()),
    })?;
    if !meta.is_dir() {
        return Err(EngineError::File {
            path: root.to_path_buf(),
            message: "root is not a directory".into(),
            hint: Some("pass a directory with --root, or a path list with --paths-from".into()),
        });
    }
    let mut builder = WalkBuilder::new(root);
    builder
        .hidden(!options.hidden)
        .follow_links(options.follow_links)
        .git_ignore(options.gitignore)
        .git_exclude(options.gitignore)
        .ignore(options.gitignore)
        .git_global(false)
        .parents(false)
        .require_git(false)
        .threads(options.threads);
    let shared = Mutex::new((Vec::new(), WalkReport::default()));
    builder.build_parallel().run(|| {
        let mut worker = Worker {
            root,
            options,
            files: Vec::new(),
            report: WalkReport::default(),
            shared: &shared,
        };
        Box::new(move |entry| {
            worker.visit(entry);
            WalkState::Continue
        })
    });
    let (files, report) = shared
        .into_inner()
        .map_err(|_| EngineError::Internal("a walker thread panicked".into()))?;
    Ok((files, report))
}

/// One walker thread's findings, merged into the shared list when the thread drops it.
struct Worker<'a> {
    root: &'a Path,
    options: &'a TreeOptions,
    files: Vec<TreeFile>,
    report: WalkReport,
    shared: &'a Mutex<(Vec<TreeFile>, WalkReport)>,
}

impl Worker<'_> {
    fn visit(&mut self, entry: std::result::Result<ignore::DirEntry, ignore::Error>) {
        let entry = match entry {
            Ok(e) => e,
            Err(e) => {
                self.error(e.to_string());
                return;
            }
        };
        if !entry.file_type().is_some_and(|t| t.is_file()) {
            return;
        }
        let path = entry.path();
        let rel = path.strip_prefix(self.root).unwrap_or(path);
        let shown = rel
            .to_string_lossy()
            .replace(std::path::MAIN_SEPARATOR, "/");
        let (size, content) = read_content(path, self.options.max_file_bytes);
        match content {
            Content::Binary => self.report.binary += 1,
            Content::TooLarge => self.report.too_large += 1,
            Content::Unreadable(_) => self.report.unreadable += 1,
            Content::Text { .. } => {}
        }
        self.files.push(TreeFile::new(
            shown,
            size,
            content,
            self.options.symbol_lines,
        ));
    }

    fn error(&mut self, message: String) {
        self.report.errors += 1;
        if self.report.messages.len() < MAX_MESSAGES {
            self.report.messages.push(message);
        }
    }
}

impl Drop for Worker<'_> {
    fn drop(&mut self) {
        let mut shared = self.shared.lock().unwrap_or_else(|p| p.into_inner());
        shared.0.append(&mut self.files);
        let r = &mut shared.1;
        r.binary += self.report.binary;
        r.too_large += self.report.too_large;
        r.unreadable += self.report.unreadable;
        r.errors += self.report.errors;
        let room = MAX_MESSAGES.saturating_sub(r.messages.len());
        r.messages.extend(self.report.messages.drain(..).take(room));
    }
}

/// Reads and classifies one file; never fails, an error becomes [`Content::Unreadable`].
fn read_content(path: &Path, max_bytes: u64) -> (u64, Content) {
    let size = match std::fs::metadata(path) {
        Ok(m) => m.len(),
        Err(e) => return (0, Content::Unreadable(e.to_string())),
    };
    if size > max_bytes {
        return (size, Content::TooLarge);
    }
    let mut bytes = Vec::with_capacity(size as usize);
    let read =
        std::fs::File::open(path).and_then(|f| f.take(max_bytes + 1).read_to_end(&mut bytes));
    if let Err(e) = read {
        return (size, Content::Unreadable(e.to_string()));
    }
    if bytes.len() as u64 > max_bytes {
        return (bytes.len() as u64, Content::TooLarge);
    }
    if memchr::memchr(0, &bytes[..bytes.len().min(BINARY_PROBE)]).is_some() {
        return (size, Content::Binary);
    }
    let text = match String::from_utf8(bytes) {
        Ok(t) => t,
        Err(e) => String::from_utf8_lossy(e.as_bytes()).into_owned(),
    };
    let folded = text.to_ascii_lowercase();
    (text.len() as u64, Content::Text { text, folded })
}
