// wthor serve: the game viewer.

import {
  main, el, svg, api, num, count, showError, drawBoard, playerLink, colours, scoreSheet,
  put,
} from "./common.js";

// ---------------------------------------------------------- game viewer

export async function gameView(id) {
  put(main, el("p", { class: "loading" }, "Loading…"));
  let game;
  try { game = await api(`/api/v1/games/${encodeURIComponent(id)}`); } catch (err) { showError(main, err); return; }
  const params = new URLSearchParams(location.search);
  const last = game.positions.length - 1;
  let ply = Math.min(Math.max(parseInt(params.get("ply") ?? String(last), 10) || 0, 0), last);
  let flipped = false, analysis = null, novelty = null;
  const size = game.boardSize * game.boardSize;
  const sheet = scoreSheet(game.moves, colours(game.moves, game.positions[0]));
  const boardBox = el("div");
  const movesBox = el("div", { class: "moves-grid" });
  const graphBox = el("div");
  const info = el("div", { class: "note" });
  const analyseButton = el("button", { onclick: analyse }, "Analyse");
  const explore = el("a", { class: "button-link" }, "Explore this position");
  const png = el("a", { download: `${id}.png` }, "PNG");
  const noveltyBox = el("dd", { class: "novelty-fact" }, el("span", { class: "note" }, "…"));
  const NOVELTY = "the first move after which no game of an earlier year reached this position (8 symmetries, any move order)";
  put(main, 
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
            game.boardSize === 8 ? el("dt", {}, "Novelty") : null, game.boardSize === 8 ? noveltyBox : null,
            game.illegal ? el("dt", {}, "Replay") : null, game.illegal ? el("dd", { class: "error" }, game.illegal) : null),
          // Only 8x8 games are analysed (the engine is 8x8's).
          el("div", { class: "downloads" }, explore, game.boardSize === 8 ? analyseButton : null,
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
    put(boardBox, drawBoard(pos, { flipped }));
    const b = [...pos.squares].filter((c) => c === "X").length, w = [...pos.squares].filter((c) => c === "O").length;
    info.textContent = `Move ${ply} of ${last} · black ${b}, white ${w}` +
      (pos.toMove ? ` · ${pos.toMove} to move` : " · game over");
    // The explorer's board size is a filter: 10x10 games are explored on
    // their own board.
    const ask = new URLSearchParams();
    if (ply) ask.set("play", game.moves.slice(0, ply).join(""));
    if (game.boardSize !== 8) ask.set("size", String(game.boardSize));
    explore.href = `/explorer${ask.size ? `?${ask}` : ""}`;
    png.href = `/api/v1/games/${encodeURIComponent(id)}/png?ply=${ply}`;
    const judged = analysis ? Object.fromEntries(analysis.moves.map((m) => [m.index, m])) : {};
    // A loss is marked ~ when it is an estimate (as `wthor analyze` does),
    // its depth in the title; estimated moves are set apart from the exact
    // ones.
    const link = (m, i) => {
      const j = judged[i];
      const novel = novelty && novelty.kind === "novelty" && novelty.move === i + 1;
      const cls = [i + 1 === ply ? "cur" : "", j && !j.exact ? "estimated" : "", novel ? "novelty" : "",
        j && j.loss >= 6 ? "mistake" : j && j.loss > 0 ? "inaccuracy" : ""].join(" ").trim();
      return el("a", { href: "#", class: cls || null, "data-ply": i + 1, title: novel ? `Novelty: ${NOVELTY}` : null,
        onclick: (ev) => { ev.preventDefault(); set(i + 1); } },
        el("span", {}, m, novel ? el("sup", { class: "novelty-mark", "aria-label": "novelty" }, "N") : null), j && j.loss > 0 ? el("small", { title: j.exact ? `loses ${count(j.loss, "disc", "discs")} (exact)`
          : `loses about ${count(j.loss, "disc", "discs")} (an estimate: the midgame search, depth ${j.depth})` }, `−${j.loss}${j.exact ? "" : "~"}`) : null);
    };
    // Black's move then white's, a forced pass written out.
    const cell = (e) => (e === "pass" ? el("span", { class: "pass", title: "no legal move: a pass" }, "pass")
      : e === null ? el("span") : link(game.moves[e], e));
    const pairs = sheet.map((r) => el("div", { class: "pair" }, el("span", { class: "num" }, `${r.number}.`),
      cell(r.black), cell(r.white)));
    put(movesBox, ...pairs,
      novelty && novelty.kind === "novelty" ? el("p", { class: "note novelty-legend" },
        el("sup", { class: "novelty-mark" }, "N"), ` the novelty (move ${novelty.move}): ${NOVELTY}.`) : null);
    const cur = movesBox.querySelector(".cur");
    if (cur) cur.scrollIntoView({ block: "nearest" });
    if (analysis) put(graphBox, graph(analysis));
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
    if (novelty && novelty.kind === "novelty" && novelty.move < values.length) {
      const nx = x(novelty.move);
      g.append(svg("line", { class: "novelty-line", x1: nx, x2: nx, y1: 0, y2: H, stroke: "#b8860b", "stroke-width": 2 },
        svg("title", {}, `Novelty at move ${novelty.move} (${novelty.square}): ${NOVELTY}`)));
    }
    g.append(svg("line", { x1: x(ply), x2: x(ply), y1: 0, y2: H, stroke: "#1f6b41", "stroke-dasharray": "3 3" }));
    const at = (100 * from) / (values.length - 1);
    const labels = el("div", { class: "graph-labels" },
      from > 0 && at >= 25 ? el("span", { class: "estimated", style: "left:0" }, `estimated ~ (${depths(a)})`) : null,
      firstExact ? el("span", { class: "exact", style: `left:min(${at.toFixed(2)}%, calc(100% - 3.5rem))` }, "exact →") : null);
    // The novelty's label under the graph (the labels above say where the
    // exact part starts).
    const novel = novelty && novelty.kind === "novelty" && novelty.move < values.length ? el("div", { class: "graph-labels below" },
      el("span", { class: "novelty-label", title: `Novelty: ${NOVELTY}`,
        style: `left:min(${((100 * novelty.move) / (values.length - 1)).toFixed(2)}%, calc(100% - 4rem))` }, "↑ N novelty")) : null;
    return el("div", {}, labels, g, novel, el("div", { class: "note analysis-note" }, analysisNote(a, firstExact)));
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
      if (novelty) { novelty = judgedNovelty(novelty, analysis); put(noveltyBox, noveltyText(novelty)); }
      analyseButton.textContent = "Analysed";
      draw();
    } catch (err) {
      analyseButton.textContent = "Analyse";
      analyseButton.disabled = false;
      put(graphBox, el("div", { class: "error" }, err.message));
    }
  }
  // The novelty, asked after the game shows (a pass over the archive).
  async function loadNovelty() {
    if (game.boardSize !== 8) return;
    try {
      const r = await api(`/api/v1/games/${encodeURIComponent(id)}?novelty=1`);
      novelty = judgedNovelty(r.novelty || null, analysis);
      put(noveltyBox, noveltyText(novelty));
      draw();
    } catch (err) {
      put(noveltyBox, el("span", { class: "note" }, err.message));
    }
  }
  document.onkeydown = (ev) => {
    if (ev.target.closest("input, textarea, select")) return;
    const keys = { ArrowLeft: ply - 1, ArrowRight: ply + 1, Home: 0, End: last };
    if (ev.key in keys) { set(keys[ev.key]); ev.preventDefault(); }
    else if (ev.key === "f") { flipped = !flipped; draw(); }
  };
  draw();
  loadNovelty();
}

