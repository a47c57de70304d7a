// wthor serve: the preparation report on a player (wthor report player):
// the lines they chose as one colour as a tree, with their score and the
// archive's in each; where they leave the archive's main line; their
// results against stronger and weaker opponents; their worst endgame
// mistakes when the server has analysis logs. Each line links to the
// explorer at that position with that player's filter.

import { main, el, api, num, showError, navigate, playerLink, put } from "./common.js";

const score = (r) => (r.games ? `${(100 * r.points / r.games).toFixed(0)}% of ${num(r.games)}` : "no games");

export async function reportView(name) {
  const params = new URLSearchParams(location.search);
  const side = params.get("as") === "white" ? "white" : "black";
  const since = params.get("since") || "";
  const url = (s, y) => `/report/player/${encodeURIComponent(name)}?as=${s}${y ? `&since=${y}` : ""}`;
  put(main, el("p", { class: "loading" }, "Loading…"));
  const options = el("form", { class: "report-options", onsubmit: (ev) => { ev.preventDefault(); navigate(url(side, ev.target.since.value.trim())); } },
    el("a", { href: url("black", since), class: side === "black" ? "active" : null }, "as black"),
    el("a", { href: url("white", since), class: side === "white" ? "active" : null }, "as white"),
    el("label", {}, "since ", el("input", { name: "since", size: 5, value: since, placeholder: "year", inputmode: "numeric" })),
    el("button", { type: "submit" }, "Show"));
  let r;
  try {
    r = await api(`/api/v1/report/player/${encodeURIComponent(name)}?as=${side}${since ? `&since=${encodeURIComponent(since)}` : ""}`);
  } catch (err) {
    put(main, el("div", { class: "panel" }, el("h1", {}, `Report: ${name}`), options, el("div", { class: "error", role: "alert" }, String(err.message || err))));
    return;
  }
  const player = r.player;
  const explorer = (moves) => `/explorer?play=${moves}&${side}=${encodeURIComponent(player)}&exact=true`;
  // A line: its moves after its parent's (the whole line in the title),
  // the player's score and the archive's, its children below.
  const line = (l, parent) => {
    const own = l.moves.slice(parent.length);
    const ps = l.player.games ? l.player.points / l.player.games : null;
    const as = l.archive.games ? l.archive.points / l.archive.games : null;
    const cls = ps === null || as === null ? "" : ps > as + 0.05 ? "better" : ps < as - 0.05 ? "worse" : "";
    return el("li", { "data-moves": l.moves },
      el("a", { class: "moves", href: explorer(l.moves), title: l.moves }, parent ? `…${own}` : own),
      el("span", { class: `fig ${cls}` }, `${player}: ${score(l.player)}`),
      el("span", { class: "fig" }, `archive: ${score(l.archive)}`),
      l.lines.length ? el("ul", { class: "report-tree" }, l.lines.map((c) => line(c, l.moves))) : null);
  };
  const t = r.tree;
  put(main, 
    el("div", { class: "panel" },
      el("h1", {}, `Report: `, playerLink(player), ` as ${side}${r.since ? ` since ${r.since}` : ""}`, r.program ? el("span", { class: "tag" }, "program") : null),
      options,
      el("div", { class: "summary" },
        el("div", {}, el("span", { class: "lbl" }, "games"), el("span", { class: "big" }, num(t.player.games))),
        el("div", {}, el("span", { class: "lbl" }, "score"), el("span", { class: "big" }, score(t.player))),
        r.rating ? el("div", {}, el("span", { class: "lbl" }, `rating ${r.rating.year}`), el("span", { class: "big" }, `${Math.round(r.rating.rating)} ± ${Math.round(r.rating.sd)}`,
          r.rating.provisional ? el("span", { class: "tag", title: "uncertainty above the bound" }, "provisional") : null)) : null),
      el("p", { class: "note" }, `Lines are f5-first move sequences (each game turned so that its first move is f5; no transpositions), ` +
        `shown when at least ${Math.round(100 * r.minShare)}% of these games follow them and followed while at least ${r.minGames} remain; ` +
        `scores are ${side}'s points (a draw half a point). Green: the player scores 5 points above the archive, red: below. Each line opens the explorer there with the player's filter.`)),
    el("div", { class: "panel", style: "margin-top:1rem" }, el("h2", {}, "Lines"),
      t.lines.length ? el("ul", { class: "report-tree", id: "report-tree" }, t.lines.map((l) => line(l, ""))) :
        el("p", { class: "note" }, `No line is followed by ${Math.round(100 * r.minShare)}% of these games and ${r.minGames} of them.`)),
    el("div", { class: "cards" },
      el("div", { class: "panel" }, el("h2", {}, "Where they leave the archive's main line"),
        r.departures.length ? el("div", { class: "table-wrap" }, el("table", { class: "departures" },
          el("thead", {}, el("tr", {}, el("th", {}, "After"), el("th", {}, "Played"), el("th", {}, "Score"), el("th", {}, "Archive's move"), el("th", {}, "Its score"))),
          el("tbody", {}, r.departures.map((d) => el("tr", {},
            el("td", {}, el("a", { class: "moves", href: explorer(d.moves) }, d.moves || "(start)")),
            el("td", {}, el("a", { href: explorer(d.moves + d.played) }, d.played)), el("td", {}, score(d.record)),
            el("td", {}, el("a", { href: explorer(d.moves + d.archiveNext) }, d.archiveNext)), el("td", {}, score(d.archiveRecord))))))) :
          el("p", { class: "note" }, "Nowhere in these lines: their most played move is the archive's.")),
      el("div", { class: "panel" }, el("h2", {}, "Results by the opponent's rating that year"),
        el("table", { class: "strength" }, el("tbody", {},
          el("tr", {}, el("td", {}, `rated above ${player}`), el("td", {}, score(r.againstStronger))),
          el("tr", {}, el("td", {}, "rated at or below"), el("td", {}, score(r.againstWeaker))),
          r.againstUnrated.games ? el("tr", {}, el("td", {}, "unrated"), el("td", {}, score(r.againstUnrated))) : null)))),
    el("div", { class: "panel", style: "margin-top:1rem" }, el("h2", {}, "Worst endgame mistakes"),
      r.mistakes === null ? el("p", { class: "note" }, "No analysis logs: start the server with wthor serve --analysis F.jsonl.") :
        r.mistakes.length ? el("table", { class: "mistakes" },
          el("thead", {}, el("tr", {}, el("th", {}, "Game"), el("th", {}, "Move"), el("th", { class: "n" }, "Discs lost"))),
          el("tbody", {}, r.mistakes.map((m) => el("tr", {},
            el("td", {}, el("a", { href: `/game/${encodeURIComponent(m.game)}?ply=${m.number - 1}` }, m.game)),
            el("td", {}, `${m.number}. ${m.square}`), el("td", { class: "n" }, m.loss))))) :
          el("p", { class: "note" }, "No mistake in the analysed games.")));
}
