//! The `findbench` binary: parses arguments, runs the command, exits with its code.
//! Everything here is the command line (clap) and printing; the work is done by
//! findbench-engine, findbench-eval and findbench-traces.

mod commands;
mod output;

/// A call on a large tree decodes tens of thousands of small records from the kept index
/// and reads many files on several threads; mimalloc's thread-local free lists make that
/// allocation a fraction of glibc's.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// Two allocator settings, made before the runtime's first allocation (so this runs as a
/// constructor):
///
/// - mimalloc asks for transparent huge pages for its arenas: then every 2 MiB region a
///   call touches counts whole in its resident memory (a `grep` on a large tree peaks
///   higher, for no speed a short-lived process notices), and the kernel zeroes each
///   one whole on first touch (milliseconds of a `find path` on a busy machine). Turned off
///   for this process.
/// - mimalloc gives freed pages back to the system a second after they are freed (its
///   `purge_delay` option, 1000 ms in the version built here), longer than a whole cold
///   `ask`: the walk's threads free what they allocated (directory entries, ignore rules)
///   and the pass then takes fresh pages, so the walk's memory would stay in the call's peak.
///   After 10 ms instead (mimalloc 2's default) the peaks of the first calls fall by tens
///   of MiB for a few ms more (`benches/RESULTS.md`, Fast-path A/Bs).
extern "C" fn allocator_settings() {
    #[cfg(target_os = "linux")]
    // SAFETY: PR_SET_THP_DISABLE takes integer arguments only and changes no memory.
    unsafe {
        libc::prctl(libc::PR_SET_THP_DISABLE, 1, 0, 0, 0);
    }
    // SAFETY: sets one integer option; mimalloc reads its options at any time after.
    unsafe {
        mi_option_set(MI_OPTION_PURGE_DELAY, 10);
    }
}

/// `mi_option_purge_delay` of `enum mi_option_e` in mimalloc's `include/mimalloc.h` (the
/// sys crate exports the function but not this option's name).
const MI_OPTION_PURGE_DELAY: std::ffi::c_int = 15;

extern "C" {
    /// mimalloc's `void mi_option_set(mi_option_t option, long value)`, linked from the
    /// allocator above.
    fn mi_option_set(option: std::ffi::c_int, value: std::ffi::c_long);
}

#[cfg(target_os = "linux")]
#[used]
#[link_section = ".init_array"]
static ALLOCATOR_SETTINGS: extern "C" fn() = allocator_settings;

fn main() {
    let code = match commands::parse() {
        Ok(cli) => commands::run(cli),
        Err(code) => code,
    };
    output::flush();
    std::process::exit(code);
}
