//! Game records: KIF (as shogi software reads it) and one JSON object per game.

use crate::referee::{GameRecord, Termination};
use gogo_rules::{Color, MoveKind, PieceKind, Position, Square};
use std::fmt::Write;

const FILES: [&str; 6] = ["", "１", "２", "３", "４", "５"];
const RANKS: [&str; 6] = ["", "一", "二", "三", "四", "五"];

fn kanji(kind: PieceKind) -> &'static str {
    match kind {
        PieceKind::Pawn => "歩",
        PieceKind::Silver => "銀",
        PieceKind::Gold => "金",
        PieceKind::Bishop => "角",
        PieceKind::Rook => "飛",
        PieceKind::King => "玉",
        PieceKind::ProPawn => "と",
        PieceKind::ProSilver => "成銀",
        PieceKind::Horse => "馬",
        PieceKind::Dragon => "龍",
    }
}

fn square(sq: Square) -> String {
    format!(
        "{}{}",
        FILES[sq.file() as usize],
        RANKS[sq.row() as usize + 1]
    )
}

fn hand_text(pos: &Position, color: Color) -> String {
    let hand = pos.hand(color);
    let parts: Vec<String> = PieceKind::HAND_SFEN_ORDER
        .iter()
        .filter(|&&k| hand.count(k) > 0)
        .map(|&k| {
            if hand.count(k) > 1 {
                format!("{}{}", kanji(k), RANKS[hand.count(k) as usize])
            } else {
                kanji(k).to_string()
            }
        })
        .collect();
    if parts.is_empty() {
        "なし".into()
    } else {
        parts.join("　")
    }
}

/// A board diagram (BOD) for a start position other than the standard one.
fn diagram(pos: &Position) -> String {
    let mut out = format!(
        "後手の持駒：{}\n  ５ ４ ３ ２ １\n+---------------+\n",
        hand_text(pos, Color::Gote)
    );
    for row in 0..5u8 {
        out.push('|');
        for col in 0..5u8 {
            let sq = Square::from_row_col(row, col).expect("on the board");
            match pos.piece_at(sq) {
                None => out.push_str(" ・"),
                Some(p) => {
                    out.push(if p.color == Color::Gote { 'v' } else { ' ' });
                    let name = match p.kind {
                        PieceKind::ProSilver => "全",
                        PieceKind::Dragon => "竜",
                        k => kanji(k),
                    };
                    out.push_str(name);
                }
            }
        }
        out.push_str(&format!("|{}\n", RANKS[row as usize + 1]));
    }
    out.push_str(&format!(
        "+---------------+\n先手の持駒：{}\n",
        hand_text(pos, Color::Sente)
    ));
    if pos.side_to_move() == Color::Gote {
        out.push_str("後手番\n");
    }
    out
}

/// One game as KIF text.
pub fn kif(record: &GameRecord, sente: &str, gote: &str) -> String {
    let mut out = String::new();
    out.push_str("#KIF version=2.0 encoding=UTF-8\n");
    out.push_str("手合割：５五将棋\n");
    if record.start != Position::startpos() {
        out.push_str(&diagram(&record.start));
    }
    let _ = writeln!(out, "先手：{sente}\n後手：{gote}");
    out.push_str("手数----指手---------消費時間--\n");
    let mut pos = record.start.clone();
    let mut previous_to: Option<Square> = None;
    for (n, text) in record.moves.iter().enumerate() {
        let Ok(mv) = pos.parse_move(text) else { break };
        let kind = pos.moved_kind(mv).expect("a legal move moves a piece");
        let to = mv.to();
        let dest = if previous_to == Some(to) {
            "同　".to_string()
        } else {
            square(to)
        };
        let body = match mv.kind() {
            MoveKind::Board { from, promote, .. } => format!(
                "{dest}{}{}({}{})",
                kanji(kind),
                if promote { "成" } else { "" },
                from.file(),
                from.row() + 1
            ),
            MoveKind::Drop { .. } => format!("{dest}{}打", kanji(kind)),
        };
        let _ = writeln!(out, "{:>4} {body}", n + 1);
        previous_to = Some(to);
        pos.play(mv);
    }
    let n = record.moves.len();
    let end = match &record.termination {
        Termination::Resign(_) => "投了",
        Termination::TimeForfeit(_) => "切れ負け",
        Termination::IllegalMove(..) | Termination::Malformed(..) => "反則負け",
        Termination::Rules(o) => match o {
            gogo_rules::Outcome::Win {
                reason: gogo_rules::WinReason::Checkmate,
                ..
            } => "詰み",
            gogo_rules::Outcome::Win {
                reason: gogo_rules::WinReason::NoLegalMoves,
                ..
            } => "詰み",
            gogo_rules::Outcome::Draw {
                reason: gogo_rules::DrawReason::PlyLimit,
            } => "持将棋",
            _ => "千日手",
        },
        Termination::Crash(_) | Termination::Adjudicated(_) => "中断",
    };
    let _ = writeln!(out, "{:>4} {end}", n + 1);
    match record.termination.winner() {
        Some(c) => {
            let who = if c == Color::Sente {
                "先手"
            } else {
                "後手"
            };
            let _ = writeln!(
                out,
                "まで{n}手で{who}の勝ち（{}）",
                record.termination.reason()
            );
        }
        None => {
            let _ = writeln!(
                out,
                "まで{n}手で引き分け（{}）",
                record.termination.reason()
            );
        }
    }
    out
}

fn json_string(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// One game as a JSON object on one line.
pub fn json_line(
    index: usize,
    opening: &str,
    record: &GameRecord,
    sente: &str,
    gote: &str,
) -> String {
    let result = match record.termination.winner() {
        Some(Color::Sente) => "1-0",
        Some(Color::Gote) => "0-1",
        None => "1/2-1/2",
    };
    let moves: Vec<String> = record.moves.iter().map(|m| json_string(m)).collect();
    let times: Vec<String> = record.times_ms.iter().map(|t| t.to_string()).collect();
    let winner = match record.termination.winner() {
        Some(Color::Sente) => json_string("sente"),
        Some(Color::Gote) => json_string("gote"),
        None => "null".into(),
    };
    format!(
        "{{\"game\":{},\"sente\":{},\"gote\":{},\"opening\":{},\"start\":{},\"opening_moves\":{},\"moves\":[{}],\"result\":{},\"winner\":{},\"reason\":{},\"time_ms\":[{}]}}",
        index + 1,
        json_string(sente),
        json_string(gote),
        json_string(opening),
        json_string(&record.start.to_sfen()),
        record.opening_moves,
        moves.join(","),
        json_string(result),
        winner,
        json_string(&record.termination.reason()),
        times.join(",")
    )
}
