// The online page: a name, the lobby (rooms waiting, a room to create, my games), and a
// room's game. The server judges everything; this page draws what it says and sends what
// the person asks. Every text a person typed is shown with textContent, never as markup.

const $ = (id) => document.getElementById(id);
const STORE = { player: "gogo.online.player", seats: "gogo.online.seats" };
const KANJI = { K: "玉", G: "金", S: "銀", B: "角", R: "飛", P: "歩", "+S": "全", "+B": "馬", "+R": "龍", "+P": "と" };
const CLOCKS = [
  ["none", { kind: "none" }],
  ["1+1", { kind: "fischer", main_ms: 60000, increment_ms: 1000 }],
  ["3+2", { kind: "fischer", main_ms: 180000, increment_ms: 2000 }],
  ["5+3", { kind: "fischer", main_ms: 300000, increment_ms: 3000 }],
  ["1|10 byoyomi", { kind: "byoyomi", main_ms: 60000, byoyomi_ms: 10000 }],
  ["3|10 byoyomi", { kind: "byoyomi", main_ms: 180000, byoyomi_ms: 10000 }],
  ["30 s a move", { kind: "per_turn", turn_ms: 30000 }],
  ["60 s a move", { kind: "per_turn", turn_ms: 60000 }],
];

// What the page knows: the player, the room it shows, and the selection on the board.
const online = window.gogoOnline = {
  player: null, game: null, room: null, socket: null, epoch: null, event: null,
  selected: null, receivedAt: 0, messages: 0,
  // A finished game's positions (from its record) and the one shown in review.
  positions: null, reviewPly: null,
};

function load(key, fallback) {
  try { return JSON.parse(localStorage.getItem(key)) ?? fallback; } catch (e) { return fallback; }
}
function seats() { return load(STORE.seats, {}); }
function seatOf(game) { return seats()[game] || null; }
function keepSeat(game, seat) { const s = seats(); s[game] = seat; localStorage.setItem(STORE.seats, JSON.stringify(s)); }

async function api(method, path, body) {
  const headers = { "Content-Type": "application/json" };
  if (online.player) headers.Authorization = `Bearer ${online.player.token}`;
  const response = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const json = await response.json().catch(() => null);
  if (!response.ok) throw new Error((json && json.error) || `${response.status}`);
  return json;
}

function show(panel) {
  for (const id of ["name-panel", "lobby-panel", "player-panel", "puzzle-panel", "game-panel"]) $(id).hidden = id !== panel;
}

// --- name and lobby ------------------------------------------------------------------------

