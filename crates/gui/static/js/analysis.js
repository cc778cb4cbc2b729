// The analysis panel: the engine's lines and the evaluation bar.
import { $, gogo } from "./state.js";
import { notation } from "./connection.js";

export function scoreText(score) {
  if (!score) return "";
  if (score.kind === "mate") return score.plies > 0 ? `Sente mates in ${score.plies}` : `Gote mates in ${-score.plies}`;
  const v = score.value / 100;
  return (v > 0 ? "+" : "") + v.toFixed(2);
}

export function renderAnalysis() {
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
export function renderEvalBar() {
  const best = gogo.analysis.find((l) => l && l.multipv === 1);
  const bar = $("eval-bar");
  if (!best || best.sente_win == null || gogo.viewPly !== null) { bar.className = "empty"; return; }
  const bottom = gogo.flipped ? 1 - best.sente_win : best.sente_win;
  bar.className = "";
  $("eval-fill").style.height = `${(bottom * 100).toFixed(1)}%`;
}
