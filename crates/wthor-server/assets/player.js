// wthor serve: the player page.

import {
  main, el, svg, api, num, fixed, signed, count, showError, navigate, legend, playerLink,
  put,
} from "./common.js";

// --------------------------------------------------------------- player

export async function playerView(name) {
  put(main, el("p", { class: "loading" }, "Loading…"));
  let p;
  try { p = await api(`/api/v1/players/${encodeURIComponent(name)}`); } catch (err) {
    showError(main, err);
    if (err.status === 404) main.append(await didYouMean(name));
    return;
  }
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
  const rt = p.ratings;
  const latest = rt && rt.years.length ? rt.years[rt.years.length - 1] : null;
  const enc = encodeURIComponent(p.name);
  put(main, 
    el("div", { class: "panel" },
      el("h1", {}, p.name, rt && rt.program ? el("span", { class: "tag" }, "program") : null),
      el("div", { class: "summary" },
        el("div", {}, el("span", { class: "lbl" }, "games"), el("span", { class: "big" }, num(r.games))),
        el("div", {}, el("span", { class: "lbl" }, "wins / draws / losses"), el("span", { class: "big" }, `${num(r.wins)} / ${num(r.draws)} / ${num(r.losses)}`)),
        el("div", {}, el("span", { class: "lbl" }, "score"), el("span", { class: "big" }, `${fixed(r.scorePercent)}%`)),
        el("div", {}, el("span", { class: "lbl" }, "mean disc difference"), el("span", { class: "big" }, r.meanDiscDifference === null ? "–" : signed(Number(r.meanDiscDifference.toFixed(1))))),
        el("div", {}, el("span", { class: "lbl" }, "years"), el("span", { class: "big" }, r.firstYear === r.lastYear ? r.firstYear : `${r.firstYear}–${r.lastYear}`)),
        latest ? el("div", {}, el("span", { class: "lbl" }, `rating ${latest.year}`),
          el("span", { class: "big", "data-rating": latest.rating.toFixed(1) }, `${Math.round(latest.rating)} ± ${Math.round(latest.sd)}`,
            latest.provisional ? el("span", { class: "tag", title: "uncertainty above the bound" }, "provisional") : null)) : null,
        rt && rt.peak ? el("div", {}, el("span", { class: "lbl" }, "peak"),
          el("span", { class: "big" }, `${Math.round(rt.peak.rating)} (${rt.peak.year})`)) : null),
      el("div", { class: "actions" },
        el("a", { href: `/search?player=${enc}&exact=true&sort=year&reverse=true` }, "All games"),
        el("a", { href: `/explorer?player=${enc}&exact=true` }, "Explore their games"),
        rt ? el("a", { href: `/report/player/${enc}?as=black` }, "Report as black") : null,
        rt ? el("a", { href: `/report/player/${enc}?as=white` }, "Report as white") : null)),
    el("div", { class: "panel" }, el("h2", {}, "Rating by year"),
      rt && rt.years.length ? ratingChart(rt) : el("p", { class: "note" }, "Not rated (the ratings leave out unknown players and 10x10 games).")),
    el("div", { class: "panel" }, el("h2", {}, "Record by year"), yearChart(p.byYear)),
    el("div", { class: "cards" },
      openingTable(p.asBlack, "Openings as black", "black"),
      openingTable(p.asWhite, "Openings as white", "white")),
    el("div", { class: "panel", style: "margin-top:1rem" }, el("h2", {}, "Most frequent opponents"),
      el("div", { class: "table-wrap" }, el("table", { class: "opponents" },
        el("thead", {}, el("tr", {}, el("th", {}, "Opponent"), el("th", { class: "n", title: "the opponent's rating in the last year the two met" }, "Rating"),
          el("th", { class: "n" }, "Games"), el("th", { class: "n" }, "+"),
          el("th", { class: "n" }, "="), el("th", { class: "n" }, "−"), el("th", { class: "n" }, "Score"))),
        el("tbody", {}, p.opponents.map((o) => el("tr", {},
          el("td", {}, playerLink(o.name)),
          el("td", { class: "n", title: o.lastMet ? `in ${o.lastMet}, the last year they met` : "" }, o.rating === null ? "–" : Math.round(o.rating)),
          el("td", { class: "n" }, el("a", { href: `/search?player=${enc}&player=${encodeURIComponent(o.name)}&exact=true` }, num(o.games))),
          el("td", { class: "n" }, o.wins), el("td", { class: "n" }, o.draws), el("td", { class: "n" }, o.losses),
          el("td", { class: "n" }, `${((100 * (o.wins + o.draws / 2)) / o.games).toFixed(0)}%`))))))),
    accuracyPanel(p.accuracy));
}