async function start() {
  online.player = load(STORE.player, null);
  for (const [name, clock] of CLOCKS) {
    const option = document.createElement("option");
    option.textContent = name;
    option.value = JSON.stringify(clock);
    $("clock").append(option);
  }
  $("name-form").onsubmit = async (e) => {
    e.preventDefault();
    try {
      const made = await api("POST", "/api/token", { name: $("name").value });
      online.player = { token: made.token, id: made.id, name: made.name };
      localStorage.setItem(STORE.player, JSON.stringify(online.player));
      route();
    } catch (err) { $("name-error").textContent = err.message; }
  };
  $("room-form").onsubmit = createRoom;
  $("review-first").onclick = () => reviewAt(0);
  $("review-prev").onclick = () => reviewAt(online.reviewPly - 1);
  $("review-next").onclick = () => reviewAt(online.reviewPly + 1);
  $("review-last").onclick = () => reviewAt(Infinity);
  document.addEventListener("keydown", (e) => {
    if (!online.positions || $("game-panel").hidden || e.target.tagName === "INPUT") return;
    if (e.key === "ArrowLeft") reviewAt(online.reviewPly - 1);
    else if (e.key === "ArrowRight") reviewAt(online.reviewPly + 1);
  });
  $("chat-form").onsubmit = (e) => {
    e.preventDefault();
    const text = $("chat-text").value.trim();
    if (text) send({ type: "chat", text });
    $("chat-text").value = "";
  };
  $("puzzle-hint").onclick = puzzleHint;
  $("puzzle-solution").onclick = puzzleSolution;
  $("puzzle-next").onclick = () => { if (location.hash === "#puzzle") openPuzzle(""); else location.hash = "puzzle"; };
  // A game against the CPU is casual, and no one leaves it to another.
  $("opponent").onchange = () => {
    const cpu = $("opponent").value !== "friend";
    $("rated").disabled = $("leave").disabled = cpu;
    if (cpu) $("rated").checked = false;
  };
  $("copy-invite").onclick = () => { $("invite-link").select(); navigator.clipboard && navigator.clipboard.writeText($("invite-link").value).catch(() => {}); };
  $("cancel-room").onclick = () => send({ type: "cancel" });
  $("join-button").onclick = join;
  $("resign").onclick = () => { if (confirm("Resign this game?")) send({ type: "resign" }); };
  $("draw").onclick = () => send({ type: "offer_draw" });
  $("takeback").onclick = () => send({ type: "propose_takeback" });
  $("abort").onclick = () => send({ type: "abort" });
  $("rematch").onclick = () => send({ type: "rematch" });
  $("claim-win").onclick = () => send({ type: "claim_victory" });
  $("claim-draw").onclick = () => send({ type: "claim_draw" });
  window.addEventListener("hashchange", route);
  // A page kept in the back-forward cache would keep its seat's socket open: the opponent
  // must see it leave, and find it back when it is shown again.
  window.addEventListener("pagehide", closeSocket);
  window.addEventListener("pageshow", (e) => { if (e.persisted && online.game) connect(); });
  setInterval(tick, 200);
  route();
}

function route() {
  if (!online.player) { show("name-panel"); return; }
  $("me").textContent = online.player.name;
  const hash = new URLSearchParams(location.hash.slice(1));
  const game = hash.get("game");
  const player = hash.get("player");
  if (game) openGame(game);
  else if (player) openPlayer(player);
  else if (hash.has("puzzle")) openPuzzle(hash.get("puzzle"));
  else openLobby();
}

// --- puzzles -------------------------------------------------------------------------------
// As on the local board: the page keeps its puzzle rating and the puzzles it met; the server
// judges each move and moves the rating at the end of a rated try (the first, without the
// solution shown).

const PUZZLE_RATING = "gogo.online.puzzleRating";
const PUZZLES_SEEN = "gogo.online.puzzlesSeen";
function puzzleRating() { return load(PUZZLE_RATING, { rating: 1500, deviation: 350, volatility: 0.06 }); }

async function openPuzzle(id) {
  closeSocket();
  unwatchLobby();
  online.game = null;
  online.selected = null;
  show("puzzle-panel");
  $("puzzle-rating").textContent = `Your puzzle rating: ${Math.round(puzzleRating().rating)}`;
  try {
    const seen = load(PUZZLES_SEEN, []);
    const puzzle = id
      ? await api("GET", `/online/puzzles/${encodeURIComponent(id)}`)
      : await api("GET", `/online/puzzles/next?near=${Math.round(puzzleRating().rating)}&seen=${encodeURIComponent(seen.slice(0, 200).join(","))}`);
    if (!id) { history.replaceState(null, "", `#puzzle=${encodeURIComponent(puzzle.id)}`); }
    const you = puzzle.sfen.split(" ")[1] === "b" ? "sente" : "gote";
    online.puzzle = { ...puzzle, you, ply: 0, last: null, over: false, helped: false, hints: 0, rated: !seen.includes(puzzle.id) };
    if (!seen.includes(puzzle.id)) localStorage.setItem(PUZZLES_SEEN, JSON.stringify([puzzle.id, ...seen].slice(0, 200)));
    $("puzzle-title").textContent = `Puzzle ${puzzle.id} · ${puzzle.rating} · ${puzzle.themes.join(", ")}`;
    $("puzzle-status").textContent = `${you === "sente" ? "Sente" : "Gote"} to play: find the best move.`;
    renderPuzzle();
  } catch (err) { $("puzzle-status").textContent = err.message; }
}

