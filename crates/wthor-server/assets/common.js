// wthor serve: what every page shares: helpers, the board, the filters,
// the games table. Plain JavaScript modules, no build step, no CDN.
// Every page keeps its state in the URL (a link can be shared); moving
// through positions never reloads the page.

export const main = document.getElementById("main");

// ------------------------------------------------------------ utilities

export function el(tag, attrs = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "class") e.className = v;
    else if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
    else e.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    e.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return e;
}

export const SVG = "http://www.w3.org/2000/svg";
export function svg(tag, attrs = {}, ...children) {
  const e = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
    else e.setAttribute(k, v);
  }
  for (const c of children.flat()) if (c) e.append(c instanceof Node ? c : document.createTextNode(String(c)));
  return e;
}

export async function api(path) {
  const r = await fetch(path);
  let body;
  try { body = await r.json(); } catch { body = { error: `${r.status} ${r.statusText}` }; }
  if (!r.ok) {
    const err = new Error(body.error || `${r.status}`);
    err.body = body;
    err.status = r.status;
    throw err;
  }
  return body;
}

export const pct = (x) => `${(100 * x).toFixed(1)}%`;
export const num = (n) => Number(n).toLocaleString("en-US");
export const fixed = (x, d = 1) => (x === null || x === undefined ? "–" : Number(x).toFixed(d));
export const signed = (x) => (x > 0 ? `+${x}` : `${x}`);
// `n` and its noun, singular for 1: "1 disc", "2 discs".
export const count = (n, one, many) => `${num(n)} ${n === 1 ? one : many}`;

// `box`'s children replaced by `children`, skipping what `el` skips
// (null, undefined, false: the parts a page leaves out).
export function put(box, ...children) {
  box.replaceChildren(...children.flat().filter((c) => c !== null && c !== undefined && c !== false));
}

export function showError(where, err) {
  put(where, el("div", { class: "error", role: "alert" }, String(err.message || err)));
}

let router = () => {};
// The router of the pages (app.js), called on every change of URL.
export function onRoute(f) {
  router = f;
}

// A page's own answer to the browser's Back and Forward within it (the
// explorer's positions): called on popstate, it returns true when it
// showed the URL itself, false to have the page drawn again. Cleared on
// every change of page.
let onPop = null;
export function onHistory(f) {
  onPop = f;
}

function route() {
  onPop = null;
  router();
}

export function navigate(url) {
  history.pushState(null, "", url);
  route();
}

// A flag of a URL as the API reads it: `1`, `true`, `yes` or empty for
// true (`reverse=1`, `exact=true`).
export function flag(params, key) {
  return params.has(key) && ["", "1", "true", "yes"].includes(params.get(key).toLowerCase());
}

// Links inside the app do not reload the page.
document.addEventListener("click", (ev) => {
  const a = ev.target.closest("a");
  if (!a || a.target || a.hasAttribute("download") || ev.ctrlKey || ev.metaKey || ev.shiftKey) return;
  const url = new URL(a.href, location.href);
  if (url.origin !== location.origin || url.pathname.startsWith("/api/")) return;
  ev.preventDefault();
  navigate(url.pathname + url.search);
});
window.addEventListener("popstate", () => { if (!(onPop && onPop())) route(); });

// Squares: bit order a1, b1, …; column letter then row number.
export function squareName(i, side) {
  return String.fromCharCode(97 + (i % side)) + String(Math.floor(i / side) + 1);
}
export function squareIndex(name, side) {
  const col = name.charCodeAt(0) - 97;
  const row = parseInt(name.slice(1), 10) - 1;
  return row * side + col;
}
export function splitMoves(transcript) {
  return (transcript.toLowerCase().match(/[a-j](10|[1-9])/g) || []);
}

// ------------------------------------------------------- passes in a line

// The start of a board of `size` (8 or 10): d4/e5 white, e4/d5 black on
// 8x8, the same at the centre of 10x10; black to move.
export function startPosition(size = 8) {
  const sq = Array(size * size).fill("-");
  const c = size / 2 - 1;
  sq[c * size + c] = "O"; sq[c * size + c + 1] = "X";
  sq[(c + 1) * size + c] = "X"; sq[(c + 1) * size + c + 1] = "O";
  return { size, squares: sq.join(""), toMove: "black" };
}

