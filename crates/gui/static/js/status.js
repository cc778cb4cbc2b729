// The status panel: whose turn, the result, and which controls can act now.
import { $, gogo } from "./state.js";
import { gameInProgress } from "./dialogs.js";

// Whose turn it is, and whether the engine is thinking.
export function renderStatus() {
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
export function renderControls() {
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
