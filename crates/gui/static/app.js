// The gogo board page: draws what the server says and sends what the person does. It never
// decides what is legal: the server sends the legal moves of the position and judges every
// move it receives. The game is kept in this browser's storage and played again on the
// server after a reload or a dropped connection.
"use strict";

const KANJI = { P: "歩", S: "銀", G: "金", B: "角", R: "飛", K: "玉", "+P": "と", "+S": "全", "+B": "馬", "+R": "龍" };
// The international set: a letter, and the piece's moves drawn around it (a dot for a step,
// a bar for a slide), for people who do not read kanji.
const LETTER = { P: "P", S: "S", G: "G", B: "B", R: "R", K: "K", "+P": "P", "+S": "S", "+B": "B", "+R": "R" };
const N = [0, -1], S = [0, 1], E = [1, 0], W = [-1, 0], NE = [1, -1], NW = [-1, -1], SE = [1, 1], SW = [-1, 1];
const GOLD_STEPS = [N, NE, NW, E, W, S];
const MOVES = {
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
const MARK_SIGN = { inaccuracy: "?!", mistake: "?", blunder: "??" };
// The welcome's pieces: each drawn in the middle of a 5x5 board with where it can go.
const WELCOME_PIECES = [
  ["K", "King", "one step any way"],
  ["G", "Gold", "one step, not diagonally back"],
  ["S", "Silver", "one step diagonally, or straight ahead"],
  ["P", "Pawn", "one step ahead"],
  ["B", "Bishop", "any distance diagonally"],
  ["R", "Rook", "any distance straight"],
  ["+B", "Horse (promoted bishop)", "a bishop, or one step straight"],
  ["+R", "Dragon (promoted rook)", "a rook, or one step diagonally"],
];
const CELL = 100, X0 = 10, Y0 = 25;
const SVG_NS = "http://www.w3.org/2000/svg";
const STORE = { welcomed: "gogo.welcomed", level: "gogo.level", pieces: "gogo.pieces", notation: "gogo.notation", sound: "gogo.sound", alternate: "gogo.alternate", pause: "gogo.pause", game: "gogo.game" };

const gogo = {
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
  restored: false,      // whether the kept game was sent after this connection opened
};
window.gogo = gogo;

const $ = (id) => document.getElementById(id);

// --- the connection and the kept game -----------------------------------------------------

function connect() {
  // The token in the page's address, which the server printed, opens the game too.
  const token = new URLSearchParams(location.search).get("token") || "";
  const socket = new WebSocket(`ws://${location.host}/ws?token=${encodeURIComponent(token)}`);
  gogo.socket = socket;
  gogo.restored = false;
  socket.onopen = () => { $("connection").textContent = "connected"; };
  socket.onclose = () => {
    if (gogo.socket !== socket) return;
    $("connection").textContent = "disconnected: reconnecting…";
    setTimeout(connect, 1000);
  };
  socket.onmessage = (event) => {
    const update = JSON.parse(event.data);
    gogo.messages += 1;
    switch (update.type) {
      case "state": onState(update); break;
      case "analysis": gogo.analysis = update.lines; renderAnalysis(); renderBoard(); break;
      case "mate": $("mate-result").textContent = `Mate search: ${update.text} ${notation() === "western" ? update.western : notation() === "usi" ? "" : update.japanese}`; break;
      case "hint": onHint(update); break;
      case "review": gogo.review = update; renderReview(); renderMoves(); renderGraph(); break;
      case "export": onExport(update); break;
      case "error": showMessage(update.message); break;
    }
  };
}

function send(request) {
  if (gogo.socket && gogo.socket.readyState === WebSocket.OPEN) {
    gogo.socket.send(JSON.stringify(request));
  }
}

// The game as this browser keeps it: how it was set up, and its moves.
function keepGame(state) {
  if (!gogo.lastRequest) return;
  const kept = { request: gogo.lastRequest, start: state.positions[0], moves: state.moves.map((m) => m.usi), ending: state.ending || null };
  localStorage.setItem(STORE.game, JSON.stringify(kept));
}

// After (re)connecting, the kept game is played again on the server, with how it ended when
// the rules did not end it (a resignation, a flag fall): a finished game comes back finished.
function restoreGame(state) {
  gogo.restored = true;
  let kept = null;
  try { kept = JSON.parse(localStorage.getItem(STORE.game) || "null"); } catch (e) { kept = null; }
  if (!kept || !kept.request || !Array.isArray(kept.moves)) return false;
  const same = state.positions[0] === kept.start && state.moves.length === kept.moves.length
    && state.moves.every((m, i) => m.usi === kept.moves[i])
    && JSON.stringify(state.ending || null) === JSON.stringify(kept.ending || null)
    && state.level === (kept.request.level || 0)
    && state.players[0] === kept.request.sente && state.players[1] === kept.request.gote;
  gogo.lastRequest = kept.request;
  if (same) return false;
  const request = Object.assign({}, kept.request, { start: kept.start, moves: kept.moves, ending: kept.ending || null });
  gogo.flipped = request.sente === "engine" && request.gote === "human";
  send(request);
  return true;
}

function showMessage(text) {
  // An answer that ends in an error (the game ended meanwhile) leaves no hint waiting.
  if ($("hint-text").textContent === "Hint: thinking…") $("hint-text").hidden = true;
  $("message-text").textContent = text;
  $("message").hidden = false;
  // The answer to a Load shows beside its button, and only there.
  if (gogo.loading) {
    gogo.loading = false;
    $("load-error").textContent = text;
    $("load-error").hidden = false;
    $("message").hidden = true;
  }
}

function clearMessage() { $("message").hidden = true; $("load-error").hidden = true; }

function onState(state) {
  const before = gogo.state;
  const changed = !before || before.positions.length !== state.positions.length
    || before.positions[0] !== state.positions[0];
  gogo.state = state;
  gogo.receivedAt = performance.now();
  if (!gogo.restored && restoreGame(state)) return;
  gogo.loading = false;
  if (changed) {
    gogo.selected = null;
    gogo.viewPly = null;
    gogo.pendingPromotion = null;
    gogo.review = null;
    gogo.hint = null;
    $("mate-result").textContent = "";
    $("hint-text").hidden = true;
    // Another game (not a move of this one): the last export was of the game before.
    if (before && (state.positions[0] !== before.positions[0] || state.moves.length < before.moves.length)) {
      $("export-text").value = "";
      gogo.premove = null;
      gogo.premoveFrom = null;
    }
    if (before && state.moves.length > before.moves.length) playSound();
  }
  if (before && before.result === null && state.result !== null) { gogo.analysis = []; renderAnalysis(); }
  keepGame(state);
  // Another game, or the end: a premove made for this one goes.
  if (!premoveColor() && !myTurn()) { gogo.premove = null; gogo.premoveFrom = null; }
  const analysing = $("analyze") && $("analyze").checked;
  const level = state.level ? ` (plays at level ${state.level}${analysing ? "; analysis at full strength" : ""})` : "";
  const engine = state.engine_ready ? `engine: ${state.engine}${level}` : "engine: starting…";
  $("engine-name").textContent = engine;
  render();
  playPremove();
}

// The notation setting: a move (or a line) as the person reads them. Japanese carries the
// mover's mark; Western and USI are written plain, as lishogi writes them.
function notation() { return $("notation").value; }
function moveText(m) {
  return { japanese: m.japanese, western: m.western, usi: m.usi }[notation()] || m.japanese;
}

function onHint(update) {
  const st = gogo.state;
  if (!st || update.sfen !== st.positions[st.positions.length - 1]) return;
  gogo.hint = update;
  const mark = st.turn === "sente" ? "▲" : "△";
  const text = notation() === "japanese" ? `${mark}${update.japanese} (${update.usi})` : moveText(update);
  $("hint-text").textContent = `Hint: ${text}`;
  $("hint-text").hidden = false;
  renderBoard();
}

function fileName(kind) {
  const st = gogo.state;
  const names = st.players.map((p) => (p === "human" ? "you" : st.engine + (st.level ? `-level${st.level}` : "")));
  const day = new Date().toISOString().slice(0, 10);
  return `${names[0]}-vs-${names[1]}-${day}`.replace(/[^A-Za-z0-9._-]+/g, "_") + `.${kind}`;
}

function onExport(update) {
  gogo.exported = update;
  const kind = gogo.exportWanted || "kif";
  gogo.exportWanted = null;
  const text = kind === "sfen" ? update.sfen : update[kind];
  $("export-text").value = text;
  if (kind === "sfen") {
    if (navigator.clipboard) navigator.clipboard.writeText(text).catch(() => {});
    return;
  }
  const blob = new Blob([text], { type: "text/plain;charset=utf-8" });
  const link = document.createElement("a");
  link.href = URL.createObjectURL(blob);
  link.download = fileName(kind);
  gogo.savedAs = link.download;
  link.click();
  setTimeout(() => URL.revokeObjectURL(link.href), 1000);
}

// Move sounds: a short click, off unless asked for.
let audio = null;
function playSound() {
  if (!$("sound").checked) return;
  try {
    audio = audio || new AudioContext();
    const osc = audio.createOscillator(), gain = audio.createGain();
    osc.frequency.value = 420;
    gain.gain.setValueAtTime(0.25, audio.currentTime);
    gain.gain.exponentialRampToValueAtTime(0.001, audio.currentTime + 0.08);
    osc.connect(gain).connect(audio.destination);
    osc.start();
    osc.stop(audio.currentTime + 0.09);
    gogo.sounds = (gogo.sounds || 0) + 1;
  } catch (e) { /* no audio here */ }
}

// --- the board ------------------------------------------------------------------------

function squareName(row, col) { return `${5 - col}${"abcde"[row]}`; }

function squareXY(name) {
  const col = 5 - Number(name[0]);
  const row = "abcde".indexOf(name[1]);
  const r = gogo.flipped ? 4 - row : row;
  const c = gogo.flipped ? 4 - col : col;
  return { x: X0 + c * CELL, y: Y0 + r * CELL };
}

function svgPoint(clientX, clientY) {
  const svg = $("board");
  const point = svg.createSVGPoint();
  point.x = clientX; point.y = clientY;
  return point.matrixTransform(svg.getScreenCTM().inverse());
}

function squareAt(clientX, clientY) {
  const p = svgPoint(clientX, clientY);
  const c = Math.floor((p.x - X0) / CELL), r = Math.floor((p.y - Y0) / CELL);
  if (c < 0 || c > 4 || r < 0 || r > 4) return null;
  return gogo.flipped ? squareName(4 - r, 4 - c) : squareName(r, c);
}

function el(name, attrs, parent) {
  const e = document.createElementNS(SVG_NS, name);
  for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
  if (parent) parent.appendChild(e);
  return e;
}

function pieceSet() { return $("piece-set").value; }

// A shogi piece: a pentagon pointing at the opponent, with its kanji, or its letter and moves.
function pieceShape(parent, kind, color, x, y, size) {
  const g = el("g", {}, parent);
  const s = size / 100;
  const turned = (color === "gote") !== gogo.flipped;
  g.setAttribute("transform", `translate(${x},${y}) scale(${s})` + (turned ? " rotate(180 50 50)" : ""));
  el("polygon", { points: "50,8 80,20 88,94 12,94 20,20", class: "piece-body" }, g);
  const promoted = kind.startsWith("+");
  if (pieceSet() === "international") {
    const moves = MOVES[kind] || { steps: [], slides: [] };
    for (const [dx, dy] of moves.steps) el("circle", { cx: 50 + dx * 27, cy: 56 + dy * 30, r: 4.5, class: "move-dot" }, g);
    for (const [dx, dy] of moves.slides) {
      el("line", { x1: 50 + dx * 19, y1: 56 + dy * 21, x2: 50 + dx * 31, y2: 56 + dy * 34, class: "move-slide" }, g);
    }
    const text = el("text", { x: 50, y: 58, class: "piece-letter" + (promoted ? " promoted" : "") }, g);
    text.textContent = LETTER[kind] || kind;
  } else {
    const text = el("text", { x: 50, y: 57, class: "piece-text" + (promoted ? " promoted" : "") }, g);
    text.textContent = kind === "K" && color === "gote" ? "王" : (KANJI[kind] || kind);
  }
  return g;
}

function displayed() {
  const st = gogo.state;
  if (gogo.viewPly === null) return { sfen: st.positions[st.positions.length - 1], live: true, ply: st.moves.length };
  return { sfen: st.positions[gogo.viewPly], live: false, ply: gogo.viewPly };
}

// Pieces and hands of an SFEN (for viewing earlier positions; the live one comes parsed).
function parseSfen(sfen) {
  const [boardText, side, handText] = sfen.split(" ");
  const board = [];
  boardText.split("/").forEach((rank, row) => {
    let col = 0, promoted = false;
    for (const ch of rank) {
      if (ch === "+") { promoted = true; continue; }
      if (/[1-5]/.test(ch)) { col += Number(ch); continue; }
      const color = ch === ch.toUpperCase() ? "sente" : "gote";
      board.push({ square: squareName(row, col), color, kind: (promoted ? "+" : "") + ch.toUpperCase() });
      col += 1; promoted = false;
    }
  });
  const hands = [[], []];
  if (handText && handText !== "-") {
    let count = "";
    for (const ch of handText) {
      if (/[0-9]/.test(ch)) { count += ch; continue; }
      const i = ch === ch.toUpperCase() ? 0 : 1;
      hands[i].push([ch.toUpperCase(), Number(count || "1")]);
      count = "";
    }
  }
  return { board, hands, turn: side === "b" ? "sente" : "gote" };
}

function shownPosition() {
  const st = gogo.state;
  const view = displayed();
  return { view, shown: view.live ? { board: st.board, hands: st.hands, turn: st.turn } : parseSfen(view.sfen) };
}

function render() {
  if (!gogo.state) return;
  renderBoard();
  const { view, shown } = shownPosition();
  renderHands(shown.hands, view.live);
  renderPlayers();
  renderStatus();
  renderMoves();
  renderReview();
  renderAnalysis();
  renderGraph();
}

// An arrow for a move on the board (a ring on the square for a drop).
function drawArrow(svg, usi, kind) {
  if (!usi || usi.length < 4) return;
  const to = squareXY(usi.slice(2, 4));
  const tx = to.x + CELL / 2, ty = to.y + CELL / 2;
  if (usi[1] === "*") {
    el("circle", { cx: tx, cy: ty, r: 40, class: `arrow ${kind}`, "data-move": usi, fill: "none" }, svg);
    return;
  }
  const from = squareXY(usi.slice(0, 2));
  const fx = from.x + CELL / 2, fy = from.y + CELL / 2;
  const len = Math.hypot(tx - fx, ty - fy);
  const ex = tx - ((tx - fx) / len) * 18, ey = ty - ((ty - fy) / len) * 18;
  el("line", { x1: fx, y1: fy, x2: ex, y2: ey, class: `arrow ${kind}`, "data-move": usi, "marker-end": `url(#head-${kind})` }, svg);
}

function renderBoard() {
  const st = gogo.state;
  if (!st) return;
  const { view, shown } = shownPosition();
  const svg = $("board");
  svg.setAttribute("data-sfen", view.sfen);
  svg.setAttribute("data-turn", shown.turn);
  svg.setAttribute("data-pieces", pieceSet());
  svg.innerHTML = "";
  const defs = el("defs", {}, svg);
  for (const kind of ["hint", "best", "better"]) {
    const marker = el("marker", { id: `head-${kind}`, viewBox: "0 0 10 10", refX: 5, refY: 5, markerWidth: 4, markerHeight: 4, orient: "auto-start-reverse" }, defs);
    el("path", { d: "M 0 0 L 10 5 L 0 10 z", class: `arrowhead ${kind}` }, marker);
  }
  for (let c = 0; c < 5; c++) {
    const file = gogo.flipped ? c + 1 : 5 - c;
    el("text", { x: X0 + c * CELL + 50, y: 12, class: "coord" }, svg).textContent = String(file);
  }
  for (let r = 0; r < 5; r++) {
    const rank = gogo.flipped ? 4 - r : r;
    el("text", { x: 525, y: Y0 + r * CELL + 50, class: "coord" }, svg).textContent = "abcde"[rank];
  }
  const targets = view.live ? targetSquares() : new Set();
  const last = view.ply > 0 ? st.moves[view.ply - 1].usi : null;
  const lastTo = last ? last.slice(2, 4) : null;
  const lastFrom = last && last[1] !== "*" ? last.slice(0, 2) : null;
  let checkSquare = null;
  if (view.live && st.in_check) {
    const king = st.board.find((p) => p.kind === "K" && p.color === st.turn);
    if (king) checkSquare = king.square;
  }
  for (let r = 0; r < 5; r++) {
    for (let c = 0; c < 5; c++) {
      const name = gogo.flipped ? squareName(4 - r, 4 - c) : squareName(r, c);
      const classes = ["square"];
      if (name === lastTo) classes.push("last");
      if (name === lastFrom) classes.push("last-from");
      if (name === checkSquare) classes.push("check");
      if (gogo.selected && gogo.selected.from === name) classes.push("selected");
      if (gogo.premoveFrom === name) classes.push("selected");
      if (gogo.premove && (gogo.premove.from === name || gogo.premove.to === name)) classes.push("premove");
      if (targets.has(name)) classes.push("target");
      el("rect", { x: X0 + c * CELL, y: Y0 + r * CELL, width: CELL, height: CELL, class: classes.join(" "), "data-square": name }, svg);
    }
  }
  for (const p of shown.board) {
    const { x, y } = squareXY(p.square);
    const g = pieceShape(svg, p.kind, p.color, x + 2, y + 2, 96);
    g.classList.add("piece");
    if (drag && drag.ghost && drag.from === p.square) g.classList.add("lifted");
    g.setAttribute("data-square", p.square);
    g.setAttribute("data-color", p.color);
    g.setAttribute("data-kind", p.kind);
  }
  // Arrows: the analysis's best move and the hint on the game's position; on an earlier
  // position of a reviewed game, the better move than the one played there.
  if (view.live) {
    const best = gogo.analysis.find((l) => l && l.multipv === 1);
    if (best && best.pv.length > 0 && $("analyze").checked) drawArrow(svg, best.pv[0], "best");
    if (gogo.hint && gogo.hint.sfen === view.sfen) drawArrow(svg, gogo.hint.usi, "hint");
  }
  const reviewed = gogo.review && gogo.review.moves.find((m) => m.ply === view.ply + 1);
  if (reviewed && reviewed.mark && reviewed.best && !view.live) drawArrow(svg, reviewed.best, "better");
  if (drag && drag.ghost) svg.appendChild(drag.ghost);
  $("viewing").hidden = view.live;
  $("promotion").hidden = !gogo.pendingPromotion;
  renderEvalBar();
}

function renderHands(hands, live) {
  const bottomColor = gogo.flipped ? "gote" : "sente";
  for (const [where, color] of [["bottom", bottomColor], ["top", bottomColor === "sente" ? "gote" : "sente"]]) {
    const box = $(`hand-${where}`);
    box.innerHTML = "";
    box.setAttribute("data-color", color);
    const pieces = hands[color === "sente" ? 0 : 1];
    for (const [kind, count] of pieces) {
      const div = document.createElement("div");
      div.className = "hand-piece";
      div.setAttribute("data-kind", kind);
      div.setAttribute("data-color", color);
      div.setAttribute("data-count", count);
      if (live && gogo.selected && gogo.selected.drop === kind && gogo.state.turn === color) div.classList.add("selected");
      const svg = el("svg", { viewBox: "0 0 100 100", width: 48, height: 52 });
      pieceShape(svg, kind, color, 0, 0, 100);
      div.appendChild(svg);
      if (count > 1) {
        const n = document.createElement("span");
        n.className = "count";
        n.textContent = count;
        div.appendChild(n);
      }
      div.addEventListener("click", () => clickHand(kind, color));
      box.appendChild(div);
    }
  }
}

function formatClock(ms) {
  const t = Math.max(0, ms);
  const m = Math.floor(t / 60000), s = Math.floor((t % 60000) / 1000), tenth = Math.floor((t % 1000) / 100);
  return `${m}:${String(s).padStart(2, "0")}.${tenth}`;
}

function playerName(i) {
  const st = gogo.state;
  // A loaded record's own players, not this board's.
  if (st.names && st.names[i]) return st.names[i];
  if (st.players[i] === "human") return st.players[0] === st.players[1] ? "person" : "you";
  const name = st.engine_ready ? st.engine : "engine";
  return st.level ? `${name} (level ${st.level})` : name;
}

function renderPlayers() {
  const st = gogo.state;
  const bottom = gogo.flipped ? 1 : 0;
  for (const [where, i] of [["bottom", bottom], ["top", 1 - bottom]]) {
    const label = $(`label-${where}`);
    label.textContent = `${i === 0 ? "▲ Sente" : "△ Gote"} — ${playerName(i)}`;
    const toMove = !st.result && (st.turn === "sente" ? 0 : 1) === i;
    label.classList.toggle("to-move", toMove);
  }
  renderClocks();
}

function renderClocks() {
  const st = gogo.state;
  const bottom = gogo.flipped ? 1 : 0;
  for (const [where, i] of [["bottom", bottom], ["top", 1 - bottom]]) {
    const box = $(`clock-${where}`);
    if (!st || !st.clock) { box.textContent = ""; box.className = "clock"; continue; }
    let main = st.clock.main_ms[i];
    let byoyomi = st.clock.byoyomi_ms;
    const running = st.clock.running === i && !st.result;
    if (running) {
      let spent = performance.now() - gogo.receivedAt;
      const fromMain = Math.min(spent, main);
      main -= fromMain; spent -= fromMain;
      byoyomi = Math.max(0, byoyomi - spent);
    }
    // The side that lost on time has nothing left, byoyomi included.
    const flagged = st.result && st.reason === "time forfeit" && ((st.result === "1-0") === (i === 1));
    if (flagged) { main = 0; byoyomi = 0; }
    box.textContent = formatClock(main) + (st.clock.byoyomi_ms > 0 && !flagged ? ` +${formatClock(byoyomi)}` : "");
    box.className = "clock" + (running ? " running" : "") + ((running && main <= 0 && byoyomi < 10000) || flagged ? " low" : "");
  }
}
setInterval(renderClocks, 100);

// Whose turn it is, and whether the engine is thinking.
function renderStatus() {
  const st = gogo.state;
  const turn = $("turn");
  const side = st.turn === "sente" ? "▲ Sente" : "△ Gote";
  const i = st.turn === "sente" ? 0 : 1;
  let text;
  if (st.result) text = "Game over.";
  else if (st.thinking) text = `${side}: the engine is thinking…`;
  else if (st.players[i] === "human") text = st.players[0] === st.players[1] ? `${side} to move.` : `Your move (${side}).`;
  else text = `${side}: the engine's move.`;
  if (!st.result && st.in_check) text += " Check!";
  turn.textContent = text;
  turn.className = "turn" + (st.thinking ? " thinking" : "");
  const box = $("result");
  if (!st.result) { box.hidden = true; box.textContent = ""; } else {
    // Against the engine, the result speaks to the person.
    const winner = st.result === "1-0" ? 0 : st.result === "0-1" ? 1 : null;
    const against = st.players[0] !== st.players[1];
    const named = winner === null ? "Draw" : winner === 0 ? "Sente wins" : "Gote wins";
    const who = against && winner !== null ? (st.players[winner] === "human" ? "You win" : "You lose") : named;
    box.textContent = `${who} (${st.result}) by ${st.reason}`;
    box.setAttribute("data-result", st.result);
    box.hidden = false;
  }
  const limit = st.max_plies ? ` · draw at ${st.max_plies} plies` : "";
  $("turn").title = `rules: ${st.rules}${limit}`;
  renderControls();
}

// Controls that would do nothing now are disabled, with the reason as their title.
function renderControls() {
  const st = gogo.state;
  const live = !st.result;
  const i = st.turn === "sente" ? 0 : 1;
  const lost = st.ending && (st.ending.kind === "resignation" || st.ending.kind === "time");
  const set = (id, enabled, why) => {
    const b = $(id);
    if (!b.hasAttribute("data-title")) b.setAttribute("data-title", b.title || "");
    b.disabled = !enabled;
    if (enabled) b.removeAttribute("data-why"); else b.setAttribute("data-why", why);
    b.title = enabled ? (b.getAttribute("data-title") || "") : why;
  };
  set("takeback", st.moves.length > 0 && !lost, lost ? "a game lost by resignation or on time stays lost" : "no move to take back");
  set("resign", live && st.players.includes("human"), live ? "no person plays in this game" : "the game is over");
  set("hint", live && st.players[i] === "human", live ? "it is not your move" : "the game is over");
  set("review-button", !gameInProgress() && st.moves.length > 0, st.moves.length === 0 ? "no move to review" : "finish the game first (or start one between two people)");
  if (!live && $("hint-text").textContent === "Hint: thinking…") $("hint-text").hidden = true;
}

// The record: moves paired by number, marks of the review, the current move in view.
function renderMoves() {
  const st = gogo.state;
  const body = $("moves").tBodies[0];
  body.innerHTML = "";
  const marks = new Map();
  if (gogo.review) for (const m of gogo.review.moves) marks.set(m.ply, m.mark);
  const goteFirst = st.positions[0].split(" ")[1] === "w";
  const current = gogo.viewPly === null ? st.moves.length : gogo.viewPly;
  let row = null, number = Number(st.positions[0].split(" ")[3] || 1);
  const cells = [];
  st.moves.forEach((m, i) => {
    const sente = (i % 2 === 0) !== goteFirst;
    if (!row || sente) {
      row = body.insertRow();
      const th = document.createElement("th");
      th.textContent = String(Math.ceil((number + i) / 2 + (goteFirst ? 0.5 : 0)));
      row.appendChild(th);
      if (!sente) row.insertCell().className = "empty";
    }
    const td = row.insertCell();
    td.textContent = moveText(m);
    td.title = m.usi;
    td.setAttribute("data-ply", i + 1);
    const mark = marks.get(i + 1);
    if (mark) {
      const sign = document.createElement("span");
      sign.className = `mark ${mark}`;
      sign.textContent = MARK_SIGN[mark];
      td.appendChild(sign);
    }
    if (i + 1 === current) td.className = "current";
    td.addEventListener("click", () => viewPly(i + 1));
    cells.push(td);
  });
  // The current move in view (the start: the top).
  const box = $("moves-box");
  const shown = cells[current - 1];
  if (!shown) { box.scrollTop = 0; return; }
  const b = box.getBoundingClientRect(), c = shown.getBoundingClientRect();
  if (c.bottom > b.bottom) box.scrollTop += c.bottom - b.bottom + 2;
  else if (c.top < b.top) box.scrollTop -= b.top - c.top + 2;
}

function viewPly(ply) {
  const st = gogo.state;
  if (!st) return;
  const p = Math.max(0, Math.min(ply, st.moves.length));
  gogo.viewPly = p === st.moves.length ? null : p;
  gogo.selected = null;
  gogo.pendingPromotion = null;
  render();
}

function currentPly() { return gogo.viewPly === null ? gogo.state.moves.length : gogo.viewPly; }

function renderReview() {
  const r = gogo.review;
  const progress = $("review-progress");
  const note = $("review-note");
  const table = $("review-summary");
  if (!r) { progress.hidden = true; note.hidden = true; table.hidden = true; return; }
  progress.hidden = false;
  progress.max = r.total;
  progress.value = r.done;
  progress.title = `${r.done} of ${r.total} positions at ${r.millis} ms`;
  const m = gogo.state && r.moves.find((x) => x.ply === currentPly());
  if (m) {
    const played = moveText(gogo.state.moves[m.ply - 1]);
    let text = `${m.ply}. ${played}: ${scoreText(m.score) || "end"} (Sente ${(m.sente_win * 100).toFixed(0)}%)`;
    if (m.mark) text += ` — ${m.mark}, −${(m.loss * 100).toFixed(0)}%`;
    const better = { japanese: m.best_japanese, western: m.best_western, usi: m.best }[notation()];
    if (m.mark && better) text += `; better ${better}`;
    note.textContent = text;
    note.hidden = false;
  } else {
    note.hidden = true;
  }
  if (!r.summary) { table.hidden = true; return; }
  table.innerHTML = "<tr><th></th><th>▲ Sente</th><th>△ Gote</th></tr>";
  const rows = [["average loss", (s) => `${(s.average_loss * 100).toFixed(1)}%`],
    ["inaccuracies ?!", (s) => s.inaccuracies], ["mistakes ?", (s) => s.mistakes], ["blunders ??", (s) => s.blunders]];
  for (const [name, value] of rows) {
    const tr = table.insertRow();
    tr.insertCell().textContent = name;
    for (const s of r.summary) tr.insertCell().textContent = value(s);
  }
  table.hidden = false;
}

function scoreText(score) {
  if (!score) return "";
  if (score.kind === "mate") return score.plies > 0 ? `Sente mates in ${score.plies}` : `Gote mates in ${-score.plies}`;
  const v = score.value / 100;
  return (v > 0 ? "+" : "") + v.toFixed(2);
}

function renderAnalysis() {
  const box = $("analysis");
  box.innerHTML = "";
  const st = gogo.state;
  if (!$("analyze").checked) return;
  if (st && st.result && gogo.analysis.length === 0) { box.textContent = "The game is over."; return; }
  if (gogo.viewPly !== null) {
    box.textContent = "The analysis follows the game's position: go back to the game to see it.";
    box.className = "stale";
    return;
  }
  box.className = "";
  for (const line of gogo.analysis) {
    if (!line) continue;
    const div = document.createElement("div");
    div.className = "line";
    div.setAttribute("data-multipv", line.multipv);
    div.setAttribute("data-depth", line.depth);
    const chance = line.sente_win == null ? "" : ` (Sente ${(line.sente_win * 100).toFixed(0)}%)`;
    const nps = line.nps ? ` · ${(line.nps / 1000).toFixed(0)} kN/s` : "";
    div.innerHTML = `<span class="score"></span>${chance} · depth ${line.depth}${nps}<div class="ja"></div><div class="pv"></div>`;
    div.querySelector(".score").textContent = `#${line.multipv} ${scoreText(line.score)}`;
    // The line in the chosen notation, with USI under it unless that is the choice.
    div.querySelector(".ja").textContent = notation() === "western" ? line.pv_western : notation() === "usi" ? "" : line.pv_japanese;
    div.querySelector(".pv").textContent = line.pv.join(" ");
    box.appendChild(div);
  }
  renderEvalBar();
}

// The bar shows the winning chance of the side at the bottom, once there is one to show.
function renderEvalBar() {
  const best = gogo.analysis.find((l) => l && l.multipv === 1);
  const bar = $("eval-bar");
  if (!best || best.sente_win == null || gogo.viewPly !== null) { bar.className = "empty"; return; }
  const bottom = gogo.flipped ? 1 - best.sente_win : best.sente_win;
  bar.className = "";
  $("eval-fill").style.height = `${(bottom * 100).toFixed(1)}%`;
}

function renderGraph() {
  const svg = $("graph");
  const st = gogo.state;
  if (!st) return;
  svg.innerHTML = "";
  el("line", { x1: 0, y1: 45, x2: 300, y2: 45, stroke: "#bbb", "stroke-width": 1 }, svg);
  const scores = st.scores.slice();
  if (gogo.review) { scores[0] = scores[0] == null ? 0.5 : scores[0]; for (const m of gogo.review.moves) scores[m.ply] = m.sente_win; }
  const n = Math.max(scores.length - 1, 1);
  const points = [];
  // Sente's chance 1 at the top, 0 at the bottom, inside a margin so that marks are whole.
  const y = (chance) => 85 - chance * 80;
  scores.forEach((s, i) => { if (s != null) points.push(`${(i / n) * 300},${y(s)}`); });
  if (points.length > 0) el("polyline", { points: points.join(" "), fill: "none", stroke: "#3b2a14", "stroke-width": 2 }, svg);
  if (gogo.review) {
    for (const m of gogo.review.moves) {
      if (m.mark) el("circle", { cx: (m.ply / n) * 300, cy: y(m.sente_win), r: 3, class: `graph-mark ${m.mark}` }, svg);
    }
  }
  const x = (currentPly() / n) * 300;
  el("line", { x1: x, y1: 0, x2: x, y2: 90, class: "graph-now" }, svg);
}

// --- moving ---------------------------------------------------------------------------

function myTurn() {
  const st = gogo.state;
  return st && !st.result && gogo.viewPly === null && st.legal.length > 0;
}

function targetSquares() {
  const set = new Set();
  if (!gogo.selected || !myTurn()) return set;
  for (const mv of gogo.state.legal) {
    if (gogo.selected.from && mv.startsWith(gogo.selected.from) && mv[1] !== "*") set.add(mv.slice(2, 4));
    if (gogo.selected.drop && mv.startsWith(`${gogo.selected.drop}*`)) set.add(mv.slice(2, 4));
  }
  return set;
}

function clickHand(kind, color) {
  if (!myTurn() || gogo.state.turn !== color) return;
  gogo.selected = gogo.selected && gogo.selected.drop === kind ? null : { drop: kind };
  render();
}

function sendMove(usi) {
  gogo.selected = null;
  gogo.hint = null;
  $("hint-text").hidden = true;
  clearMessage();
  send({ type: "move", usi });
}

const PIECE_NAME = { P: "pawn", S: "silver", G: "gold", B: "bishop", R: "rook", K: "king" };

function tryMove(to) {
  const sel = gogo.selected;
  if (!sel) return false;
  if (sel.drop) {
    const mv = `${sel.drop}*${to}`;
    if (gogo.state.legal.includes(mv)) { sendMove(mv); return true; }
    return false;
  }
  const plain = `${sel.from}${to}`, promoted = `${plain}+`;
  const canPlain = gogo.state.legal.includes(plain), canPromote = gogo.state.legal.includes(promoted);
  if (canPlain && canPromote) {
    const piece = gogo.state.board.find((p) => p.square === sel.from);
    const name = piece ? PIECE_NAME[piece.kind] || piece.kind : "piece";
    $("promotion-question").textContent = `Promote the ${name} moving ${sel.from} → ${to}?`;
    gogo.pendingPromotion = plain;
    render();
    return true;
  }
  if (canPlain || canPromote) {
    sendMove(canPromote ? promoted : plain);
    return true;
  }
  return false;
}

function cancelPromotion() {
  if (!gogo.pendingPromotion) return;
  gogo.pendingPromotion = null;
  gogo.selected = null;
  render();
}

// The person's colour while the engine thinks on its move in their game: then a move may be
// premoved. `null` otherwise.
function premoveColor() {
  const st = gogo.state;
  if (!st || st.result || gogo.viewPly !== null || st.legal.length > 0) return null;
  const i = st.turn === "sente" ? 0 : 1;
  if (st.players[i] !== "engine" || st.players[1 - i] !== "human") return null;
  return i === 0 ? "gote" : "sente";
}

// A click while the engine thinks: choose one of your pieces, then where it goes. The
// premove is played as soon as it is your move, if it is legal then (promoting when it can);
// a click elsewhere, or Esc, takes it back.
function premoveClick(name, color) {
  const piece = gogo.state.board.find((p) => p.square === name);
  if (gogo.premoveFrom && name !== gogo.premoveFrom) {
    gogo.premove = { from: gogo.premoveFrom, to: name };
    gogo.premoveFrom = null;
  } else if (piece && piece.color === color && name !== gogo.premoveFrom) {
    gogo.premoveFrom = name;
    gogo.premove = null;
  } else {
    gogo.premoveFrom = null;
    gogo.premove = null;
  }
  renderBoard();
}

// Plays the premove, if there is one and it is legal now.
function playPremove() {
  const pre = gogo.premove;
  if (!pre || !myTurn()) return;
  gogo.premove = null;
  const plain = `${pre.from}${pre.to}`;
  const legal = gogo.state.legal;
  if (legal.includes(`${plain}+`)) sendMove(`${plain}+`);
  else if (legal.includes(plain)) sendMove(plain);
}

function cancelPremove() {
  if (!gogo.premove && !gogo.premoveFrom) return;
  gogo.premove = null;
  gogo.premoveFrom = null;
  renderBoard();
}

function clickSquare(name) {
  if (gogo.pendingPromotion) { cancelPromotion(); return; }
  if (!myTurn()) {
    const color = premoveColor();
    if (color) premoveClick(name, color);
    return;
  }
  if (gogo.selected && tryMove(name)) { render(); return; }
  const st = gogo.state;
  const piece = st.board.find((p) => p.square === name);
  if (piece && piece.color === st.turn && st.legal.some((m) => m.startsWith(name))) {
    gogo.selected = gogo.selected && gogo.selected.from === name ? null : { from: name };
  } else {
    gogo.selected = null;
  }
  render();
}

// Dragging: the piece follows the pointer and is put down where it is let go.
let drag = null;
function setupBoard() {
  const svg = $("board");
  svg.addEventListener("pointerdown", (e) => {
    const name = squareAt(e.clientX, e.clientY);
    if (!name) return;
    drag = { from: name, x: e.clientX, y: e.clientY, moved: false, ghost: null };
  });
  svg.addEventListener("pointermove", (e) => {
    if (!drag) return;
    if (!drag.moved && Math.hypot(e.clientX - drag.x, e.clientY - drag.y) > 8) {
      drag.moved = true;
      const st = gogo.state;
      const piece = st && st.board.find((p) => p.square === drag.from);
      if (myTurn() && piece && piece.color === st.turn) {
        gogo.selected = { from: drag.from };
        drag.ghost = pieceShape(null, piece.kind, piece.color, 0, 0, 96);
        drag.ghost.classList.add("ghost");
        renderBoard();
      }
    }
    if (drag.ghost) {
      const p = svgPoint(e.clientX, e.clientY);
      const base = drag.ghost.getAttribute("transform").replace(/^translate\([^)]*\)/, "");
      drag.ghost.setAttribute("transform", `translate(${p.x - 48},${p.y - 48})${base}`);
    }
  });
  svg.addEventListener("pointerup", (e) => {
    const name = squareAt(e.clientX, e.clientY);
    const d = drag;
    drag = null;
    if (d && d.ghost) {
      if (!name || name === d.from || !tryMove(name)) gogo.selected = null;
      renderBoard();
      return;
    }
    if (!name) return;
    clickSquare(name);
  });
}

