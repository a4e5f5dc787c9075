//! Reading trace files as a stream: one line at a time, one buffer reused, whatever the
//! size of the input. Several files, directories (every `*.jsonl` and `*.jsonl.gz` under
//! them) and glob patterns at once; gzip is detected by its magic bytes.

use super::item::{BadLine, TraceItem};
use super::record::Trace;
use crate::error::TracesError;
use rayon::prelude::*;
use std::fs::File;
use std::io::{BufRead, BufReader, Read};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

/// Turns command-line inputs into trace files, in a deterministic order: files as given,
/// directories walked recursively (sorted), glob patterns expanded (sorted). `-` is stdin.
pub fn expand_inputs(inputs: &[PathBuf]) -> Result<Vec<PathBuf>, TracesError> {
    let mut files: Vec<PathBuf> = Vec::new();
    for input in inputs {
        let found = expand_one(input)?;
        for f in found {
            if !files.contains(&f) {
                files.push(f);
            }
        }
    }
    if files.is_empty() {
        return Err(TracesError::invalid_with_hint(
            "no trace files given",
            "pass trace files (.jsonl, .jsonl.gz), directories or glob patterns",
        ));
    }
    Ok(files)
}

fn expand_one(input: &Path) -> Result<Vec<PathBuf>, TracesError> {
    if input.as_os_str() == "-" {
        return Ok(vec![input.to_path_buf()]);
    }
    if input.is_dir() {
        let mut out = Vec::new();
        walk_dir(input, &mut out)?;
        out.sort();
        if out.is_empty() {
            return Err(file_error(
                input,
                "directory holds no *.jsonl or *.jsonl.gz trace files",
            ));
        }
        return Ok(out);
    }
    if input.exists() {
        return Ok(vec![input.to_path_buf()]);
    }
    let pattern = input.to_string_lossy();
    if pattern.contains(['*', '?', '[']) {
        let paths = glob::glob(&pattern).map_err(|e| {
            TracesError::invalid(format!("bad glob pattern `{pattern}`: {}", e.msg))
        })?;
        let mut out = Vec::new();
        for entry in paths {
            let path = entry.map_err(|e| file_error(e.path(), &e.error().to_string()))?;
            if path.is_dir() {
                walk_dir(&path, &mut out)?;
            } else {
                out.push(path);
            }
        }
        out.sort();
        if out.is_empty() {
            return Err(file_error(input, "no trace file matches this pattern"));
        }
        return Ok(out);
    }
    Err(file_error(input, "no such trace file or directory"))
}

fn walk_dir(dir: &Path, out: &mut Vec<PathBuf>) -> Result<(), TracesError> {
    let entries = std::fs::read_dir(dir).map_err(|e| file_error(dir, &e.to_string()))?;
    for entry in entries {
        let path = entry.map_err(|e| file_error(dir, &e.to_string()))?.path();
        if path.is_dir() {
            walk_dir(&path, out)?;
        } else if is_trace_file(&path) {
            out.push(path);
        }
    }
    Ok(())
}

fn is_trace_file(path: &Path) -> bool {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy())
        .unwrap_or_default();
    name.ends_with(".jsonl") || name.ends_with(".jsonl.gz")
}

fn file_error(path: &Path, message: &str) -> TracesError {
    TracesError::file_with_hint(
        path,
        message,
        "pass trace files (.jsonl, .jsonl.gz), directories or glob patterns",
    )
}

/// A file counting the bytes read from it (compressed bytes for a .gz), for progress.
struct Counted {
    file: File,
    read: Arc<AtomicU64>,
}

impl Read for Counted {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.file.read(buf)?;
        self.read.fetch_add(n as u64, Ordering::Relaxed);
        Ok(n)
    }
}

/// Opens a trace file for line reading, decompressing gzip when the file starts with its
/// magic bytes (whatever its name); the bytes read from the file are added to `read`.
fn open(path: &Path, read: &Arc<AtomicU64>) -> Result<Box<dyn BufRead + Send>, TracesError> {
    if path.as_os_str() == "-" {
        return Ok(Box::new(BufReader::new(std::io::stdin())));
    }
    let file = File::open(path).map_err(|e| file_error(path, &format!("cannot read: {e}")))?;
    let file = Counted {
        file,
        read: Arc::clone(read),
    };
    let mut reader = BufReader::with_capacity(64 * 1024, file);
    let magic = reader
        .fill_buf()
        .map_err(|e| file_error(path, &format!("cannot read: {e}")))?;
    if magic.starts_with(&[0x1f, 0x8b]) {
        let decoder = flate2::bufread::MultiGzDecoder::new(reader);
        Ok(Box::new(BufReader::with_capacity(64 * 1024, decoder)))
    } else {
        Ok(Box::new(reader))
    }
}

