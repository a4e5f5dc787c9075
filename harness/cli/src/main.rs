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

/// mimalloc asks for transparent huge pages for its arenas: then every 2 MiB region a call
/// touches counts whole in its resident memory (a `grep` on a large tree peaked 50 MiB
/// higher, for no speed a short-lived process notices), and the kernel zeroes each one
/// whole on first touch (milliseconds of a `find path` on a busy machine). Turned off for
/// this process before its first allocation: the runtime allocates before `main`, so this
/// runs as a constructor.
extern "C" fn no_huge_pages() {
    #[cfg(target_os = "linux")]
    // SAFETY: PR_SET_THP_DISABLE takes integer arguments only and changes no memory.
    unsafe {
        libc::prctl(libc::PR_SET_THP_DISABLE, 1, 0, 0, 0);
    }
}

#[cfg(target_os = "linux")]
#[used]
#[link_section = ".init_array"]
static NO_HUGE_PAGES: extern "C" fn() = no_huge_pages;

fn main() {
    let code = match commands::parse() {
        Ok(cli) => commands::run(cli),
        Err(code) => code,
    };
    output::flush();
    std::process::exit(code);
}
