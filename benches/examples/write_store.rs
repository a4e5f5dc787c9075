//! Writes a generated store as a JSON array of items, the input of the `find task` and
//! `find name` rows of benches/peers.py.
//!
//! Usage: write_store tasks|named N OUT.json   (deterministic: seed 42)

use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [kind, n, out] = args.as_slice() else {
        eprintln!("usage: write_store tasks|named N OUT.json");
        return ExitCode::from(2);
    };
    let Ok(n) = n.parse::<usize>() else {
        eprintln!("N must be a count, got `{n}`");
        return ExitCode::from(2);
    };
    let items = match kind.as_str() {
        "tasks" => findbench_benches::tasks(n, 42),
        "named" => findbench_benches::outline::named_items(n, 42),
        other => {
            eprintln!("unknown kind `{other}`: tasks or named");
            return ExitCode::from(2);
        }
    };
    let written = std::fs::File::create(out)
        .map(std::io::BufWriter::new)
        .map_err(|e| e.to_string())
        .and_then(|mut w| {
            serde_json::to_writer(&mut w, &items).map_err(|e| e.to_string())?;
            std::io::Write::flush(&mut w).map_err(|e| e.to_string())
        });
    match written {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("cannot write {out}: {e}");
            ExitCode::FAILURE
        }
    }
}
