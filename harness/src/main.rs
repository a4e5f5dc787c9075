use clap::Parser;

fn main() {
    let cli = findbench_harness::cli::Cli::parse();
    std::process::exit(findbench_harness::cli::run(cli));
}
