//! The `findbench` binary: parses arguments, runs the command, exits with its code.
//! Everything here is the command line (clap) and printing; the work is done by
//! findbench-engine, findbench-eval and findbench-traces.

mod commands;
mod output;

/// A call on a large tree decodes hundreds of thousands of small records from the kept
/// index; mimalloc's thread-local free lists make that allocation a fraction of glibc's.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() {
    let code = match commands::parse() {
        Ok(cli) => commands::run(cli),
        Err(code) => code,
    };
    output::flush();
    std::process::exit(code);
}