// Endgame accuracy by year, from the analysis logs the server was given
// (wthor serve --analysis): moves judged, mean loss, perfect share and
// the worst mistakes, each a link to its game at that move.
function accuracyPanel(rows) {
  const panel = el("div", { class: "panel accuracy", style: "margin-top:1rem" }, el("h2", {}, "Endgame accuracy by year"));
  if (rows === null) {
    panel.append(el("p", { class: "note" }, "No analysis logs: start the server with wthor serve --analysis F.jsonl (the results of wthor analyze --results F.jsonl)."));
    return panel;
  }
  if (!rows.length) {
    panel.append(el("p", { class: "note" }, "None of the analysed games is theirs."));
    return panel;
  }
  panel.append(el("div", { class: "table-wrap" }, el("table", {},
    el("thead", {}, el("tr", {}, el("th", {}, "Year"), el("th", { class: "n" }, "Games"), el("th", { class: "n" }, "Moves"),
      el("th", { class: "n" }, "Mean loss"), el("th", { class: "n" }, "Perfect"), el("th", {}, "Worst mistakes"))),
    el("tbody", {}, rows.map((a) => el("tr", {},
      el("td", {}, a.year), el("td", { class: "n" }, num(a.games)), el("td", { class: "n" }, num(a.moves)),
      el("td", { class: "n" }, a.meanLoss.toFixed(2)), el("td", { class: "n" }, `${(100 * a.perfectShare).toFixed(0)}%`),
      el("td", {}, a.worst.map((w, i) => [i ? ", " : "", el("a", { href: `/game/${encodeURIComponent(w.game)}?ply=${w.number - 1}` }, `${w.game} ${w.number}.${w.square} −${w.loss}`)]))))))));
  return panel;
}

