// wthor serve: the ratings page: the top players of a year by the
// whole-history fit (rating, ±, games, score, rank, program flag), a year
// chooser; the year in the URL (/ratings?year=2003).

import { main, el, api, num, showError, navigate, playerLink, put } from "./common.js";

export async function ratingsView() {
  const params = new URLSearchParams(location.search);
  const asked = params.get("year");
  put(main, el("p", { class: "loading" }, "Loading…"));
  let r;
  try {
    r = await api(`/api/v1/ratings?top=200${asked ? `&year=${encodeURIComponent(asked)}` : ""}`);
  } catch (err) { showError(main, err); return; }
  const i = r.years.indexOf(r.year);
  const go = (year) => navigate(`/ratings?year=${year}`);
  const chooser = el("select", { id: "ratings-year", "aria-label": "year", onchange: (ev) => go(ev.target.value) },
    r.years.slice().reverse().map((y) => el("option", { value: y, selected: y === r.year }, y)));
  const shown = r.players.length;
  put(main, el("div", { class: "panel" },
    el("div", { class: "ratings-head" },
      el("h1", {}, `Ratings ${r.year}`),
      el("button", { title: "the year before", disabled: i <= 0, onclick: () => go(r.years[i - 1]) }, "‹"),
      chooser,
      el("button", { title: "the year after", disabled: i >= r.years.length - 1, onclick: () => go(r.years[i + 1]) }, "›")),
    el("p", { class: "note" },
      `${num(r.rated)} players rated in ${r.year}${shown < r.rated ? ` (the first ${num(shown)})` : ""}: Whole-History Rating of every game of the database, ` +
      `the mean rated human at 1500; ranked when the uncertainty (±, one standard deviation) is at most ${r.provisionalSd}, provisional below.`),
    el("div", { class: "table-wrap" }, el("table", { class: "ratings-table" },
      el("thead", {}, el("tr", {}, el("th", { class: "n" }, "Rank"), el("th", {}, "Player"), el("th", { class: "n" }, "Rating"),
        el("th", { class: "n" }, "±"), el("th", { class: "n" }, "Games"), el("th", { class: "n" }, "Score"))),
      el("tbody", {}, r.players.map((p) => el("tr", { class: p.provisional ? "provisional" : null, "data-player": p.name },
        el("td", { class: "n" }, p.rank ?? "–"),
        el("td", { class: "name" }, playerLink(p.name), p.program ? el("span", { class: "tag" }, "program") : null,
          p.provisional ? el("span", { class: "tag", title: "uncertainty above the bound" }, "provisional") : null),
        el("td", { class: "n" }, Math.round(p.rating)),
        el("td", { class: "n" }, Math.round(p.sd)),
        el("td", { class: "n" }, num(p.games)),
        el("td", { class: "n" }, `${(100 * p.points / p.games).toFixed(0)}%`))))))));
}
