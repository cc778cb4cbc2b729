// The connection and the kept game: the WebSocket, the updates it brings, and the board's
// key (kept for this tab) that brings a reloaded or reconnected page back to its game as the
// server kept it. The game kept in this browser is played again only on a new board (the
// server restarted, or the tab is new).
import { render } from "../app.js";
import { $, STORE, gogo } from "./state.js";
import { renderBoard } from "./board.js";
import { renderMoves } from "./record.js";
import { renderGraph, renderReview } from "./review.js";
import { renderAnalysis } from "./analysis.js";
import { myTurn, playPremove, premoveColor } from "./moves.js";
import { onPuzzle, restorePuzzle } from "./puzzles.js";
import { onExplorer } from "./explorer.js";

// --- the connection and the kept game -----------------------------------------------------

export function connect() {
  // The token in the page's address, which the server printed, opens the game too.
  const token = new URLSearchParams(location.search).get("token") || "";
  const board = sessionStorage.getItem(STORE.board) || "";
  const socket = new WebSocket(`ws://${location.host}/ws?token=${encodeURIComponent(token)}&board=${encodeURIComponent(board)}`);
  gogo.socket = socket;
  gogo.restored = false;
  gogo.explorerAsked = null;
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
      case "board": onBoard(update); break;
      case "state": onState(update); break;
      case "analysis": gogo.analysis = update.lines; renderAnalysis(); renderBoard(); break;
      case "mate": $("mate-result").textContent = `Mate search: ${update.text} ${notation() === "western" ? update.western : notation() === "usi" ? "" : update.japanese}`; break;
      case "hint": onHint(update); break;
      case "review": gogo.review = update; renderReview(); renderMoves(); renderGraph(); break;
      case "export": onExport(update); break;
      case "puzzle": onPuzzle(update); break;
      case "explorer": onExplorer(update); break;
      case "error": showMessage(update.message); break;
    }
  };
}

// The server's board for this page: its key is kept for the tab; the board the page had
// comes back as it was, so nothing is played again.
function onBoard(update) {
  sessionStorage.setItem(STORE.board, update.key);
  gogo.resumed = update.resumed;
}

export function send(request) {
  if (gogo.socket && gogo.socket.readyState === WebSocket.OPEN) {
    gogo.socket.send(JSON.stringify(request));
  }
}

// The game as this browser keeps it: how it was set up, and its moves.
export function keepGame(state) {
  // A puzzle is not the person's game: the game stays kept for the way back to Play.
  if (!gogo.lastRequest || gogo.puzzleMode) return;
  const kept = { request: gogo.lastRequest, start: state.positions[0], moves: state.moves.map((m) => m.usi) };
  localStorage.setItem(STORE.game, JSON.stringify(kept));
}

// After (re)connecting to a new board (the server no longer had this page's board, nor its
// database), the kept moves are played again on the server. How the game ended is the
// server's to say: the page sends no ending.
export function restoreGame(state) {
  gogo.restored = true;
  // The board this page had, as the server kept it: nothing to play again.
  const resumed = gogo.resumed;
  gogo.resumed = false;
  // In Puzzles mode the open puzzle comes back instead.
  if (restorePuzzle()) return true;
  if (resumed) return false;
  let kept = null;
  try { kept = JSON.parse(localStorage.getItem(STORE.game) || "null"); } catch (e) { kept = null; }
  if (!kept || !kept.request || !Array.isArray(kept.moves)) return false;
  const same = state.positions[0] === kept.start && state.moves.length === kept.moves.length
    && state.moves.every((m, i) => m.usi === kept.moves[i])
    && state.level === (kept.request.level || 0)
    && state.players[0] === kept.request.sente && state.players[1] === kept.request.gote;
  gogo.lastRequest = kept.request;
  if (same) return false;
  const request = Object.assign({}, kept.request, { start: kept.start, moves: kept.moves });
  gogo.flipped = request.sente === "engine" && request.gote === "human";
  send(request);
  return true;
}

export function showMessage(text) {
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

export function clearMessage() { $("message").hidden = true; $("load-error").hidden = true; }

export function onState(state) {
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
  if (state.engine_ready) offerLevels(state.max_level);
  render();
  playPremove();
}

// The levels the engine offers (its Level option): the others cannot be chosen.
function offerLevels(max) {
  for (const id of ["ng-level", "welcome-level"]) {
    for (const option of $(id).options) {
      option.disabled = Number(option.value) > max;
      option.title = option.disabled ? "this engine does not offer this level" : "";
    }
  }
}

// The notation setting: a move (or a line) as the person reads them. Japanese carries the
// mover's mark; Western and USI are written plain, as lishogi writes them.
export function notation() { return $("notation").value; }
export function moveText(m) {
  return { japanese: m.japanese, western: m.western, usi: m.usi }[notation()] || m.japanese;
}

export function onHint(update) {
  const st = gogo.state;
  if (!st || update.sfen !== st.positions[st.positions.length - 1]) return;
  gogo.hint = update;
  const mark = st.turn === "sente" ? "▲" : "△";
  const text = notation() === "japanese" ? `${mark}${update.japanese} (${update.usi})` : moveText(update);
  $("hint-text").textContent = `Hint: ${text}`;
  $("hint-text").hidden = false;
  renderBoard();
}

export function fileName(kind) {
  const st = gogo.state;
  const names = st.players.map((p) => (p === "human" ? "you" : st.engine + (st.level ? `-level${st.level}` : "")));
  const day = new Date().toISOString().slice(0, 10);
  return `${names[0]}-vs-${names[1]}-${day}`.replace(/[^A-Za-z0-9._-]+/g, "_") + `.${kind}`;
}

export function onExport(update) {
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
export let audio = null;
export function playSound() {
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
