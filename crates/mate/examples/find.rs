//! Looks through positions from seeded random games for problems of each kind the tests in
//! `tests/problems.rs` use (mates with interpositions, promotions, a mating pawn drop that is
//! no move, perpetual checks); they were picked from its output: `cargo run --release -p
//! gogo-mate --example find -- 7`.
use gogo_mate::{brute, MateLimits, MateResult, Solver};
use gogo_rules::{usi_line, Position, Rng};
use std::time::Duration;

fn main() {
    let seed: u64 = std::env::args().nth(1).map_or(7, |s| s.parse().unwrap());
    let mut rng = Rng::new(seed);
    let mut solver = Solver::new(64).unwrap();
    for _ in 0..400 {
        let mut pos = Position::startpos();
        for _ in 0..70 {
            let Some(mv) = rng.pick_move(&pos) else { break };
            pos.play(mv);
            let out = solver.solve(
                &pos,
                &MateLimits {
                    time: Some(Duration::from_secs(2)),
                    ..Default::default()
                },
                &mut |_| {},
            );
            let pawn_mate = pos.mating_pawn_drop().is_some();
            match &out.result {
                MateResult::NoMate if pawn_mate => println!("PAWNDROP-NOMATE {pos}"),
                MateResult::NoMate if out.perpetual && pos.hand(pos.side_to_move()).is_empty() => {
                    println!("PERPETUAL {pos} nodes {}", out.nodes)
                }
                MateResult::Mate(line) => {
                    let n = line.len();
                    let tags: Vec<&str> = [
                        (pawn_mate, "pawndrop-elsewhere"),
                        (
                            line.iter().skip(1).step_by(2).any(|m| m.is_drop()),
                            "interposition",
                        ),
                        (line.iter().any(|m| m.is_promotion()), "promotion"),
                        (
                            line.iter().step_by(2).all(|m| !m.is_drop()),
                            "no-attacker-drops",
                        ),
                    ]
                    .iter()
                    .filter(|(c, _)| *c)
                    .map(|(_, t)| *t)
                    .collect();
                    if n >= 3 && (n <= 9 || tags.contains(&"pawndrop-elsewhere")) {
                        let b = brute::mate_length(&pos, n as u32);
                        println!(
                            "MATE{n} {pos} brute {b:?} [{}] {}",
                            tags.join(","),
                            usi_line(line)
                        );
                    }
                }
                _ => {}
            }
        }
    }
}
