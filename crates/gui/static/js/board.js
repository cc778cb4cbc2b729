// The board panel: the SVG board, its pieces (kanji or international), arrows, the hands,
// the players' names and clocks.
import { $, CELL, KANJI, LETTER, MOVES, SVG_NS, X0, Y0, gogo } from "./state.js";
import { renderEvalBar } from "./analysis.js";
import { clickHand, drag, targetSquares } from "./moves.js";

// --- the board ------------------------------------------------------------------------

export function squareName(row, col) { return `${5 - col}${"abcde"[row]}`; }

export function squareXY(name) {
  const col = 5 - Number(name[0]);
  const row = "abcde".indexOf(name[1]);
  const r = gogo.flipped ? 4 - row : row;
  const c = gogo.flipped ? 4 - col : col;
  return { x: X0 + c * CELL, y: Y0 + r * CELL };
}

export function svgPoint(clientX, clientY) {
  const svg = $("board");
  const point = svg.createSVGPoint();
  point.x = clientX; point.y = clientY;
  return point.matrixTransform(svg.getScreenCTM().inverse());
}

export function squareAt(clientX, clientY) {
  const p = svgPoint(clientX, clientY);
  const c = Math.floor((p.x - X0) / CELL), r = Math.floor((p.y - Y0) / CELL);
  if (c < 0 || c > 4 || r < 0 || r > 4) return null;
  return gogo.flipped ? squareName(4 - r, 4 - c) : squareName(r, c);
}

export function el(name, attrs, parent) {
  const e = document.createElementNS(SVG_NS, name);
  for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
  if (parent) parent.appendChild(e);
  return e;
}

export function pieceSet() { return $("piece-set").value; }

// A shogi piece: a pentagon pointing at the opponent, with its kanji, or its letter and moves.
export function pieceShape(parent, kind, color, x, y, size) {
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

export function displayed() {
  const st = gogo.state;
  if (gogo.viewPly === null) return { sfen: st.positions[st.positions.length - 1], live: true, ply: st.moves.length };
  return { sfen: st.positions[gogo.viewPly], live: false, ply: gogo.viewPly };
}

// Pieces and hands of an SFEN (for viewing earlier positions; the live one comes parsed).
export function parseSfen(sfen) {
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

export function shownPosition() {
  const st = gogo.state;
  const view = displayed();
  return { view, shown: view.live ? { board: st.board, hands: st.hands, turn: st.turn } : parseSfen(view.sfen) };
}

// An arrow for a move on the board (a ring on the square for a drop).
export function drawArrow(svg, usi, kind) {
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

export function renderBoard() {
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
  // The legal squares of the piece in hand, unless the person would rather find them.
  const targets = view.live && $("show-legal").checked ? targetSquares() : new Set();
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

export function renderHands(hands, live) {
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

export function formatClock(ms) {
  const t = Math.max(0, ms);
  const m = Math.floor(t / 60000), s = Math.floor((t % 60000) / 1000), tenth = Math.floor((t % 1000) / 100);
  return `${m}:${String(s).padStart(2, "0")}.${tenth}`;
}

export function playerName(i) {
  const st = gogo.state;
  // A loaded record's own players, not this board's.
  if (st.names && st.names[i]) return st.names[i];
  if (st.players[i] === "human") return st.players[0] === st.players[1] ? "person" : "you";
  const name = st.engine_ready ? st.engine : "engine";
  return st.level ? `${name} (level ${st.level})` : name;
}

export function renderPlayers() {
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

export function renderClocks() {
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