/// A line read: its file and its 1-based number.
type LineAt = (Arc<Path>, usize);

/// Counts kept while streaming, for the report.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct StreamCounts {
    pub files: usize,
    /// Non-blank lines read.
    pub lines: usize,
    pub traces: usize,
    pub bad_lines: usize,
}

/// What the trace files hold.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum TraceFormat {
    /// Decided per file by its first line: OTLP/JSON when it opens with `resourceSpans`.
    #[default]
    Auto,
    /// findbench trace JSONL.
    Findbench,
    /// OTLP/JSON (see [`super::otlp`]).
    Otlp,
}

/// An iterator over the traces of several files, one line in memory at a time (an
/// OTLP/JSON file is read whole, see [`super::otlp`]).
///
/// Yields `Err` only for a file that cannot be opened (fatal, exit 3); a line that does not
/// parse, or a file that stops reading mid-way (a truncated .gz), is a [`TraceItem::Bad`]
/// and the stream goes on.
pub struct TraceStream {
    files: std::vec::IntoIter<PathBuf>,
    current: Option<(Arc<Path>, Box<dyn BufRead + Send>, usize)>,
    buf: Vec<u8>,
    counts: StreamCounts,
    /// Why the file being read stopped early, reported as the line after its last.
    read_error: Option<String>,
    format: TraceFormat,
    /// Items of an OTLP file read whole, yielded before the next line.
    pending: std::collections::VecDeque<TraceItem>,
    /// Bytes read from the files so far, and their sizes summed (none when stdin is one).
    bytes_read: Arc<AtomicU64>,
    bytes_total: Option<u64>,
}

impl TraceStream {
    pub fn new(files: Vec<PathBuf>) -> TraceStream {
        let bytes_total = files
            .iter()
            .map(|f| (f.as_os_str() != "-").then(|| std::fs::metadata(f).map_or(0, |m| m.len())))
            .sum();
        TraceStream {
            bytes_read: Arc::new(AtomicU64::new(0)),
            bytes_total,
            files: files.into_iter(),
            current: None,
            buf: Vec::with_capacity(4096),
            counts: StreamCounts::default(),
            read_error: None,
            format: TraceFormat::Auto,
            pending: std::collections::VecDeque::new(),
        }
    }

    /// Reads every file as `format` (`--from`) instead of deciding by content.
    pub fn with_format(mut self, format: TraceFormat) -> TraceStream {
        self.format = format;
        self
    }

    /// Reads a whole OTLP file into `pending` when the format (or the content) says so;
    /// returns the reader untouched otherwise.
    fn take_otlp(
        &mut self,
        path: &Path,
        mut reader: Box<dyn BufRead + Send>,
    ) -> Result<Option<Box<dyn BufRead + Send>>, TracesError> {
        let otlp = match self.format {
            TraceFormat::Otlp => true,
            TraceFormat::Findbench => false,
            // a file whose first bytes cannot be read (a truncated .gz) is read as lines,
            // where the failing read becomes a bad line and the other files go on
            TraceFormat::Auto => match reader.fill_buf() {
                Ok(head) => super::otlp::looks_like_otlp(head),
                Err(_) => false,
            },
        };
        if !otlp {
            return Ok(Some(reader));
        }
        let file = super::otlp::read_file(path, &mut reader)
            .map_err(|e| file_error(path, &format!("read error: {e}")))?;
        self.counts.lines += file.lines;
        for item in &file.items {
            match item {
                TraceItem::Trace(_) => self.counts.traces += 1,
                TraceItem::Bad(_) => self.counts.bad_lines += 1,
            }
        }
        self.pending.extend(file.items);
        Ok(None)
    }

    /// Expands `inputs` (files, directories, globs) and streams them.
    pub fn open(inputs: &[PathBuf]) -> Result<TraceStream, TracesError> {
        Ok(TraceStream::new(expand_inputs(inputs)?))
    }

    pub fn counts(&self) -> StreamCounts {
        self.counts
    }

    /// Bytes read from the trace files so far (compressed bytes of a .gz), and the files'
    /// sizes summed: how far the stream is, for a progress bar. No total when one input is
    /// stdin.
    pub fn bytes(&self) -> (u64, Option<u64>) {
        (self.bytes_read.load(Ordering::Relaxed), self.bytes_total)
    }

