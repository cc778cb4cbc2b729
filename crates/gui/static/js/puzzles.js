// Puzzles mode: a puzzle from the server's set, the player's rating (Glicko-2, computed by the
// server, kept in this browser), the puzzles met, streaks, hints and the solution. The server
// judges every move; the page only asks and shows.
import { render } from "../app.js";
import { $, STORE, gogo } from "./state.js";
import { clearMessage, moveText, restoreGame, send } from "./connection.js";
import { PIECE_NAME } from "./moves.js";

// How much harder each puzzle of a streak is.
const STREAK_STEP = 60;
// The most puzzle ids kept as met (the newest first).
const SEEN_KEPT = 5000;

// The player's rating as this browser keeps it; null for a new player, whom the server
// starts at Glicko-2's start rating (it says which in the puzzle's `rating_before`).
export function playerRating() {
  try {
    const r = JSON.parse(localStorage.getItem(STORE.puzzleRating) || "null");
    if (r && Number.isFinite(r.rating) && Number.isFinite(r.deviation) && Number.isFinite(r.volatility)) return r;
  } catch (e) { /* a damaged entry starts afresh */ }
  return null;
}

// What a rated puzzle request says of the player: their rating, or that they have none yet.
function rated() {
  const r = playerRating();
  return r ? { rating: r } : { new_player: true };
}

// { seen: [ids], current: { id, rated } | null, counted: id | null, streak: n, best: n, solved: n, failed: n }
function progress() {
  let p = null;
  try { p = JSON.parse(localStorage.getItem(STORE.puzzleProgress) || "null"); } catch (e) { p = null; }
  if (!p || !Array.isArray(p.seen)) p = { seen: [], current: null, counted: null, streak: 0, best: 0, solved: 0, failed: 0 };
  return p;
}
function saveProgress(p) {
  p.seen = p.seen.slice(0, SEEN_KEPT);
  localStorage.setItem(STORE.puzzleProgress, JSON.stringify(p));
}

export function setupPuzzles() {
  $("mode-play").onclick = () => leavePuzzles();
  $("mode-puzzles").onclick = () => enterPuzzles();
  $("puzzle-next").onclick = () => { clearMessage(); nextPuzzle(); };
  $("puzzle-hint").onclick = () => send({ type: "puzzle_hint" });
  $("puzzle-solution").onclick = () => send({ type: "puzzle_solution" });
  $("puzzle-retry").onclick = () => {
    if (!gogo.puzzle) return;
    clearMessage();
    // A retry is practice: the rating moved with the first try.
    send({ type: "puzzle", id: gogo.puzzle.id });
  };
  $("puzzle-analyse").onclick = analyse;
  $("puzzle-theme").onchange = () => localStorage.setItem("gogo.puzzle.theme", $("puzzle-theme").value);
  $("puzzle-streak").onchange = () => {
    const p = progress();
    p.streak = 0;
    saveProgress(p);
    renderPuzzle();
  };
  renderRating();
}

// After (re)connecting in Puzzles mode: the puzzle left open comes back (still rated if its
// first result was not in yet).
export function restorePuzzle() {
  if (localStorage.getItem(STORE.mode) !== "puzzles") return false;
  showMode(true);
  const p = progress();
  if (p.current) send(Object.assign({ type: "puzzle", id: p.current.id }, p.current.rated ? rated() : {}));
  else nextPuzzle();
  return true;
}

function showMode(puzzles) {
  gogo.puzzleMode = puzzles;
  document.body.classList.toggle("puzzle-mode", puzzles);
  $("puzzle-panel").hidden = !puzzles;
  $("mode-play").setAttribute("aria-selected", String(!puzzles));
  $("mode-puzzles").setAttribute("aria-selected", String(puzzles));
}

export function enterPuzzles() {
  if (gogo.puzzleMode) return;
  localStorage.setItem(STORE.mode, "puzzles");
  showMode(true);
  clearMessage();
  const p = progress();
  if (p.current && p.current.rated) send(Object.assign({ type: "puzzle", id: p.current.id }, rated()));
  else nextPuzzle();
}

// Back to Play: the kept game comes back as it was.
export function leavePuzzles() {
  if (!gogo.puzzleMode) return;
  localStorage.setItem(STORE.mode, "play");
  showMode(false);
  gogo.puzzle = null;
  gogo.hint = null;
  gogo.flipped = false;
  gogo.restored = false;
  if (gogo.state && !restoreGame(gogo.state)) render();
}

export function nextPuzzle() {
  const p = progress();
  const theme = $("puzzle-theme").value || null;
  const request = Object.assign({ type: "puzzle", theme, seen: p.seen }, rated());
  if ($("puzzle-streak").checked) request.near = 800 + STREAK_STEP * p.streak;
  send(request);
}

function analyse() {
  const pz = gogo.puzzle;
  if (!pz) return;
  const moves = pz.solution.map((m) => m.usi).join(" ");
  leavePuzzlesFor(`sfen ${pz.sfen}${moves ? " moves " + moves : ""}`, pz);
}

