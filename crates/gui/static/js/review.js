// The review: its notes, summary and the game's graph.
import { $, gogo } from "./state.js";
import { moveText, notation } from "./connection.js";
import { el } from "./board.js";
import { currentPly } from "./record.js";
import { scoreText } from "./analysis.js";

export function renderReview() {
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

export function renderGraph() {
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
