//! Game records: KIF (as shogi software reads it) and one JSON object per game.

use crate::referee::GameRecord;
use gogo_rules::kif::{write_kif, KifInfo};
use gogo_rules::{Color, Move};
use std::fmt::Write;

/// One game as KIF text (the rules crate's writer), with its end and result.
pub fn kif(record: &GameRecord, sente: &str, gote: &str) -> String {
    let moves: Vec<Move> = record.moves.iter().map_while(|m| m.parse().ok()).collect();
    let info = KifInfo {
        sente: sente.into(),
        gote: gote.into(),
        ending: Some(record.ending.kif_word().into()),
        summary: Some(record.ending.kif_summary(record.moves.len())),
        comments: Vec::new(),
    };
    write_kif(&record.start, &moves, &info)
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
    let result = record.ending.result();
    let moves: Vec<String> = record.moves.iter().map(|m| json_string(m)).collect();
    let times: Vec<String> = record.times_ms.iter().map(|t| t.to_string()).collect();
    let winner = match record.ending.winner() {
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
        json_string(&record.ending.reason()),
        times.join(",")
    )
}