// The rating through the years: the fitted rating as a line, its
// uncertainty (± one standard deviation) as a band, a dot per year played
// (hollow when provisional), the peak marked; each dot's numbers in its
// tooltip, and the years in a table below (rating, ±, rank, games, score).
export function ratingChart(rt) {
  const years = rt.years;
  const cs = getComputedStyle(main);
  const inner = main.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight) - 2 * 17;
  const W = Math.max(280, Math.min(1200, Math.floor(inner))), H = 220, padL = 44, padR = 16, top = 14, bottom = 24;
  const first = years[0].year, last = years[years.length - 1].year;
  const lo = Math.min(...years.map((y) => y.rating - y.sd)), hi = Math.max(...years.map((y) => y.rating + y.sd));
  // The scale: round hundreds (or fifties) around the band.
  const stepR = hi - lo > 400 ? 100 : 50;
  const yMin = Math.floor(lo / stepR) * stepR, yMax = Math.ceil(hi / stepR) * stepR;
  const span = Math.max(last - first, 1);
  const X = (year) => (first === last ? (padL + W - padR) / 2 : padL + ((W - padL - padR) * (year - first)) / span);
  const Y = (r) => top + ((H - top - bottom) * (yMax - r)) / (yMax - yMin);
  const g = svg("svg", { viewBox: `0 0 ${W} ${H}`, width: W, height: H, class: "rating-chart", role: "img",
    "aria-label": "rating by year with its uncertainty" });
  for (let r = yMin; r <= yMax; r += stepR) {
    g.append(svg("path", { d: `M${padL} ${Y(r) + 0.5}H${W - padR}`, stroke: "#e4e0d6" }));
    g.append(svg("text", { x: padL - 6, y: Y(r) + 4, "font-size": 11, "text-anchor": "end", fill: "#6b6860" }, String(r)));
  }
  const charW = 6.6;
  const stepY = [1, 2, 5, 10, 20].find((k) => (k * (W - padL - padR)) / span >= 4 * charW + 8) ?? 20;
  for (let year = first; year <= last; year++) {
    if ((year - first) % stepY === 0 || first === last)
      g.append(svg("text", { class: "year-label", x: X(year), y: H - 6, "font-size": 11, "text-anchor": "middle", fill: "#6b6860" }, String(year)));
  }
  // The band: up along rating + sd, back along rating − sd.
  const upper = years.map((y) => `${X(y.year).toFixed(1)} ${Y(y.rating + y.sd).toFixed(1)}`);
  const lower = years.slice().reverse().map((y) => `${X(y.year).toFixed(1)} ${Y(y.rating - y.sd).toFixed(1)}`);
  if (years.length > 1) g.append(svg("path", { class: "rating-band", d: `M${upper.join("L")}L${lower.join("L")}Z`, fill: "#2e8b57", "fill-opacity": 0.15 }));
  else g.append(svg("rect", { class: "rating-band", x: X(first) - 6, y: Y(years[0].rating + years[0].sd), width: 12, height: Y(years[0].rating - years[0].sd) - Y(years[0].rating + years[0].sd), fill: "#2e8b57", "fill-opacity": 0.15 }));
  g.append(svg("path", { class: "rating-line", d: `M${years.map((y) => `${X(y.year).toFixed(1)} ${Y(y.rating).toFixed(1)}`).join("L")}`, fill: "none", stroke: "#2e8b57", "stroke-width": 2 }));
  for (const y of years) {
    const peak = rt.peak && rt.peak.year === y.year;
    const dot = svg("circle", { class: "rating-dot", "data-year": y.year, cx: X(y.year), cy: Y(y.rating), r: peak ? 5 : 3.5,
      fill: y.provisional ? "#fff" : "#2e8b57", stroke: peak ? "#b8860b" : "#2e8b57", "stroke-width": peak ? 2.5 : 1.5 });
    dot.append(svg("title", {}, `${y.year}: ${Math.round(y.rating)} ± ${Math.round(y.sd)}` +
      `${y.rank ? `, rank ${y.rank}` : ", provisional"}, ${count(y.games, "game", "games")}, ${(100 * y.points / y.games).toFixed(0)}%${peak ? " (peak)" : ""}`));
    g.append(dot);
  }
  // The years in a table, folded when long (a career of decades).
  const table = el("details", { class: "rating-years-box", open: years.length <= 8 },
    el("summary", {}, `Rating, ±, rank and games of each year (${years.length})`),
    el("div", { class: "table-wrap" }, el("table", { class: "rating-years" },
    el("thead", {}, el("tr", {}, el("th", {}, "Year"), el("th", { class: "n" }, "Rating"), el("th", { class: "n" }, "±"),
      el("th", { class: "n" }, "Rank"), el("th", { class: "n" }, "Games"), el("th", { class: "n" }, "Score"))),
    el("tbody", {}, years.slice().reverse().map((y) => el("tr", { class: rt.peak && rt.peak.year === y.year ? "peak" : null },
      el("td", {}, el("a", { href: `/ratings?year=${y.year}` }, y.year)), el("td", { class: "n" }, Math.round(y.rating)),
      el("td", { class: "n" }, Math.round(y.sd)), el("td", { class: "n" }, y.rank ?? "prov."),
      el("td", { class: "n" }, num(y.games)), el("td", { class: "n" }, `${(100 * y.points / y.games).toFixed(0)}%`)))))));
  return el("div", { class: "rating-chart-box" }, g,
    el("div", { class: "legend" },
      el("span", {}, el("i", { style: "background:#2e8b57" }), "rating"),
      el("span", {}, el("i", { style: "background:rgba(46,139,87,0.15)" }), "± one standard deviation"),
      el("span", {}, `hollow: provisional (± above ${rt.provisionalSd}); ringed: peak · hover a dot for its numbers`)),
    table);
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

// The players a name not found may have meant: the names with a word
// starting with it (as the header's suggestions), else with one of its
// words ("Takuji Nakamurx": Takuji's names), as links.
async function didYouMean(name) {
  const find = (prefix) => api(`/api/v1/players?prefix=${encodeURIComponent(prefix)}&limit=10`).catch(() => []);
  let found = await find(name);
  if (!found.length) {
    const words = name.split(/\s+/).filter((w) => w.length >= 2);
    const seen = new Set();
    for (const w of words) for (const p of await find(w)) if (!seen.has(p.name)) { seen.add(p.name); found.push(p); }
    found = found.sort((a, b) => b.games - a.games).slice(0, 10);
  }
  if (!found.length) return el("p", { class: "note did-you-mean" }, "No player's name has a word starting with it.");
  return el("div", { class: "panel did-you-mean" }, el("h2", {}, "Did you mean"),
    el("ul", {}, found.map((p) => el("li", {}, playerLink(p.name), el("span", { class: "note" }, ` · ${count(p.games, "game", "games")}`)))));
}
