//! The `findbench` binary: parses arguments, runs the command, exits with its code.
//! Everything here is the command line (clap) and printing; the work is done by
//! findbench-engine, findbench-eval and findbench-traces.

mod commands;
mod output;

use clap::Parser;

fn main() {
    let cli = commands::Cli::parse();
    std::process::exit(commands::run(cli));
}
