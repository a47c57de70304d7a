// wthor serve: the front end. Plain JavaScript modules, no build step, no
// CDN. Every page keeps its state in the URL (a link can be shared); moving
// through positions never reloads the page. This module routes a URL to its
// page.

import { main, el, navigate, attachSuggest, onRoute, put } from "./common.js";
import { explorerView } from "./explorer.js";
import { searchView } from "./search.js";
import { gameView } from "./game.js";
import { playerView } from "./player.js";
import { ratingsView } from "./ratings.js";
import { reportView } from "./report.js";

// ---------------------------------------------------------------- router

function route() {
  document.onkeydown = null;
  const path = location.pathname;
  for (const a of document.querySelectorAll("nav a")) a.classList.toggle("active", path.startsWith(`/${a.dataset.nav}`) || (path === "/" && a.dataset.nav === "explorer"));
  if (path === "/" || path === "/explorer") { document.title = "Explorer · wthor"; explorerView(); }
  else if (path === "/search") { document.title = "Search · wthor"; searchView(); }
  else if (path.startsWith("/game/")) { const id = decodeURIComponent(path.slice(6)); document.title = `${id} · wthor`; gameView(id); }
  else if (path.startsWith("/player/")) { const n = decodeURIComponent(path.slice(8)); document.title = `${n} · wthor`; playerView(n); }
  else if (path === "/ratings") { document.title = "Ratings · wthor"; ratingsView(); }
  else if (path.startsWith("/report/player/")) { const n = decodeURIComponent(path.slice(15)); document.title = `Report: ${n} · wthor`; reportView(n); }
  else put(main, el("div", { class: "error" }, "No such page."));
  window.scrollTo(0, 0);
}

attachSuggest(document.getElementById("find-player-input"), (name) => navigate(`/player/${encodeURIComponent(name)}`),
  { enterPicks: true });
document.getElementById("find-player-suggest").remove();
document.getElementById("find-player").addEventListener("submit", (ev) => {
  ev.preventDefault();
  const v = document.getElementById("find-player-input").value.trim();
  if (v) navigate(`/player/${encodeURIComponent(v)}`);
});
onRoute(route);
route();
