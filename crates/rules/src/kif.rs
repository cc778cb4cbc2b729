//! KIF, the game record format of Japanese shogi software (Kifu for Windows, Shogidokoro,
//! ShogiGUI), for minishogi (`手合割：５五将棋`): writing and reading, and moves in Japanese
//! notation (`▲２四銀`, `△同　歩`, `▲５五金打`).
//!
//! Reading checks every move against the rules: a record is text first ([`RecordError::Syntax`]),
//! then moves that must be legal in turn ([`RecordError::Move`]).

use crate::error::{MoveError, RecordError, TooManyMoves, MAX_GAME_MOVES};
use crate::hand::Hand;
use crate::moves::{Move, MoveKind};
use crate::piece::{Color, Piece, PieceKind};
use crate::position::Position;
use crate::square::Square;
use std::fmt::Write as _;

const FILES: [char; 5] = ['１', '２', '３', '４', '５'];
const RANKS: [char; 5] = ['一', '二', '三', '四', '五'];

/// The kanji of a kind as KIF moves write it.
pub fn kanji(kind: PieceKind) -> &'static str {
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

/// The one-character kanji of a kind on a board diagram.
fn diagram_kanji(kind: PieceKind) -> &'static str {
    match kind {
        PieceKind::ProSilver => "全",
        PieceKind::Dragon => "竜",
        k => kanji(k),
    }
}

fn square_text(sq: Square) -> String {
    format!(
        "{}{}",
        FILES[sq.file() as usize - 1],
        RANKS[sq.row() as usize]
    )
}

/// A move in Japanese notation, without the mover's mark: `２四銀`, `同　歩`, `４一角成`,
/// `５五金打`. `previous` is the destination of the move before (for `同`).
pub fn japanese(pos: &Position, mv: Move, previous: Option<Square>) -> String {
    let kind = pos.moved_kind(mv).unwrap_or(PieceKind::Pawn);
    let dest = if previous == Some(mv.to()) {
        "同　".to_string()
    } else {
        square_text(mv.to())
    };
    match mv.kind() {
        MoveKind::Drop { .. } => format!("{dest}{}打", kanji(kind)),
        MoveKind::Board { promote, to, from } => {
            let zone = crate::position::promotion_zone(pos.side_to_move());
            let could = kind.can_promote() && (zone.contains(from) || zone.contains(to));
            let suffix = if promote {
                "成"
            } else if could && kind != PieceKind::Pawn {
                "不成"
            } else {
                ""
            };
            format!("{dest}{}{suffix}", kanji(kind))
        }
    }
}

/// A line of moves in Japanese notation, each with its mover's mark (`▲` Sente, `△` Gote).
pub fn japanese_line(pos: &Position, moves: &[Move]) -> String {
    let mut out = Vec::new();
    let mut pos = pos.clone();
    let mut previous = None;
    for &mv in moves {
        if !pos.is_legal(mv) {
            break;
        }
        let mark = if pos.side_to_move() == Color::Sente {
            '▲'
        } else {
            '△'
        };
        out.push(format!("{mark}{}", japanese(&pos, mv, previous)));
        previous = Some(mv.to());
        pos.play(mv);
    }
    out.join(" ")
}

fn hand_text(hand: &Hand) -> String {
    let parts: Vec<String> = PieceKind::HAND_SFEN_ORDER
        .iter()
        .filter(|&&k| hand.count(k) > 0)
        .map(|&k| match hand.count(k) {
            1 => kanji(k).to_string(),
            n => format!("{}{}", kanji(k), RANKS[n as usize - 1]),
        })
        .collect();
    if parts.is_empty() {
        "なし".into()
    } else {
        parts.join("　")
    }
}

