// The page's state and constants: the pieces, the storage keys, `gogo` (the last state from
// the server and what the person is doing; also `window.gogo`, for the browser tests).

export const KANJI = { P: "歩", S: "銀", G: "金", B: "角", R: "飛", K: "玉", "+P": "と", "+S": "全", "+B": "馬", "+R": "龍" };
// The international set: a letter, and the piece's moves drawn around it (a dot for a step,
// a bar for a slide), for people who do not read kanji.
export const LETTER = { P: "P", S: "S", G: "G", B: "B", R: "R", K: "K", "+P": "P", "+S": "S", "+B": "B", "+R": "R" };
export const N = [0, -1], S = [0, 1], E = [1, 0], W = [-1, 0], NE = [1, -1], NW = [-1, -1], SE = [1, 1], SW = [-1, 1];
export const GOLD_STEPS = [N, NE, NW, E, W, S];
export const MOVES = {
  K: { steps: [N, NE, NW, E, W, S, SE, SW], slides: [] },
  G: { steps: GOLD_STEPS, slides: [] },
  S: { steps: [N, NE, NW, SE, SW], slides: [] },
  P: { steps: [N], slides: [] },
  B: { steps: [], slides: [NE, NW, SE, SW] },
  R: { steps: [], slides: [N, E, W, S] },
  "+P": { steps: GOLD_STEPS, slides: [] },
  "+S": { steps: GOLD_STEPS, slides: [] },
  "+B": { steps: [N, E, W, S], slides: [NE, NW, SE, SW] },
  "+R": { steps: [NE, NW, SE, SW], slides: [N, E, W, S] },
};
export const MARK_SIGN = { inaccuracy: "?!", mistake: "?", blunder: "??" };
// The welcome's pieces: each drawn in the middle of a 5x5 board with where it can go.
export const WELCOME_PIECES = [
  ["K", "King", "one step any way"],
  ["G", "Gold", "one step, not diagonally back"],
  ["S", "Silver", "one step diagonally, or straight ahead"],
  ["P", "Pawn", "one step ahead"],
  ["B", "Bishop", "any distance diagonally"],
  ["R", "Rook", "any distance straight"],
  ["+B", "Horse (promoted bishop)", "a bishop, or one step straight"],
  ["+R", "Dragon (promoted rook)", "a rook, or one step diagonally"],
];
export const CELL = 100, X0 = 10, Y0 = 25;
export const SVG_NS = "http://www.w3.org/2000/svg";
export const STORE = { welcomed: "gogo.welcomed", level: "gogo.level", pieces: "gogo.pieces", notation: "gogo.notation", sound: "gogo.sound", showLegal: "gogo.showLegal", alternate: "gogo.alternate", pause: "gogo.pause", game: "gogo.game", board: "gogo.board", puzzleRating: "gogo.puzzle.rating", puzzleProgress: "gogo.puzzle.progress", mode: "gogo.mode" };

export const gogo = {
  state: null,          // the last GameView from the server
  analysis: [],         // the last analysis lines
  review: null,         // the last review from the server
  hint: null,           // { usi, japanese, sfen } of the last hint
  exported: null,       // the last export (kif, csa, sfen)
  flipped: false,
  selected: null,       // { from: "5d" } or { drop: "G" }
  premoveFrom: null,    // the square of the piece chosen for a premove
  premove: null,        // { from, to }: a move made while the engine thinks, played when it can be
  viewPly: null,        // an earlier ply being viewed, or null for the game
  pendingPromotion: null,
  receivedAt: 0,
  socket: null,
  messages: 0,          // updates received (tests wait on it)
  exportWanted: null,
  lastRequest: null,    // the new_game request of the game being played, to keep it
  resumed: false,       // whether the server kept this page's board (a reload came back to it)
  restored: false,      // whether the kept game was sent after this connection opened
  puzzleMode: false,    // the board is in Puzzles mode
  puzzle: null,         // the last puzzle update from the server
  explorer: null,       // the last explorer answer (the book's moves for a position)
  explorerAsked: null,  // the SFEN last asked about
};
window.gogo = gogo;

export const $ = (id) => document.getElementById(id);
