// Moving: selecting, clicking and dragging, promotion, premoves.
import { render } from "../app.js";
import { $, gogo } from "./state.js";
import { clearMessage, send } from "./connection.js";
import { pieceShape, renderBoard, squareAt, svgPoint } from "./board.js";

// --- moving ---------------------------------------------------------------------------

export function myTurn() {
  const st = gogo.state;
  return st && !st.result && gogo.viewPly === null && st.legal.length > 0;
}

export function targetSquares() {
  const set = new Set();
  if (!gogo.selected || !myTurn()) return set;
  for (const mv of gogo.state.legal) {
    if (gogo.selected.from && mv.startsWith(gogo.selected.from) && mv[1] !== "*") set.add(mv.slice(2, 4));
    if (gogo.selected.drop && mv.startsWith(`${gogo.selected.drop}*`)) set.add(mv.slice(2, 4));
  }
  return set;
}

export function clickHand(kind, color) {
  if (!myTurn() || gogo.state.turn !== color) return;
  gogo.selected = gogo.selected && gogo.selected.drop === kind ? null : { drop: kind };
  render();
}

export function sendMove(usi) {
  gogo.selected = null;
  gogo.hint = null;
  $("hint-text").hidden = true;
  clearMessage();
  send({ type: "move", usi });
}

export const PIECE_NAME = { P: "pawn", S: "silver", G: "gold", B: "bishop", R: "rook", K: "king" };

export function tryMove(to) {
  const sel = gogo.selected;
  if (!sel) return false;
  if (sel.drop) {
    const mv = `${sel.drop}*${to}`;
    if (gogo.state.legal.includes(mv)) { sendMove(mv); return true; }
    return false;
  }
  const plain = `${sel.from}${to}`, promoted = `${plain}+`;
  const canPlain = gogo.state.legal.includes(plain), canPromote = gogo.state.legal.includes(promoted);
  if (canPlain && canPromote) {
    const piece = gogo.state.board.find((p) => p.square === sel.from);
    const name = piece ? PIECE_NAME[piece.kind] || piece.kind : "piece";
    $("promotion-question").textContent = `Promote the ${name} moving ${sel.from} → ${to}?`;
    gogo.pendingPromotion = plain;
    render();
    return true;
  }
  if (canPlain || canPromote) {
    sendMove(canPromote ? promoted : plain);
    return true;
  }
  return false;
}

export function cancelPromotion() {
  if (!gogo.pendingPromotion) return;
  gogo.pendingPromotion = null;
  gogo.selected = null;
  render();
}

// The person's colour while the engine thinks on its move in their game: then a move may be
// premoved. `null` otherwise.
export function premoveColor() {
  const st = gogo.state;
  if (!st || st.result || gogo.viewPly !== null || st.legal.length > 0) return null;
  const i = st.turn === "sente" ? 0 : 1;
  if (st.players[i] !== "engine" || st.players[1 - i] !== "human") return null;
  return i === 0 ? "gote" : "sente";
}

// A click while the engine thinks: choose one of your pieces, then where it goes. The
// premove is played as soon as it is your move, if it is legal then (promoting when it can);
// a click elsewhere, or Esc, takes it back.
export function premoveClick(name, color) {
  const piece = gogo.state.board.find((p) => p.square === name);
  if (gogo.premoveFrom && name !== gogo.premoveFrom) {
    gogo.premove = { from: gogo.premoveFrom, to: name };
    gogo.premoveFrom = null;
  } else if (piece && piece.color === color && name !== gogo.premoveFrom) {
    gogo.premoveFrom = name;
    gogo.premove = null;
  } else {
    gogo.premoveFrom = null;
    gogo.premove = null;
  }
  renderBoard();
}

// Plays the premove, if there is one and it is legal now.
export function playPremove() {
  const pre = gogo.premove;
  if (!pre || !myTurn()) return;
  gogo.premove = null;
  const plain = `${pre.from}${pre.to}`;
  const legal = gogo.state.legal;
  if (legal.includes(`${plain}+`)) sendMove(`${plain}+`);
  else if (legal.includes(plain)) sendMove(plain);
}

export function cancelPremove() {
  if (!gogo.premove && !gogo.premoveFrom) return;
  gogo.premove = null;
  gogo.premoveFrom = null;
  renderBoard();
}

export function clickSquare(name) {
  if (gogo.pendingPromotion) { cancelPromotion(); return; }
  if (!myTurn()) {
    const color = premoveColor();
    if (color) premoveClick(name, color);
    return;
  }
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

// Dragging: the piece follows the pointer and is put down where it is let go.
export let drag = null;
export function setupBoard() {
  const svg = $("board");
  svg.addEventListener("pointerdown", (e) => {
    const name = squareAt(e.clientX, e.clientY);
    if (!name) return;
    drag = { from: name, x: e.clientX, y: e.clientY, moved: false, ghost: null };
  });
  svg.addEventListener("pointermove", (e) => {
    if (!drag) return;
    if (!drag.moved && Math.hypot(e.clientX - drag.x, e.clientY - drag.y) > 8) {
      drag.moved = true;
      const st = gogo.state;
      const piece = st && st.board.find((p) => p.square === drag.from);
      if (myTurn() && piece && piece.color === st.turn) {
        gogo.selected = { from: drag.from };
        drag.ghost = pieceShape(null, piece.kind, piece.color, 0, 0, 96);
        drag.ghost.classList.add("ghost");
        renderBoard();
      }
    }
    if (drag.ghost) {
      const p = svgPoint(e.clientX, e.clientY);
      const base = drag.ghost.getAttribute("transform").replace(/^translate\([^)]*\)/, "");
      drag.ghost.setAttribute("transform", `translate(${p.x - 48},${p.y - 48})${base}`);
    }
  });
  svg.addEventListener("pointerup", (e) => {
    const name = squareAt(e.clientX, e.clientY);
    const d = drag;
    drag = null;
    if (d && d.ghost) {
      if (!name || name === d.from || !tryMove(name)) gogo.selected = null;
      renderBoard();
      return;
    }
    if (!name) return;
    clickSquare(name);
  });
}
