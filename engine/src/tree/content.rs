//! What a file holds (text, or why there is none) and the one way a file's text is read,
//! whether the walk reads it or a mode asks for it later.

use serde::{Deserialize, Serialize};
use std::io::Read;
use std::path::Path;

/// Bytes looked at for a NUL to call a file binary (what git and grep do).
const BINARY_PROBE: usize = 8192;

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
    // one lookup of the path: the size from the open file
    let (file, size) = match opened(path) {
        Ok(opened) => opened,
        Err(unreadable) => return unreadable,
    };
    if size > max_bytes {
        return (size, Content::TooLarge);
    }
    let mut bytes = Vec::with_capacity(size as usize);
    let (read, binary) = read_unless_binary(file, max_bytes + 1, &mut bytes);
    if binary {
        return (size, Content::Binary);
    }
    if let Err(e) = read {
        return (size, Content::Unreadable(e.to_string()));
    }
    if bytes.len() as u64 > max_bytes {
        return (bytes.len() as u64, Content::TooLarge);
    }
    // the size on disk (what the index compares), even when invalid UTF-8 is replaced
    (bytes.len() as u64, text_of(bytes))
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
    bytes.clear();
    let Ok((file, size)) = opened(path) else {
        return false;
    };
    if size > max_bytes {
        return false;
    }
    bytes.reserve(size as usize);
    let (read, binary) = read_unless_binary(file, max_bytes + 1, bytes);
    read.is_ok() && !binary && bytes.len() as u64 <= max_bytes
}

/// Reads at most `limit` bytes of `file` into `bytes` (empty), the first [`BINARY_PROBE`]
/// first, and the rest only when those hold no NUL: a binary file is read no further (a
/// tenth of a cargo registry's bytes are binary files under the size limit, which a whole
/// read copied for nothing; grep tools stop at a NUL too). True with the read's result when
/// the file is binary.
fn read_unless_binary(
    mut file: std::fs::File,
    limit: u64,
    bytes: &mut Vec<u8>,
) -> (std::io::Result<usize>, bool) {
    let head = Read::by_ref(&mut file)
        .take(limit.min(BINARY_PROBE as u64))
        .read_to_end(bytes);
    // as `probe_kind` says: binary when the head was read and holds a NUL
    let binary = head.is_ok() && memchr::memchr(0, bytes).is_some();
    if head.is_err() || binary || bytes.len() < BINARY_PROBE || bytes.len() as u64 >= limit {
        return (head, binary);
    }
    let rest = file.take(limit - bytes.len() as u64).read_to_end(bytes);
    (rest.map(|_| bytes.len()), false)
}

/// The file opened and its size; or, when it cannot be opened, its size as `stat` gives it
/// (0 when that fails too) and why it is unreadable (`stat`'s error first, as a missing
/// file is reported).
fn opened(path: &Path) -> Result<(std::fs::File, u64), (u64, Content)> {
    let unreadable = |e: std::io::Error| {
        let size = std::fs::metadata(path).map_or(0, |m| m.len());
        let why = std::fs::metadata(path).err().unwrap_or(e);
        (size, Content::Unreadable(why.to_string()))
    };
    let file = std::fs::File::open(path).map_err(unreadable)?;
    match file.metadata() {
        Ok(m) => Ok((file, m.len())),
        Err(e) => Err(unreadable(e)),
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

/// One read of a file into `bytes` (only its head when it is binary) (cleared first, its allocation reused), learning
/// two things at once: what [`probe_kind`] says of the file (its size and kind), and
/// whether `bytes` now hold what [`read_text_into`] reads (true: the text is
/// `String::from_utf8_lossy(bytes)`). So a pass over every file of a tree walked without
/// the kept index opens each file once.
pub(crate) fn read_and_probe_into(
    path: &Path,
    max_bytes: u64,
    bytes: &mut Vec<u8>,
) -> ((u64, ContentKind), bool) {
    bytes.clear();
    let (file, size) = match opened(path) {
        Ok(opened) => opened,
        Err((size, content)) => return ((size, content.kind()), false),
    };
    if size > max_bytes {
        return ((size, ContentKind::TooLarge), false);
    }
    bytes.reserve(size as usize);
    let (read, binary) = read_unless_binary(file, max_bytes + 1, bytes);
    let kind = match &read {
        // bytes read before an error stay in `bytes`: a probe would have failed too when
        // the error came within its first 8 KiB
        Err(e) if bytes.len() < BINARY_PROBE => ContentKind::Unreadable(e.to_string()),
        _ if binary => ContentKind::Binary,
        _ => ContentKind::Text,
    };
    // a file that grew past the limit since its size was taken is text to the probe (which
    // reads 8 KiB) but gives no text to a full read, as with `read_text_into`
    let text = read.is_ok() && kind == ContentKind::Text && bytes.len() as u64 <= max_bytes;
    ((size, kind), text)
}

#[cfg(test)]
mod tests {
    use super::*;

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
