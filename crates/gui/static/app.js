// The gogo board page: draws what the server says and sends what the person does. It never
// decides what is legal: the server sends the legal moves of the position and judges every
// move it receives.
"use strict";

const KANJI = { P: "歩", S: "銀", G: "金", B: "角", R: "飛", K: "玉", "+P": "と", "+S": "全", "+B": "馬", "+R": "龍" };
const CELL = 100, X0 = 10, Y0 = 25;
const SVG_NS = "http://www.w3.org/2000/svg";

const gogo = {
  state: null,          // the last GameView from the server
  analysis: [],         // the last analysis lines
  exported: null,       // the last export (kif, csa, sfen)
  flipped: false,
  selected: null,       // { from: "5d" } or { drop: "G" }
  viewPly: null,        // an earlier ply being viewed, or null for the game
  pendingPromotion: null,
  receivedAt: 0,
  socket: null,
  messages: 0,          // updates received (tests wait on it)
  exportWanted: null,
};
window.gogo = gogo;

const $ = (id) => document.getElementById(id);

function connect() {
  // The token in the page's address, which the server printed, opens the game too.
  const token = new URLSearchParams(location.search).get("token") || "";
  const socket = new WebSocket(`ws://${location.host}/ws?token=${encodeURIComponent(token)}`);
  gogo.socket = socket;
  socket.onopen = () => { $("connection").textContent = "connected"; };
  socket.onclose = () => { $("connection").textContent = "disconnected: reload the page"; };
  socket.onmessage = (event) => {
    const update = JSON.parse(event.data);
    gogo.messages += 1;
    switch (update.type) {
      case "state": onState(update); break;
      case "analysis": gogo.analysis = update.lines; renderAnalysis(); break;
      case "mate": $("mate-result").textContent = `Mate search: ${update.text} ${update.japanese}`; break;
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

function showMessage(text) {
  const m = $("message");
  m.textContent = text;
  m.hidden = false;
  clearTimeout(showMessage.timer);
  showMessage.timer = setTimeout(() => { m.hidden = true; }, 6000);
}

function onState(state) {
  const changed = !gogo.state || gogo.state.positions.length !== state.positions.length
    || gogo.state.positions[0] !== state.positions[0];
  gogo.state = state;
  gogo.receivedAt = performance.now();
  if (changed) {
    gogo.selected = null;
    gogo.viewPly = null;
    $("mate-result").textContent = "";
  }
  $("engine-name").textContent = `engine: ${state.engine}${state.level ? ` (level ${state.level})` : ""}`;
  render();
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
  link.download = `gogo-game.${kind}`;
  link.click();
  setTimeout(() => URL.revokeObjectURL(link.href), 1000);
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

function squareAt(clientX, clientY) {
  const svg = $("board");
  const point = svg.createSVGPoint();
  point.x = clientX; point.y = clientY;
  const p = point.matrixTransform(svg.getScreenCTM().inverse());
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

// A shogi piece: a pentagon with its kanji, pointing at the opponent.
function pieceShape(parent, kind, color, x, y, size) {
  const g = el("g", {}, parent);
  const s = size / 100;
  const turned = (color === "gote") !== gogo.flipped;
  g.setAttribute("transform", `translate(${x},${y}) scale(${s})` + (turned ? " rotate(180 50 50)" : ""));
  el("polygon", { points: "50,8 80,20 88,94 12,94 20,20", class: "piece-body" }, g);
  const text = el("text", { x: 50, y: 57, class: "piece-text" + (kind.startsWith("+") ? " promoted" : "") }, g);
  let name = KANJI[kind] || kind;
  if (kind === "K" && color === "gote") name = "王";
  text.textContent = name;
  return g;
}

function displayed() {
  const st = gogo.state;
  if (gogo.viewPly === null) return { sfen: st.positions[st.positions.length - 1], live: true };
  return { sfen: st.positions[gogo.viewPly], live: false };
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

function render() {
  const st = gogo.state;
  if (!st) return;
  const view = displayed();
  const shown = view.live ? { board: st.board, hands: st.hands, turn: st.turn } : parseSfen(view.sfen);
  const svg = $("board");
  svg.setAttribute("data-sfen", view.sfen);
  svg.setAttribute("data-turn", shown.turn);
  svg.setAttribute("viewBox", "0 0 540 530");
  svg.innerHTML = "";
  for (let c = 0; c < 5; c++) {
    const file = gogo.flipped ? c + 1 : 5 - c;
    el("text", { x: X0 + c * CELL + 50, y: 12, class: "coord" }, svg).textContent = String(file);
  }
  for (let r = 0; r < 5; r++) {
    const rank = gogo.flipped ? 4 - r : r;
    el("text", { x: 525, y: Y0 + r * CELL + 50, class: "coord" }, svg).textContent = "一二三四五"[rank];
  }
  const targets = view.live ? targetSquares() : new Set();
  const last = view.live ? st.last_move : (gogo.viewPly > 0 ? st.moves[gogo.viewPly - 1].usi : null);
  const lastTo = last ? (last[1] === "*" ? last.slice(2, 4) : last.slice(2, 4)) : null;
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
      if (name === checkSquare) classes.push("check");
      if (gogo.selected && gogo.selected.from === name) classes.push("selected");
      if (targets.has(name)) classes.push("target");
      el("rect", { x: X0 + c * CELL, y: Y0 + r * CELL, width: CELL, height: CELL, class: classes.join(" "), "data-square": name }, svg);
    }
  }
  for (const p of shown.board) {
    const { x, y } = squareXY(p.square);
    const g = pieceShape(svg, p.kind, p.color, x + 2, y + 2, 96);
    g.classList.add("piece");
    g.setAttribute("data-square", p.square);
    g.setAttribute("data-color", p.color);
    g.setAttribute("data-kind", p.kind);
  }
  renderHands(shown.hands, view.live);
  renderPlayers();
  renderMoves();
  renderResult();
  renderGraph();
  $("viewing").hidden = view.live;
  $("promotion").hidden = !gogo.pendingPromotion;
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

function renderPlayers() {
  const st = gogo.state;
  const engine = st.level ? `${st.engine} (level ${st.level})` : st.engine;
  const names = st.players.map((p, i) => `${i === 0 ? "▲ Sente" : "△ Gote"} — ${p === "human" ? "you" : engine}`);
  const bottom = gogo.flipped ? 1 : 0;
  $("label-bottom").textContent = names[bottom];
  $("label-top").textContent = names[1 - bottom];
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
    box.textContent = formatClock(main) + (st.clock.byoyomi_ms > 0 ? ` +${formatClock(byoyomi)}` : "");
    box.className = "clock" + (running ? " running" : "") + (running && main <= 0 && byoyomi < 10000 ? " low" : "");
  }
}
setInterval(renderClocks, 100);

function renderMoves() {
  const st = gogo.state;
  const list = $("moves");
  list.innerHTML = "";
  st.moves.forEach((m, i) => {
    const li = document.createElement("li");
    li.textContent = m.japanese;
    li.title = m.usi;
    li.setAttribute("data-ply", i + 1);
    if ((gogo.viewPly === null && i === st.moves.length - 1) || gogo.viewPly === i + 1) li.className = "current";
    li.addEventListener("click", () => {
      gogo.viewPly = i + 1 === st.moves.length ? null : i + 1;
      gogo.selected = null;
      render();
    });
    list.appendChild(li);
  });
  list.scrollTop = list.scrollHeight;
}

function renderResult() {
  const st = gogo.state;
  const box = $("result");
  if (!st.result) { box.hidden = true; box.textContent = ""; return; }
  const who = st.result === "1-0" ? "Sente wins" : st.result === "0-1" ? "Gote wins" : "Draw";
  box.textContent = `${who} (${st.result}) by ${st.reason}`;
  box.setAttribute("data-result", st.result);
  box.hidden = false;
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
  let best = null;
  for (const line of gogo.analysis) {
    if (!line) continue;
    const div = document.createElement("div");
    div.className = "line";
    div.setAttribute("data-multipv", line.multipv);
    const chance = line.sente_win == null ? "" : ` (Sente ${(line.sente_win * 100).toFixed(0)}%)`;
    const nps = line.nps ? ` · ${(line.nps / 1000).toFixed(0)} kN/s` : "";
    div.innerHTML = `<span class="score"></span>${chance} · depth ${line.depth}${nps}<div class="ja"></div><div class="pv"></div>`;
    div.querySelector(".score").textContent = `#${line.multipv} ${scoreText(line.score)}`;
    div.querySelector(".ja").textContent = line.pv_japanese;
    div.querySelector(".pv").textContent = line.pv.join(" ");
    box.appendChild(div);
    if (line.multipv === 1) best = line;
  }
  if (best && best.sente_win != null) $("eval-fill").style.height = `${(best.sente_win * 100).toFixed(1)}%`;
  renderGraph();
}

function renderGraph() {
  const svg = $("graph");
  if (!gogo.state) return;
  svg.innerHTML = "";
  el("line", { x1: 0, y1: 45, x2: 300, y2: 45, stroke: "#bbb", "stroke-width": 1 }, svg);
  const scores = gogo.state.scores;
  const n = Math.max(scores.length - 1, 1);
  const points = [];
  scores.forEach((s, i) => { if (s != null) points.push(`${(i / n) * 300},${90 - s * 90}`); });
  if (points.length > 0) el("polyline", { points: points.join(" "), fill: "none", stroke: "#3b2a14", "stroke-width": 2 }, svg);
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

function tryMove(to) {
  const sel = gogo.selected;
  if (!sel) return false;
  if (sel.drop) {
    const mv = `${sel.drop}*${to}`;
    if (gogo.state.legal.includes(mv)) { gogo.selected = null; send({ type: "move", usi: mv }); return true; }
    return false;
  }
  const plain = `${sel.from}${to}`, promoted = `${plain}+`;
  const canPlain = gogo.state.legal.includes(plain), canPromote = gogo.state.legal.includes(promoted);
  if (canPlain && canPromote) {
    gogo.pendingPromotion = plain;
    render();
    return true;
  }
  if (canPlain || canPromote) {
    gogo.selected = null;
    send({ type: "move", usi: canPromote ? promoted : plain });
    return true;
  }
  return false;
}

function clickSquare(name) {
  if (!myTurn() || gogo.pendingPromotion) return;
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

let drag = null;
function setupBoard() {
  const svg = $("board");
  svg.addEventListener("pointerdown", (e) => {
    const name = squareAt(e.clientX, e.clientY);
    if (!name) return;
    drag = { from: name, x: e.clientX, y: e.clientY, moved: false };
  });
  svg.addEventListener("pointermove", (e) => {
    if (drag && Math.hypot(e.clientX - drag.x, e.clientY - drag.y) > 8) drag.moved = true;
  });
  svg.addEventListener("pointerup", (e) => {
    const name = squareAt(e.clientX, e.clientY);
    const d = drag;
    drag = null;
    if (!name) return;
    if (d && d.moved && d.from !== name) {
      // A drag: pick up the piece where it started, put it down here.
      const st = gogo.state;
      const piece = st && st.board.find((p) => p.square === d.from);
      if (myTurn() && piece && piece.color === st.turn) {
        gogo.selected = { from: d.from };
        if (!tryMove(name)) gogo.selected = null;
        render();
      }
      return;
    }
    clickSquare(name);
  });
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
  return { type: "new_game", start, rules: $("ng-rules").value, sente: players[0], gote: players[1], clock, level };
}

function setup() {
  setupBoard();
  $("new-game").onclick = () => { $("new-game-dialog").hidden = false; };
  $("ng-cancel").onclick = () => { $("new-game-dialog").hidden = true; };
  $("ng-start").onchange = () => { $("ng-sfen").hidden = $("ng-start").value !== "sfen"; };
  // The engine's level: the last choice is remembered in this browser.
  const savedLevel = localStorage.getItem("gogo.level");
  if (savedLevel !== null && $("ng-level").querySelector(`option[value="${savedLevel}"]`)) {
    $("ng-level").value = savedLevel;
  }
  $("ng-level").onchange = () => { localStorage.setItem("gogo.level", $("ng-level").value); };
  $("ng-start-button").onclick = () => { $("new-game-dialog").hidden = true; send(newGameRequest()); };
  $("takeback").onclick = () => send({ type: "takeback" });
  $("resign").onclick = () => send({ type: "resign" });
  $("flip").onclick = () => { gogo.flipped = !gogo.flipped; render(); };
  $("back-to-game").onclick = () => { gogo.viewPly = null; render(); };
  $("promote-yes").onclick = () => { const m = gogo.pendingPromotion; gogo.pendingPromotion = null; gogo.selected = null; send({ type: "move", usi: `${m}+` }); render(); };
  $("promote-no").onclick = () => { const m = gogo.pendingPromotion; gogo.pendingPromotion = null; gogo.selected = null; send({ type: "move", usi: m }); render(); };
  const analyze = () => send({ type: "analyze", on: $("analyze").checked, multipv: Number($("multipv").value) });
  $("analyze").onchange = analyze;
  $("multipv").onchange = analyze;
  $("mate-button").onclick = () => { $("mate-result").textContent = "Mate search…"; send({ type: "mate" }); };
  $("copy-sfen").onclick = () => { gogo.exportWanted = "sfen"; send({ type: "export" }); };
  $("save-kif").onclick = () => { gogo.exportWanted = "kif"; send({ type: "export" }); };
  $("save-csa").onclick = () => { gogo.exportWanted = "csa"; send({ type: "export" }); };
  $("load-button").onclick = () => send({ type: "load", text: $("load-text").value });
  connect();
}

setup();