function renderPuzzle() {
  const p = online.puzzle;
  if (!p) return;
  drawBoard(
    { board: "puzzle-board", top: "puzzle-hand-top", bottom: "puzzle-hand-bottom" },
    { sfen: p.sfen, legal: p.legal, you: p.you, myTurn: !p.over && !p.waiting, showLegal: true, last: p.last },
    puzzleMove,
    renderPuzzle,
  );
  $("puzzle-hint").disabled = $("puzzle-solution").disabled = p.over;
}

async function puzzleMove(usi) {
  const p = online.puzzle;
  p.waiting = true;
  const rating = p.rated ? puzzleRating() : undefined;
  try {
    const answer = await api("POST", `/online/puzzles/${encodeURIComponent(p.id)}/move`, { ply: p.ply, usi, rating, helped: p.helped });
    if (online.puzzle !== p) return;
    if (answer.rating) localStorage.setItem(PUZZLE_RATING, JSON.stringify(answer.rating));
    p.sfen = answer.sfen; p.legal = answer.legal; p.ply = answer.ply; p.hints = 0;
    p.last = answer.reply || (answer.verdict === "solved" ? usi : p.last);
    p.over = answer.verdict !== "right";
    const moved = answer.rating ? ` Your puzzle rating: ${Math.round(answer.rating.rating)}.` : "";
    $("puzzle-status").textContent = answer.verdict === "right" ? `Right: ${answer.reply} was the reply. Your move.`
      : answer.verdict === "solved" ? `Solved!${moved}`
      : `Not this one: ${usi}. The solution: ${answer.solution.join(" ")}.${moved}`;
    if (p.over) p.rated = false;
  } catch (err) { $("puzzle-status").textContent = err.message; }
  p.waiting = false;
  renderPuzzle();
}

async function puzzleHint() {
  const p = online.puzzle;
  if (!p || p.over) return;
  try {
    const hint = await api("GET", `/online/puzzles/${encodeURIComponent(p.id)}/hint?ply=${p.ply}`);
    p.helped = true;
    p.hints = Math.min(2, p.hints + 1);
    $("puzzle-status").textContent = p.hints === 1 ? `Hint: move ${hint.piece}.` : `Hint: ${hint.piece} to ${hint.square}.`;
  } catch (err) { $("puzzle-status").textContent = err.message; }
}

// The solution: the player gives up, and the try ends as failed.
async function puzzleSolution() {
  const p = online.puzzle;
  if (!p || p.over) return;
  p.over = true;
  const rating = p.rated ? puzzleRating() : undefined;
  try {
    const answer = await api("POST", `/online/puzzles/${encodeURIComponent(p.id)}/move`, { ply: p.ply, give_up: true, rating, helped: true });
    if (answer.rating) localStorage.setItem(PUZZLE_RATING, JSON.stringify(answer.rating));
    $("puzzle-status").textContent = `The solution: ${answer.solution.join(" ")}.`;
  } catch (err) { $("puzzle-status").textContent = err.message; }
  p.rated = false;
  renderPuzzle();
}

// A player's games, newest first, as seen by `id` (won, lost, in play), into `list`.
async function listGames(id, list) {
  const games = await api("GET", `/api/games/user/${encodeURIComponent(id)}`);
  list.replaceChildren();
  for (const g of games) {
    const li = document.createElement("li");
    const link = document.createElement("a");
    link.href = `#game=${encodeURIComponent(g.id)}`;
    link.textContent = `${g.names[0] || "?"} – ${g.names[1] || "?"}`;
    const side = g.players[0] === id ? "sente" : "gote";
    const outcome = g.reason === null ? "in play" : g.winner === null ? `no winner (${g.reason})` : g.winner === side ? `won (${g.reason})` : `lost (${g.reason})`;
    li.append(link, document.createTextNode(` · ${g.plies} plies · ${outcome}`));
    list.append(li);
  }
}

