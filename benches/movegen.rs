//! Move generation and copy-make over a fixed set of positions (the first 40 rows of
//! tests/data/perft.tsv: both start positions and random middle games with hands, promoted
//! pieces and checks). Run with `cargo bench -p gogo-rules`.

use criterion::{criterion_group, criterion_main, Criterion};
use gogo_rules::{perft, MoveList, Position};
use std::hint::black_box;

fn positions() -> Vec<Position> {
    let text = include_str!("../tests/data/perft.tsv");
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.starts_with("sfen\t"))
        .take(40)
        .map(|l| l.split('\t').next().unwrap().parse().unwrap())
        .collect()
}

fn bench(c: &mut Criterion) {
    let positions = positions();
    let mut list = MoveList::new();
    c.bench_function("generate_legal x40 positions", |b| {
        b.iter(|| {
            let mut n = 0;
            for pos in &positions {
                list.clear();
                black_box(pos).generate_legal(&mut list);
                n += list.len();
            }
            n
        })
    });
    c.bench_function("generate_noisy x40 positions", |b| {
        b.iter(|| {
            let mut n = 0;
            for pos in &positions {
                list.clear();
                black_box(pos).generate_noisy(&mut list);
                n += list.len();
            }
            n
        })
    });
    let moves: Vec<(Position, MoveList)> = positions
        .iter()
        .map(|p| (p.clone(), p.legal_moves()))
        .collect();
    c.bench_function("copy-make every legal move x40 positions", |b| {
        b.iter(|| {
            let mut keys = 0u64;
            for (pos, list) in &moves {
                for &mv in list.iter() {
                    keys ^= black_box(pos).played(mv).key();
                }
            }
            keys
        })
    });
    let start = Position::startpos();
    c.bench_function("perft 4 from the start", |b| {
        b.iter(|| perft(black_box(&start), 4))
    });
}

criterion_group!(benches, bench);
criterion_main!(benches);
