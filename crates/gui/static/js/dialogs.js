// The dialogs: confirmations, the new game and the welcome, and remembered settings.
import { $, MOVES, STORE, WELCOME_PIECES, gogo } from "./state.js";
import { el, pieceShape } from "./board.js";

// A button that asks to be pressed again before it acts.
export function confirmButton(button, question, needed, action) {
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

export function gameInProgress() {
  const st = gogo.state;
  return st && !st.result && st.moves.length > 0 && st.players.includes("engine") && st.players.includes("human");
}

export function newGameRequest() {
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

export function showClockFields() {
  const timed = $("ng-clock").value !== "none";
  for (const e of document.querySelectorAll("#new-game-dialog .timed")) e.hidden = !timed;
  for (const e of document.querySelectorAll("#new-game-dialog .untimed")) e.hidden = timed;
}

export function openNewGameDialog() {
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
export function openWelcome() {
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

export function closeWelcome() {
  $("welcome").hidden = true;
  localStorage.setItem(STORE.welcomed, "yes");
}

export function remember(id, key, kind) {
  const e = $(id);
  const saved = localStorage.getItem(key);
  if (saved !== null) {
    if (kind === "check") e.checked = saved === "true";
    else if (e.querySelector(`option[value="${saved}"]`)) e.value = saved;
  }
  e.addEventListener("change", () => localStorage.setItem(key, kind === "check" ? String(e.checked) : e.value));
}
