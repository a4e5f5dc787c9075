//! One scratch value (read buffers, say) per rayon worker for the length of one parallel
//! pass. `map_init` makes its value once per job a pass is split into, not once per
//! thread: a pass over 17,000 files made its buffers hundreds of times, and each new buffer
//! grew again from empty through fresh pages.
//! And how many files such a pass hands a worker at a time ([`FILES_PER_JOB`]).

use std::sync::Mutex;

/// At most this many files are handed to a worker at a time by a parallel pass that reads
/// each file. Rayon's adaptive splitting stops splitting once each thread has work, so on
/// two threads it leaves runs of about a quarter of the list; the files of one run can take
/// far longer to read than another's (sizes differ by orders of magnitude), and a core then
/// waits through the end of the pass.
pub(crate) const FILES_PER_JOB: usize = 16;

/// One `T` per thread of the current rayon pool, plus one for a caller outside it.
pub(crate) struct WorkerScratch<T> {
    slots: Vec<Mutex<T>>,
}

impl<T: Default> WorkerScratch<T> {
    pub(crate) fn new() -> WorkerScratch<T> {
        WorkerScratch {
            slots: (0..=rayon::current_num_threads())
                .map(|_| Mutex::default())
                .collect(),
        }
    }

    /// Runs `f` with this thread's value. A thread whose value is in use (a job of the
    /// same pass stolen while `f` waits on a nested parallel call) or that is not a
    /// worker of the pool this was made in gets a fresh value instead: never a wait.
    pub(crate) fn with<R>(&self, f: impl FnOnce(&mut T) -> R) -> R {
        let slot = rayon::current_thread_index().map_or(0, |i| i + 1);
        match self.slots.get(slot).and_then(|m| m.try_lock().ok()) {
            Some(mut value) => f(&mut value),
            None => f(&mut T::default()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rayon::prelude::*;

    /// Every item sees a value, values are reused across items of one thread (so far fewer
    /// values are made than items), and a nested pass over the same scratch neither
    /// deadlocks nor shares a value between two items at once.
    #[test]
    fn each_worker_reuses_its_value_and_a_nested_pass_gets_its_own() {
        let scratch: WorkerScratch<Vec<usize>> = WorkerScratch::new();
        let sums: Vec<usize> = (0..10_000usize)
            .into_par_iter()
            .map(|i| {
                scratch.with(|seen| {
                    seen.clear();
                    seen.push(i);
                    let inner: usize = (0..4usize)
                        .into_par_iter()
                        .map(|k| {
                            scratch.with(|v| {
                                v.clear();
                                v.push(k);
                                v[0]
                            })
                        })
                        .sum();
                    // nothing else wrote this value while the nested pass ran
                    assert_eq!(seen, &[i]);
                    i + inner
                })
            })
            .collect();
        assert!(sums.iter().enumerate().all(|(i, s)| *s == i + 6));
        // the values kept hold an item each: they were used, not only fresh ones
        let used = scratch
            .slots
            .iter()
            .filter(|m| !m.lock().unwrap().is_empty())
            .count();
        assert!(used >= 1);
    }
}