// An OBF position ("---…XO… X") as a start for `colours`.
export function obfPosition(obf) {
  const [squares, side = "X"] = obf.trim().split(/\s+/);
  const sq = [...squares].map((c) => ("xX*".includes(c) ? "X" : "oO".includes(c) ? "O" : "-")).join("");
  return { size: Math.round(Math.sqrt(sq.length)), squares: sq, toMove: side.toUpperCase() === "O" ? "white" : "black" };
}

// The discs `square` turns over for `disc` ("X" or "O") on `board` (an
// array), an empty list when the move is illegal.
function flips(board, size, square, disc) {
  if (board[square] !== "-") return [];
  const other = disc === "X" ? "O" : "X";
  const col = square % size, row = Math.floor(square / size), out = [];
  for (const [dc, dr] of [[1, 0], [-1, 0], [0, 1], [0, -1], [1, 1], [1, -1], [-1, 1], [-1, -1]]) {
    const run = [];
    let c = col + dc, r = row + dr;
    while (c >= 0 && c < size && r >= 0 && r < size && board[r * size + c] === other) {
      run.push(r * size + c); c += dc; r += dr;
    }
    if (run.length && c >= 0 && c < size && r >= 0 && r < size && board[r * size + c] === disc) out.push(...run);
  }
  return out;
}

// Who played each of `moves` (squares: "f5") from `start` ({ size,
// squares, toMove }): "black" or "white", a side without a legal move
// passing as the API and the archive do (a pass is forced, so a record
// leaves it out). From a move that is not legal on, the colours simply
// alternate (the game page shows such records up to the illegal move).
export function colours(moves, start) {
  const n = start.size;
  const board = [...start.squares];
  let disc = start.toMove === "white" ? "O" : "X";
  const canMove = (d) => board.some((_, i) => flips(board, n, i, d).length > 0);
  const out = [];
  let legal = true;
  for (const m of moves) {
    const sq = squareIndex(m, n);
    if (legal) {
      let turned = flips(board, n, sq, disc);
      const other = disc === "X" ? "O" : "X";
      if (!turned.length && !canMove(disc)) { disc = other; turned = flips(board, n, sq, disc); }
      if (turned.length) { board[sq] = disc; for (const t of turned) board[t] = disc; } else legal = false;
    }
    out.push(disc === "X" ? "black" : "white");
    disc = disc === "X" ? "O" : "X";
  }
  return out;
}

// The moves of a line as rows of a two-column score sheet, black's move
// then white's, a pass written where a side had to pass: [{ number,
// black, white }], each side an index into `moves`, "pass" or null (the
// row's side before the line starts or after it ends). `sides` are the
// moves' colours (`colours`), `firstSide` the side to move where the line
// starts and `firstPly` the moves made before it (0 from the start; from
// a pasted position its discs less the start's).
export function scoreSheet(moves, sides, { firstPly = 0, firstSide = "black" } = {}) {
  // One slot per half-move, black's even: the moves and the passes
  // between them.
  let ply = firstPly + ((firstSide === "white") !== (firstPly % 2 === 1) ? 1 : 0);
  const slots = [];
  let side = firstSide;
  moves.forEach((_, i) => {
    if (sides[i] !== side) { slots.push({ ply, entry: "pass" }); ply++; }
    slots.push({ ply, entry: i });
    ply++;
    side = sides[i] === "black" ? "white" : "black";
  });
  const rows = [];
  for (const s of slots) {
    const number = Math.floor(s.ply / 2) + 1;
    let row = rows[rows.length - 1];
    if (!row || row.number !== number) { row = { number, black: null, white: null }; rows.push(row); }
    row[s.ply % 2 === 0 ? "black" : "white"] = s.entry;
  }
  return rows;
}

// ---------------------------------------------------------------- board