    /// Reads the next non-blank line onto the end of `buf`, opening the next file when one
    /// ends; `Ok(None)` when an OTLP file filled `pending` instead.
    fn next_line(&mut self) -> Option<Result<Option<LineAt>, TracesError>> {
        loop {
            if self.current.is_none() {
                let path = self.files.next()?;
                match open(&path, &self.bytes_read).and_then(|r| self.take_otlp(&path, r)) {
                    Ok(Some(reader)) => {
                        self.counts.files += 1;
                        self.current = Some((Arc::from(path), reader, 0));
                    }
                    Ok(None) => {
                        self.counts.files += 1;
                        if !self.pending.is_empty() {
                            return Some(Ok(None));
                        }
                    }
                    Err(e) => return Some(Err(e)),
                }
            }
            let (path, reader, line_no) = self.current.as_mut().expect("opened above");
            let start = self.buf.len();
            match reader.read_until(b'\n', &mut self.buf) {
                Ok(0) => self.current = None,
                Ok(_) => {
                    *line_no += 1;
                    if self.buf[start..].iter().all(u8::is_ascii_whitespace) {
                        self.buf.truncate(start);
                        continue;
                    }
                    return Some(Ok(Some((Arc::clone(path), *line_no))));
                }
                Err(e) => {
                    // a truncated .gz (or a read that fails mid-file): the lines read so far
                    // count, the rest of this file is one bad line, the other files go on
                    *line_no += 1;
                    self.buf.truncate(start);
                    let at = (Arc::clone(path), *line_no);
                    self.read_error = Some(format!(
                        "cannot read past line {}: {e} (the rest of this file is skipped)",
                        *line_no - 1
                    ));
                    self.current = None;
                    return Some(Ok(Some(at)));
                }
            }
        }
    }
}

impl Iterator for TraceStream {
    type Item = Result<TraceItem, TracesError>;

    fn next(&mut self) -> Option<Self::Item> {
        if let Some(item) = self.pending.pop_front() {
            return Some(Ok(item));
        }
        self.buf.clear();
        let (file, line) = match self.next_line()? {
            Ok(Some(at)) => at,
            Ok(None) => return self.pending.pop_front().map(Ok),
            Err(e) => return Some(Err(e)),
        };
        self.counts.lines += 1;
        if let Some(reason) = self.read_error.take() {
            self.counts.bad_lines += 1;
            return Some(Ok(bad(&file, line, reason)));
        }
        let item = parse_item(&self.buf, &file, line);
        self.count(&item);
        Some(Ok(item))
    }
}

/// A line read by [`TraceStream::next_chunk`]: an item already made (an OTLP file's, a
/// failed read's, a file that would not open), or the bytes of a line still to parse.
enum Slot {
    Ready(Result<TraceItem, TracesError>),
    Line(Arc<Path>, usize, std::ops::Range<usize>),
}

impl TraceStream {
    /// The next items, up to `max` of them (fewer only at the end of the input, or before
    /// a file that cannot be opened, whose error is the last item): the lines are read
    /// one after another, then parsed in parallel (rayon), in input order.
    pub fn next_chunk(&mut self, max: usize) -> Vec<Result<TraceItem, TracesError>> {
        let mut slots = Vec::with_capacity(max);
        self.buf.clear();
        while slots.len() < max {
            if let Some(item) = self.pending.pop_front() {
                slots.push(Slot::Ready(Ok(item)));
                continue;
            }
            let start = self.buf.len();
            match self.next_line() {
                None => break,
                Some(Err(e)) => {
                    slots.push(Slot::Ready(Err(e)));
                    break;
                }
                Some(Ok(None)) => {}
                Some(Ok(Some((file, line)))) => {
                    self.counts.lines += 1;
                    if let Some(reason) = self.read_error.take() {
                        self.counts.bad_lines += 1;
                        slots.push(Slot::Ready(Ok(bad(&file, line, reason))));
                    } else {
                        slots.push(Slot::Line(file, line, start..self.buf.len()));
                    }
                }
            }
        }
        let buf = &self.buf;
        let parsed: Vec<(Result<TraceItem, TracesError>, bool)> = slots
            .into_par_iter()
            .map(|slot| match slot {
                Slot::Ready(item) => (item, false),
                Slot::Line(file, line, range) => (Ok(parse_item(&buf[range], &file, line)), true),
            })
            .collect();
        parsed
            .into_iter()
            .map(|(item, read_here)| {
                if let (Ok(item), true) = (&item, read_here) {
                    self.count(item);
                }
                item
            })
            .collect()
    }

