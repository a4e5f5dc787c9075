//! What the server's freshness check costs before each call on a tree (`fresh.rs`): the
//! inotify watch and the stamp comparison, each set up once and checked many times.
//!
//!     cargo run --release -p findbench-mcp --example fresh_cost -- ~/.cargo/registry/src/*/

use findbench_engine::{Tree, TreeOptions};
use findbench_mcp::fresh::Freshness;
use std::time::{Duration, Instant, SystemTime};

fn main() {
    let root = std::env::args().nth(1).expect("usage: fresh_cost DIR");
    let options = TreeOptions {
        follow_links: false,
        ..TreeOptions::default()
    };
    let clock = Instant::now();
    let tree = Tree::load(std::path::Path::new(&root), &options).expect("the tree loads");
    println!(
        "{root}: {} files, loaded in {:.1} ms",
        tree.len(),
        ms(clock.elapsed())
    );
    let loaded_at = SystemTime::now();
    for (name, make) in [
        (
            "watch",
            Freshness::for_tree as fn(&Tree, SystemTime) -> Freshness,
        ),
        ("stamps", Freshness::stamped),
    ] {
        let clock = Instant::now();
        let mut fresh = make(&tree, loaded_at);
        let setup = clock.elapsed();
        fresh.changed();
        let rounds = 20;
        let clock = Instant::now();
        for _ in 0..rounds {
            assert!(!fresh.changed(), "the tree changed while measured");
        }
        println!(
            "{name:>6} (watched: {}): set up {:.1} ms, check {:.3} ms",
            fresh.is_watched(),
            ms(setup),
            ms(clock.elapsed()) / rounds as f64
        );
    }
    let clock = Instant::now();
    Tree::load(std::path::Path::new(&root), &options).expect("the tree loads");
    println!(
        "Tree::load again (unchanged): {:.1} ms",
        ms(clock.elapsed())
    );
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}