// The picture of `wthor show` (crates/wthor-draw): frame, green board,
// grid, dots, discs with the last move marked, legal moves as hints.
export const CELL = 48, MARGIN = 28;
export function drawBoard(pos, { flipped = false, onPlay = null, hints = {} } = {}) {
  const n = pos.size;
  const board = CELL * n;
  const side = board + 2 * MARGIN;
  const root = svg("svg", { viewBox: `0 0 ${side} ${side}`, class: "board", role: "img",
    "aria-label": "board", "font-family": "DejaVu Sans, sans-serif", "font-weight": "bold" });
  root.append(svg("rect", { width: side, height: side, fill: "#3b2a1a", rx: 6 }));
  root.append(svg("rect", { x: MARGIN, y: MARGIN, width: board, height: board, fill: "#2e8b57" }));
  let d = "";
  for (let i = 0; i <= n; i++) {
    const at = MARGIN + i * CELL;
    d += `M${MARGIN} ${at}H${MARGIN + board}M${at} ${MARGIN}V${MARGIN + board}`;
  }
  root.append(svg("path", { d, fill: "none", stroke: "#123d24", "stroke-width": 1.5 }));
  if (n === 8) for (const [c, r] of [[2, 2], [6, 2], [2, 6], [6, 6]])
    root.append(svg("circle", { cx: MARGIN + c * CELL, cy: MARGIN + r * CELL, r: 4, fill: "#123d24" }));
  const place = (i) => {
    let col = i % n, row = Math.floor(i / n);
    if (flipped) { col = n - 1 - col; row = n - 1 - row; }
    return [MARGIN + col * CELL + CELL / 2, MARGIN + row * CELL + CELL / 2];
  };
  for (let i = 0; i < n; i++) {
    const k = flipped ? n - 1 - i : i;
    const mid = MARGIN + i * CELL + CELL / 2;
    root.append(svg("text", { x: mid, y: MARGIN / 2 + 5, "font-size": 15, fill: "#f0e6d2", "text-anchor": "middle" },
      String.fromCharCode(97 + k)));
    root.append(svg("text", { x: MARGIN / 2, y: mid + 5, "font-size": 15, fill: "#f0e6d2", "text-anchor": "middle" },
      String(k + 1)));
  }
  const radius = CELL * 0.42;
  const last = pos.lastMove ? squareIndex(pos.lastMove, n) : -1;
  [...pos.squares].forEach((c, i) => {
    if (c === "-") return;
    const [cx, cy] = place(i);
    const black = c === "X";
    root.append(svg("circle", { cx, cy, r: radius, fill: black ? "#111111" : "#f4f4f4",
      stroke: black ? "#000000" : "#222222", "stroke-width": 1.5 }));
    if (i === last) root.append(svg("circle", { cx, cy, r: 6, fill: "#e53935" }));
  });
  if (pos.toMove) {
    const fill = pos.toMove === "black" ? "#111111" : "#f4f4f4";
    for (const m of pos.legalMoves) {
      const i = squareIndex(m, n);
      const [cx, cy] = place(i);
      const hint = hints[m];
      root.append(svg("circle", { cx, cy, r: 7, fill, "fill-opacity": 0.55, class: "hint" }));
      if (hint) root.append(svg("text", { x: cx, y: cy + 20, "font-size": 11, fill: "#f0e6d2",
        "text-anchor": "middle" }, hint));
      if (onPlay) {
        const hit = svg("rect", { x: cx - CELL / 2, y: cy - CELL / 2, width: CELL, height: CELL,
          fill: "transparent", class: "hit", "data-square": m, onclick: () => onPlay(m) });
        hit.append(svg("title", {}, m));
        root.append(hit);
      }
    }
  }
  return root;
}

// The three-colour bar: black wins, draws, white wins.
export function resultBar(games, blackWins, draws, blackLosses) {
  const parts = [["b", blackWins, "black wins"], ["d", draws, "draws"], ["w", blackLosses, "white wins"]];
  return el("div", { class: "bar", title: parts.map(([, v, t]) => `${t}: ${num(v)}`).join(", ") },
    parts.map(([cls, v]) => {
      const share = games ? v / games : 0;
      return el("span", { class: cls, style: `width:${(100 * share).toFixed(2)}%` },
        share >= 0.12 ? `${Math.round(100 * share)}%` : "");
    }));
}

