//! Builds or refreshes the kept index of a tree and prints what it holds, as JSON (what
//! `findbench index DIR` prints): `cargo run --release -p findbench-engine --example index -- DIR`.

fn main() {
    let Some(root) = std::env::args_os().nth(1) else {
        eprintln!("usage: index DIR");
        std::process::exit(2);
    };
    let options = findbench_engine::TreeOptions::default();
    match findbench_engine::Tree::index(std::path::Path::new(&root), &options) {
        Ok(stats) => println!(
            "{}",
            serde_json::to_string_pretty(&stats).unwrap_or_default()
        ),
        Err(e) => {
            eprintln!("error: {e}");
            std::process::exit(e.exit_code());
        }
    }
}
