// The record panel: the moves, stepping through them.
import { render } from "../app.js";
import { $, MARK_SIGN, gogo } from "./state.js";
import { moveText } from "./connection.js";

// The record: moves paired by number, marks of the review, the current move in view.
export function renderMoves() {
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

export function viewPly(ply) {
  const st = gogo.state;
  if (!st) return;
  const p = Math.max(0, Math.min(ply, st.moves.length));
  gogo.viewPly = p === st.moves.length ? null : p;
  gogo.selected = null;
  gogo.pendingPromotion = null;
  render();
}

export function currentPly() { return gogo.viewPly === null ? gogo.state.moves.length : gogo.viewPly; }