// A player's page: their name as text, their rating and their games.
async function openPlayer(id) {
  closeSocket();
  unwatchLobby();
  online.game = null;
  show("player-panel");
  $("player-name").textContent = "";
  $("player-rating").textContent = "";
  try {
    const player = await api("GET", `/api/user/${encodeURIComponent(id)}`);
    $("player-name").textContent = player.name;
    $("player-rating").textContent = `Rating ${player.rating}${player.provisional ? "? (provisional)" : ""} · ${player.games} rated games`;
    await listGames(id, $("player-games"));
  } catch (err) { $("player-rating").textContent = err.message; }
}

async function openLobby() {
  closeSocket();
  online.game = null;
  show("lobby-panel");
  watchLobby();
  $("puzzle-rating-lobby").textContent = Math.round(puzzleRating().rating);
  try {
    await listGames(online.player.id, $("my-games"));
  } catch (err) { /* the list waits for the next visit */ }
}

// The lobby as the server tells it, live, while the lobby shows.
function watchLobby() {
  if (online.lobbySocket) return;
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const socket = new WebSocket(`${scheme}://${location.host}/online/lobby/ws`);
  online.lobbySocket = socket;
  socket.onmessage = (message) => { if (!online.game) showLobby(JSON.parse(message.data)); };
  socket.onclose = () => {
    if (online.lobbySocket !== socket) return;
    online.lobbySocket = null;
    $("counts").textContent = "(reconnecting…)";
    setTimeout(() => { if (!online.game) watchLobby(); }, 2000);
  };
}

function unwatchLobby() {
  if (online.lobbySocket) { const s = online.lobbySocket; online.lobbySocket = null; s.close(); }
}

function showLobby(lobby) {
  $("counts").textContent = `(${lobby.waiting.length} waiting, ${lobby.playing} playing)`;
  const list = $("lobby");
  list.replaceChildren();
  for (const room of lobby.waiting) {
    const li = document.createElement("li");
    const clock = CLOCKS.find(([, c]) => JSON.stringify(c) === JSON.stringify(room.settings.clock));
    li.textContent = `${room.host} (${room.rating}) · ${room.settings.rules} · ${clock ? clock[0] : "clock"} · ${room.settings.rated ? "rated" : "casual"} `;
    const button = document.createElement("button");
    button.textContent = "Join";
    button.onclick = () => { location.hash = `game=${encodeURIComponent(room.id)}`; };
    li.append(button);
    list.append(li);
  }
}

async function createRoom(e) {
  e.preventDefault();
  const settings = {
    rules: $("rules").value,
    clock: JSON.parse($("clock").value),
    color: $("color").value,
    rated: $("rated").checked,
    max_plies: Number($("max-plies").value) || 0,
    show_legal: $("show-legal").checked,
    alternate: $("alternate").checked,
    leave: $("leave").value === "cpu" ? { kind: "cpu", level: 3 } : { kind: "claim" },
  };
  // Against the CPU the game starts at once, casual.
  if ($("opponent").value !== "friend") {
    settings.cpu_opponent = Number($("opponent").value);
    settings.rated = false;
  }
  try {
    const room = await api("POST", "/online/rooms", settings);
    keepSeat(room.id, room.seat);
    location.hash = `game=${encodeURIComponent(room.id)}`;
  } catch (err) { $("room-error").textContent = err.message; }
}

async function join() {
  try {
    const joined = await api("POST", `/online/rooms/${encodeURIComponent(online.game)}/join`);
    keepSeat(online.game, joined.seat);
    // Now a player, not a spectator: the whole room again, as the seat sees it.
    closeSocket();
    online.epoch = online.event = null;
    connect();
  } catch (err) { $("message").textContent = err.message; }
}

// --- a room ------------------------------------------------------------------------------

function openGame(game) {
  unwatchLobby();
  if (online.game !== game) {
    closeSocket();
    $("chat-lines").replaceChildren();
    online.positions = null;
    online.reviewPly = null;
    online.game = game;
    online.room = null;
    online.epoch = online.event = null;
  }
  show("game-panel");
  if (!online.socket) connect();
}

