// wthor serve: the explorer page.

import {
  main, el, svg, api, pct, num, count, fixed, signed, showError, splitMoves, drawBoard, resultBar, legend, filterForm, basePly, filtersOf, chips, gamesTable,
  playerLink, flag, onHistory, colours, scoreSheet, startPosition, obfPosition,
  put,
} from "./common.js";

// ------------------------------------------------------------ explorer

export function explorerView() {
  const params = new URLSearchParams(location.search);
  const state = {
    moves: [], // the moves shown, from the start or from `position`
    position: "", // a pasted position (OBF) the moves start from
    // What the URL or the paste box asked, sent to the API as typed until
    // it answers: then the moves shown, or its error beside the last
    // position shown (nothing the user typed is dropped in silence).
    asked: params.has("play") || params.has("position")
      ? { play: params.get("play") || "", position: params.get("position") || "" } : null,
    filters: filtersOf(params),
    flipped: params.get("flip") === "1",
    forward: [], // moves undone, for "forward"
    notice: null, // the API's refusal of what was asked: shown until the next move
    top: params.get("top") === "1", // the games list: the top rated, not the latest
    solve: flag(params, "solve"), // every move's exact score (up to 24 empties)
  };
  const boardBox = el("div");
  const line = el("div", { class: "line", "aria-label": "moves played" });
  const opening = el("div", { class: "opening-name" });
  const status = el("div", { class: "note" });
  const tableBox = el("div", { class: "panel moves-panel" }, el("p", { class: "loading" }, "Loading…"));
  const gamesBox = el("div", { class: "panel" });
  const historyBox = el("div", { class: "panel history" });
  const pasteInput = el("input", { type: "text", placeholder: "Paste moves (f5d6c3…) or an OBF position", "aria-label": "moves or position" });
  const back = el("button", { title: "Back (←)", onclick: () => step(-1) }, "‹");
  const fwd = el("button", { title: "Forward (→)", onclick: () => step(1) }, "›");
  const start = el("button", { title: "Start (Home)", onclick: () => home() }, "«");
  const flip = el("button", { title: "Flip (f)", onclick: () => { state.flipped = !state.flipped; sync(true); } }, "Flip");
  const filtersPanel = el("details", { class: "panel filters" }, el("summary", {}, "Filters"),
    filterForm(params, (f) => { state.filters = f; state.notice = null; sync(false, true); }));
  if ([...state.filters].length) filtersPanel.open = true;

  put(main, el("div", { class: "layout explorer" },
    el("div", { class: "board-col" },
      boardBox,
      el("div", { class: "controls" }, start, back, fwd, flip),
      opening, line, status,
      el("form", { class: "paste", onsubmit: (ev) => { ev.preventDefault(); paste(); } }, pasteInput,
        el("button", { type: "submit" }, "Go"))),
    el("div", {}, tableBox, filtersPanel, historyBox, gamesBox)));

  // The position's parameters: what was asked while the API checks it,
  // else the moves shown.
  function where(p) {
    const position = state.asked ? state.asked.position : state.position;
    const play = state.asked ? state.asked.play : state.moves.join("");
    if (position) p.set("position", position);
    if (play) p.set("play", play);
    return p;
  }
  function url() {
    const p = where(new URLSearchParams(state.filters));
    if (state.flipped) p.set("flip", "1");
    if (state.top) p.set("top", "1");
    if (state.solve) p.set("solve", "1");
    const q = p.toString();
    return `/explorer${q ? "?" + q : ""}`;
  }
  // Each position shown is a step of the browser's history (Back returns
  // to the position before); a change of view (flip, the games' order, a
  // refusal's correction) replaces the URL.
  function remember(push) {
    const to = url();
    if (to === location.pathname + location.search) return;
    if (push) history.pushState(null, "", to); else history.replaceState(null, "", to);
  }
  // The moves undone that "forward" replays, from the line shown to `moves`.
  function forwardTo(moves, position) {
    const same = position === state.position;
    const isPrefix = (a, b) => a.length <= b.length && a.every((m, i) => m === b[i]);
    if (same && moves.length < state.moves.length && isPrefix(moves, state.moves)) {
      return state.moves.slice(moves.length).concat(state.forward);
    } else if (same && moves.length === state.moves.length + 1 && isPrefix(state.moves, moves)
      && moves[moves.length - 1] === state.forward[0]) {
      return state.forward.slice(1);
    }
    return isPrefix(moves, state.moves) && same ? state.forward : [];
  }
  function go(moves, position) {
    state.forward = forwardTo(moves, position);
    state.moves = moves;
    state.position = position;
    state.asked = null;
    state.notice = null;
    state.solve = false; // solving is asked for one position
    sync(false, true);
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
  // Moves or a position as typed, checked by the API: a text of the
  // characters of a position (X, O, -) is a position (OBF), anything else
  // moves from the start.
  function paste() {
    const text = pasteInput.value.trim();
    if (!text) return;
    state.asked = /^[-xXoO*.\s]+$/.test(text) ? { play: "", position: text.replace(/\s+/, " "), push: true }
      : { play: text, position: "", push: true };
    state.notice = null;
    state.solve = false;
    sync(false);
  }
  // Back and Forward of the browser: the position of the URL, without
  // drawing the page again (unless its filters changed: the filters'
  // form is drawn from the URL).
  onHistory(() => {
    if (location.pathname !== "/explorer" && location.pathname !== "/") return false;
    const p = new URLSearchParams(location.search);
    if (filtersOf(p).toString() !== state.filters.toString()) return false;
    const play = p.get("play") || "", position = p.get("position") || "";
    const moves = splitMoves(play);
    if (moves.join("") !== play) return false; // not a URL the page wrote
    state.forward = forwardTo(moves, position);
    state.moves = moves;
    state.position = position;
    state.asked = null;
    state.notice = null;
    state.flipped = p.get("flip") === "1";
    state.top = p.get("top") === "1";
    state.solve = flag(p, "solve");
    sync(false);
    return true;
  });
  // The year range of the database (the history's years), once known.
  let seq = 0, current = null, past = null, span = null;
  // The URL then the answer for the state; what was asked goes in the URL
  // once the API took it (a new step of the history when pasted).
  async function sync(onlyView, push = false) {
    if (!state.asked) remember(push);
    if (onlyView && current) { render(current); return; }
    const mine = ++seq;
    const q = where(new URLSearchParams(state.filters));
    // The history of the same position and filters, asked beside the
    // table: the table shows first, the trend column and the history
    // panel when it comes.
    const told = api(`/api/v1/history?${q}`).catch((err) => ({ failed: err }));
    q.set("games", "12");
    if (state.top) q.set("top", "1");
    if (state.solve) q.set("solve", "1");
    tableBox.style.opacity = 0.6;
    try {
      const data = await api(`/api/v1/explorer?${q}`);
      if (mine !== seq) return;
      const asked = state.asked;
      if (asked) {
        state.forward = [];
        state.moves = splitMoves(state.asked.play);
        state.position = state.asked.position;
        state.asked = null;
        remember(asked.push);
      }
      current = data;
      past = null;
      render(data);
      const h = await told;
      if (mine !== seq) return;
      past = h;
      if (h.years && h.years.length) span = [h.years[0].year, h.years[h.years.length - 1].year];
      render(current);
    } catch (err) {
      if (mine !== seq) return;
      if (state.asked && err.status === 400) {
        // What was asked, refused: the error, the text kept in the paste
        // box to mend; an illegal move shows the board at the moves before
        // it, a text that is no transcript (or a bad position) the
        // position shown before.
        const asked = state.asked;
        state.asked = null;
        const legal = err.body && err.body.legalPlay;
        state.notice = { message: err.message, illegal: typeof legal === "string" };
        state.solve = false;
        pasteInput.value = asked.play || asked.position;
        if (typeof legal === "string") {
          state.forward = [];
          state.moves = splitMoves(legal);
          state.position = asked.position;
        }
        sync(false, asked.push && typeof legal === "string");
        return;
      }
      showError(tableBox, err);
      tableBox.style.opacity = 1;
    }
  }
  // The line as a score sheet: black's move then white's, a pass written
  // where a side had none (the API inserts it), numbered from the pasted
  // position's discs when there is one (its first move is white's when
  // white is to move there: "3…"). Each move a link, its number beside it
  // (outside the highlight of the last move).
  function lineOf(size) {
    const start = state.position ? obfPosition(state.position) : startPosition(size);
    const sheet = scoreSheet(state.moves, colours(state.moves, start),
      { firstPly: state.position ? basePly(state.position).ply : 0, firstSide: start.toMove });
    const entry = (e) => (e === "pass" ? el("span", { class: "pass", title: "no legal move: a pass" }, "pass")
      : el("a", { href: "#", class: e === state.moves.length - 1 ? "cur" : null,
        onclick: (ev) => { ev.preventDefault(); go(state.moves.slice(0, e + 1), state.position); } }, state.moves[e]));
    return sheet.flatMap((r) => [
      r.black !== null ? el("span", { class: "ply" }, el("span", { class: "num" }, `${r.number}.`), entry(r.black)) : null,
      r.white !== null ? el("span", { class: "ply" }, r.black === null ? el("span", { class: "num" }, `${r.number}…`) : null,
        entry(r.white)) : null]);
  }
  function render(data) {
    tableBox.style.opacity = 1;
    const hints = {};
    put(boardBox, drawBoard(data.position, { flipped: state.flipped, hints,
      onPlay: (m) => go(state.moves.concat([m]), state.position) }));
    back.disabled = state.moves.length === 0;
    fwd.disabled = state.forward.length === 0;
    opening.textContent = data.opening ? data.opening.name : "";
    put(line, ...lineOf(data.position.size));
    const side = data.position.toMove ? `${data.position.toMove[0].toUpperCase()}${data.position.toMove.slice(1)} to move` : "Game over";
    status.textContent = `${side} · ${data.position.empties} empty squares${data.indexed ? " · index" : ""}`;
    const t = data.totals;
    const valued = data.values !== null;
    const rows = data.moves.map((r) => el("tr", { class: ["clickable", r.best ? "best" : null, r.games === 0 ? "unplayed" : null].filter(Boolean).join(" "),
      "data-move": r.move, onclick: () => go(state.moves.concat([r.move]), state.position) },
      el("td", { class: "mv" }, r.move),
      el("td", { class: "n" }, num(r.games),
        r.transpositions !== r.games ? el("div", { class: "trans", title: "games reaching the position after this move by any move order" }, `→ ${num(r.transpositions)}`) : null),
      el("td", { class: "n c-share" }, r.games ? pct(r.share) : "–"),
      el("td", { class: "trend c-trend" }, trendChart(r.move, past)),
      el("td", { class: "bar-cell" }, r.games ? resultBar(r.games, r.blackWins, r.draws, r.blackLosses)
        : el("span", { class: "note" }, "not played")),
      el("td", { class: "n c-discs" }, fixed(r.meanBlackDiscs)),
      el("td", { class: "n c-theor" }, fixed(r.meanBlackTheoretical)),
      el("td", { class: "n c-mover mover-rating", title: r.moverRating === null ? null : "the mean rating of the players who made this move (in each game's year)" },
        r.moverRating === null ? "–" : r.moverRating.toFixed(0)),
      el("td", { class: "n c-perf performance", title: r.performance === null ? null
        : `performance over ${count(r.ratedGames, "game", "games")} against a mean opponent of ${r.opponentRating.toFixed(0)}` },
        r.performance === null ? "–" : r.performance.toFixed(0)),
      valued ? valueCell(r) : null,
      el("td", { class: "c-opening note" }, r.name || "")));
    const solveButton = el("button", { class: "solve", onclick: () => {
      solveButton.disabled = true; solveButton.textContent = "Solving…";
      state.solve = true;
      sync(false);
    } }, "Solve");
    const atStart = !state.position && state.moves.length === 0;
    const first = data.moves.length ? data.moves[0].move : null;
    put(tableBox, ...[
      state.notice ? el("div", { class: "error", role: "alert" }, `${state.notice.message}. `,
        state.notice.illegal ? "The board shows the position after the moves before it."
          : "Nothing of it was played: the board shows the position before.") : null,
      el("div", { class: "summary" },
        el("div", {}, el("span", { class: "lbl" }, "games reaching this position"), el("span", { class: "big" }, num(data.reached))),
        el("div", {}, el("span", { class: "lbl" }, "ended here"), el("span", { class: "big" }, num(data.ended))),
        el("div", { style: "flex:1;min-width:12rem" }, el("span", { class: "lbl" }, "results"), resultBar(t.games, t.blackWins, t.draws, t.blackLosses))),
      chips(state.filters),
      yearRange(),
      legend(),
      el("div", { class: "table-wrap moves-wrap" }, el("table", { class: "next-moves" },
        el("thead", {}, el("tr", {},
          el("th", {}, "Move"), el("th", { class: "n" }, "Games"), el("th", { class: "n c-share" }, "Share"),
          el("th", { class: "trend c-trend", title: "the move's share of the games that went on from this position, year by year (a dot: a year with games here)" }, "Trend"),
          el("th", {}, "Results"), el("th", { class: "n c-discs", title: "black discs: the mean of black's discs at the end of the games" }, "Discs"),
          el("th", { class: "n c-theor", title: "theoretical: the mean of black's discs after perfect play from each file's depth (24 empties in the archive)" }, "Theor."),
          el("th", { class: "n c-mover", title: "the mean rating of the players who made the move, each in the game's year (the whole-history ratings)" }, "Mover"),
          el("th", { class: "n c-perf", title: "the movers' performance: the rating at which their score against those opponents is the expected one (black's fitted first-move edge included; at most 800 from the mean opponent)" }, "Perf."),
          valued ? el("th", { class: "n", title: "the disc difference the side to move ends with: exact (+4), or estimated (~+3.2) by a search of the depth shown (d14)" }, "Value") : null,
          el("th", { class: "c-opening" }, "Opening"))),
        el("tbody", {}, rows.length ? rows : el("tr", {}, el("td", { colspan: 11, class: "note" },
          data.position.toMove ? "No game goes on from here with these filters." : "No legal move: the game is over."))))),
      valued ? valuesNote(data.values) : null,
      // An opening_name that names no opening: the API says so, with the
      // closest names (as the search page shows them).
      data.suggestions && data.note ? el("p", { class: "note opening-suggestions" },
        `${data.note[0].toUpperCase()}${data.note.slice(1)}.`) : null,
      atStart && first && data.position.legalMoves.length > 1 ? el("p", { class: "note start-note" },
        `The archive stores every game from ${first}: the ${data.position.legalMoves.length} first moves ` +
        `(${data.position.legalMoves.join(", ")}) are one move under the board's symmetries, so they are one row here.`) : null,
      el("div", { class: "actions" },
        data.position.empties <= 24 && data.solved !== true ? solveButton : null,
        typeof data.solved === "string" && !(data.values && data.values.note) ? el("span", { class: "note" }, data.solved) : null,
        el("span", { class: "note" }, "Games: played here; → after the move by any move order."))
    ].filter(Boolean));
    put(historyBox, ...historyPanel(past));
    const pick = (top) => el("button", { type: "button", class: top === state.top ? "on" : null, "aria-pressed": String(top === state.top),
      onclick: () => { if (state.top !== top) { state.top = top; sync(false); } } }, top ? "Top rated" : "Latest");
    put(gamesBox, ...[el("div", { class: "games-head" },
      el("h2", {}, state.top ? "Top games reaching this position" : "Games reaching this position"),
      el("div", { class: "toggle games-order", role: "group", "aria-label": "which games" }, pick(false), pick(true))),
      state.top ? el("p", { class: "note" }, "By the mean of both players' ratings in the game's year, highest first.") : null,
      data.games.length ? gamesTable(data.games, { ply: data.position.size ** 2 - 4 - data.position.empties, ratings: true })
        : el("p", { class: "note" }, "None.")].filter(Boolean));
  }
  // The year filter as two years (either may be open), from the filters.
  function yearsOf(filters) {
    const m = /^\s*(\d{4})?\s*(\.\.)?\s*(\d{4})?\s*$/.exec(filters.get("year") || "");
    if (!m) return [null, null];
    const lo = m[1] ? Number(m[1]) : null, hi = m[3] ? Number(m[3]) : (m[2] ? null : lo);
    return [lo, hi];
  }
  // The year filter set from two years and the table recomputed; the
  // filters panel's year field says the same.
  function setYears(lo, hi) {
    const f = new URLSearchParams(state.filters);
    if (span && lo <= span[0] && hi >= span[1]) f.delete("year");
    else f.set("year", lo === hi ? `${lo}` : `${lo}..${hi}`);
    state.filters = f;
    state.notice = null;
    const field = filtersPanel.querySelector("input[name=year]");
    if (field) field.value = f.get("year") || "";
    sync(false, true);
  }
  // One click from a year range: two years (their arrows step a year)
  // and the whole range back.
  function yearRange() {
    if (!span) return null;
    const [lo, hi] = yearsOf(state.filters);
    const from = el("input", { type: "number", class: "year-from", min: span[0], max: span[1], value: lo ?? span[0], "aria-label": "from year" });
    const to = el("input", { type: "number", class: "year-to", min: span[0], max: span[1], value: hi ?? span[1], "aria-label": "to year" });
    const apply = () => {
      let a = Number(from.value) || span[0], b = Number(to.value) || span[1];
      a = Math.min(Math.max(a, span[0]), span[1]);
      b = Math.min(Math.max(b, span[0]), span[1]);
      if (a > b) [a, b] = [b, a];
      setYears(a, b);
    };
    from.addEventListener("change", apply);
    to.addEventListener("change", apply);
    const all = lo === null && hi === null;
    return el("div", { class: "year-range" },
      el("span", { class: "lbl" }, "Years"), from, "–", to,
      el("button", { type: "button", class: "year-all", disabled: all, onclick: () => setYears(span[0], span[1]) }, "All years"),
      el("span", { class: "note" }, all ? "" : "the table, the trend and the history count these years only"));
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

// The years of a history that have games at the position (the trend's
// span): from the first to the last such year.
function activeYears(h) {
  const years = h.years.filter((y) => y.moves.length);
  if (!years.length) return [];
  const lo = years[0].year, hi = years[years.length - 1].year;
  return h.years.filter((y) => y.year >= lo && y.year <= hi);
}

// A move's share of the games that went on from the position, year by
// year: an inline SVG sparkline (a dot per year with games there, a gap
// for a year without), its numbers in the title.
function trendChart(move, h) {
  if (!h) return el("span", { class: "note" }, "…");
  if (h.failed || !h.years) return el("span", { class: "note", title: String(h.failed && h.failed.message) }, "–");
  const years = activeYears(h);
  if (!years.length) return el("span", { class: "note" }, "–");
  const W = 72, H = 22, pad = 2;
  const points = years.map((y) => {
    const went = y.moves.reduce((n, m) => n + m.games, 0);
    if (!went) return null;
    const m = y.moves.find((m) => m.move === move);
    return { year: y.year, share: (m ? m.games : 0) / went, games: m ? m.games : 0, went };
  });
  const x = (i) => pad + (years.length === 1 ? (W - 2 * pad) / 2 : (i * (W - 2 * pad)) / (years.length - 1));
  const y = (v) => H - pad - v * (H - 2 * pad);
  const g = svg("svg", { class: "spark", width: W, height: H, viewBox: `0 0 ${W} ${H}`, role: "img",
    "aria-label": `share of ${move} per year` });
  g.append(svg("line", { x1: 0, x2: W, y1: y(0), y2: y(0), stroke: "#dedad0" }));
  let run = [];
  const flush = () => {
    if (run.length > 1) g.append(svg("polyline", { points: run.join(" "), fill: "none", stroke: "#2e8b57", "stroke-width": 1.5 }));
    run = [];
  };
  points.forEach((p, i) => {
    if (!p) { flush(); return; }
    run.push(`${x(i).toFixed(1)},${y(p.share).toFixed(1)}`);
    g.append(svg("circle", { cx: x(i).toFixed(1), cy: y(p.share).toFixed(1), r: 1.6, fill: p.games ? "#1f6b41" : "#a8a49a" }));
  });
  flush();
  const lines = points.filter(Boolean).map((p) => `${p.year}: ${pct(p.share)} (${num(p.games)} of ${num(p.went)})`);
  g.append(svg("title", {}, `${move}, its share of the games that went on from here, by year:\n${lines.join("\n")}`));
  return g;
}

// A game in a line: its id (year:number), its players, its tournament
// (written, or in the title when `short`).
function gameLine(g, { short = false } = {}) {
  return el("span", { class: "game-line", title: short && g.tournamentName ? `${g.year} · ${g.tournamentName}` : null },
    el("a", { href: `/game/${encodeURIComponent(g.game)}` }, g.game), " ",
    playerLink(g.blackPlayerName), " – ", playerLink(g.whitePlayerName),
    !short && g.tournamentName ? el("span", { class: "note" }, ` · ${g.tournamentName}`) : null);
}

// The history panel: the first and latest games reaching the position and
// playing each move ("first": the earliest year, then file order).
function historyPanel(h) {
  const title = el("h2", {}, "History of this position");
  if (!h) return [title, el("p", { class: "loading" }, "Loading…")];
  if (h.failed) return [title, el("div", { class: "error" }, String(h.failed.message))];
  if (!h.reached) return [title, el("p", { class: "note" }, "No game reaches this position with these filters.")];
  const years = h.years.filter((y) => y.games);
  const from = years[0].year, to = years[years.length - 1].year;
  return [title,
    el("p", { class: "history-span" }, `Reached by ${count(h.reached, "game", "games")}`,
      from === to ? ` in ${from}.` : `, from ${from} to ${to} (in ${count(years.length, "year", "years")}).`),
    el("dl", { class: "facts history-ends" },
      el("dt", {}, "First"), el("dd", { class: "first-game" }, gameLine(h.first)),
      el("dt", {}, "Latest"), el("dd", {}, gameLine(h.latest))),
    h.moves.length ? el("div", { class: "table-wrap" }, el("table", { class: "history-moves" },
      el("thead", {}, el("tr", {}, el("th", {}, "Move"), el("th", { class: "n" }, "Games"),
        el("th", {}, "First played"), el("th", {}, "Latest"))),
      el("tbody", {}, h.moves.map((m) => el("tr", { "data-move": m.move },
        el("td", { class: "mv" }, m.move), el("td", { class: "n" }, num(m.games)),
        el("td", {}, gameLine(m.first, { short: true })), el("td", {}, gameLine(m.latest, { short: true }))))))) : null,
    el("p", { class: "note" }, `First: ${h.firstMeans.replace(/^first: /, "")}.`)].filter(Boolean);
}
