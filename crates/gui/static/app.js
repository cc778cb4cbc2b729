// The gogo board page: draws what the server says and sends what the person does. It never
// decides what is legal: the server sends the legal moves of the position and judges every
// move it receives. The game is kept in this browser's storage and played again on the
// server after a reload or a dropped connection.

import { $, STORE, gogo } from "./js/state.js";
import { clearMessage, connect, notation, send, showMessage } from "./js/connection.js";
import { renderBoard, renderHands, renderPlayers, shownPosition } from "./js/board.js";
import { renderStatus } from "./js/status.js";
import { currentPly, renderMoves, viewPly } from "./js/record.js";
import { renderGraph, renderReview } from "./js/review.js";
import { renderAnalysis } from "./js/analysis.js";
import { cancelPremove, cancelPromotion, sendMove, setupBoard } from "./js/moves.js";
import { renderPuzzle, setupPuzzles } from "./js/puzzles.js";
import { followExplorer, renderExplorer } from "./js/explorer.js";
import { closeWelcome, confirmButton, gameInProgress, newGameRequest, openNewGameDialog, openWelcome, remember, showClockFields } from "./js/dialogs.js";

export function render() {
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
  if (gogo.puzzleMode) renderPuzzle();
  // While a puzzle is being solved the book would give it away.
  const solving = gogo.puzzleMode && gogo.puzzle && gogo.puzzle.state !== "solved" && gogo.puzzle.state !== "failed";
  $("explorer-panel").hidden = !!solving;
  if (!solving) { followExplorer(); renderExplorer(); }
}


function setup() {
  setupBoard();
  setupPuzzles();
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
  remember("show-legal", STORE.showLegal, "check");
  $("show-legal").addEventListener("change", render);
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
    // In Puzzles mode: n for the next puzzle, h for a hint, s for the solution, r to retry.
    if (gogo.puzzleMode) {
      Object.assign(keys, { n: () => $("puzzle-next").click(), h: () => $("puzzle-hint").click(), s: () => $("puzzle-solution").click(), r: () => $("puzzle-retry").click() });
    }
    if (keys[e.key] && gogo.state) { e.preventDefault(); keys[e.key](); }
  });
  // A move typed in USI (for the keyboard): played if it is legal here, else said why not.
  $("move-input").addEventListener("keydown", (e) => {
    if (e.key !== "Enter") return;
    const usi = $("move-input").value.trim();
    const st = gogo.state;
    if (!st || !usi) return;
    if (st.legal.includes(usi)) { sendMove(usi); $("move-input").value = ""; }
    else showMessage(`${usi}: not a move you can play here (USI, as 3e2d, 2b1a+ or P*3c)`);
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
