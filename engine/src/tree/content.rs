//! What a file holds (text, or why there is none) and the one way a file's text is read,
//! whether the walk reads it or a mode asks for it later.

use serde::{Deserialize, Serialize};
use std::io::Read;
use std::path::Path;

/// Bytes looked at for a NUL to call a file binary (what git and grep do).
const BINARY_PROBE: usize = 8192;
/// The room a buffer kept from file to file grows to at once when a file outgrows it (the
/// default size limit, `TreeOptions::max_file_bytes`): grown by doubling, it moved to fresh
/// pages at every step, and the pages reserved are touched only as files fill them.
pub(crate) const GROWN_BUFFER: usize = 1 << 20;

/// What is known of a file's content.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Content {
    /// UTF-8 text (invalid sequences replaced) and its ASCII-folded copy of the same length.
    Text { text: String, folded: String },
    /// A NUL byte in the first 8 KiB.
    Binary,
    /// Larger than [`TreeOptions::max_file_bytes`](super::TreeOptions::max_file_bytes).
    TooLarge,
    /// Could not be read; the reason.
    Unreadable(String),
}

impl Content {
    pub fn text(&self) -> Option<&str> {
        match self {
            Content::Text { text, .. } => Some(text),
            _ => None,
        }
    }

    pub fn folded(&self) -> Option<&str> {
        match self {
            Content::Text { folded, .. } => Some(folded),
            _ => None,
        }
    }

    /// What kind of content this is, without the text.
    pub fn kind(&self) -> ContentKind {
        match self {
            Content::Text { .. } => ContentKind::Text,
            Content::Binary => ContentKind::Binary,
            Content::TooLarge => ContentKind::TooLarge,
            Content::Unreadable(why) => ContentKind::Unreadable(why.clone()),
        }
    }
}

/// What kind of content a file has, as the index keeps it (the text is read on demand).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum ContentKind {
    Text,
    Binary,
    TooLarge,
    Unreadable(String),
}

/// The first `n` bytes (cut back to a character boundary) of the folded text
/// [`read_content`] would give for `path`, reading only the start of the file; `None` when
/// it would give no text (too large, binary, unreadable).
pub(crate) fn read_folded_head(path: &Path, max_bytes: u64, n: usize) -> Option<String> {
    let size = std::fs::metadata(path).ok()?.len();
    if size > max_bytes {
        return None;
    }
    // a character that begins before `n` may end up to 3 bytes after it; the binary probe
    // looks at the first BINARY_PROBE bytes
    let want = n.saturating_add(4).max(BINARY_PROBE) as u64;
    let mut bytes = Vec::with_capacity(want.min(size) as usize);
    std::fs::File::open(path)
        .and_then(|f| f.take(want).read_to_end(&mut bytes))
        .ok()?;
    if memchr::memchr(0, &bytes[..bytes.len().min(BINARY_PROBE)]).is_some() {
        return None;
    }
    // lossy decoding never shrinks: the first `n` bytes of the text come from the first
    // `n` bytes of the file (and the rest of a character cut at `n`)
    let mut head = String::from_utf8_lossy(&bytes).into_owned();
    head.make_ascii_lowercase();
    let mut end = head.len().min(n);
    while !head.is_char_boundary(end) {
        end -= 1;
    }
    head.truncate(end);
    Some(head)
}

/// Reads and classifies one file; never fails, an error becomes [`Content::Unreadable`].
pub(crate) fn read_content(path: &Path, max_bytes: u64) -> (u64, Content) {
    let mut bytes = Vec::new();
    match read_checked(path, max_bytes, &mut bytes) {
        (size, Checked::Unopened(content)) => (size, content),
        (size, Checked::TooLarge) => (size, Content::TooLarge),
        (size, Checked::Binary) => (size, Content::Binary),
        (size, Checked::Failed(e)) => (size, Content::Unreadable(e.to_string())),
        // it grew past the limit since its size was taken
        (_, Checked::Whole) if bytes.len() as u64 > max_bytes => {
            (bytes.len() as u64, Content::TooLarge)
        }
        // the size on disk (what the index compares), even when invalid UTF-8 is replaced
        (_, Checked::Whole) => (bytes.len() as u64, text_of(bytes)),
    }
}

