//! One spool file of a replay's reports on its own thread: the bytes of each batch of cases
//! (already encoded by the worker threads) go in through a bounded channel and out to the
//! file, gzipped as they go with `--out-compress`. One thread per file, so the gzip streams
//! of cases.jsonl and cases.csv run side by side rather than one after the other.

use crate::error::{Result, TracesError};
use findbench_eval::error::HarnessError;
use findbench_eval::report;
use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};
use std::sync::mpsc::{sync_channel, SyncSender};
use std::thread::JoinHandle;

fn io_err(path: &Path) -> impl Fn(std::io::Error) -> TracesError + '_ {
    move |e| TracesError::file(path, format!("cannot write: {e}"))
}

/// A spool file, gzipped as it is written when the report is (`--out-compress`).
enum SpoolFile {
    /// Unbuffered: a batch's bytes arrive as chunks of a hundred kilobytes or more, which
    /// a buffer would only copy once more.
    Plain(File),
    Gzipped(flate2::write::GzEncoder<BufWriter<File>>),
}

impl SpoolFile {
    fn create(path: &Path, gzipped: bool) -> Result<SpoolFile> {
        let f = File::create(path).map_err(io_err(path))?;
        Ok(if gzipped {
            let w = BufWriter::with_capacity(1024 * 1024, f);
            SpoolFile::Gzipped(report::gzip::encoder(w))
        } else {
            SpoolFile::Plain(f)
        })
    }

    fn write_all(&mut self, buf: &[u8]) -> std::io::Result<()> {
        match self {
            SpoolFile::Plain(w) => w.write_all(buf),
            SpoolFile::Gzipped(w) => w.write_all(buf),
        }
    }

    /// Ends the gzip stream and flushes; `sync` also syncs the file (a spool that becomes
    /// a report as it is: synced here, on this thread, beside the other spools, rather than
    /// one after the other when the reports are published).
    fn finish(self, sync: bool) -> std::io::Result<()> {
        let file = match self {
            SpoolFile::Plain(file) => file,
            SpoolFile::Gzipped(gz) => gz.finish()?.into_inner().map_err(|e| e.into_error())?,
        };
        if sync {
            file.sync_all()?;
        }
        Ok(())
    }
}

/// A spool file and the thread writing it.
pub struct SpoolWriter {
    path: PathBuf,
    queue: Option<SyncSender<Vec<Vec<u8>>>>,
    worker: Option<JoinHandle<Result<()>>>,
}

impl SpoolWriter {
    /// Creates `path` (gzipped with `gzipped`), writes `head` first, and starts its thread,
    /// which takes up to `queued` batches ahead of the file. `sync`: the spool is synced
    /// when closed (see [`SpoolFile::finish`]).
    pub fn create(
        path: PathBuf,
        gzipped: bool,
        sync: bool,
        head: &[u8],
        queued: usize,
    ) -> Result<SpoolWriter> {
        let mut file = SpoolFile::create(&path, gzipped)?;
        file.write_all(head).map_err(io_err(&path))?;
        let (queue, batches) = sync_channel::<Vec<Vec<u8>>>(queued);
        let thread_path = path.clone();
        let worker = std::thread::Builder::new()
            .name("findbench-spool".into())
            .spawn(move || -> Result<()> {
                let path = thread_path;
                let written = (|| {
                    for batch in batches {
                        for chunk in &batch {
                            file.write_all(chunk)?;
                        }
                    }
                    file.finish(sync)
                })();
                if let Err(e) = written {
                    let _ = std::fs::remove_file(&path);
                    return Err(io_err(&path)(e));
                }
                Ok(())
            })
            .map_err(io_err(&path))?;
        Ok(SpoolWriter {
            path,
            queue: Some(queue),
            worker: Some(worker),
        })
    }

    /// Hands a batch's bytes (chunks in order) to the thread; waits while it is the queue's
    /// length behind. `false` when the thread has stopped (its error is [`Self::close`]'s).
    pub fn send(&self, chunks: Vec<Vec<u8>>) -> bool {
        self.queue.as_ref().is_some_and(|q| q.send(chunks).is_ok())
    }

    /// Stops taking bytes, waits for the file to be written out, and returns its path.
    pub fn close(&mut self) -> Result<PathBuf> {
        self.queue = None;
        match self.worker.take().map(JoinHandle::join) {
            Some(Ok(Ok(()))) => Ok(self.path.clone()),
            Some(Ok(Err(e))) => Err(e),
            Some(Err(_)) => Err(TracesError::Eval(HarnessError::Internal(
                "a report spool writer thread stopped unexpectedly".into(),
            ))),
            None => Err(TracesError::Eval(HarnessError::Internal(
                "the report spool writer has already stopped".into(),
            ))),
        }
    }
}

impl Drop for SpoolWriter {
    /// A spool dropped unclosed (the replay failed) stops its thread and leaves no file.
    fn drop(&mut self) {
        if self.worker.is_some() {
            let _ = self.close();
            let _ = std::fs::remove_file(&self.path);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Read;

    #[test]
    fn chunks_are_written_in_order_after_the_head_and_gzipped_when_asked() {
        let dir = tempfile::tempdir().unwrap();
        for gzipped in [false, true] {
            let path = dir.path().join(format!("spool-{gzipped}"));
            let mut w = SpoolWriter::create(path.clone(), gzipped, true, b"head\n", 2).unwrap();
            for i in 0..5 {
                assert!(w.send(vec![format!("{i}a\n").into_bytes(), b"b\n".to_vec()]));
            }
            assert_eq!(w.close().unwrap(), path);
            let raw = std::fs::read(&path).unwrap();
            let text = if gzipped {
                let mut s = String::new();
                flate2::read::GzDecoder::new(&raw[..])
                    .read_to_string(&mut s)
                    .unwrap();
                s
            } else {
                String::from_utf8(raw).unwrap()
            };
            assert_eq!(text, "head\n0a\nb\n1a\nb\n2a\nb\n3a\nb\n4a\nb\n");
        }
    }

    #[test]
    fn a_spool_dropped_unclosed_leaves_no_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("spool");
        let w = SpoolWriter::create(path.clone(), false, false, b"", 1).unwrap();
        assert!(w.send(vec![b"x".to_vec()]));
        drop(w);
        assert!(!path.exists());
    }
}