// A button that asks to be pressed again before it acts.
function confirmButton(button, question, needed, action) {
  const label = button.textContent;
  button.onclick = () => {
    if (!needed() || button.classList.contains("confirm")) {
      button.classList.remove("confirm");
      button.textContent = label;
      action();
      return;
    }
    button.classList.add("confirm");
    button.textContent = question;
    setTimeout(() => { button.classList.remove("confirm"); button.textContent = label; }, 4000);
  };
}

function gameInProgress() {
  const st = gogo.state;
  return st && !st.result && st.moves.length > 0 && st.players.includes("engine") && st.players.includes("human");
}

function newGameRequest() {
  const side = $("ng-side").value;
  const players = { sente: ["human", "engine"], gote: ["engine", "human"], both: ["human", "human"], watch: ["engine", "engine"] }[side];
  let start = $("ng-start").value;
  if (start === "sfen") start = $("ng-sfen").value.trim();
  const main = Math.round(Number($("ng-main").value) * 1000);
  const extra = Math.round(Number($("ng-extra").value) * 1000);
  const engineMs = Math.max(1, Math.round(Number($("ng-engine").value) * 1000));
  const clockKind = $("ng-clock").value;
  const clock = clockKind === "byoyomi" ? { kind: "byoyomi", main_ms: main, byoyomi_ms: extra }
    : clockKind === "fischer" ? { kind: "fischer", main_ms: main, increment_ms: extra }
    : { kind: "none", engine_ms: engineMs };
  gogo.flipped = side === "gote";
  const level = Number($("ng-level").value);
  const maxPlies = Math.max(0, Math.round(Number($("ng-max-plies").value) || 0));
  return { type: "new_game", start, rules: $("ng-rules").value, sente: players[0], gote: players[1], clock, level, max_plies: maxPlies, thinking_pause: $("ng-pause").checked, moves: [] };
}