/// The text [`read_content`] makes of a text file's bytes: invalid UTF-8 replaced, and its
/// ASCII-folded copy.
pub(crate) fn text_of(bytes: Vec<u8>) -> Content {
    let text = match String::from_utf8(bytes) {
        Ok(t) => t,
        Err(e) => String::from_utf8_lossy(e.as_bytes()).into_owned(),
    };
    let folded = text.to_ascii_lowercase();
    Content::Text { text, folded }
}

/// The bytes [`read_content`] decodes into text, read into `bytes` (cleared first, its
/// allocation reused from file to file): true when `read_content` gives text for `path`
/// (the caller decodes them as it does, invalid UTF-8 replaced).
pub(crate) fn read_text_into(path: &Path, max_bytes: u64, bytes: &mut Vec<u8>) -> bool {
    let (_, checked) = read_checked(path, max_bytes, bytes);
    matches!(checked, Checked::Whole) && bytes.len() as u64 <= max_bytes
}

/// What one read of a file found ([`read_checked`]).
enum Checked {
    /// The bytes read are the whole file: at most `max_bytes + 1` of them (more than
    /// `max_bytes` when it grew past the limit since its size was taken).
    Whole,
    /// A NUL in its first [`BINARY_PROBE`] bytes, which alone were read.
    Binary,
    /// Larger than the limit (at most its head was read).
    TooLarge,
    /// A read failed after the bytes read so far.
    Failed(std::io::Error),
    /// It could not be opened, or its size could not be learnt: why.
    Unopened(Content),
}

/// Reads `path` into `bytes` (cleared first, its allocation kept) with its size: its first
/// [`BINARY_PROBE`] bytes first, and the rest only when those hold no NUL (a binary file is
/// read no further: a tenth of a cargo registry's bytes are binary files under the size
/// limit, which a whole read copied for nothing; grep tools stop at a NUL too) and the file
/// is within `max_bytes`. The size is asked of the open file only when the head fills: a
/// file shorter than the head is read whole by it, and that is its size (two thirds of a
/// cargo registry's files, each a `stat` saved).
fn read_checked(path: &Path, max_bytes: u64, bytes: &mut Vec<u8>) -> (u64, Checked) {
    bytes.clear();
    let mut file = match std::fs::File::open(path) {
        Ok(file) => file,
        Err(e) => {
            let (size, content) = unreadable(path, e);
            return (size, Checked::Unopened(content));
        }
    };
    let head = Read::by_ref(&mut file)
        .take(BINARY_PROBE as u64)
        .read_to_end(bytes);
    let size_of = |file: &std::fs::File| file.metadata().map(|m| m.len());
    let size = match head {
        Err(e) => return (size_of(&file).unwrap_or(0), Checked::Failed(e)),
        // the read stopped before the head's end: at the file's end
        Ok(_) if bytes.len() < BINARY_PROBE => bytes.len() as u64,
        Ok(_) => match size_of(&file) {
            Ok(size) => size,
            Err(e) => {
                let (size, content) = unreadable(path, e);
                return (size, Checked::Unopened(content));
            }
        },
    };
    // the size first, as a probe tells it: a large file is too large, binary or not
    if size > max_bytes {
        return (size, Checked::TooLarge);
    }
    if memchr::memchr(0, bytes).is_some() {
        return (size, Checked::Binary);
    }
    if bytes.len() < BINARY_PROBE {
        return (size, Checked::Whole);
    }
    let limit = max_bytes + 1;
    let wanted = (size + 1).min(limit);
    if (bytes.capacity() as u64) < wanted {
        // at once ([`GROWN_BUFFER`]; growing by doubling made a fifth of a first call's
        // page faults)
        let room = wanted.max((GROWN_BUFFER as u64).min(limit));
        bytes.reserve(room.saturating_sub(bytes.len() as u64) as usize);
    }
    match file.take(limit - bytes.len() as u64).read_to_end(bytes) {
        Ok(_) => (size, Checked::Whole),
        Err(e) => (size, Checked::Failed(e)),
    }
}