function closeSocket() {
  if (online.socket) { const s = online.socket; online.socket = null; s.close(); }
}

function connect() {
  const seat = seatOf(online.game) || "";
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  let url = `${scheme}://${location.host}/online/ws?game=${encodeURIComponent(online.game)}&seat=${encodeURIComponent(seat)}`;
  if (online.epoch !== null) url += `&epoch=${online.epoch}&after=${online.event}`;
  const socket = new WebSocket(url);
  online.socket = socket;
  socket.onopen = () => { $("connection").textContent = "connected"; };
  socket.onclose = () => {
    if (online.socket !== socket) return;
    online.socket = null;
    // No room to connect to: a game over (its record is shown), or no such game.
    if (online.room === null) { $("connection").textContent = ""; showRecord(); return; }
    $("connection").textContent = "disconnected: reconnecting…";
    setTimeout(() => { if (online.game && !online.socket) connect(); }, 1000);
  };
  socket.onmessage = (message) => {
    if (online.socket !== socket) return;
    const update = JSON.parse(message.data);
    online.messages += 1;
    if (update.type === "room") onRoom(update);
    else if (update.type === "event") onEvent(update);
    else if (update.type === "presence") onPresence(update);
    else if (update.type === "rematch_offered" && online.room) { online.room.rematch_offer = update.by; render(); }
    else if (update.type === "rematch") onRematch(update);
    else if (update.type === "chat") onChat(update);
    else if (update.type === "refused") $("message").textContent = update.message;
  };
}

function send(request) {
  $("message").textContent = "";
  if (online.socket && online.socket.readyState === WebSocket.OPEN) online.socket.send(JSON.stringify(request));
}

function onRoom(room) {
  // Each absent seat's leaving, on this page's clock, for the countdown to a claim.
  for (const seat of room.seats) if (seat) seat.absentSince = seat.absent_ms === null ? null : performance.now() - seat.absent_ms;
  online.room = room;
  online.epoch = room.epoch;
  online.event = room.event;
  online.receivedAt = performance.now();
  online.selected = null;
  render();
}

function onEvent(update) {
  const room = online.room;
  if (!room) return;
  online.epoch = update.epoch;
  online.event = update.number;
  const e = update.event;
  const mover = room.moves.length % 2 === 0 ? "sente" : "gote";
  switch (e.kind) {
    case "moved":
      room.moves.length = e.ply;
      room.moves.push(e.usi);
      room.clocks_ms = e.clocks_ms;
      room.takeback_offer = null;
      if (room.draw_offer !== mover) room.draw_offer = null;
      break;
    case "took_back": room.moves.length = e.plies; room.clocks_ms = e.clocks_ms; room.takeback_offer = null; room.draw_offer = null; break;
    case "draw_offered": room.draw_offer = e.by; break;
    case "draw_declined": room.draw_offer = null; break;
    case "takeback_proposed": room.takeback_offer = e.by; break;
    case "takeback_declined": room.takeback_offer = null; break;
    case "ended": room.status = "over"; room.result = e.result; room.reason = e.reason; break;
  }
  room.sfen = update.sfen;
  room.legal = update.legal;
  const timed = room.settings.clock.kind !== "none";
  room.running = timed && room.status === "playing" && room.moves.length >= 2 ? (room.moves.length % 2 === 0 ? "sente" : "gote") : null;
  online.receivedAt = performance.now();
  online.selected = null;
  render();
}

// A line of chat, shown as text.
function onChat(update) {
  const li = document.createElement("li");
  const who = document.createElement("span");
  who.className = "who";
  who.textContent = `${update.name}: `;
  li.append(who, document.createTextNode(update.text));
  $("chat-lines").append(li);
  li.scrollIntoView({ block: "nearest" });
}