// Leaves Puzzles mode for the analysis board on the puzzle's position and its solution.
function leavePuzzlesFor(position, pz) {
  localStorage.setItem(STORE.mode, "play");
  showMode(false);
  gogo.puzzle = null;
  send({ type: "load", text: position });
  $("analyze").checked = true;
  send({ type: "analyze", on: true, multipv: Number($("multipv").value) });
  $("mate-result").textContent = `Puzzle ${pz.id}: ${pz.solution.map(moveText).join(" ")}`;
}

export function onPuzzle(update) {
  const first = !gogo.puzzle || gogo.puzzle.id !== update.id;
  gogo.puzzle = update;
  const p = progress();
  if (first) {
    gogo.flipped = update.player === "gote";
    gogo.hint = null;
  }
  if (!p.seen.includes(update.id)) p.seen.unshift(update.id);
  const over = update.state === "solved" || update.state === "failed";
  p.current = { id: update.id, rated: update.rated && !over };
  // The first result of a rated try moves the rating, once.
  if (over && update.rated && update.new_rating && p.counted !== update.id) {
    p.counted = update.id;
    localStorage.setItem(STORE.puzzleRating, JSON.stringify(update.new_rating));
    if (update.state === "solved") p.solved += 1; else p.failed += 1;
    if ($("puzzle-streak").checked) {
      if (update.state === "solved") { p.streak += 1; p.best = Math.max(p.best, p.streak); } else p.streak = 0;
    }
  }
  saveProgress(p);
  // The second hint is drawn as an arrow on the board (a drop's as `P*3c`).
  const live = gogo.state && gogo.state.positions[gogo.state.positions.length - 1];
  gogo.hint = update.hint && update.hint[1] && live ? { usi: update.hint[0] + update.hint[1], sfen: live } : null;
  fillThemes(update.theme_choices);
  renderPuzzle();
  render();
}

function fillThemes(choices) {
  const select = $("puzzle-theme");
  if (select.options.length > 1 || !choices) return;
  for (const [word, title] of choices) {
    const option = document.createElement("option");
    option.value = word;
    option.textContent = title;
    select.appendChild(option);
  }
  select.value = localStorage.getItem("gogo.puzzle.theme") || "";
}

function renderRating() {
  const r = playerRating() || (gogo.puzzle && gogo.puzzle.rating_before);
  const p = progress();
  if (!r) {
    $("puzzle-rating").textContent = "Your rating: after your first puzzle";
    $("puzzle-rating").removeAttribute("data-rating");
    return;
  }
  const sure = r.deviation > 110 ? "?" : "";
  const streak = $("puzzle-streak").checked ? ` · streak ${p.streak} (best ${p.best})` : "";
  $("puzzle-rating").textContent = `Your rating: ${Math.round(r.rating)}${sure} · solved ${p.solved}, missed ${p.failed}${streak}`;
  $("puzzle-rating").setAttribute("data-rating", String(Math.round(r.rating)));
}

export function renderPuzzle() {
  renderRating();
  const pz = gogo.puzzle;
  const status = $("puzzle-status");
  const set = (id, enabled) => { $(id).disabled = !enabled; };
  if (!pz) {
    status.textContent = "";
    $("puzzle-info").textContent = "";
    $("puzzle-line").textContent = "";
    for (const id of ["puzzle-hint", "puzzle-solution", "puzzle-retry", "puzzle-analyse"]) set(id, false);
    return;
  }
  const side = pz.player === "sente" ? "▲ Sente" : "△ Gote";
  const over = pz.state === "solved" || pz.state === "failed";
  let text;
  if (pz.state === "solved") text = "Solved!";
  else if (pz.state === "failed") text = pz.mistake ? `Not the move (${pz.mistake}). Retry, or view the solution.` : "The solution.";
  else if (pz.state === "replying") text = "Right. The reply…";
  else text = pz.found > 0 ? `Right. Now the next move (${side}).` : `Find the best move for ${side}.`;
  if (pz.hint && !over) {
    const [piece, to] = pz.hint;
    text += piece.endsWith("*") ? ` Hint: drop the ${PIECE_NAME[piece[0]] || piece[0]}${to ? " on " + to : ""}.` : ` Hint: the piece on ${piece}${to ? " goes to " + to : ""}.`;
  }
  status.textContent = text;
  status.className = "turn" + (pz.state === "solved" ? " solved" : pz.state === "failed" ? " failed" : "");
  const rated = pz.new_rating ? ` · your rating ${Math.round(pz.new_rating.rating)}` : "";
  const themes = over ? ` · ${pz.themes.join(", ")} · puzzle rating ${pz.rating}` : "";
  $("puzzle-info").textContent = `Puzzle ${pz.id}: ${pz.moves} move${pz.moves > 1 ? "s" : ""} to find${themes}${rated}`;
  $("puzzle-line").textContent = pz.solution.length ? `Solution: ${pz.solution.map(moveText).join(" ")}` : "";
  set("puzzle-hint", pz.state === "playing");
  // After a miss the solution is there for the asking.
  set("puzzle-solution", pz.state !== "solved" && pz.solution.length === 0);
  set("puzzle-retry", over);
  set("puzzle-analyse", over);
}