/// The size `stat` gives a file that could not be opened or read (0 when that fails too),
/// and why it is unreadable (`stat`'s error first, as a missing file is reported).
fn unreadable(path: &Path, e: std::io::Error) -> (u64, Content) {
    let (size, why) = match std::fs::metadata(path) {
        Ok(meta) => (meta.len(), e),
        Err(stat) => (0, stat),
    };
    (size, Content::Unreadable(why.to_string()))
}

/// The file opened and its size; or, when it cannot be opened, its size as `stat` gives it
/// and why it is unreadable ([`unreadable`]).
fn opened(path: &Path) -> Result<(std::fs::File, u64), (u64, Content)> {
    let file = std::fs::File::open(path).map_err(|e| unreadable(path, e))?;
    match file.metadata() {
        Ok(m) => Ok((file, m.len())),
        Err(e) => Err(unreadable(path, e)),
    }
}

/// What [`read_content`] would call the file, from its size and its first 8 KiB only: the
/// kind of a file of a tree walked without the kept index, when it is first asked for and
/// no full read ([`read_and_probe_into`]) learnt it first.
pub(crate) fn probe_kind(path: &Path, max_bytes: u64) -> (u64, ContentKind) {
    let (file, size) = match opened(path) {
        Ok(opened) => opened,
        Err((size, content)) => return (size, content.kind()),
    };
    if size > max_bytes {
        return (size, ContentKind::TooLarge);
    }
    let mut head = Vec::with_capacity(BINARY_PROBE.min(size as usize));
    match file.take(BINARY_PROBE as u64).read_to_end(&mut head) {
        Err(e) => (size, ContentKind::Unreadable(e.to_string())),
        Ok(_) if memchr::memchr(0, &head).is_some() => (size, ContentKind::Binary),
        Ok(_) => (size, ContentKind::Text),
    }
}