/// The board diagram (BOD) of a position.
pub fn diagram(pos: &Position) -> String {
    let mut out = format!(
        "後手の持駒：{}\n  ５ ４ ３ ２ １\n+---------------+\n",
        hand_text(pos.hand(Color::Gote))
    );
    for row in 0..5u8 {
        out.push('|');
        for col in 0..5u8 {
            let sq = Square::from_row_col(row, col).expect("on the board");
            match pos.piece_at(sq) {
                None => out.push_str(" ・"),
                Some(p) => {
                    out.push(if p.color == Color::Gote { 'v' } else { ' ' });
                    out.push_str(diagram_kanji(p.kind));
                }
            }
        }
        let _ = writeln!(out, "|{}", RANKS[row as usize]);
    }
    let _ = writeln!(
        out,
        "+---------------+\n先手の持駒：{}",
        hand_text(pos.hand(Color::Sente))
    );
    if pos.side_to_move() == Color::Gote {
        out.push_str("後手番\n");
    }
    out
}

/// What a record says of the players and the end of the game.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct KifInfo {
    /// Sente's name.
    pub sente: String,
    /// Gote's name.
    pub gote: String,
    /// The end: `投了`, `詰み`, `千日手`, `持将棋`, `切れ負け`, `反則負け`, `中断`, if the
    /// game has ended.
    pub ending: Option<String>,
    /// The summary line after the moves, e.g. `まで23手で先手の勝ち`.
    pub summary: Option<String>,
    /// A comment after each move (by ply, from the first move; missing or empty: none),
    /// written as `*` lines, which KIF readers show beside the move and skip when reading.
    pub comments: Vec<String>,
}

/// A game as KIF text: the start position as a diagram when it is not the standard one,
/// then the moves (from a legal sequence; writing stops at the first illegal one).
pub fn write_kif(start: &Position, moves: &[Move], info: &KifInfo) -> String {
    let mut out = String::new();
    out.push_str("#KIF version=2.0 encoding=UTF-8\n");
    out.push_str("手合割：５五将棋\n");
    if *start != Position::startpos() {
        out.push_str(&diagram(start));
    }
    let _ = writeln!(out, "先手：{}\n後手：{}", info.sente, info.gote);
    out.push_str("手数----指手---------消費時間--\n");
    let mut pos = start.clone();
    let mut previous = None;
    let mut n = 0;
    for &mv in moves {
        if !pos.is_legal(mv) {
            break;
        }
        let mut body = japanese(&pos, mv, previous);
        if let Some(from) = mv.from() {
            let _ = write!(body, "({}{})", from.file(), from.row() + 1);
        }
        n += 1;
        let _ = writeln!(out, "{n:>4} {body}");
        if let Some(comment) = info.comments.get(n - 1) {
            for line in comment.lines().filter(|l| !l.trim().is_empty()) {
                let _ = writeln!(out, "*{line}");
            }
        }
        previous = Some(mv.to());
        pos.play(mv);
    }
    if let Some(ending) = &info.ending {
        let _ = writeln!(out, "{:>4} {ending}", n + 1);
    }
    if let Some(summary) = &info.summary {
        let _ = writeln!(out, "{summary}");
    }
    out
}

fn kind_from_kanji(text: &str) -> Option<(PieceKind, usize)> {
    const NAMES: [(&str, PieceKind); 14] = [
        ("成銀", PieceKind::ProSilver),
        ("全", PieceKind::ProSilver),
        ("歩", PieceKind::Pawn),
        ("銀", PieceKind::Silver),
        ("金", PieceKind::Gold),
        ("角", PieceKind::Bishop),
        ("飛", PieceKind::Rook),
        ("玉", PieceKind::King),
        ("王", PieceKind::King),
        ("と", PieceKind::ProPawn),
        ("馬", PieceKind::Horse),
        ("龍", PieceKind::Dragon),
        ("竜", PieceKind::Dragon),
        ("杏", PieceKind::ProPawn),
    ];
    NAMES
        .iter()
        .find(|(name, _)| text.starts_with(name))
        .map(|&(name, kind)| (kind, name.len()))
}

fn digit(c: char) -> Option<u8> {
    FILES
        .iter()
        .position(|&f| f == c)
        .or_else(|| RANKS.iter().position(|&r| r == c))
        .or_else(|| {
            c.to_digit(10)
                .map(|d| d as usize)
                .filter(|d| (1..=5).contains(d))
                .map(|d| d - 1)
        })
        .map(|i| i as u8 + 1)
}