function showClockFields() {
  const timed = $("ng-clock").value !== "none";
  for (const e of document.querySelectorAll("#new-game-dialog .timed")) e.hidden = !timed;
  for (const e of document.querySelectorAll("#new-game-dialog .untimed")) e.hidden = timed;
}

function openNewGameDialog() {
  // Alternating: the person takes the other side from the last game.
  if ($("ng-alternate").checked && gogo.lastRequest) {
    const last = gogo.lastRequest;
    if (last.sente === "human" && last.gote === "engine") $("ng-side").value = "gote";
    if (last.sente === "engine" && last.gote === "human") $("ng-side").value = "sente";
  }
  showClockFields();
  $("new-game-dialog").hidden = false;
}

// The welcome: the rules in brief and the pieces, drawn with the page's own pieces in the
// piece set chosen; shown on the first visit and from "How to play".
function openWelcome() {
  const box = $("welcome-pieces");
  box.innerHTML = "";
  const flipped = gogo.flipped;
  gogo.flipped = false;
  for (const [kind, name, note] of WELCOME_PIECES) {
    const figure = document.createElement("figure");
    const svg = el("svg", { viewBox: "0 0 150 150", "data-kind": kind }, figure);
    for (let r = 0; r < 5; r++) for (let c = 0; c < 5; c++) el("rect", { x: c * 30, y: r * 30, width: 30, height: 30, class: "square" }, svg);
    const moves = MOVES[kind];
    for (const [dx, dy] of moves.steps) el("circle", { cx: 75 + dx * 30, cy: 75 + dy * 30, r: 6, class: "move-dot" }, svg);
    for (const [dx, dy] of moves.slides) for (const k of [1, 2]) el("circle", { cx: 75 + dx * 30 * k, cy: 75 + dy * 30 * k, r: 6, class: "move-dot" }, svg);
    pieceShape(svg, kind, "sente", 60, 59, 31);
    const caption = document.createElement("figcaption");
    caption.textContent = `${name}: ${note}`;
    figure.appendChild(caption);
    box.appendChild(figure);
  }
  gogo.flipped = flipped;
  $("welcome").hidden = false;
}

