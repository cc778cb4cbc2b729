//! Writes a valid book of about N MiB (`gogo_book::sample`), to measure what loading a large
//! book costs: `scripts/book-load.sh` loads it through `BookFile` and prints the time and
//! memory.
//!
//! `cargo run --release -p gogo-book --example big_book -- MIB OUT [SEED] [MOVES]`: MOVES is
//! the most moves a position gets (3; 1 is the densest book a byte of text makes).

fn main() -> std::io::Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (Some(mib), Some(out)) = (
        args.first().and_then(|a| a.parse::<u64>().ok()),
        args.get(1),
    ) else {
        eprintln!("usage: big_book MIB OUT [SEED] [MOVES]");
        std::process::exit(2);
    };
    let seed = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(1);
    let most_moves = args.get(3).and_then(|s| s.parse().ok()).unwrap_or(3);
    let mut file = std::io::BufWriter::new(std::fs::File::create(out)?);
    gogo_book::sample::write_random_book(&mut file, mib << 20, seed, most_moves)?;
    std::io::Write::flush(&mut file)
}