fn read_hand(text: &str, line: usize) -> Result<Hand, RecordError> {
    let mut hand = Hand::EMPTY;
    let text = text.trim();
    if text == "なし" || text.is_empty() {
        return Ok(hand);
    }
    for part in text.split(['　', ' ']).filter(|p| !p.is_empty()) {
        let (kind, len) = kind_from_kanji(part).ok_or_else(|| RecordError::Syntax {
            line,
            reason: format!("'{part}' is not a piece in hand"),
        })?;
        let count = match part[len..].chars().next() {
            None => 1,
            Some(c) => digit(c).ok_or_else(|| RecordError::Syntax {
                line,
                reason: format!("'{part}': bad count"),
            })?,
        };
        for _ in 0..count {
            hand = hand.with(kind).ok_or_else(|| RecordError::Syntax {
                line,
                reason: format!("'{part}': a {kind:?} cannot be in hand"),
            })?;
        }
    }
    Ok(hand)
}

/// Reads a KIF record: the start position (the standard one, or the board diagram) and the
/// moves, each checked for legality; the record may end with `投了` and the like.
pub fn read_kif(text: &str) -> Result<(Position, Vec<Move>), RecordError> {
    RecordError::check_length(text)?;
    let mut board: [Option<Piece>; 25] = [None; 25];
    let mut hands = [Hand::EMPTY; 2];
    let mut side = Color::Sente;
    let mut diagram_rows = 0;
    let mut has_diagram = false;
    let mut move_lines: Vec<(usize, String)> = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line_no = i + 1;
        let line = raw.trim_end();
        if line.starts_with('#') || line.starts_with('*') || line.trim().is_empty() {
            continue;
        }
        if let Some(rest) = line.strip_prefix("手合割：") {
            if !rest.contains("５五") && !rest.contains("5五") {
                return Err(RecordError::Syntax {
                    line: line_no,
                    reason: format!("handicap '{rest}' is not minishogi (５五将棋)"),
                });
            }
        } else if let Some(rest) = line.strip_prefix("後手の持駒：") {
            hands[1] = read_hand(rest, line_no)?;
            has_diagram = true;
        } else if let Some(rest) = line.strip_prefix("先手の持駒：") {
            hands[0] = read_hand(rest, line_no)?;
            has_diagram = true;
        } else if line.starts_with("後手番") {
            side = Color::Gote;
        } else if let Some(row) = line.strip_prefix('|') {
            if diagram_rows >= 5 {
                return Err(RecordError::Syntax {
                    line: line_no,
                    reason: "more than five board rows".into(),
                });
            }
            let cells: Vec<char> = row.chars().collect();
            for col in 0..5 {
                let (mark, piece) = (cells.get(col * 2), cells.get(col * 2 + 1));
                let sq = Square::from_row_col(diagram_rows, col as u8).expect("on the board");
                board[sq.index()] = match (mark, piece) {
                    (_, Some('・')) => None,
                    (Some(m), Some(p)) => {
                        let (kind, _) =
                            kind_from_kanji(&p.to_string()).ok_or_else(|| RecordError::Syntax {
                                line: line_no,
                                reason: format!("'{p}' is not a piece"),
                            })?;
                        let color = if *m == 'v' { Color::Gote } else { Color::Sente };
                        Some(Piece::new(color, kind))
                    }
                    _ => {
                        return Err(RecordError::Syntax {
                            line: line_no,
                            reason: "a board row has fewer than five squares".into(),
                        })
                    }
                };
            }
            diagram_rows += 1;
            has_diagram = true;
        } else if line.trim_start().starts_with(|c: char| c.is_ascii_digit()) {
            // The game's moves and the line of its ending.
            if move_lines.len() > MAX_GAME_MOVES {
                return Err(RecordError::TooManyMoves(TooManyMoves));
            }
            move_lines.push((line_no, line.trim().to_string()));
        }
    }
    let start = if has_diagram {
        if diagram_rows != 5 {
            return Err(RecordError::Position(format!(
                "the diagram has {diagram_rows} rows"
            )));
        }
        Position::from_parts(board, hands, side, 1)
            .map_err(|e| RecordError::Position(e.to_string()))?
    } else {
        Position::startpos()
    };
    let mut pos = start.clone();
    let mut moves = Vec::new();
    let mut previous: Option<Square> = None;
    for (line_no, line) in move_lines {
        let mut words = line.split_whitespace();
        let number: usize =
            words
                .next()
                .and_then(|w| w.parse().ok())
                .ok_or_else(|| RecordError::Syntax {
                    line: line_no,
                    reason: "no move number".into(),
                })?;
        let body = words.next().unwrap_or("");
        // `同　歩` writes a full-width space inside the move.
        let body = if body == "同" {
            format!("同{}", words.next().unwrap_or(""))
        } else {
            body.to_string()
        };
        if [
            "投了",
            "詰み",
            "千日手",
            "持将棋",
            "切れ負け",
            "反則負け",
            "中断",
            "不詰",
            "時間切れ",
        ]
        .iter()
        .any(|e| body.starts_with(e))
        {
            break;
        }
        // One move line more than a game may hold is allowed above, for the ending's line.
        if moves.len() == MAX_GAME_MOVES {
            return Err(RecordError::TooManyMoves(TooManyMoves));
        }
        let mv = read_move(&pos, &body, previous).map_err(|reason| RecordError::Syntax {
            line: line_no,
            reason,
        })?;
        if !pos.is_legal(mv) {
            return Err(RecordError::Move {
                number,
                error: MoveError::Illegal(mv),
            });
        }
        previous = Some(mv.to());
        pos.play(mv);
        moves.push(mv);
    }
    Ok((start, moves))
}