    /// Counts a parsed line as a trace or a bad line.
    fn count(&mut self, item: &TraceItem) {
        match item {
            TraceItem::Trace(_) => self.counts.traces += 1,
            TraceItem::Bad(_) => self.counts.bad_lines += 1,
        }
    }
}

fn bad(file: &Path, line: usize, reason: String) -> TraceItem {
    TraceItem::Bad(BadLine {
        file: file.to_path_buf(),
        line,
        reason,
    })
}

/// One line's bytes (its line break included) as a trace or a bad line.
fn parse_item(bytes: &[u8], file: &Path, line: usize) -> TraceItem {
    let parsed = std::str::from_utf8(bytes)
        .map_err(|e| format!("not UTF-8 ({e})"))
        .and_then(|text| Trace::parse_line(text.trim_end()));
    match parsed {
        Ok(trace) => TraceItem::Trace(Box::new(trace)),
        Err(reason) => bad(file, line, reason),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    fn line(id: &str) -> String {
        format!(
            r#"{{"trace_id":"{id}","timestamp":"2026-06-19T09:00:00Z","query":"q","fixture":"agent-cpp","tools":[],"outcome":"success","iterations":1,"duration_ms":1}}"#
        )
    }

    #[test]
    fn bad_lines_are_reported_with_file_and_line_and_the_rest_goes_on() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a.jsonl");
        let text = format!(
            "{}\n\nnot json\n{}\n{{\"trace_id\":\"x\"}}\n{}",
            line("t1"),
            line("t2"),
            line("t3")
        );
        std::fs::write(&path, text).unwrap();
        let mut stream = TraceStream::open(std::slice::from_ref(&path)).unwrap();
        let items: Vec<TraceItem> = stream.by_ref().map(Result::unwrap).collect();
        let ids: Vec<String> = items
            .iter()
            .filter_map(|i| match i {
                TraceItem::Trace(t) => Some(t.trace_id.clone()),
                TraceItem::Bad(_) => None,
            })
            .collect();
        assert_eq!(ids, ["t1", "t2", "t3"]);
        let bad: Vec<String> = items
            .iter()
            .filter_map(|i| match i {
                TraceItem::Bad(b) => Some(b.to_string()),
                TraceItem::Trace(_) => None,
            })
            .collect();
        assert_eq!(bad.len(), 2);
        assert!(
            bad[0].starts_with(&format!("{}:3: ", path.display())),
            "{}",
            bad[0]
        );
        assert!(
            bad[1].starts_with(&format!("{}:5: ", path.display())),
            "{}",
            bad[1]
        );
        let counts = stream.counts();
        assert_eq!(
            (counts.files, counts.lines, counts.traces, counts.bad_lines),
            (1, 5, 3, 2)
        );
    }

    #[test]
    fn directories_globs_and_gzip() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("b.jsonl"), line("b1") + "\n").unwrap();
        std::fs::write(dir.path().join("notes.txt"), "ignored").unwrap();
        let gz = File::create(dir.path().join("a.jsonl.gz")).unwrap();
        let mut enc = flate2::write::GzEncoder::new(gz, flate2::Compression::fast());
        enc.write_all((line("a1") + "\n" + &line("a2") + "\n").as_bytes())
            .unwrap();
        enc.finish().unwrap();

        let ids = |inputs: &[PathBuf]| -> Vec<String> {
            TraceStream::open(inputs)
                .unwrap()
                .map(|i| match i.unwrap() {
                    TraceItem::Trace(t) => t.trace_id,
                    TraceItem::Bad(b) => panic!("{b}"),
                })
                .collect()
        };
        assert_eq!(ids(&[dir.path().to_path_buf()]), ["a1", "a2", "b1"]);
        assert_eq!(ids(&[dir.path().join("*.jsonl")]), ["b1"]);
        // the same file twice is read once
        assert_eq!(
            ids(&[dir.path().join("b.jsonl"), dir.path().join("b*.jsonl")]),
            ["b1"]
        );
    }

    #[test]
    fn missing_inputs_are_file_errors() {
        let err = expand_inputs(&[PathBuf::from("/nonexistent/x.jsonl")]).unwrap_err();
        assert_eq!(err.exit_code(), findbench_eval::error::exit::FILE);
        let err = expand_inputs(&[PathBuf::from("/nonexistent/*.jsonl")]).unwrap_err();
        assert_eq!(err.exit_code(), findbench_eval::error::exit::FILE);
    }
}
