// wthor serve: the front end. Plain JavaScript, no build step, no CDN.
// Every page keeps its state in the URL (a link can be shared); moving
// through positions never reloads the page.

const main = document.getElementById("main");

// ------------------------------------------------------------ utilities

function el(tag, attrs = {}, ...children) {
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

const SVG = "http://www.w3.org/2000/svg";
function svg(tag, attrs = {}, ...children) {
  const e = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
    else e.setAttribute(k, v);
  }
  for (const c of children.flat()) if (c) e.append(c instanceof Node ? c : document.createTextNode(String(c)));
  return e;
}

async function api(path) {
  const r = await fetch(path);
  let body;
  try { body = await r.json(); } catch { body = { error: `${r.status} ${r.statusText}` }; }
  if (!r.ok) {
    const err = new Error(body.error || `${r.status}`);
    err.body = body;
    throw err;
  }
  return body;
}

const pct = (x) => `${(100 * x).toFixed(1)}%`;
const num = (n) => Number(n).toLocaleString("en-US");
const fixed = (x, d = 1) => (x === null || x === undefined ? "–" : Number(x).toFixed(d));
const signed = (x) => (x > 0 ? `+${x}` : `${x}`);
// `n` and its noun, singular for 1: "1 disc", "2 discs".
const count = (n, one, many) => `${num(n)} ${n === 1 ? one : many}`;

function showError(where, err) {
  where.replaceChildren(el("div", { class: "error", role: "alert" }, String(err.message || err)));
}