/// One move's text (`２四銀(33)`, `同　歩(15)`, `５五金打`, `４一角成(23)`) in `pos`.
fn read_move(pos: &Position, body: &str, previous: Option<Square>) -> Result<Move, String> {
    let body = body.trim_start_matches(['▲', '△', '☗', '☖']);
    let mut chars = body.chars();
    let to = if body.starts_with('同') {
        chars.next();
        while chars.as_str().starts_with(['　', ' ']) {
            chars.next();
        }
        previous.ok_or_else(|| format!("'{body}': 同 with no move before"))?
    } else {
        let file = chars.next().and_then(digit);
        let rank = chars.next().and_then(digit);
        match (file, rank) {
            (Some(f), Some(r)) => Square::from_file_rank(f, r).expect("1 to 5"),
            _ => return Err(format!("'{body}': no destination square")),
        }
    };
    let rest = chars.as_str();
    let (kind, len) = kind_from_kanji(rest).ok_or_else(|| format!("'{body}': no piece"))?;
    let rest = &rest[len..];
    if rest.starts_with('打') {
        if !kind.is_hand_kind() {
            return Err(format!("'{body}': that piece cannot be dropped"));
        }
        return Ok(Move::drop(kind, to));
    }
    let (promote, rest) = if let Some(r) = rest.strip_prefix("不成") {
        (false, r)
    } else if let Some(r) = rest.strip_prefix('成') {
        (true, r)
    } else {
        (false, rest)
    };
    let from = rest.strip_prefix('(').and_then(|r| {
        let mut c = r.chars();
        let f = c.next().and_then(digit)?;
        let rank = c.next().and_then(digit)?;
        Square::from_file_rank(f, rank)
    });
    match from {
        Some(from) if from != to => Ok(Move::board(from, to, promote)),
        Some(_) => Err(format!("'{body}': the piece does not move")),
        None => {
            // No origin given: the only legal move of that piece to that square.
            let candidates: Vec<Move> = pos
                .legal_moves()
                .iter()
                .copied()
                .filter(|m| {
                    m.to() == to
                        && !m.is_drop()
                        && m.is_promotion() == promote
                        && pos.moved_kind(*m) == Some(kind)
                })
                .collect();
            match candidates.as_slice() {
                [one] => Ok(*one),
                [] => Err(format!("'{body}': no such move")),
                _ => Err(format!("'{body}': ambiguous without its origin")),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Rng;

    #[test]
    fn japanese_moves() {
        let pos = Position::startpos();
        let mv = pos.parse_move("3e4d").unwrap();
        assert_eq!(japanese(&pos, mv, None), "４四銀");
        let pos = Position::from_sfen("k4/5/3B1/5/4K b G 1").unwrap();
        assert_eq!(
            japanese(&pos, pos.parse_move("G*5b").unwrap(), None),
            "５二金打"
        );
        assert_eq!(
            japanese(&pos, pos.parse_move("2c4a+").unwrap(), None),
            "４一角成"
        );
        assert_eq!(
            japanese(&pos, pos.parse_move("2c4a").unwrap(), None),
            "４一角不成"
        );
        let mv = pos.parse_move("2c3b").unwrap();
        assert_eq!(japanese(&pos, mv, Some(mv.to())), "同　角");
        assert_eq!(
            japanese_line(
                &Position::startpos(),
                &["3e4d".parse().unwrap(), "3a4b".parse().unwrap()]
            ),
            "▲４四銀 △４二銀"
        );
    }

    #[test]
    fn records_round_trip_over_random_games() {
        let mut rng = Rng::new(8);
        for g in 0..60 {
            let start = if g % 3 == 2 {
                Position::from_sfen("rbsgk/p4/5/4P/KGSBR b - 1").unwrap()
            } else {
                Position::startpos()
            };
            let moves = rng.random_game(&start, 20 + g * 3);
            let info = KifInfo {
                sente: "gogo".into(),
                gote: "fairy".into(),
                ending: Some("投了".into()),
                summary: Some("まで手で先手の勝ち".into()),
                // Comments are written and skipped when read.
                comments: vec![
                    "評価値 +12".into(),
                    String::new(),
                    "悪手\n最善 ▲４四銀".into(),
                ],
            };
            let text = write_kif(&start, &moves, &info);
            let (start_read, moves_read) =
                read_kif(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
            assert_eq!(start_read, start);
            assert_eq!(moves_read, moves);
            let third_move = text.lines().position(|l| l.starts_with("   3 ")).unwrap();
            let after: Vec<&str> = text.lines().skip(third_move + 1).take(2).collect();
            assert_eq!(after, ["*悪手", "*最善 ▲４四銀"], "{text}");
            assert!(text.contains("*評価値 +12"), "{text}");
        }
    }

    #[test]
    fn diagrams_round_trip() {
        let mut rng = Rng::new(3);
        let mut pos = Position::startpos();
        for _ in 0..200 {
            let legal = pos.legal_moves();
            if legal.is_empty() {
                pos = Position::startpos();
                continue;
            }
            pos.play(legal.as_slice()[rng.below(legal.len())]);
            let hands = [*pos.hand(Color::Sente), *pos.hand(Color::Gote)];
            let start = Position::from_parts(pos.board(), hands, pos.side_to_move(), 1).unwrap();
            let text = write_kif(&start, &[], &KifInfo::default());
            let (read, moves) = read_kif(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
            assert_eq!(read, start, "{text}");
            assert!(moves.is_empty());
        }
    }

    #[test]
    fn bad_records_are_refused() {
        assert!(matches!(
            read_kif("手合割：平手\n"),
            Err(RecordError::Syntax { line: 1, .. })
        ));
        assert!(matches!(
            read_kif("手合割：５五将棋\n   1 ４三銀(35)\n"),
            Err(RecordError::Move { number: 1, .. })
        ));
        assert!(matches!(
            read_kif("手合割：５五将棋\n   1 ９九銀(35)\n"),
            Err(RecordError::Syntax { line: 2, .. })
        ));
        assert!(matches!(
            read_kif("手合割：５五将棋\n   1 同　銀(35)\n"),
            Err(RecordError::Syntax { line: 2, .. })
        ));
        // A move without its origin is read when only one piece can make it.
        let (_, moves) = read_kif("手合割：５五将棋\n   1 ４四銀\n   2 投了\n").unwrap();
        assert_eq!(moves, vec!["3e4d".parse().unwrap()]);
    }
}