export function legend() {
  return el("div", { class: "legend" },
    el("span", {}, el("i", { style: "background:var(--black-win)" }), "Black wins"),
    el("span", {}, el("i", { style: "background:var(--draw)" }), "Draws"),
    el("span", {}, el("i", { style: "background:var(--white-win)" }), "White wins"));
}

// ------------------------------------------------------------- filters

export const FILTERS = [
  ["player", "Player (either colour)", "name"],
  ["black", "Black", "name"],
  ["white", "White", "name"],
  ["tournament", "Tournament", "text"],
  ["year", "Years (2001..2005)", "text"],
  ["result", "Result", ["", "black", "white", "draw"]],
  ["black_discs", "Black discs (33..64)", "text"],
  ["theoretical", "Theoretical (33..64)", "text"],
  ["opening", "Opening (f5d6c3)", "text"],
  ["opening_name", "Opening name (Tiger)", "text"],
  ["kind", "Players", ["", "human", "program"]],
  ["min_rating", "Both rated at least (1900)", "text"],
];

// Suggestions of player names under `input`, picked with the mouse or the
// arrows and Enter; with `enterPicks`, Enter alone picks the name typed
// when it is suggested, else the first suggestion (the header's box goes to
// a player; a filter's box leaves the text as typed, a part of names).
export function attachSuggest(input, onPick, { enterPicks = false } = {}) {
  const box = el("ul", { class: "suggest", hidden: true });
  input.parentElement.classList.add("with-suggest");
  input.after(box);
  let items = [], at = -1, timer = null, seq = 0;
  const close = () => { box.hidden = true; at = -1; };
  const render = () => {
    put(box, ...items.map((p, i) => el("li", { class: i === at ? "on" : null,
      onmousedown: (ev) => { ev.preventDefault(); pick(i); } }, el("span", {}, p.name), el("small", {}, `${num(p.games)} games`))));
    box.hidden = items.length === 0;
  };
  const pick = (i) => { input.value = items[i].name; close(); onPick && onPick(items[i].name); };
  input.addEventListener("input", () => {
    clearTimeout(timer);
    const q = input.value.trim();
    if (!q) { items = []; render(); return; }
    timer = setTimeout(async () => {
      const mine = ++seq;
      try {
        const found = await api(`/api/v1/players?prefix=${encodeURIComponent(q)}&limit=10`);
        if (mine === seq) { items = found; at = -1; render(); }
      } catch { /* an autocomplete failing says nothing */ }
    }, 120);
  });
  input.addEventListener("keydown", (ev) => {
    if (box.hidden) return;
    if (ev.key === "ArrowDown") { at = (at + 1) % items.length; render(); ev.preventDefault(); }
    else if (ev.key === "ArrowUp") { at = (at - 1 + items.length) % items.length; render(); ev.preventDefault(); }
    else if (ev.key === "Enter" && at >= 0) { pick(at); ev.preventDefault(); }
    else if (ev.key === "Enter" && enterPicks && items.length) {
      const typed = input.value.trim().toLowerCase();
      pick(Math.max(0, items.findIndex((p) => p.name.toLowerCase() === typed)));
      ev.preventDefault();
    }
    else if (ev.key === "Escape") close();
  });
  input.addEventListener("blur", () => setTimeout(close, 100));
}

