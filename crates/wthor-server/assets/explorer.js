// wthor serve: the explorer page.

import {
  main, el, api, pct, num, fixed, signed, showError, splitMoves, drawBoard, resultBar, legend, filterForm, basePly, filtersOf, chips, gamesTable,
} from "./common.js";

// ------------------------------------------------------------ explorer

export function explorerView() {
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
