// wthor serve: the search page.

import {
  main, el, api, num, showError, navigate, filterForm, filtersOf, chips, playerLink, flag,
  put,
} from "./common.js";

// -------------------------------------------------------------- search

export function searchView() {
  const params = new URLSearchParams(location.search);
  const results = el("div", { class: "panel" });
  const sortSel = el("select", { name: "sort" }, ["", "year", "black", "white", "tournament", "score"].map((v) => el("option", { value: v }, v || "database order")));
  sortSel.value = params.get("sort") || "";
  const rev = el("input", { type: "checkbox" });
  rev.checked = flag(params, "reverse");
  const form = filterForm(params, (f) => {
    if (sortSel.value) f.set("sort", sortSel.value);
    if (sortSel.value && rev.checked) f.set("reverse", "true");
    history.pushState(null, "", `/search?${f}`);
    load();
  }, { extra: [el("label", {}, "Sort by", sortSel), el("label", { class: "row" }, rev, "Descending")] });
  put(main, el("h1", {}, "Search games"), el("div", { class: "panel" }, form), results);
  async function load() {
    const p = new URLSearchParams(location.search);
    const limit = 50;
    const offset = parseInt(p.get("offset") || "0", 10) || 0;
    const q = filtersOf(p);
    if (p.get("sort")) q.set("sort", p.get("sort"));
    if (flag(p, "reverse")) q.set("reverse", "true");
    put(results, el("p", { class: "loading" }, "Searching…"));
    try {
      const data = await api(`/api/v1/search?${q}&limit=${limit}&offset=${offset}`);
      const page = (o) => { const n = new URLSearchParams(q); if (o) n.set("offset", o); return `/search?${n}`; };
      const sortBy = (key) => () => {
        const n = new URLSearchParams(q);
        const same = n.get("sort") === key;
        n.set("sort", key);
        if (same && !flag(n, "reverse")) n.set("reverse", "true"); else n.delete("reverse");
        navigate(`/search?${n}`);
      };
      // An offset past the last game (a link kept from a larger search):
      // said, with the last page.
      const last = Math.floor(Math.max(data.total - 1, 0) / limit) * limit;
      const pastTheEnd = (total) => el("p", { class: "note past-end" },
        `This page starts after the last of the ${num(total)} games: `,
        el("a", { href: page(last) }, `the last page (${num(last + 1)}–${num(total)})`), ".");
      const head = [["game", null], ["year", "year"], ["black", "black"], ["score", "score"], ["white", "white"], ["tournament", "tournament"]];
      put(results, ...[
        el("div", { class: "game-head" },
          el("h2", {}, `${num(data.total)} games`),
          el("div", { class: "downloads" }, ["csv", "jsonl", "ggf"].map((f) =>
            el("a", { href: `/api/v1/export?format=${f}&${q}`, download: `wthor.${f}` }, `Download ${f.toUpperCase()}`)))),
        chips(filtersOf(q)),
        data.suggestions ? openingNameNote(data, q) : null,
        data.games.length ? el("div", { class: "table-wrap games-wrap" }, el("table", { class: "games" },
          el("thead", {}, el("tr", {}, head.map(([label, key]) => el("th", {
            class: `${key ? "sortable" : ""} ${["year", "score"].includes(label) ? "n" : ""} ${label === "year" ? "year" : ""}`,
            onclick: key ? sortBy(key) : null }, label + (q.get("sort") === key && key ? (flag(q, "reverse") ? " ▼" : " ▲") : ""))))),
          el("tbody", {}, data.games.map((g) => {
            const href = `/game/${encodeURIComponent(g.game)}`;
            return el("tr", {}, el("td", {}, el("a", { href }, g.game)), el("td", { class: "n year" }, g.year),
              el("td", { class: "who" }, playerLink(g.blackPlayerName)), el("td", { class: "n" }, `${g.blackScore}–${g.boardSize ** 2 - g.blackScore}`),
              el("td", { class: "who" }, playerLink(g.whitePlayerName)), el("td", { class: "tournament" }, g.tournamentName || ""));
          })))) : data.total ? pastTheEnd(data.total) : el("p", { class: "note" }, "No game matches."),
        el("div", { class: "pager" },
          offset > 0 && data.games.length ? el("a", { href: page(Math.max(0, offset - limit)) }, "‹ Previous") : null,
          el("span", { class: "note" }, data.games.length ? `${num(offset + 1)}–${num(offset + data.games.length)} of ${num(data.total)}` : ""),
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