export function filterForm(params, onApply, { extra = [] } = {}) {
  const fields = {};
  const grid = el("div", { class: "filter-grid" });
  for (const [key, label, type] of FILTERS) {
    let input;
    if (Array.isArray(type)) {
      input = el("select", { name: key }, type.map((v) => el("option", { value: v }, v || "any")));
      input.value = key === "kind" ? (flag(params, "human") ? "human" : flag(params, "program") ? "program" : "")
        : (params.get(key) || "");
    } else {
      input = el("input", { name: key, type: "text", value: params.getAll(key)[0] || "" });
    }
    fields[key] = input;
    const wrap = el("label", {}, label, input);
    grid.append(wrap);
    if (type === "name") attachSuggest(input);
  }
  const exact = el("input", { type: "checkbox", name: "exact" });
  exact.checked = flag(params, "exact");
  grid.append(el("label", { class: "row" }, exact, "Whole names only"));
  for (const e of extra) grid.append(e);
  const read = () => {
    const p = new URLSearchParams();
    for (const [key] of FILTERS) {
      const v = fields[key].value.trim();
      if (!v) continue;
      if (key === "kind") p.set(v, "true");
      else p.set(key, v);
    }
    if (exact.checked) p.set("exact", "true");
    return p;
  };
  const form = el("form", { class: "filter-form", onsubmit: (ev) => { ev.preventDefault(); onApply(read()); } },
    grid,
    el("div", { class: "actions" },
      el("button", { class: "primary", type: "submit" }, "Apply"),
      el("button", { type: "button", onclick: () => {
        for (const f of Object.values(fields)) f.value = "";
        exact.checked = false;
        onApply(read());
      } }, "Clear")));
  return form;
}

// The discs played before an OBF position (its discs less the 4 of the
// start) and whether white is to move there.
export function basePly(obf) {
  const [squares, side = "X"] = obf.trim().split(/\s+/);
  const discs = [...squares].filter((c) => "xXoO".includes(c)).length;
  return { ply: Math.max(0, discs - 4), white: side.toUpperCase() === "O" };
}

export const FILTER_KEYS = ["player", "black", "white", "tournament", "year", "result", "black_discs",
  "theoretical", "opening", "opening_name", "human", "program", "exact", "as_played", "size",
  "min_rating"];
export function filtersOf(params) {
  const p = new URLSearchParams();
  for (const [k, v] of params) if (FILTER_KEYS.includes(k)) p.append(k, v);
  return p;
}
export function chips(filters) {
  const list = [...filters].map(([k, v]) => el("span", { class: "chip" }, `${k.replace("_", " ")}: ${v}`));
  return list.length ? el("div", { class: "chips" }, list) : null;
}


// -------------------------------------------------------------- tables

// The games, linked to the viewer (at `ply`); with `ratings`, both players'
// ratings of the game's year beside their names and their mean.
export function gamesTable(games, { ply = null, ratings = false } = {}) {
  const rating = (r) => (r === null || r === undefined ? null : el("small", { class: "rating" }, ` ${r.toFixed(0)}`));
  const mean = (g) => (g.blackRating != null && g.whiteRating != null ? ((g.blackRating + g.whiteRating) / 2).toFixed(0) : "–");
  return el("div", { class: "table-wrap games-wrap" }, el("table", { class: "games" },
    el("thead", {}, el("tr", {}, el("th", {}, "Game"), el("th", { class: "n year" }, "Year"), el("th", {}, "Black"),
      el("th", { class: "n" }, "Score"), el("th", {}, "White"),
      ratings ? el("th", { class: "n", title: "the mean of both players' ratings in the game's year" }, "Mean") : null,
      el("th", {}, "Tournament"))),
    el("tbody", {}, games.map((g) => {
      const href = `/game/${encodeURIComponent(g.game)}${ply ? `?ply=${ply}` : ""}`;
      const size = g.boardSize * g.boardSize;
      return el("tr", { class: "clickable", onclick: (ev) => { if (!ev.target.closest("a")) navigate(href); } },
        el("td", {}, el("a", { href }, g.game)),
        el("td", { class: "n year" }, g.year),
        el("td", { class: "who" }, playerLink(g.blackPlayerName), ratings ? rating(g.blackRating) : null),
        el("td", { class: "n" }, `${g.blackScore}–${size - g.blackScore}`),
        el("td", { class: "who" }, playerLink(g.whitePlayerName), ratings ? rating(g.whiteRating) : null),
        ratings ? el("td", { class: "n mean-rating" }, mean(g)) : null,
        el("td", { class: "tournament" }, g.tournamentName || ""));
    }))));
}

export function playerLink(name) {
  return name ? el("a", { href: `/player/${encodeURIComponent(name)}` }, name) : el("span", { class: "note" }, "?");
}
