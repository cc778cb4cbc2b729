//! What the page is shown of the game ([`GameView`]): the positions, the board, the hands,
//! the legal moves, the players, the clock and the result.

use super::*;

impl Session {
    /// What the page shows now.
    pub fn view(&self) -> GameView {
        let pos = self.game.position();
        let mut board = Vec::new();
        for sq in Square::all() {
            if let Some(p) = pos.piece_at(sq) {
                board.push(BoardPiece {
                    square: sq.to_string(),
                    color: color_name(p.color),
                    kind: piece_letter(p.kind),
                });
            }
        }
        let hands = Color::ALL.map(|c| {
            PieceKind::HAND_SFEN_ORDER
                .iter()
                .filter(|&&k| pos.hand(c).count(k) > 0)
                .map(|&k| (piece_letter(k), pos.hand(c).count(k)))
                .collect()
        });
        let mut moves = Vec::new();
        let mut previous = None;
        for (p, &mv) in self.game.positions().iter().zip(self.game.moves()) {
            let mark = if p.side_to_move() == Color::Sente {
                '▲'
            } else {
                '△'
            };
            moves.push(RecordMove {
                usi: mv.to_string(),
                japanese: format!("{mark}{}", japanese(p, mv, previous)),
                western: western(p, mv),
            });
            previous = Some(mv.to());
        }
        let human_to_move = self.players[pos.side_to_move().index()] == Player::Human
            && self.puzzle_allows_move(pos.side_to_move());
        let legal = if self.ending.is_none() && human_to_move {
            pos.legal_moves().iter().map(|m| m.to_string()).collect()
        } else {
            Vec::new()
        };
        GameView {
            positions: self.game.positions().iter().map(|p| p.to_sfen()).collect(),
            moves,
            board,
            hands,
            turn: color_name(pos.side_to_move()),
            legal,
            last_move: self.game.moves().last().map(|m| m.to_string()),
            in_check: pos.in_check(),
            players: self.players,
            rules: self.game.rules().name(),
            clock: clock_view(&self.clock),
            result: self.ending.as_ref().map(|e| e.result().to_string()),
            reason: self.ending.as_ref().map(Ending::reason),
            ending: self.ending.as_ref().and_then(kept_ending),
            scores: self.scores.clone(),
            engine: self.engine_name.clone(),
            level: self.level,
            max_level: self.max_level.unwrap_or(0),
            max_plies: self.game.rules().max_plies,
            thinking: self.thinking,
            engine_ready: self.engine_ready,
            names: self.record_names.clone(),
        }
    }
}

/// What the page shows of the clock, when there is one.
fn clock_view(clock: &Clock) -> Option<ClockView> {
    clock.timed().then(|| ClockView {
        main_ms: clock.left_now().map(|d| d.as_millis() as u64),
        byoyomi_ms: clock.byoyomi().as_millis() as u64,
        running: clock.running().map(Color::index),
    })
}

fn color_name(color: Color) -> &'static str {
    match color {
        Color::Sente => "sente",
        Color::Gote => "gote",
    }
}

fn piece_letter(kind: PieceKind) -> String {
    let base = kind.base_letter().to_string();
    if kind.is_promoted() {
        format!("+{base}")
    } else {
        base
    }
}