// The rematch is made: this page's seat in it is kept, and the page follows it.
function onRematch(update) {
  if (update.seat) keepSeat(update.game, update.seat);
  $("record").hidden = true;
  location.hash = `game=${encodeURIComponent(update.game)}`;
}

function onPresence(update) {
  const seat = online.room && online.room.seats[update.side === "sente" ? 0 : 1];
  if (seat) {
    seat.present = update.present;
    seat.absentSince = update.present ? null : performance.now();
  }
  render();
}

// --- drawing -------------------------------------------------------------------------------

// The position of an SFEN: 25 squares from 5a (top left, as Sente sees it) and both hands.
function parseSfen(sfen) {
  const [board, , hands] = sfen.split(" ");
  const squares = [];
  for (const row of board.split("/")) {
    let promoted = false;
    for (const ch of row) {
      if (ch === "+") { promoted = true; continue; }
      if (/[0-9]/.test(ch)) { for (let i = 0; i < Number(ch); i++) squares.push(null); continue; }
      const color = ch === ch.toUpperCase() ? "sente" : "gote";
      squares.push({ kind: (promoted ? "+" : "") + ch.toUpperCase(), color });
      promoted = false;
    }
  }
  const hand = { sente: {}, gote: {} };
  let count = "";
  for (const ch of hands === "-" ? "" : hands) {
    if (/[0-9]/.test(ch)) { count += ch; continue; }
    hand[ch === ch.toUpperCase() ? "sente" : "gote"][ch.toUpperCase()] = Number(count || 1);
    count = "";
  }
  return { squares, hand };
}

function squareName(index) { return `${5 - (index % 5)}${"abcde"[Math.floor(index / 5)]}`; }