function closeWelcome() {
  $("welcome").hidden = true;
  localStorage.setItem(STORE.welcomed, "yes");
}

function remember(id, key, kind) {
  const e = $(id);
  const saved = localStorage.getItem(key);
  if (saved !== null) {
    if (kind === "check") e.checked = saved === "true";
    else if (e.querySelector(`option[value="${saved}"]`)) e.value = saved;
  }
  e.addEventListener("change", () => localStorage.setItem(key, kind === "check" ? String(e.checked) : e.value));
}

function setup() {
  setupBoard();
  remember("ng-level", STORE.level, "select");
  remember("piece-set", STORE.pieces, "select");
  // Until chosen, the notation follows the piece set: Western with the letters.
  if (localStorage.getItem(STORE.notation) === null) $("notation").value = $("piece-set").value === "international" ? "western" : "japanese";
  remember("notation", STORE.notation, "select");
  $("piece-set").addEventListener("change", () => {
    if (localStorage.getItem(STORE.notation) === null) $("notation").value = $("piece-set").value === "international" ? "western" : "japanese";
    render();
  });
  $("notation").addEventListener("change", render);
  remember("sound", STORE.sound, "check");
  remember("ng-alternate", STORE.alternate, "check");
  remember("ng-pause", STORE.pause, "check");
  $("piece-set").addEventListener("change", render);
  $("new-game").onclick = openNewGameDialog;
  $("ng-cancel").onclick = () => { $("new-game-dialog").hidden = true; };
  $("ng-start").onchange = () => { $("ng-sfen").hidden = $("ng-start").value !== "sfen"; };
  $("ng-clock").onchange = showClockFields;
  const playFromWelcome = () => {
    gogo.firstVisit = false;
    closeWelcome();
    clearMessage();
    $("ng-level").value = $("welcome-level").value;
    localStorage.setItem(STORE.level, $("ng-level").value);
    $("ng-side").value = "sente";
    const request = newGameRequest();
    gogo.lastRequest = Object.assign({}, request, { moves: [] });
    send(request);
  };
  $("welcome-open").onclick = openWelcome;
  $("welcome-play").onclick = playFromWelcome;
  // Closed on a first visit, the welcome still starts the game at its level: a first game is
  // never at full strength unless chosen.
  $("welcome-close").onclick = () => (gogo.firstVisit ? playFromWelcome() : closeWelcome());
  if (localStorage.getItem(STORE.welcomed) === null) {
    gogo.firstVisit = true;
    openWelcome();
  }
  $("ng-start-button").onclick = () => {
    $("new-game-dialog").hidden = true;
    clearMessage();
    const request = newGameRequest();
    gogo.lastRequest = Object.assign({}, request, { moves: [] });
    send(request);
  };
  $("takeback").onclick = () => { clearMessage(); send({ type: "takeback" }); };
  confirmButton($("resign"), "Really resign?", () => true, () => send({ type: "resign" }));
  confirmButton($("load-button"), "Replace the game? Load", gameInProgress, () => {
    clearMessage();
    gogo.loading = true;
    send({ type: "load", text: $("load-text").value });
  });
  $("hint").onclick = () => { clearMessage(); $("hint-text").textContent = "Hint: thinking…"; $("hint-text").hidden = false; send({ type: "hint" }); };
  $("flip").onclick = () => { gogo.flipped = !gogo.flipped; render(); };
  $("back-to-game").onclick = () => viewPly(Infinity);
  $("message-close").onclick = clearMessage;
  $("nav-first").onclick = () => viewPly(0);
  $("nav-prev").onclick = () => viewPly(currentPly() - 1);
  $("nav-next").onclick = () => viewPly(currentPly() + 1);
  $("nav-last").onclick = () => viewPly(Infinity);
  $("graph").addEventListener("click", (e) => {
    if (!gogo.state) return;
    const box = $("graph").getBoundingClientRect();
    viewPly(Math.round(((e.clientX - box.left) / box.width) * Math.max(gogo.state.moves.length, 1)));
  });
  document.addEventListener("keydown", (e) => {
    if (e.target.matches && e.target.matches("input, textarea, select")) return;
    if (e.key === "Escape") {
      cancelPromotion();
      cancelPremove();
      $("new-game-dialog").hidden = true;
      if (!$("welcome").hidden) $("welcome-close").click();
      return;
    }
    const keys = { ArrowLeft: () => viewPly(currentPly() - 1), ArrowRight: () => viewPly(currentPly() + 1), Home: () => viewPly(0), End: () => viewPly(Infinity) };
    if (keys[e.key] && gogo.state) { e.preventDefault(); keys[e.key](); }
  });
  // A click outside the promotion question cancels it.
  document.addEventListener("pointerdown", (e) => {
    if (gogo.pendingPromotion && !$("promotion").contains(e.target) && !$("board").contains(e.target)) cancelPromotion();
  });
  $("promote-yes").onclick = () => { const m = gogo.pendingPromotion; gogo.pendingPromotion = null; sendMove(`${m}+`); render(); };
  $("promote-no").onclick = () => { const m = gogo.pendingPromotion; gogo.pendingPromotion = null; sendMove(m); render(); };
  $("promote-cancel").onclick = cancelPromotion;
  const analyze = () => {
    gogo.analysis = [];
    send({ type: "analyze", on: $("analyze").checked, multipv: Number($("multipv").value) });
    render();
  };
  $("analyze").onchange = analyze;
  $("multipv").onchange = analyze;
  $("mate-button").onclick = () => { $("mate-result").textContent = "Mate search…"; send({ type: "mate" }); };
  $("review-button").onclick = () => {
    clearMessage();
    send({ type: "review", millis: Math.round(Number($("review-ms").value) || 200) });
  };
  $("copy-sfen").onclick = () => { gogo.exportWanted = "sfen"; send({ type: "export", notation: notation() }); };
  $("save-kif").onclick = () => { gogo.exportWanted = "kif"; send({ type: "export", notation: notation() }); };
  $("save-csa").onclick = () => { gogo.exportWanted = "csa"; send({ type: "export", notation: notation() }); };
  showClockFields();
  connect();
}

setup();