/// One read of a file into `bytes` ([`read_checked`]: only its head when it is binary or
/// too large; cleared first, its allocation reused), learning two things at once: what [`probe_kind`] says of the file (its size and kind), and
/// whether `bytes` now hold what [`read_text_into`] reads (true: the text is
/// `String::from_utf8_lossy(bytes)`). So a pass over every file of a tree walked without
/// the kept index opens each file once.
pub(crate) fn read_and_probe_into(
    path: &Path,
    max_bytes: u64,
    bytes: &mut Vec<u8>,
) -> ((u64, ContentKind), bool) {
    let (size, checked) = read_checked(path, max_bytes, bytes);
    let kind = match checked {
        Checked::Unopened(content) => return ((size, content.kind()), false),
        Checked::TooLarge => ContentKind::TooLarge,
        Checked::Binary => ContentKind::Binary,
        // bytes read before an error stay in `bytes`: a probe would have failed too when
        // the error came within its first 8 KiB
        Checked::Failed(e) if bytes.len() < BINARY_PROBE => ContentKind::Unreadable(e.to_string()),
        Checked::Failed(_) => return ((size, ContentKind::Text), false),
        Checked::Whole => ContentKind::Text,
    };
    // a file that grew past the limit since its size was taken is text to the probe (which
    // reads 8 KiB) but gives no text to a full read, as with `read_text_into`
    let text = kind == ContentKind::Text && bytes.len() as u64 <= max_bytes;
    ((size, kind), text)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every way of reading a file says what its whole bytes say (read here in one piece,
    /// its size from `stat`): too large past the limit, else binary with a NUL in its first
    /// 8 KiB, else its text; around the head's end and around limits below and above it,
    /// whether the size comes from the head's read or from the open file.
    #[test]
    fn a_file_reads_as_its_whole_bytes_say() {
        let dir = tempfile::tempdir().unwrap();
        let probe = BINARY_PROBE;
        let mut files: Vec<(String, Vec<u8>)> = Vec::new();
        for len in [0, 1, 100, probe - 1, probe, probe + 1, 3 * probe, 20_000] {
            files.push((format!("text_{len}"), vec![b'a'; len]));
            for nul in [0, len / 2, probe - 1, probe, len.saturating_sub(1)] {
                if nul < len {
                    let mut bytes = vec![b'a'; len];
                    bytes[nul] = 0;
                    files.push((format!("nul_{len}_{nul}"), bytes));
                }
            }
        }
        for (name, bytes) in &files {
            std::fs::write(dir.path().join(name), bytes).unwrap();
        }
        let mut buffer = b"left over".to_vec();
        for max in [0, 50, 100, probe as u64 - 1, probe as u64, 10_000, 1 << 20] {
            for (name, bytes) in &files {
                let path = dir.path().join(name);
                let size = std::fs::metadata(&path).unwrap().len();
                assert_eq!(size, bytes.len() as u64);
                let kind = if size > max {
                    ContentKind::TooLarge
                } else if bytes[..bytes.len().min(probe)].contains(&0) {
                    ContentKind::Binary
                } else {
                    ContentKind::Text
                };
                let text = (kind == ContentKind::Text).then(|| String::from_utf8_lossy(bytes));
                let (read_size, content) = read_content(&path, max);
                assert_eq!(
                    (read_size, content.kind()),
                    (size, kind.clone()),
                    "{name} {max}"
                );
                assert_eq!(content.text(), text.as_deref(), "{name} {max}");
                assert_eq!(probe_kind(&path, max), (size, kind.clone()), "{name} {max}");
                let (probed, has_text) = read_and_probe_into(&path, max, &mut buffer);
                assert_eq!(probed, (size, kind.clone()), "{name} {max}");
                assert_eq!(
                    has_text.then(|| &buffer[..]),
                    text.as_ref().map(|t| t.as_bytes())
                );
                let has_text = read_text_into(&path, max, &mut buffer);
                assert_eq!(
                    has_text.then(|| &buffer[..]),
                    text.as_ref().map(|t| t.as_bytes())
                );
            }
        }
        // a file that cannot be read: its size from `stat`, the reason from the read
        let missing = dir.path().join("missing");
        let (size, content) = read_content(&missing, 100);
        assert_eq!(size, 0);
        assert!(matches!(content, Content::Unreadable(_)));
        assert!(!read_text_into(&missing, 100, &mut buffer));
        let a_dir = dir.path().join("a_dir");
        std::fs::create_dir(&a_dir).unwrap();
        assert!(matches!(
            read_content(&a_dir, 100).1,
            Content::Unreadable(_)
        ));
        let ((_, kind), has_text) = read_and_probe_into(&a_dir, 100, &mut buffer);
        assert!(matches!(kind, ContentKind::Unreadable(_)) && !has_text);
    }

    /// `read_folded_head` gives what cutting `read_content`'s folded text gives.
    #[test]
    fn a_folded_head_is_the_start_of_the_folded_text() {
        let dir = tempfile::tempdir().unwrap();
        let mut long = b"// GENERATED by a tool\n".to_vec();
        long.extend("é".repeat(5000).as_bytes());
        let cases: Vec<(&str, Vec<u8>)> = vec![
            ("plain.rs", b"// Code Generated\nfn main() {}\n".to_vec()),
            // a two-byte character across every cut below
            ("accents.rs", long),
            // invalid UTF-8 (replaced by three bytes each) before the cut
            (
                "invalid.rs",
                [b"A\xff\xfeB".as_slice(), &b"x".repeat(300)].concat(),
            ),
            ("binary.bin", b"abc\0def".to_vec()),
            ("empty.rs", Vec::new()),
        ];
        for (name, bytes) in &cases {
            let path = dir.path().join(name);
            std::fs::write(&path, bytes).unwrap();
            let folded = read_content(&path, 1 << 20).1.folded().map(str::to_string);
            for n in [0, 1, 2, 3, 10, 24, 25, 26, 255, 256, 9000, 20000] {
                let want = folded.as_ref().map(|t| {
                    let mut end = t.len().min(n);
                    while !t.is_char_boundary(end) {
                        end -= 1;
                    }
                    t[..end].to_string()
                });
                assert_eq!(read_folded_head(&path, 1 << 20, n), want, "{name} at {n}");
            }
            // over the size limit: no text, as read_content says
            if !bytes.is_empty() {
                assert_eq!(read_folded_head(&path, 1, 10), None, "{name}");
            }
            // the same text read into a buffer that held another file's
            let mut buffer = b"left over from another file".to_vec();
            for max in [1 << 20, 1] {
                let text = read_content(&path, max).1.text().map(str::to_string);
                let read = read_text_into(&path, max, &mut buffer)
                    .then(|| String::from_utf8_lossy(&buffer).into_owned());
                assert_eq!(read, text, "{name} within {max} bytes");
            }
        }
    }

    /// A binary file is read only as far as its first `BINARY_PROBE` bytes, and every read
    /// says what the probe says: the kind, and the text of a text file, around the probe's
    /// edge (a NUL just inside or just past it, a file of exactly its length, a size limit
    /// below it).
    #[test]
    fn a_binary_file_is_read_no_further_than_its_head() {
        let dir = tempfile::tempdir().unwrap();
        let p = BINARY_PROBE;
        let with_nul_at = |len: usize, at: usize| {
            let mut bytes = b"fn x() {}\n".repeat(len / 10 + 1);
            bytes.truncate(len);
            bytes[at] = 0;
            bytes
        };
        let text_of_len = |len: usize| {
            let mut bytes = b"fn x() {}\n".repeat(len / 10 + 1);
            bytes.truncate(len);
            bytes
        };
        let cases: Vec<(&str, Vec<u8>, bool)> = vec![
            ("nul_first.bin", with_nul_at(200_000, 0), true),
            ("nul_last_of_head.bin", with_nul_at(200_000, p - 1), true),
            ("nul_past_head.rs", with_nul_at(200_000, p), false),
            ("head_long.rs", text_of_len(p), false),
            ("head_and_one.rs", text_of_len(p + 1), false),
            ("short.bin", with_nul_at(100, 50), true),
            ("short.rs", text_of_len(100), false),
            ("empty.rs", Vec::new(), false),
        ];
        for (name, bytes, binary) in &cases {
            let path = dir.path().join(name);
            std::fs::write(&path, bytes).unwrap();
            for max in [1 << 20, p as u64 - 1, p as u64, 10] {
                let mut read = b"left over".to_vec();
                let ((size, kind), text) = read_and_probe_into(&path, max, &mut read);
                assert_eq!(
                    (size, &kind),
                    (bytes.len() as u64, &probe_kind(&path, max).1),
                    "{name} {max}"
                );
                let too_large = bytes.len() as u64 > max;
                let want_kind = if too_large {
                    ContentKind::TooLarge
                } else if *binary {
                    ContentKind::Binary
                } else {
                    ContentKind::Text
                };
                assert_eq!(kind, want_kind, "{name} within {max}");
                assert_eq!(
                    read_content(&path, max).1.kind(),
                    want_kind,
                    "{name} within {max}"
                );
                assert_eq!(text, want_kind == ContentKind::Text, "{name} within {max}");
                if text {
                    assert_eq!(&read, bytes, "{name} within {max}");
                }
                if kind == ContentKind::Binary {
                    assert!(read.len() <= p, "{name}: {} bytes read", read.len());
                }
                let mut buffer = Vec::new();
                assert_eq!(
                    read_text_into(&path, max, &mut buffer),
                    text,
                    "{name} within {max}"
                );
            }
        }
    }
}
