//! The kept store: a parsed and indexed store written to the cache directory, so that an
//! unchanged store file is not parsed and folded again on the next call.
//!
//! One file per store, `stores/<hash of the canonical path>.bin`, holding a header (format
//! number, engine version, the canonical path, size and modification time it was built
//! from) and the store's columns. It is used only when every header field matches the file
//! as it is now; otherwise, or when any length, offset or position in it does not check out,
//! it is ignored and rewritten. Writes go to a temporary name beside it, then a rename, so
//! two processes building the same store at once each leave a whole file.

use super::codec::{Reader, Writer};
use super::fields::ItemFields;
use super::hierarchy::Hierarchy;
use super::index::SearchIndex;
use super::item_store::Store;
use super::load::StoreFormat;
use crate::encoding::fnv::fnv1a;
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

const MAGIC: &[u8; 16] = b"findbench-store\n";
const END: &[u8; 4] = b"end\n";
/// Bumped whenever the layout of the file changes.
const FORMAT: u32 = 2;
/// A store modified this recently is not cached: a second write within the filesystem's
/// timestamp granularity could leave size and modification time unchanged.
const SETTLE: Duration = Duration::from_secs(2);

/// The cache file of one store file, and the state of the store file it must match.
pub(super) struct Entry {
    file: PathBuf,
    canonical: String,
    size: u64,
    modified: Duration,
}

impl Entry {
    /// `None` when the store file cannot be examined (the load then reports it) or has no
    /// usable modification time.
    pub(super) fn for_file(dir: &Path, store: &Path) -> Option<Entry> {
        let canonical = std::fs::canonicalize(store).ok()?;
        let meta = std::fs::metadata(&canonical).ok()?;
        let modified = meta.modified().ok()?.duration_since(UNIX_EPOCH).ok()?;
        let canonical = canonical.to_string_lossy().into_owned();
        let file = dir
            .join("stores")
            .join(format!("{:016x}.bin", fnv1a(canonical.as_bytes())));
        Some(Entry {
            file,
            canonical,
            size: meta.len(),
            modified,
        })
    }

    fn header(&self, w: &mut Writer) {
        w.buf.extend_from_slice(MAGIC);
        w.u32(FORMAT);
        w.bytes(crate::version::VERSION.as_bytes());
        w.bytes(self.canonical.as_bytes());
        w.u64(self.size);
        w.u64(self.modified.as_secs());
        w.u32(self.modified.subsec_nanos());
    }

    /// The cached store, if there is one built from the store file as it is now.
    pub(super) fn read(&self, source: &Path) -> Option<Store> {
        let file = std::fs::File::open(&self.file).ok()?;
        let len = file.metadata().ok()?.len();
        let mut r = Reader::from_stream(std::io::BufReader::new(file), len);
        let mut expected = Writer::default();
        self.header(&mut expected);
        r.expect(&expected.buf)?;
        let format = match r.u8()? {
            0 => StoreFormat::TodoJson,
            1 => StoreFormat::JsonArray,
            2 => StoreFormat::JsonLines,
            _ => return None,
        };
        let dump_bytes = usize::try_from(r.u64()?).ok()?;
        let fields = ItemFields::decode(&mut r)?;
        let n = fields.len();
        let index = SearchIndex::decode(&mut r, n)?;
        let hierarchy = Hierarchy::decode(&mut r, n)?;
        let id_order = r.u32s()?;
        let order_ok = id_order.len() == n && is_permutation(&id_order)
            // sorted by id, so that lookups by binary search find every id
            && id_order
                .windows(2)
                .all(|w| fields.ids.get(w[0] as usize) < fields.ids.get(w[1] as usize));
        r.expect(END)?;
        if !order_ok || !r.is_empty() {
            return None;
        }
        Some(Store {
            source: source.to_path_buf(),
            format,
            fields,
            index,
            id_order,
            hierarchy,
            dump_bytes,
        })
    }

    /// Keeps `store` for the next call; best effort (an unwritable cache directory only
    /// means the next call parses again).
    pub(super) fn write(&self, store: &Store) {
        let settled = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .is_ok_and(|now| now.saturating_sub(self.modified) >= SETTLE);
        let format = match store.format {
            StoreFormat::TodoJson => 0,
            StoreFormat::JsonArray => 1,
            StoreFormat::JsonLines => 2,
            StoreFormat::InMemory => return,
        };
        if !settled {
            return;
        }
        let mut w = Writer::default();
        self.header(&mut w);
        w.u8(format);
        w.u64(store.dump_bytes as u64);
        store.fields.encode(&mut w);
        store.index.encode(&mut w);
        store.hierarchy.encode(&mut w);
        w.u32s(&store.id_order);
        w.buf.extend_from_slice(END);
        let _ = write_replacing(&self.file, &w.buf);
    }
}

/// Writes through a temporary name unique to this process and call, then renames.
fn write_replacing(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    use std::sync::atomic::{AtomicU64, Ordering};
    static NEXT: AtomicU64 = AtomicU64::new(0);
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir)?;
    }
    let n = NEXT.fetch_add(1, Ordering::Relaxed);
    let tmp = path.with_extension(format!("tmp-{}-{n}", std::process::id()));
    let result = std::fs::write(&tmp, bytes).and_then(|()| std::fs::rename(&tmp, path));
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result
}

fn is_permutation(order: &[u32]) -> bool {
    let mut seen = vec![false; order.len()];
    order.iter().all(|&i| {
        let slot = seen.get_mut(i as usize);
        match slot {
            Some(s) if !*s => {
                *s = true;
                true
            }
            _ => false,
        }
    })
}