// The novelty move's value as the game's analysis judged it, once the game
// is analysed: one value for the move on the page, not a multi-PV search of
// another depth beside the move list's (the API does the same when asked
// for both at once).
function judgedNovelty(n, a) {
  if (!n || !a || n.kind !== "novelty") return n;
  const m = a.moves.find((j) => j.index + 1 === n.move);
  return m ? { ...n, value: m.played, loss: m.loss, exact: m.exact, valueDepth: m.depth } : n;
}

// A game's novelty in words: where it left the play of earlier years.
function noveltyText(n) {
  if (!n) return el("span", { class: "note" }, "–");
  const unique = n.uniqueFrom ? `; unique from move ${n.uniqueFrom}` : "; never unique (another game reaches its last position)";
  if (n.kind !== "novelty") return el("span", {}, `${n.note[0].toUpperCase()}${n.note.slice(1)}${unique}.`);
  return el("span", { title: n.note },
    el("a", { href: "#", class: "novelty-link", onclick: (ev) => { ev.preventDefault(); document.querySelector(`.moves-grid a[data-ply="${n.move}"]`)?.click(); } },
      `move ${n.move} (${n.square})`),
    `: no game of an earlier year had reached the position after it; ${count(n.before, "game", "games")} of earlier years had reached the one before` +
    `${n.sameYear ? ", other games of its year reached it too" : ""}; followed by ${count(n.followed, "later game", "later games")}${unique}.`,
    n.loss == null ? null : el("span", { class: "novelty-value", title: "the mover's value of the move and the discs it lost against the best move (a search of the position before it)" },
      ` Its value ${n.value > 0 ? "+" : ""}${n.value} (${n.exact ? "exact" : `${n.valueDepth} plies`}), ${n.loss === 0 ? "a best move" : `losing ${count(n.loss, "disc", "discs")}`}.`));
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