function clockText(ms) {
  const s = Math.max(0, Math.ceil(ms / 1000));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

// The board and both hands of `view` ({sfen, legal, you, last, myTurn, showLegal}) into the
// elements `ids` names ({board, top, bottom}); a move made by clicks goes to `onMove(usi)`,
// and a click that only selects calls `redraw`.
function drawBoard(ids, view, onMove, redraw) {
  const flipped = view.you === "gote";
  const bottom = flipped ? 1 : 0;
  const { squares, hand } = parseSfen(view.sfen);
  const lastTo = view.last ? view.last.slice(2, 4) : null;
  const targets = new Set(online.selected ? view.legal.filter((m) => m.startsWith(online.selected)).map((m) => m.slice(2, 4)) : []);
  const board = $(ids.board);
  board.replaceChildren();
  for (let n = 0; n < 25; n++) {
    const index = flipped ? 24 - n : n;
    const name = squareName(index);
    const cell = document.createElement("div");
    cell.className = "cell";
    cell.dataset.square = name;
    const piece = squares[index];
    if (piece) {
      const span = document.createElement("span");
      span.className = "piece";
      span.textContent = piece.kind === "K" && piece.color === "gote" ? "王" : KANJI[piece.kind];
      cell.append(span);
      if ((piece.color === "gote") !== flipped) cell.classList.add("gote");
      if (piece.kind.startsWith("+")) cell.classList.add("promoted");
    }
    if (name === lastTo) cell.classList.add("last");
    if (online.selected === name) cell.classList.add("selected");
    if (view.showLegal && targets.has(name)) cell.classList.add("target");
    cell.onclick = () => clickSquare(name, piece, view, onMove, redraw);
    board.append(cell);
  }
  for (const [place, side] of [["top", 1 - bottom], ["bottom", bottom]]) {
    const color = side === 0 ? "sente" : "gote";
    const handBox = $(ids[place]);
    handBox.replaceChildren();
    for (const kind of ["R", "B", "G", "S", "P"]) {
      const n = hand[color][kind];
      if (!n) continue;
      const button = document.createElement("button");
      button.textContent = `${KANJI[kind]}${n > 1 ? n : ""}`;
      button.dataset.drop = kind;
      if (online.selected === `${kind}*`) button.classList.add("selected");
      button.disabled = !(view.myTurn && color === view.you);
      button.onclick = () => { online.selected = online.selected === `${kind}*` ? null : `${kind}*`; redraw(); };
      handBox.append(button);
    }
  }
}

function render() {
  const room = online.room;
  if (!room) return;
  const you = room.you;
  const bottom = you === "gote" ? 1 : 0;
  const myTurn = room.status === "playing" && you && (room.moves.length % 2 === 0 ? "sente" : "gote") === you;
  // A finished game may be stepped through: the position after `reviewPly` moves.
  const reviewing = room.status === "over" && online.positions && online.reviewPly !== null;
  const ply = reviewing ? online.reviewPly : room.moves.length;
  drawBoard(
    { board: "board", top: "hand-top", bottom: "hand-bottom" },
    { sfen: reviewing ? online.positions[ply] : room.sfen, legal: room.legal, you, myTurn, showLegal: room.settings.show_legal,
      last: ply ? room.moves[ply - 1] : null },
    (usi) => send({ type: "move", ply: room.moves.length, usi }),
    render,
  );
  for (const [place, side] of [["top", 1 - bottom], ["bottom", bottom]]) {
    const seat = room.seats[side];
    const label = $(`name-${place}`);
    label.replaceChildren();
    label.append(document.createTextNode(`${side === 0 ? "☗" : "☖"} `));
    const name = document.createElement(seat && !seat.cpu ? "a" : "span");
    name.textContent = seat ? seat.name : "(waiting for an opponent)";
    if (seat && !seat.cpu) name.href = `#player=${encodeURIComponent(seat.id)}`;
    label.append(name);
    if (seat && !seat.cpu) {
      label.append(document.createTextNode(` ${seat.rating}${seat.provisional ? "?" : ""}`));
      if (!seat.present && room.status === "playing") {
        const away = document.createElement("span");
        away.className = "absent";
        away.textContent = " · disconnected";
        away.className = "absent away";
        label.append(away);
      }
    }
  }
  const over = room.status === "over";
  $("status").textContent = room.status === "waiting" ? "Waiting for an opponent to join."
    : over ? `${room.result} · ${room.reason}`
    : myTurn ? "Your move." : you ? "Your opponent's move." : "Watching.";
  const seated = !!you;
  $("invite").hidden = !(room.status === "waiting" && seated);
  $("invite-link").value = `${location.origin}/online#game=${room.id}`;
  $("join").hidden = !(room.status === "waiting" && !seated);
  $("actions").hidden = !(seated && room.status === "playing");
  $("chat-form").hidden = !seated;
  $("abort").hidden = room.moves.length >= 2;
  const other = you === "sente" ? "gote" : "sente";
  const offer = room.draw_offer === other ? "Your opponent offers a draw." : room.takeback_offer === other ? "Your opponent asks to take back a move." : null;
  $("offer").hidden = !(seated && offer && !over);
  $("offer-text").textContent = offer || "";
  $("offer-yes").onclick = () => send({ type: room.draw_offer === other ? "offer_draw" : "propose_takeback" });
  $("offer-no").onclick = () => send({ type: room.draw_offer === other ? "decline_draw" : "decline_takeback" });
  $("after").hidden = !(over && seated && room.seats[0] && room.seats[1] && !room.next_game);
  $("rematch-text").textContent = room.rematch_offer === other ? "Your opponent wants a rematch." : room.rematch_offer === you ? "Rematch asked." : "";
  const moves = $("moves");
  const review = over && !!online.positions;
  moves.classList.toggle("reviewing", review);
  moves.replaceChildren(...room.moves.map((m, i) => {
    const li = document.createElement("li");
    li.textContent = m;
    if (review) {
      li.onclick = () => reviewAt(i + 1);
      if (i + 1 === ply) li.classList.add("reviewed");
    }
    return li;
  }));
  $("review").hidden = !review;
  if (review) $("review-ply").textContent = `${ply} / ${room.moves.length}`;
  if (over) showRecord();
  tick();
}

function clickSquare(name, piece, view, onMove, redraw) {
  if (!view.myTurn) return;
  if (online.selected) {
    const from = online.selected;
    const plain = `${from}${name}`;
    const options = view.legal.filter((m) => m === plain || m === `${plain}+`);
    if (options.length) {
      const usi = options.length === 2 ? (confirm("Promote?") ? `${plain}+` : plain) : options[0];
      online.selected = null;
      onMove(usi);
      redraw();
      return;
    }
  }
  online.selected = piece && piece.color === view.you ? (online.selected === name ? null : name) : null;
  redraw();
}

// The opponent's absence: how long until the one who stayed may claim.
function tickAbsence() {
  const room = online.room;
  const you = room && room.you;
  const other = you && room.seats[you === "sente" ? 1 : 0];
  const gone = other && room.status === "playing" && !other.present && other.absentSince !== null && other.absentSince !== undefined;
  $("claim").hidden = !gone;
  if (!gone) return;
  const left = room.claim_after_ms - (performance.now() - other.absentSince);
  const cpu = room.settings.leave && room.settings.leave.kind === "cpu";
  $("claim-win").hidden = $("claim-draw").hidden = cpu;
  $("claim-text").textContent = cpu
    ? (left > 0 ? `Your opponent left: the CPU plays for them in ${Math.ceil(left / 1000)} s.` : "Your opponent left: the CPU plays for them.")
    : (left > 0 ? `Your opponent left: you may claim in ${Math.ceil(left / 1000)} s.` : "Your opponent left.");
  $("claim-win").disabled = $("claim-draw").disabled = left > 0;
}

function tick() {
  tickAbsence();
  const room = online.room;
  if (!room || room.settings.clock.kind === "none") { $("clock-top").textContent = $("clock-bottom").textContent = ""; return; }
  const bottom = room.you === "gote" ? 1 : 0;
  const elapsed = performance.now() - online.receivedAt;
  for (const [place, side] of [["top", 1 - bottom], ["bottom", bottom]]) {
    const color = side === 0 ? "sente" : "gote";
    const running = room.running === color;
    let left = room.clocks_ms[side] - (running ? elapsed : 0);
    const byo = room.settings.clock.byoyomi_ms || room.settings.clock.turn_ms || 0;
    let text = clockText(left);
    if (byo && left <= 0) text = `${clockText(Math.max(0, left + byo))} (byoyomi)`;
    $(`clock-${place}`).textContent = text;
    $(`clock-${place}`).classList.toggle("running", running);
  }
}

// Review: the finished game's position after `ply` moves (clamped to the game).
function reviewAt(ply) {
  const room = online.room;
  if (!room || !online.positions) return;
  online.reviewPly = Math.max(0, Math.min(room.moves.length, ply));
  render();
}

async function showRecord() {
  if (!online.game || !$("record").hidden) return;
  try {
    const record = await api("GET", `/online/games/${encodeURIComponent(online.game)}`);
    if (!online.room) {
      online.room = {
        id: record.id, epoch: 0, event: 0, you: null, status: record.result ? "over" : "playing",
        // The players as the record names them (their ratings now are on their pages).
        seats: record.names.map((name, i) => ({ name, id: record.players[i], cpu: !record.players[i], rating: "", provisional: false, present: true })),
        settings: { clock: { kind: "none" }, show_legal: false }, start: record.start, moves: record.moves,
        sfen: record.sfen, legal: [], clocks_ms: [0, 0], running: null, draw_offer: null, takeback_offer: null,
        result: record.result, reason: record.reason,
      };
    }
    online.positions = record.positions;
    if (online.reviewPly === null || online.reviewPly === undefined) online.reviewPly = record.moves.length;
    $("kif").value = record.kif;
    $("kif-link").href = URL.createObjectURL(new Blob([record.kif], { type: "text/plain;charset=utf-8" }));
    $("kif-link").download = `${record.id}.kif`;
    $("record").hidden = false;
    render();
  } catch (err) { $("message").textContent = err.message; }
}

start();
