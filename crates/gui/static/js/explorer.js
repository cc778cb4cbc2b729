// The opening explorer: the built-in book's moves for the position on the board (the one
// being viewed, as the record is stepped through), a click on a move plays it where it can be
// played, and where the game left the book.
import { $, gogo } from "./state.js";
import { moveText, send } from "./connection.js";
import { displayed } from "./board.js";
import { sendMove } from "./moves.js";

// Asks for the shown position's moves when it changed.
export function followExplorer() {
  const st = gogo.state;
  if (!st) return;
  const { sfen } = displayed();
  if (!sfen || sfen === gogo.explorerAsked) return;
  gogo.explorerAsked = sfen;
  send({ type: "explore", sfen });
}

export function onExplorer(update) {
  gogo.explorer = update;
  renderExplorer();
}

function evalText(cp) {
  const v = cp / 100;
  return (v > 0 ? "+" : "") + v.toFixed(2);
}

export function renderExplorer() {
  const ex = gogo.explorer;
  const body = $("explorer").querySelector("tbody");
  body.innerHTML = "";
  const { sfen, live } = displayed();
  if (!ex || ex.sfen !== sfen) { $("explorer-note").textContent = "…"; return; }
  $("explorer").hidden = ex.moves.length === 0;
  $("explorer-note").textContent = ex.moves.length === 0
    ? "Not in the book."
    : `The book (${ex.book_positions} positions): evals for the side to move.`;
  const st = gogo.state;
  const mover = st.turn === "sente" ? 0 : 1;
  const canPlay = live && !st.result && st.legal.length > 0 && st.players[mover] === "human";
  for (const m of ex.moves) {
    const row = document.createElement("tr");
    row.setAttribute("data-move", m.usi);
    const games = m.count > 0 ? `${m.count} (${m.wdl[0]}/${m.wdl[1]}/${m.wdl[2]})` : "—";
    row.innerHTML = "<td><button class='explore-move'></button></td><td></td><td></td><td></td>";
    const button = row.querySelector("button");
    button.textContent = moveText(m);
    button.disabled = !(canPlay && st.legal.includes(m.usi));
    button.title = button.disabled ? "not your move on the game's position" : "play it";
    button.onclick = () => sendMove(m.usi);
    row.children[1].textContent = evalText(m.eval);
    row.children[2].textContent = String(m.depth);
    row.children[3].textContent = games;
    if (m.count > 0) {
      const total = m.wdl[0] + m.wdl[1] + m.wdl[2];
      if (total > 0) row.children[3].title = `wins ${(100 * m.wdl[0] / total).toFixed(0)}%, draws ${(100 * m.wdl[1] / total).toFixed(0)}%, losses ${(100 * m.wdl[2] / total).toFixed(0)}% for the mover`;
    }
    body.appendChild(row);
  }
  // The loaded games' moves here, if any game was loaded on this page.
  const loaded = $("explorer-loaded");
  loaded.innerHTML = "";
  if (ex.loaded_games > 0) {
    const head = document.createElement("div");
    head.textContent = ex.loaded_moves.length === 0
      ? `In the ${ex.loaded_games} game${ex.loaded_games > 1 ? "s" : ""} loaded here: not reached.`
      : `In the ${ex.loaded_games} game${ex.loaded_games > 1 ? "s" : ""} loaded here:`;
    loaded.appendChild(head);
    for (const m of ex.loaded_moves) {
      const b = document.createElement("button");
      b.className = "explore-move loaded";
      b.setAttribute("data-move", m.usi);
      b.textContent = `${moveText(m)} ×${m.count}`;
      b.disabled = !(canPlay && st.legal.includes(m.usi));
      b.onclick = () => sendMove(m.usi);
      loaded.appendChild(b);
    }
  }
  const exit = ex.left_book_at;
  $("explorer-exit").textContent = exit === null || exit === undefined ? "" : `This game left the book at move ${exit + 1} (${st.moves[exit] ? moveText(st.moves[exit]) : ""}).`;
}