function navigate(url) {
  history.pushState(null, "", url);
  route();
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
window.addEventListener("popstate", route);

// Squares: bit order a1, b1, …; column letter then row number.
function squareName(i, side) {
  return String.fromCharCode(97 + (i % side)) + String(Math.floor(i / side) + 1);
}
function squareIndex(name, side) {
  const col = name.charCodeAt(0) - 97;
  const row = parseInt(name.slice(1), 10) - 1;
  return row * side + col;
}
function splitMoves(transcript) {
  return (transcript.toLowerCase().match(/[a-j](10|[1-9])/g) || []);
}

// ---------------------------------------------------------------- board

// The picture of `wthor show` (crates/wthor-draw): frame, green board,
// grid, dots, discs with the last move marked, legal moves as hints.
const CELL = 48, MARGIN = 28;
function drawBoard(pos, { flipped = false, onPlay = null, hints = {} } = {}) {
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
function resultBar(games, blackWins, draws, blackLosses) {
  const parts = [["b", blackWins, "black wins"], ["d", draws, "draws"], ["w", blackLosses, "white wins"]];
  return el("div", { class: "bar", title: parts.map(([, v, t]) => `${t}: ${num(v)}`).join(", ") },
    parts.map(([cls, v]) => {
      const share = games ? v / games : 0;
      return el("span", { class: cls, style: `width:${(100 * share).toFixed(2)}%` },
        share >= 0.12 ? `${Math.round(100 * share)}%` : "");
    }));
}

function legend() {
  return el("div", { class: "legend" },
    el("span", {}, el("i", { style: "background:var(--black-win)" }), "Black wins"),
    el("span", {}, el("i", { style: "background:var(--draw)" }), "Draws"),
    el("span", {}, el("i", { style: "background:var(--white-win)" }), "White wins"));
}

// ------------------------------------------------------------- filters

const FILTERS = [
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

function attachSuggest(input, onPick) {
  const box = el("ul", { class: "suggest", hidden: true });
  input.parentElement.classList.add("with-suggest");
  input.after(box);
  let items = [], at = -1, timer = null, seq = 0;
  const close = () => { box.hidden = true; at = -1; };
  const render = () => {
    box.replaceChildren(...items.map((p, i) => el("li", { class: i === at ? "on" : null,
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
    else if (ev.key === "Escape") close();
  });
  input.addEventListener("blur", () => setTimeout(close, 100));
}

function filterForm(params, onApply, { extra = [] } = {}) {
  const fields = {};
  const grid = el("div", { class: "filter-grid" });
  for (const [key, label, type] of FILTERS) {
    let input;
    if (Array.isArray(type)) {
      input = el("select", { name: key }, type.map((v) => el("option", { value: v }, v || "any")));
      input.value = key === "kind" ? (params.get("human") ? "human" : params.get("program") ? "program" : "")
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
  exact.checked = params.get("exact") === "true";
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
function basePly(obf) {
  const [squares, side = "X"] = obf.trim().split(/\s+/);
  const discs = [...squares].filter((c) => "xXoO".includes(c)).length;
  return { ply: Math.max(0, discs - 4), white: side.toUpperCase() === "O" };
}

const FILTER_KEYS = ["player", "black", "white", "tournament", "year", "result", "black_discs",
  "theoretical", "opening", "opening_name", "human", "program", "exact", "as_played", "size",
  "min_rating"];
function filtersOf(params) {
  const p = new URLSearchParams();
  for (const [k, v] of params) if (FILTER_KEYS.includes(k)) p.append(k, v);
  return p;
}
function chips(filters) {
  const list = [...filters].map(([k, v]) => el("span", { class: "chip" }, `${k.replace("_", " ")}: ${v}`));
  return list.length ? el("div", { class: "chips" }, list) : null;
}

// ------------------------------------------------------------ explorer

function explorerView() {
  const params = new URLSearchParams(location.search);
  const state = {
    moves: splitMoves(params.get("play") || ""),
    position: params.get("position") || "",
    filters: filtersOf(params),
    flipped: params.get("flip") === "1",
    forward: [], // moves undone, for "forward"
    notice: null, // an illegal play= refused: shown until the next move
  };
  const boardBox = el("div");
  const line = el("div", { class: "line", "aria-label": "moves played" });
  const opening = el("div", { class: "opening-name" });
  const status = el("div", { class: "note" });
  const tableBox = el("div", { class: "panel" }, el("p", { class: "loading" }, "Loading…"));
  const gamesBox = el("div", { class: "panel" });
  const pasteInput = el("input", { type: "text", placeholder: "Paste moves (f5d6c3…) or an OBF position", "aria-label": "moves or position" });
  const back = el("button", { title: "Back (←)", onclick: () => step(-1) }, "‹");
  const fwd = el("button", { title: "Forward (→)", onclick: () => step(1) }, "›");
  const start = el("button", { title: "Start (Home)", onclick: () => home() }, "«");
  const flip = el("button", { title: "Flip (f)", onclick: () => { state.flipped = !state.flipped; sync(true); } }, "Flip");
  const filtersPanel = el("details", { class: "panel filters" }, el("summary", {}, "Filters"),
    filterForm(params, (f) => { state.filters = f; state.notice = null; sync(false); }));
  if ([...state.filters].length) filtersPanel.open = true;

  main.replaceChildren(el("div", { class: "layout" },
    el("div", { class: "board-col" },
      boardBox,
      el("div", { class: "controls" }, start, back, fwd, flip),
      opening, line, status,
      el("form", { class: "paste", onsubmit: (ev) => { ev.preventDefault(); paste(); } }, pasteInput,
        el("button", { type: "submit" }, "Go"))),
    el("div", {}, tableBox, filtersPanel, gamesBox)));

  function url() {
    const p = new URLSearchParams(state.filters);
    if (state.position) p.set("position", state.position);
    if (state.moves.length) p.set("play", state.moves.join(""));
    if (state.flipped) p.set("flip", "1");
    const q = p.toString();
    return `/explorer${q ? "?" + q : ""}`;
  }
  function go(moves, position) {
    const same = position === state.position;
    const isPrefix = (a, b) => a.length <= b.length && a.every((m, i) => m === b[i]);
    if (same && moves.length < state.moves.length && isPrefix(moves, state.moves)) {
      state.forward = state.moves.slice(moves.length).concat(state.forward);
    } else if (same && moves.length === state.moves.length + 1 && isPrefix(state.moves, moves)
      && moves[moves.length - 1] === state.forward[0]) {
      state.forward = state.forward.slice(1);
    } else {
      state.forward = [];
    }
    if (!same) history.pushState(null, "", url());
    state.moves = moves;
    state.position = position;
    state.notice = null;
    sync(false);
  }
  // A pasted position is the start of the line: Home goes back to it, and
  // from it to the start of the game.
  function home() {
    go([], state.moves.length ? state.position : "");
  }
  function step(d) {
    if (d < 0 && state.moves.length) go(state.moves.slice(0, -1), state.position);
    if (d > 0 && state.forward.length) go(state.moves.concat([state.forward[0]]), state.position);
  }
  function paste() {
    const text = pasteInput.value.trim();
    if (!text) return;
    if (/^[-xXoO*]{64}(\s+[xXoO*])?$/.test(text) || /^[-xXoO*]{100}/.test(text)) go([], text.replace(/\s+/, " "));
    else go(splitMoves(text), "");
  }
  let seq = 0, current = null;
  async function sync(onlyView) {
    history.replaceState(null, "", url());
    if (onlyView && current) { render(current); return; }
    const mine = ++seq;
    const q = new URLSearchParams(state.filters);
    if (state.position) q.set("position", state.position);
    if (state.moves.length) q.set("play", state.moves.join(""));
    q.set("games", "12");
    tableBox.style.opacity = 0.6;
    try {
      const data = await api(`/api/v1/explorer?${q}`);
      if (mine !== seq) return;
      current = data;
      render(data);
    } catch (err) {
      if (mine !== seq) return;
      // An illegal move: the board at the moves before it, with the error.
      const legal = err.body && err.body.legalPlay;
      if (typeof legal === "string" && state.notice === null) {
        state.notice = err.message;
        state.moves = splitMoves(legal);
        state.forward = [];
        sync(false);
        return;
      }
      showError(tableBox, err);
      tableBox.style.opacity = 1;
    }
  }
  function render(data) {
    tableBox.style.opacity = 1;
    const hints = {};
    boardBox.replaceChildren(drawBoard(data.position, { flipped: state.flipped, hints,
      onPlay: (m) => go(state.moves.concat([m]), state.position) }));
    back.disabled = state.moves.length === 0;
    fwd.disabled = state.forward.length === 0;
    opening.textContent = data.opening ? data.opening.name : "";
    // Numbered from the pasted position's discs when there is one (its
    // first move is white's when white is to move there: "3…").
    const base = state.position ? basePly(state.position) : { ply: 0, white: false };
    // Each move a link, its number beside it (outside the highlight of the
    // last move).
    line.replaceChildren(...state.moves.map((m, i) => {
      const ply = base.ply + i + (base.white && base.ply % 2 === 0 ? 1 : 0);
      const num = ply % 2 === 0 ? `${ply / 2 + 1}.` : i === 0 ? `${(ply + 1) / 2}…` : null;
      return el("span", { class: "ply" }, num ? el("span", { class: "num" }, num) : null,
        el("a", { href: "#", class: i === state.moves.length - 1 ? "cur" : null,
          onclick: (ev) => { ev.preventDefault(); go(state.moves.slice(0, i + 1), state.position); } }, m));
    }));
    const side = data.position.toMove ? `${data.position.toMove[0].toUpperCase()}${data.position.toMove.slice(1)} to move` : "Game over";
    status.textContent = `${side} · ${data.position.empties} empty squares${data.indexed ? " · index" : ""}`;
    const t = data.totals;
    const valued = data.values !== null;
    const rows = data.moves.map((r) => el("tr", { class: ["clickable", r.best ? "best" : null, r.games === 0 ? "unplayed" : null].filter(Boolean).join(" "),
      "data-move": r.move, onclick: () => go(state.moves.concat([r.move]), state.position) },
      el("td", { class: "mv" }, r.move),
      el("td", { class: "n" }, num(r.games),
        r.transpositions !== r.games ? el("div", { class: "trans", title: "games reaching the position after this move by any move order" }, `→ ${num(r.transpositions)}`) : null),
      el("td", { class: "n hide-narrow" }, r.games ? pct(r.share) : "–"),
      el("td", { class: "bar-cell" }, r.games ? resultBar(r.games, r.blackWins, r.draws, r.blackLosses)
        : el("span", { class: "note" }, "not played")),
      el("td", { class: "n hide-narrow" }, fixed(r.meanBlackDiscs)),
      el("td", { class: "n hide-narrow" }, fixed(r.meanBlackTheoretical)),
      valued ? valueCell(r) : null,
      el("td", { class: "hide-narrow note" }, r.name || "")));
    const solveButton = el("button", { onclick: async () => {
      const q = new URLSearchParams(state.filters);
      if (state.position) q.set("position", state.position);
      if (state.moves.length) q.set("play", state.moves.join(""));
      q.set("solve", "1"); q.set("games", "12");
      solveButton.disabled = true; solveButton.textContent = "Solving…";
      try { current = await api(`/api/v1/explorer?${q}`); render(current); } catch (err) { showError(tableBox, err); }
    } }, "Solve");
    const atStart = !state.position && state.moves.length === 0;
    const first = data.moves.length ? data.moves[0].move : null;
    tableBox.replaceChildren(...[
      state.notice ? el("div", { class: "error", role: "alert" },
        `${state.notice}. The board shows the position after the moves before it.`) : null,
      el("div", { class: "summary" },
        el("div", {}, el("span", { class: "lbl" }, "games reaching this position"), el("span", { class: "big" }, num(data.reached))),
        el("div", {}, el("span", { class: "lbl" }, "ended here"), el("span", { class: "big" }, num(data.ended))),
        el("div", { style: "flex:1;min-width:12rem" }, el("span", { class: "lbl" }, "results"), resultBar(t.games, t.blackWins, t.draws, t.blackLosses))),
      chips(state.filters),
      legend(),
      el("div", { class: "table-wrap" }, el("table", { class: "next-moves" },
        el("thead", {}, el("tr", {},
          el("th", {}, "Move"), el("th", { class: "n" }, "Games"), el("th", { class: "n hide-narrow" }, "Share"),
          el("th", {}, "Results"), el("th", { class: "n hide-narrow", title: "mean black discs at the end of the games" }, "Black discs"),
          el("th", { class: "n hide-narrow", title: "mean theoretical score: black discs after perfect play from each file's depth (24 empties in the archive)" }, "Theoretical"),
          valued ? el("th", { class: "n", title: "the disc difference the side to move ends with: exact (+4), or estimated (~+3.2) by a search of the depth shown (d14)" }, "Value") : null,
          el("th", { class: "hide-narrow" }, "Opening"))),
        el("tbody", {}, rows.length ? rows : el("tr", {}, el("td", { colspan: 8, class: "note" },
          data.position.toMove ? "No game goes on from here with these filters." : "No legal move: the game is over."))))),
      valued ? valuesNote(data.values) : null,
      atStart && first && data.position.legalMoves.length > 1 ? el("p", { class: "note start-note" },
        `The archive stores every game from ${first}: the ${data.position.legalMoves.length} first moves ` +
        `(${data.position.legalMoves.join(", ")}) are one move under the board's symmetries, so they are one row here.`) : null,
      el("div", { class: "actions" },
        data.position.empties <= 24 && data.solved !== true ? solveButton : null,
        typeof data.solved === "string" && !(data.values && data.values.note) ? el("span", { class: "note" }, data.solved) : null,
        el("span", { class: "note" }, "Games: played here; → after the move by any move order."))
    ].filter(Boolean));
    gamesBox.replaceChildren(el("h2", {}, "Games reaching this position"),
      data.games.length ? gamesTable(data.games, { ply: data.position.size ** 2 - 4 - data.position.empties }) : el("p", { class: "note" }, "None."));
  }
  document.onkeydown = (ev) => {
    if (ev.target.closest("input, textarea, select")) return;
    if (ev.key === "ArrowLeft") { step(-1); ev.preventDefault(); }
    else if (ev.key === "ArrowRight") { step(1); ev.preventDefault(); }
    else if (ev.key === "Home") { home(); ev.preventDefault(); }
    else if (ev.key === "f") { state.flipped = !state.flipped; sync(true); }
  };
  sync(false);
}

// A move's value for the side to move: exact "+4", estimated "~+3.2" with
// the depth of its search ("d14"); the best move starred.
function valueCell(r) {
  if (r.value === null) return el("td", { class: "n val" });
  const exact = r.exact !== null;
  const text = exact ? signed(r.exact)
    : `~${Math.abs(r.value) < 0.05 ? "0.0" : (r.value > 0 ? "+" : "") + r.value.toFixed(1)}`;
  const title = `${r.best ? "the best move: " : ""}${exact ? "exact, by perfect play" : `estimated by a search of ${r.depth} plies`}`;
  return el("td", { class: `n val${exact ? " exact" : " estimate"}`, title },
    r.best ? el("span", { class: "best-mark", "aria-label": "best move" }, "★") : null,
    el("span", { class: "v" }, text),
    exact ? null : el("small", { class: "depth" }, `d${r.depth}`));
}

// What the values are: exact or estimates, and why not what was asked.
function valuesNote(values) {
  const what = values.exact ? "Values: exact, by perfect play (disc difference for the side to move)."
    : values.depth ? `Values: estimated (~) by a search of ${values.depth} plies (dN), disc difference for the side to move; exact at 20 empties or fewer.`
    : "";
  return el("p", { class: "note values-note" }, what,
    values.note ? el("span", { class: "values-warning" }, ` ${values.note[0].toUpperCase()}${values.note.slice(1)}.`) : null);
}

function gamesTable(games, { ply = null } = {}) {
  return el("div", { class: "table-wrap" }, el("table", { class: "games" },
    el("thead", {}, el("tr", {}, el("th", {}, "Game"), el("th", { class: "n" }, "Year"), el("th", {}, "Black"),
      el("th", { class: "n" }, "Score"), el("th", {}, "White"), el("th", {}, "Tournament"))),
    el("tbody", {}, games.map((g) => {
      const href = `/game/${encodeURIComponent(g.game)}${ply ? `?ply=${ply}` : ""}`;
      const size = g.boardSize * g.boardSize;
      return el("tr", { class: "clickable", onclick: (ev) => { if (!ev.target.closest("a")) navigate(href); } },
        el("td", {}, el("a", { href }, g.game)),
        el("td", { class: "n" }, g.year),
        el("td", {}, playerLink(g.blackPlayerName)),
        el("td", { class: "n" }, `${g.blackScore}–${size - g.blackScore}`),
        el("td", {}, playerLink(g.whitePlayerName)),
        el("td", {}, g.tournamentName || ""));
    }))));
}

function playerLink(name) {
  return name ? el("a", { href: `/player/${encodeURIComponent(name)}` }, name) : el("span", { class: "note" }, "?");
}

// -------------------------------------------------------------- search

function searchView() {
  const params = new URLSearchParams(location.search);
  const results = el("div", { class: "panel" });
  const sortSel = el("select", { name: "sort" }, ["", "year", "black", "white", "tournament", "score"].map((v) => el("option", { value: v }, v || "database order")));
  sortSel.value = params.get("sort") || "";
  const rev = el("input", { type: "checkbox" });
  rev.checked = params.get("reverse") === "true";
  const form = filterForm(params, (f) => {
    if (sortSel.value) f.set("sort", sortSel.value);
    if (sortSel.value && rev.checked) f.set("reverse", "true");
    history.pushState(null, "", `/search?${f}`);
    load();
  }, { extra: [el("label", {}, "Sort by", sortSel), el("label", { class: "row" }, rev, "Descending")] });
  main.replaceChildren(el("h1", {}, "Search games"), el("div", { class: "panel" }, form), results);
  async function load() {
    const p = new URLSearchParams(location.search);
    const limit = 50;
    const offset = parseInt(p.get("offset") || "0", 10) || 0;
    const q = filtersOf(p);
    if (p.get("sort")) q.set("sort", p.get("sort"));
    if (p.get("reverse")) q.set("reverse", p.get("reverse"));
    results.replaceChildren(el("p", { class: "loading" }, "Searching…"));
    try {
      const data = await api(`/api/v1/search?${q}&limit=${limit}&offset=${offset}`);
      const page = (o) => { const n = new URLSearchParams(q); if (o) n.set("offset", o); return `/search?${n}`; };
      const sortBy = (key) => () => {
        const n = new URLSearchParams(q);
        const same = n.get("sort") === key;
        n.set("sort", key);
        if (same && n.get("reverse") !== "true") n.set("reverse", "true"); else n.delete("reverse");
        navigate(`/search?${n}`);
      };
      const head = [["game", null], ["year", "year"], ["black", "black"], ["score", "score"], ["white", "white"], ["tournament", "tournament"]];
      results.replaceChildren(...[
        el("div", { class: "game-head" },
          el("h2", {}, `${num(data.total)} games`),
          el("div", { class: "downloads" }, ["csv", "jsonl", "ggf"].map((f) =>
            el("a", { href: `/api/v1/export?format=${f}&${q}`, download: `wthor.${f}` }, `Download ${f.toUpperCase()}`)))),
        chips(filtersOf(q)),
        data.suggestions ? openingNameNote(data, q) : null,
        data.games.length ? el("div", { class: "table-wrap" }, el("table", { class: "games" },
          el("thead", {}, el("tr", {}, head.map(([label, key]) => el("th", {
            class: `${key ? "sortable" : ""} ${["year", "score"].includes(label) ? "n" : ""}`,
            onclick: key ? sortBy(key) : null }, label + (q.get("sort") === key && key ? (q.get("reverse") ? " ▼" : " ▲") : ""))))),
          el("tbody", {}, data.games.map((g) => {
            const href = `/game/${encodeURIComponent(g.game)}`;
            return el("tr", {}, el("td", {}, el("a", { href }, g.game)), el("td", { class: "n" }, g.year),
              el("td", {}, playerLink(g.blackPlayerName)), el("td", { class: "n" }, `${g.blackScore}–${g.boardSize ** 2 - g.blackScore}`),
              el("td", {}, playerLink(g.whitePlayerName)), el("td", {}, g.tournamentName || ""));
          })))) : el("p", { class: "note" }, "No game matches."),
        el("div", { class: "pager" },
          offset > 0 ? el("a", { href: page(Math.max(0, offset - limit)) }, "‹ Previous") : null,
          el("span", { class: "note" }, data.total ? `${offset + 1}–${Math.min(offset + limit, data.total)} of ${num(data.total)}` : ""),
          offset + limit < data.total ? el("a", { href: page(offset + limit) }, "Next ›") : null)].filter(Boolean));
    } catch (err) { showError(results, err); }
  }
  load();
}

// An opening name that names nothing: the sentence, and each close name
// as a link to the same search with that name.
function openingNameNote(data, q) {
  const link = (name) => {
    const n = new URLSearchParams(q);
    n.set("opening_name", name);
    return el("a", { href: `/search?${n}` }, name);
  };
  const given = q.get("opening_name");
  return el("p", { class: "note opening-suggestions" }, ...(data.suggestions.length
    ? [`No opening is named “${given}”; the closest names: `,
      ...data.suggestions.flatMap((name, i) => [i ? ", " : null, link(name)]), "."]
    : [`No opening is named “${given}”, and no name is close to it.`]));
}

// ---------------------------------------------------------- game viewer

async function gameView(id) {
  main.replaceChildren(el("p", { class: "loading" }, "Loading…"));
  let game;
  try { game = await api(`/api/v1/games/${encodeURIComponent(id)}`); } catch (err) { showError(main, err); return; }
  const params = new URLSearchParams(location.search);
  const last = game.positions.length - 1;
  let ply = Math.min(Math.max(parseInt(params.get("ply") ?? String(last), 10) || 0, 0), last);
  let flipped = false, analysis = null;
  const size = game.boardSize * game.boardSize;
  const boardBox = el("div");
  const movesBox = el("div", { class: "moves-grid" });
  const graphBox = el("div");
  const info = el("div", { class: "note" });
  const analyseButton = el("button", { onclick: analyse }, "Analyse");
  const explore = el("a", { class: "button-link" }, "Explore this position");
  const png = el("a", { download: `${id}.png` }, "PNG");
  main.replaceChildren(
    el("div", { class: "game-head panel" },
      el("div", { class: "players" },
        el("span", { class: "disc bk" }), playerLink(game.blackPlayerName), "  vs  ",
        el("span", { class: "disc wh" }), playerLink(game.whitePlayerName)),
      el("div", { class: "score" }, `${game.blackScore}–${size - game.blackScore}`)),
    el("div", { class: "layout", style: "margin-top:1rem" },
      el("div", { class: "board-col" }, boardBox,
        el("div", { class: "controls" },
          el("button", { title: "Start (Home)", onclick: () => set(0) }, "«"),
          el("button", { title: "Back (←)", onclick: () => set(ply - 1) }, "‹"),
          el("button", { title: "Forward (→)", onclick: () => set(ply + 1) }, "›"),
          el("button", { title: "End (End)", onclick: () => set(last) }, "»"),
          el("button", { title: "Flip (f)", onclick: () => { flipped = !flipped; draw(); } }, "Flip")),
        info, graphBox),
      el("div", {},
        el("div", { class: "panel" },
          el("dl", { class: "facts" },
            el("dt", {}, "Game"), el("dd", {}, game.game),
            el("dt", {}, "Tournament"), el("dd", {}, game.tournamentName || "?"),
            el("dt", {}, "Year"), el("dd", {}, game.year),
            el("dt", {}, "Opening"), el("dd", {}, game.opening ? game.opening.name : "–"),
            el("dt", {}, "Score"), el("dd", {}, `${game.blackScore}–${size - game.blackScore} (black–white)`),
            el("dt", {}, "Theoretical"), el("dd", { class: "theoretical" }, theoretical(game)),
            game.illegal ? el("dt", {}, "Replay") : null, game.illegal ? el("dd", { class: "error" }, game.illegal) : null),
          el("div", { class: "downloads" }, explore, analyseButton,
            el("a", { href: `/api/v1/games/${encodeURIComponent(id)}/export?format=ggf`, download: `${id}.ggf` }, "GGF"),
            el("a", { href: `/api/v1/games/${encodeURIComponent(id)}/export?format=txt`, download: `${id}.txt` }, "Transcript"),
            png)),
        el("div", { class: "panel" }, el("h3", {}, "Moves"), movesBox))));

  function set(p) {
    ply = Math.min(Math.max(p, 0), last);
    history.replaceState(null, "", `/game/${encodeURIComponent(id)}?ply=${ply}`);
    draw();
  }
  function draw() {
    const pos = game.positions[ply];
    boardBox.replaceChildren(drawBoard(pos, { flipped }));
    const b = [...pos.squares].filter((c) => c === "X").length, w = [...pos.squares].filter((c) => c === "O").length;
    info.textContent = `Move ${ply} of ${last} · black ${b}, white ${w}` +
      (pos.toMove ? ` · ${pos.toMove} to move` : " · game over");
    explore.href = `/explorer?play=${game.moves.slice(0, ply).join("")}`;
    png.href = `/api/v1/games/${encodeURIComponent(id)}/png?ply=${ply}`;
    const judged = analysis ? Object.fromEntries(analysis.moves.map((m) => [m.index, m])) : {};
    // A loss is marked ~ when it is an estimate (as `wthor analyze` does),
    // its depth in the title; estimated moves are set apart from the exact
    // ones.
    const link = (m, i) => {
      const j = judged[i];
      const cls = [i + 1 === ply ? "cur" : "", j && !j.exact ? "estimated" : "",
        j && j.loss >= 6 ? "mistake" : j && j.loss > 0 ? "inaccuracy" : ""].join(" ").trim();
      return el("a", { href: "#", class: cls || null, "data-ply": i + 1, onclick: (ev) => { ev.preventDefault(); set(i + 1); } },
        el("span", {}, m), j && j.loss > 0 ? el("small", { title: j.exact ? `loses ${count(j.loss, "disc", "discs")} (exact)`
          : `loses about ${count(j.loss, "disc", "discs")} (an estimate: the midgame search, depth ${j.depth})` }, `−${j.loss}${j.exact ? "" : "~"}`) : null);
    };
    const pairs = [];
    for (let i = 0; i < game.moves.length; i += 2)
      pairs.push(el("div", { class: "pair" }, el("span", { class: "num" }, `${i / 2 + 1}.`), link(game.moves[i], i),
        i + 1 < game.moves.length ? link(game.moves[i + 1], i + 1) : el("span")));
    movesBox.replaceChildren(...pairs);
    const cur = movesBox.querySelector(".cur");
    if (cur) cur.scrollIntoView({ block: "nearest" });
    if (analysis) graphBox.replaceChildren(graph(analysis));
  }
  // Black's value before each move then at the end: estimates dashed on
  // a grey band, the exact part solid on a green one (where it starts
  // marked), mistakes red (hollow when estimated).
  function graph(a) {
    const values = a.blackLine;
    const W = 440, H = 130, mid = H / 2, max = Math.max(16, ...values.map(Math.abs));
    const x = (i) => (i / (values.length - 1)) * W;
    const y = (v) => mid - (v / max) * (mid - 6);
    const pts = values.map((v, i) => `${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(" ");
    const firstExact = a.moves.find((m) => m.exact);
    // The index in the line where the exact values start (the end when
    // no move is exact).
    const from = firstExact ? firstExact.index : values.length - 1;
    const g = svg("svg", { viewBox: `0 0 ${W} ${H}`, class: "graph", preserveAspectRatio: "none",
      onclick: (ev) => { const r = g.getBoundingClientRect(); set(Math.round(((ev.clientX - r.left) / r.width) * (values.length - 1))); } });
    g.append(svg("rect", { width: W, height: H, fill: "#fbfbf8" }));
    if (from > 0) g.append(svg("rect", { class: "estimated-band", x: 0, width: x(from), height: H, fill: "#8a867c", "fill-opacity": 0.12 }));
    if (firstExact) {
      g.append(svg("rect", { class: "exact-band", x: x(from), width: W - x(from), height: H, fill: "#2e8b57", "fill-opacity": 0.1 }));
      g.append(svg("line", { class: "exact-start", x1: x(from), x2: x(from), y1: 0, y2: H, stroke: "#1f6b41", "stroke-width": 1.5 }));
    }
    g.append(svg("polygon", { points: `0,${mid} ${pts} ${W},${mid}`, fill: "#2b2b2b", "fill-opacity": 0.18 }));
    g.append(svg("line", { x1: 0, x2: W, y1: mid, y2: mid, stroke: "#a8a49a" }));
    // Dashed up to the first exact value, solid after.
    const part = (lo, hi) => values.slice(lo, hi + 1).map((v, k) => `${x(lo + k).toFixed(1)},${y(v).toFixed(1)}`).join(" ");
    if (from > 0) g.append(svg("polyline", { points: part(0, from), fill: "none", stroke: "#2e8b57", "stroke-width": 2, "stroke-dasharray": "5 4", class: "estimated-line" }));
    if (from < values.length - 1) g.append(svg("polyline", { points: part(from, values.length - 1), fill: "none", stroke: "#2e8b57", "stroke-width": 2 }));
    for (const m of a.moves) if (m.loss >= 6) g.append(svg("circle", { cx: x(m.index), cy: y(values[m.index]), r: 3.5,
      class: m.exact ? "mistake" : "mistake estimated", fill: m.exact ? "#c62828" : "#fbfbf8", stroke: "#c62828", "stroke-width": 1.5 },
      svg("title", {}, `${m.index + 1}. ${m.square}: −${m.loss}${m.exact ? "" : `~ (estimate, depth ${m.depth})`}`)));
    g.append(svg("line", { x1: x(ply), x2: x(ply), y1: 0, y2: H, stroke: "#1f6b41", "stroke-dasharray": "3 3" }));
    const at = (100 * from) / (values.length - 1);
    const labels = el("div", { class: "graph-labels" },
      from > 0 && at >= 25 ? el("span", { class: "estimated", style: "left:0" }, `estimated ~ (${depths(a)})`) : null,
      firstExact ? el("span", { class: "exact", style: `left:min(${at.toFixed(2)}%, calc(100% - 3.5rem))` }, "exact →") : null);
    return el("div", {}, labels, g, el("div", { class: "note analysis-note" }, analysisNote(a, firstExact)));
  }
  // The depths of the estimates: "depth 16", or "depths 10–14" when a
  // time limit made them vary.
  function depths(a) {
    const d = a.moves.filter((m) => !m.exact).map((m) => m.depth);
    const lo = Math.min(...d), hi = Math.max(...d);
    return lo === hi ? `depth ${lo}` : `depths ${lo}–${hi}`;
  }
  // Where the values are exact, said in words.
  function analysisNote(a, firstExact) {
    const start = `Value for black (disc difference). `;
    const red = ` Red: moves losing 6 discs or more (hollow: estimated).`;
    if (!firstExact) {
      const ends = game.positions[last].empties;
      return start + `Every move's value is an estimate of the midgame search at ${depths(a)} (~): the game ends at ` +
        `${count(ends, "empty", "empties")}, before the exact part (${count(a.exactFrom, "empty", "empties")}).` + red;
    }
    const estimated = a.moves.filter((m) => !m.exact).length;
    return start + `Exact from ${count(a.exactFrom, "empty", "empties")} (move ${firstExact.index + 1} on, green, solid)` +
      (estimated ? `; the ${count(estimated, "move", "moves")} before are estimates of the midgame search at ${depths(a)} ` +
        `(grey, dashed, losses marked ~).` : ".") + red;
  }
  async function analyse() {
    analyseButton.disabled = true;
    analyseButton.textContent = "Analysing…";
    try {
      const r = await api(`/api/v1/games/${encodeURIComponent(id)}?analysis=1`);
      analysis = r.analysis;
      analyseButton.textContent = "Analysed";
      draw();
    } catch (err) {
      analyseButton.textContent = "Analyse";
      analyseButton.disabled = false;
      graphBox.replaceChildren(el("div", { class: "error" }, err.message));
    }
  }
  document.onkeydown = (ev) => {
    if (ev.target.closest("input, textarea, select")) return;
    const keys = { ArrowLeft: ply - 1, ArrowRight: ply + 1, Home: 0, End: last };
    if (ev.key in keys) { set(keys[ev.key]); ev.preventDefault(); }
    else if (ev.key === "f") { flipped = !flipped; draw(); }
  };
  draw();
}

// The stored theoretical score: black's discs after perfect play from the
// file's depth; a game that ends before that depth has no position there,
// and the files then store its final score.
function theoretical(game) {
  const t = game.blackTheoreticalScore;
  const discs = count(t, "black disc", "black discs");
  const end = game.positions[game.positions.length - 1];
  const depth = count(game.depth, "empty", "empties");
  if (end.empties <= game.depth) return `${discs} by perfect play from ${depth}`;
  const how = game.illegal ? `the replay stops at an illegal move at ${count(end.empties, "empty", "empties")}`
    : end.toMove ? `the record stops at ${count(end.empties, "empty", "empties")}`
      : `the game ended at ${count(end.empties, "empty", "empties")}`;
  return t === game.blackScore
    ? `${discs}, the final score: ${how}, before the file's depth (${depth}), so there is no position to solve`
    : `${discs} stored: ${how}, before the file's depth (${depth}), so there is no position to solve (the final score is ${game.blackScore})`;
}

// --------------------------------------------------------------- player

async function playerView(name) {
  main.replaceChildren(el("p", { class: "loading" }, "Loading…"));
  let p;
  try { p = await api(`/api/v1/players/${encodeURIComponent(name)}`); } catch (err) { showError(main, err); return; }
  const r = p.record;
  // Each opening by its name (its moves beside it), and the player's own
  // results with it: wins, draws, losses, as in the chart by year.
  const openingTable = (rows, title, colour) => el("div", { class: "panel" }, el("h2", {}, title),
    rows.length ? el("div", { class: "table-wrap" }, el("table", { class: "player-openings" },
      el("thead", {}, el("tr", {}, el("th", {}, "Opening"), el("th", { class: "n" }, "Games"), el("th", {}, "Their results"))),
      el("tbody", {}, rows.map((o) => el("tr", { class: "clickable", onclick: () => navigate(`/explorer?play=${o.opening}&${colour}=${encodeURIComponent(p.name)}&exact=true`) },
        el("td", { class: "opening" }, el("span", { class: "name" }, o.name || o.opening), o.name ? el("span", { class: "moves" }, o.opening) : null),
        el("td", { class: "n" }, num(o.games)),
        el("td", { class: "bar-cell" }, playerBar(o.games, o.wins, o.draws, o.losses))))))) : el("p", { class: "note" }, "None."),
    rows.length ? playerLegend() : null);
  main.replaceChildren(
    el("div", { class: "panel" },
      el("h1", {}, p.name),
      el("div", { class: "summary" },
        el("div", {}, el("span", { class: "lbl" }, "games"), el("span", { class: "big" }, num(r.games))),
        el("div", {}, el("span", { class: "lbl" }, "wins / draws / losses"), el("span", { class: "big" }, `${num(r.wins)} / ${num(r.draws)} / ${num(r.losses)}`)),
        el("div", {}, el("span", { class: "lbl" }, "score"), el("span", { class: "big" }, `${fixed(r.scorePercent)}%`)),
        el("div", {}, el("span", { class: "lbl" }, "mean disc difference"), el("span", { class: "big" }, r.meanDiscDifference === null ? "–" : signed(Number(r.meanDiscDifference.toFixed(1))))),
        el("div", {}, el("span", { class: "lbl" }, "years"), el("span", { class: "big" }, r.firstYear === r.lastYear ? r.firstYear : `${r.firstYear}–${r.lastYear}`))),
      el("div", { class: "actions" },
        el("a", { href: `/search?player=${encodeURIComponent(p.name)}&exact=true&sort=year&reverse=true` }, "All games"),
        el("a", { href: `/explorer?player=${encodeURIComponent(p.name)}&exact=true` }, "Explore their games"))),
    el("div", { class: "panel" }, el("h2", {}, "Record by year"), yearChart(p.byYear)),
    el("div", { class: "cards" },
      openingTable(p.asBlack, "Openings as black", "black"),
      openingTable(p.asWhite, "Openings as white", "white")),
    el("div", { class: "panel", style: "margin-top:1rem" }, el("h2", {}, "Most frequent opponents"),
      el("div", { class: "table-wrap" }, el("table", {},
        el("thead", {}, el("tr", {}, el("th", {}, "Opponent"), el("th", { class: "n" }, "Games"), el("th", { class: "n" }, "+"),
          el("th", { class: "n" }, "="), el("th", { class: "n" }, "−"), el("th", { class: "n" }, "Score"))),
        el("tbody", {}, p.opponents.map((o) => el("tr", {},
          el("td", {}, playerLink(o.name)), el("td", { class: "n" }, el("a", { href: `/search?player=${encodeURIComponent(p.name)}&player=${encodeURIComponent(o.name)}&exact=true` }, num(o.games))),
          el("td", { class: "n" }, o.wins), el("td", { class: "n" }, o.draws), el("td", { class: "n" }, o.losses),
          el("td", { class: "n" }, `${((100 * (o.wins + o.draws / 2)) / o.games).toFixed(0)}%`))))))));
}

// A player's results: wins, draws, losses (the colours of the chart by
// year).
function playerBar(games, wins, draws, losses) {
  const parts = [["pw", wins, "wins"], ["pd", draws, "draws"], ["pl", losses, "losses"]];
  return el("div", { class: "bar", title: parts.map(([, v, t]) => `${t}: ${num(v)}`).join(", ") },
    parts.map(([cls, v, t]) => {
      const share = games ? v / games : 0;
      return el("span", { class: cls, "data-count": v, "aria-label": `${t}: ${v}`, style: `width:${(100 * share).toFixed(2)}%` },
        share >= 0.12 ? `${Math.round(100 * share)}%` : "");
    }));
}

function playerLegend() {
  return el("div", { class: "legend" },
    el("span", {}, el("i", { style: "background:var(--win)" }), "wins"),
    el("span", {}, el("i", { style: "background:var(--draw)" }), "draws"),
    el("span", {}, el("i", { style: "background:var(--loss)" }), "losses"));
}

// The record by year: one slot per year from the first to the last, years
// without games kept as empty slots; the labels of years and of games are
// written only where they fit (every 2, 5 or 10 years; the counts when
// the bars are wide enough), each bar's numbers in its tooltip.
function yearChart(years) {
  if (!years.length) return el("p", { class: "note" }, "No games.");
  const byYear = new Map(years.map((y) => [y.year, y]));
  const first = years[0].year, lastYear = years[years.length - 1].year;
  const slots = lastYear - first + 1;
  // Drawn at the width it is shown (main's, less the panel's padding), so
  // that a label is as wide as its font says.
  const cs = getComputedStyle(main);
  const inner = main.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight) - 2 * 17;
  const W = Math.max(280, Math.min(1200, Math.floor(inner))), H = 180, pad = 22, top = 16;
  const maxGames = Math.max(...years.map((y) => y.games));
  const bw = Math.min((W - 2 * pad) / slots, 56);
  const left = (W - bw * slots) / 2;
  const charW = 6.6; // a digit of the 11 px font, wide enough
  const step = [1, 2, 5, 10, 20, 50].find((k) => k * bw >= 4 * charW + 8) ?? 50;
  // Labels on the multiples of the step (1990, 2000…), or the first year
  // alone when no multiple falls in the range.
  const round = Math.floor(lastYear / step) * step >= first;
  const g = svg("svg", { viewBox: `0 0 ${W} ${H}`, width: W, height: H, class: "year-chart", role: "img",
    "aria-label": "record by year" });
  g.append(svg("path", { d: `M${left} ${H - pad + 0.5}H${left + bw * slots}`, stroke: "#bdb8ac" }));
  for (let year = first; year <= lastYear; year++) {
    const i = year - first;
    const x = left + i * bw;
    const slot = svg("g", { class: "year", "data-year": year });
    g.append(slot);
    if (round ? year % step === 0 : year === first) {
      slot.append(svg("text", { class: "year-label", x: x + bw / 2, y: H - 6, "font-size": 11, "text-anchor": "middle", fill: "#6b6860" }, String(year)));
    }
    const y = byYear.get(year);
    if (!y) { slot.append(svg("title", {}, `${year}: no games`)); continue; }
    const h = ((H - pad - top) * y.games) / maxGames;
    const barTop = H - pad - h;
    const wins = (h * y.wins) / y.games, draws = (h * y.draws) / y.games;
    const w = Math.max(bw - 4, 1);
    slot.append(svg("title", {}, `${year}: ${count(y.games, "game", "games")}, ${count(y.wins, "win", "wins")}, ` +
      `${count(y.draws, "draw", "draws")}, ${count(y.losses, "loss", "losses")}`));
    slot.append(svg("rect", { x: x + 2, y: barTop, width: w, height: h - wins - draws, fill: "#d9d5cb" }));
    slot.append(svg("rect", { x: x + 2, y: barTop + h - wins - draws, width: w, height: draws, fill: "#a8a49a" }));
    slot.append(svg("rect", { class: "bar-total", x: x + 2, y: barTop + h - wins, width: w, height: wins, fill: "#2e8b57" }));
    const label = String(y.games);
    if (bw >= label.length * 5.6 + 3)
      slot.append(svg("text", { class: "count-label", x: x + bw / 2, y: barTop - 4, "font-size": 10, "text-anchor": "middle", fill: "#6b6860" }, label));
  }
  return el("div", { class: "year-chart-box" }, g, el("div", { class: "legend" },
    el("span", {}, el("i", { style: "background:var(--win)" }), "wins"),
    el("span", {}, el("i", { style: "background:var(--draw)" }), "draws"),
    el("span", {}, el("i", { style: "background:var(--loss)" }), "losses"),
    el("span", {}, "· hover a bar for its numbers")));
}

// ---------------------------------------------------------------- router

function route() {
  document.onkeydown = null;
  const path = location.pathname;
  for (const a of document.querySelectorAll("nav a")) a.classList.toggle("active", path.startsWith(`/${a.dataset.nav}`) || (path === "/" && a.dataset.nav === "explorer"));
  if (path === "/" || path === "/explorer") { document.title = "Explorer · wthor"; explorerView(); }
  else if (path === "/search") { document.title = "Search · wthor"; searchView(); }
  else if (path.startsWith("/game/")) { const id = decodeURIComponent(path.slice(6)); document.title = `${id} · wthor`; gameView(id); }
  else if (path.startsWith("/player/")) { const n = decodeURIComponent(path.slice(8)); document.title = `${n} · wthor`; playerView(n); }
  else main.replaceChildren(el("div", { class: "error" }, "No such page."));
  window.scrollTo(0, 0);
}

attachSuggest(document.getElementById("find-player-input"), (name) => navigate(`/player/${encodeURIComponent(name)}`));
document.getElementById("find-player-suggest").remove();
document.getElementById("find-player").addEventListener("submit", (ev) => {
  ev.preventDefault();
  const v = document.getElementById("find-player-input").value.trim();
  if (v) navigate(`/player/${encodeURIComponent(v)}`);
});
route();
