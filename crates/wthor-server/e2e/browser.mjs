// End to end in a real browser: `wthor serve` over testdata/ on a free
// loopback port, the system's headless Chromium driven by playwright-core.
// Run by `cargo xtask test` (xtask/src/e2e.rs), which passes:
//   WTHOR_BIN   the wthor binary
//   CHROMIUM    the Chromium executable
//   WORKSPACE   the workspace root (testdata/ is there)
//   SHOTS       the folder of the screenshots (under target/)
// Prints one line per step, the first load's time (Navigation Timing), and
// "N passed, M failed"; exits 1 on a failure.

import { spawn, execFileSync } from "node:child_process";
import { createInterface } from "node:readline";
import { mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { chromium } from "playwright-core";

const { WTHOR_BIN, CHROMIUM, WORKSPACE, SHOTS } = process.env;
mkdirSync(SHOTS, { recursive: true });

let passed = 0, failed = 0;
function check(cond, what) {
  if (cond) { passed++; console.log(`e2e: ok   ${what}`); }
  else { failed++; console.log(`e2e: FAIL ${what}`); }
}

// A screenshot of `p` into SHOTS, and the check that the page shows no
// stray "null" or "undefined" (a part left out written as text).
async function shot(p, file, fullPage = false) {
  await p.screenshot({ path: join(SHOTS, file), fullPage });
  const stray = await p.evaluate(() => {
    const out = [];
    const walk = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    while (walk.nextNode()) {
      if (/^(null|undefined|NaN)$/.test(walk.currentNode.textContent.trim())) out.push(walk.currentNode.parentElement.className || walk.currentNode.parentElement.tagName);
    }
    return out;
  });
  check(stray.length === 0, `${file}: no stray null, undefined or NaN on the page (${stray.join(", ")})`);
}

// The server, on a free port; its URL from its first line. Queries may
// take 2 minutes (10 s by default): this test runs beside the Rust and
// Python tests, and a game's analysis on the debug server shares the cores.
const server = spawn(WTHOR_BIN, ["serve", "--db", "testdata", "--addr", "127.0.0.1:0", "--time-cap", "120"],
  { cwd: WORKSPACE, stdio: ["ignore", "pipe", "inherit"] });
const url = await new Promise((resolve, reject) => {
  const lines = createInterface({ input: server.stdout });
  lines.once("line", (l) => {
    const m = l.match(/http:\/\/[0-9.:]+\//);
    m ? resolve(m[0]) : reject(new Error(`no URL in ${l}`));
  });
  server.once("exit", (code) => reject(new Error(`wthor serve exited with ${code}`)));
});
const base = url.replace(/\/$/, "");
const api = async (path) => (await fetch(base + path)).json();

const browser = await chromium.launch({
  executablePath: CHROMIUM,
  headless: true,
  args: process.getuid && process.getuid() === 0 ? ["--no-sandbox"] : [],
});
// Every context waits up to 2 minutes (Playwright's default is 30 s):
// `cargo xtask test` runs this test beside the Rust and Python tests, and
// the pages that compute (a game's analysis, the explorer's values) wait
// on a debug server sharing the cores. A bound against hangs, not a time
// the test asserts.
const WAIT_MS = 120_000;
const newContext = async (options) => {
  const context = await browser.newContext(options);
  context.setDefaultTimeout(WAIT_MS);
  return context;
};
let code = 0;
try {
  const context = await newContext({ viewport: { width: 1280, height: 900 }, acceptDownloads: true });
  const page = await context.newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(String(e)));

  // 1. The explorer: first load measured in the browser (a fresh context;
  // the browser's own cold start, a first renderer, is left out by one
  // warm-up page in a context of its own).
  const warm = await newContext();
  await (await warm.newPage()).goto(`${base}/favicon.ico`);
  await warm.close();
  const firstCall = page.waitForResponse((r) => r.url().includes("/api/v1/explorer"));
  await page.goto(`${base}/explorer`);
  await firstCall;
  await page.waitForSelector("table.next-moves tbody tr[data-move]");
  const timing = await page.evaluate(() => {
    const nav = performance.getEntriesByType("navigation")[0];
    const res = performance.getEntriesByType("resource");
    const end = (f) => Math.max(0, ...res.filter((r) => r.name.includes(f)).map((r) => r.responseEnd));
    return { html: nav.responseEnd, js: end(".js"), css: end("/assets/style.css"), api: end("/api/v1/explorer"),
      domContentLoaded: nav.domContentLoadedEventEnd, load: nav.loadEventEnd };
  });
  const firstLoad = Math.max(timing.html, timing.js, timing.css, timing.api);
  console.log(`e2e: first load of the explorer (HTML, JS, CSS, first API call): ${firstLoad.toFixed(1)} ms ` +
    `(html ${timing.html.toFixed(1)}, js ${timing.js.toFixed(1)}, css ${timing.css.toFixed(1)}, api ${timing.api.toFixed(1)})`);
  // The issue's goal is 200 ms with a release build; the tests run the
  // debug build, whose gzip and queries are slower: FIRST_LOAD_MS sets the bound.
  const bound = Number(process.env.FIRST_LOAD_MS || 1500);
  check(firstLoad > 0 && firstLoad <= bound, `first load ≤ ${bound} ms (${firstLoad.toFixed(1)} ms)`);
  await shot(page, "1-explorer-start.png");

  // 2. Play f5 then d6 by clicking the board.
  for (const move of ["f5", "d6"]) {
    const answer = page.waitForResponse((r) => r.url().includes("/api/v1/explorer") && r.url().includes("play="));
    await page.click(`svg.board rect.hit[data-square="${move}"]`);
    await answer;
  }
  await page.waitForFunction(() => location.search.includes("play=f5d6"));
  await page.waitForSelector(".line a.cur");
  check((await page.textContent(".line")).replace(/\s+/g, "").includes("1.f5d6"), "f5 and d6 played by clicking");
  check(new URL(page.url()).searchParams.get("play") === "f5d6", "the URL holds the moves");
  await shot(page, "2-explorer-f5d6.png");

  // 3. The table's first rows against the API.
  const want = await api("/api/v1/explorer?play=f5d6&games=0");
  const rows = await page.$$eval("table.next-moves tbody tr[data-move]", (trs) => trs.map((tr) => ({
    move: tr.dataset.move,
    games: Number(tr.children[1].firstChild.textContent.replace(/,/g, "")),
    share: tr.children[2].textContent,
  })));
  check(rows.length === want.moves.length, `as many rows as the API (${rows.length})`);
  for (const [i, r] of rows.slice(0, 3).entries()) {
    const w = want.moves[i];
    check(r.move === w.move && r.games === w.games && r.share === `${(100 * w.share).toFixed(1)}%`,
      `row ${i + 1}: ${r.move} ${r.games} ${r.share} = API ${w.move} ${w.games}`);
  }
  // Back with the keyboard, forward again.
  await page.keyboard.press("ArrowLeft");
  await page.waitForFunction(() => new URLSearchParams(location.search).get("play") === "f5");
  await page.keyboard.press("ArrowRight");
  await page.waitForFunction(() => new URLSearchParams(location.search).get("play") === "f5d6");
  check(true, "← and → step back and forward in the explorer");

  // 3b. A pasted position: explore on from it and step back to it.
  const pasted = (await api("/api/v1/explorer?play=f5d6c3&games=0")).obf;
  await page.fill("form.paste input", pasted);
  const pastedAnswer = page.waitForResponse((r) => r.url().includes("/api/v1/explorer") && r.url().includes("position="));
  await page.click("form.paste button");
  await pastedAnswer;
  await page.waitForFunction((obf) => new URLSearchParams(location.search).get("position") === obf, pasted);
  const fromPasted = await api(`/api/v1/explorer?position=${encodeURIComponent(pasted)}&games=0`);
  await page.waitForFunction((m) => document.querySelector("table.next-moves tbody tr[data-move]")?.dataset.move === m,
    fromPasted.moves[0].move);
  const firstMove = await page.getAttribute("table.next-moves tbody tr[data-move]", "data-move");
  await page.click(`table.next-moves tbody tr[data-move="${firstMove}"]`);
  await page.waitForFunction((m) => new URLSearchParams(location.search).get("play") === m, firstMove);
  const after = await api(`/api/v1/explorer?play=f5d6c3${firstMove}&games=0`);
  await page.waitForFunction((n) => document.querySelectorAll("table.next-moves tbody tr[data-move]").length === n,
    after.moves.length);
  check(true, `from the pasted position, ${firstMove} played: the table of f5d6c3${firstMove}`);
  const pastedLine = (await page.textContent(".line")).replace(/\s+/g, "");
  check(pastedLine === `2…${firstMove}`, `the line is numbered from the pasted position (${pastedLine})`);
  await page.keyboard.press("ArrowLeft");
  await page.waitForFunction((obf) => {
    const p = new URLSearchParams(location.search);
    return p.get("position") === obf && !p.has("play");
  }, pasted);
  check(true, "← steps back to the pasted position");

  // 4. Open a game from the list; step through it with the keyboard.
  await page.waitForSelector("table.games tbody tr a");
  const gameId = await page.textContent("table.games tbody tr a");
  await page.click("table.games tbody tr a");
  await page.waitForSelector(".moves-grid a[data-ply]");
  check(decodeURIComponent(new URL(page.url()).pathname) === `/game/${gameId}`, `game ${gameId} opened from the list`);
  const plyOf = async () => Number(new URL(page.url()).searchParams.get("ply"));
  const startPly = await plyOf();
  check(startPly === 3, `the viewer opens at the explorer's position, the pasted f5d6c3 (ply ${startPly})`);
  await page.keyboard.press("ArrowRight");
  await page.keyboard.press("ArrowRight");
  check(await plyOf() === startPly + 2, "→ steps forward");
  await page.keyboard.press("ArrowLeft");
  check(await plyOf() === startPly + 1, "← steps back");
  await page.keyboard.press("End");
  const game = await api(`/api/v1/games/${encodeURIComponent(gameId)}`);
  check(await plyOf() === game.moves.length, `End goes to the last move (${game.moves.length})`);
  const cur = await page.textContent(".moves-grid a.cur span");
  check(cur === game.moves[game.moves.length - 1], `the last move is marked (${cur})`);
  await shot(page, "3-game-end.png");
  await page.keyboard.press("Home");
  check(await plyOf() === 0, "Home goes to the start");
  await shot(page, "4-game-start.png");

  // 5. A player through the autocomplete.
  await page.fill("#find-player-input", "naka");
  await page.waitForSelector(".top .suggest li");
  await page.keyboard.press("ArrowDown");
  await page.keyboard.press("Enter");
  await page.waitForSelector("main h1");
  const name = await page.textContent("main h1");
  check(name === "Takuji Nakamura", `the autocomplete leads to the player (${name})`);
  await page.waitForSelector("svg.year-chart");
  await shot(page, "5-player.png", true);

  // 5b. Ratings (issue 39): the player's rating chart (a dot per rated
  // year, the band, the peak ringed), the opponents' ratings; the ratings
  // page and its year chooser; the preparation report, its lines linking
  // to the explorer with the player's filter.
  const pp = await api(`/api/v1/players/${encodeURIComponent("Takuji Nakamura")}`);
  await page.waitForSelector("svg.rating-chart circle.rating-dot");
  const dots = await page.$$eval("svg.rating-chart circle.rating-dot", (cs) => cs.map((c) => [Number(c.dataset.year), Number(c.getAttribute("cy"))]));
  check(JSON.stringify(dots.map((d) => d[0])) === JSON.stringify(pp.ratings.years.map((y) => y.year)),
    `a dot per rated year (${dots.map((d) => d[0]).join(", ")})`);
  // Higher ratings are drawn higher (smaller y): the order of the dots'
  // heights is the order of the ratings.
  const byRating = pp.ratings.years.map((y, i) => [y.rating, dots[i][1]]).sort((a, b) => a[0] - b[0]);
  check(byRating.every((x, i) => i === 0 || x[1] <= byRating[i - 1][1] + 0.01), "the chart's heights follow the ratings");
  const band = await page.$eval("svg.rating-chart .rating-band", (b) => b.getBBox().height);
  check(band > 5, `the uncertainty band is drawn (${band.toFixed(0)} px tall)`);
  const peakTitle = await page.$eval(`svg.rating-chart circle[data-year="${pp.ratings.peak.year}"] title`, (t) => t.textContent);
  check(peakTitle.endsWith("(peak)"), `the peak is marked (${peakTitle})`);
  const rankCells = await page.$$eval("table.rating-years tbody tr", (trs) => trs.map((tr) => tr.children[3].textContent));
  check(JSON.stringify(rankCells) === JSON.stringify(pp.ratings.years.slice().reverse().map((y) => String(y.rank ?? "prov."))),
    `the rank of each year (${rankCells.join(", ")})`);
  const oppRatings = await page.$$eval("table.opponents tbody tr", (trs) => trs.map((tr) => tr.children[1].textContent));
  check(JSON.stringify(oppRatings) === JSON.stringify(pp.opponents.map((o) => (o.rating === null ? "–" : String(Math.round(o.rating))))),
    "the opponents' ratings are the API's");
  check((await page.textContent(".accuracy")).includes("No analysis logs"), "without --analysis the page says how to get accuracy");
  await page.$eval("svg.rating-chart", (s) => s.scrollIntoView());
  await shot(page, "5b-player-rating.png");

  await page.click("nav a[data-nav=ratings]");
  await page.waitForSelector("table.ratings-table tbody tr");
  const rl = await api("/api/v1/ratings?top=200");
  const listed = await page.$$eval("table.ratings-table tbody tr", (trs) => trs.map((tr) => tr.dataset.player));
  check(JSON.stringify(listed) === JSON.stringify(rl.players.map((p) => p.name)), `the ratings page lists the API's ${rl.year} (${listed.length} players)`);
  const programs = await page.$$eval("table.ratings-table tbody tr", (trs) => trs.filter((tr) => tr.textContent.includes("program")).map((tr) => tr.dataset.player));
  check(JSON.stringify(programs) === JSON.stringify(rl.players.filter((p) => p.program).map((p) => p.name)), `programs flagged (${programs.join(", ")})`);
  await page.selectOption("#ratings-year", "2005");
  await page.waitForFunction(() => document.querySelector("main h1")?.textContent === "Ratings 2005");
  check(new URLSearchParams(new URL(page.url()).search).get("year") === "2005", "the year chooser sets the URL");
  await shot(page, "5c-ratings.png", true);

  await page.goto(`${base}/report/player/${encodeURIComponent("Takuji Nakamura")}?as=white&since=2005`);
  await page.waitForSelector("#report-tree li a.moves");
  const rep = await api(`/api/v1/report/player/${encodeURIComponent("Takuji Nakamura")}?as=white&since=2005`);
  const countLines = (l) => l.lines.reduce((n, c) => n + 1 + countLines(c), 0);
  const shownLines = await page.$$eval("#report-tree li", (lis) => lis.length);
  check(shownLines === countLines(rep.tree), `every line of the tree is shown (${shownLines})`);
  const firstHref = await page.$eval("#report-tree li a.moves", (a) => a.getAttribute("href"));
  check(firstHref === `/explorer?play=${rep.tree.lines[0].moves}&white=${encodeURIComponent("Takuji Nakamura")}&exact=true`,
    `a line links to the explorer with the player's filter (${firstHref})`);
  await shot(page, "5d-report.png", true);
  await page.click("#report-tree li li a.moves");
  await page.waitForSelector("table.next-moves tbody tr[data-move]");
  const eq = new URL(page.url()).searchParams;
  check(eq.get("white") === "Takuji Nakamura" && eq.get("play") === rep.tree.lines[0].lines[0].moves, `the line opens the explorer there (${page.url()})`);
  await page.goto(`${base}/report/player/Nakamurx`);
  await page.waitForSelector(".error");
  const reportErr = await page.textContent(".error");
  check(reportErr.includes("closest names: Takuji Nakamura"), `an unknown player: the closest names (${reportErr})`);

  // 6. Search and download the CSV: the bytes of `wthor export`.
  await page.goto(`${base}/search?player=nakamura&year=2003`);
  await page.waitForSelector("table.games tbody tr");
  const total = await page.textContent(".game-head h2");
  check(total.startsWith("259 games"), `the search finds the games (${total})`);
  await shot(page, "6-search.png");
  const download = page.waitForEvent("download");
  await page.click("text=Download CSV");
  const file = await (await download).path();
  const got = readFileSync(file);
  const cli = execFileSync(WTHOR_BIN, ["export", "--db", "testdata", "--format", "csv", "--player", "nakamura", "--year", "2003"],
    { cwd: WORKSPACE });
  check(got.equals(cli), `the downloaded CSV is wthor export's (${got.length} bytes)`);

  // 7. A phone.
  const phone = await newContext({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true });
  const small = await phone.newPage();
  await small.goto(`${base}/explorer?play=f5d6c3`);
  await small.waitForSelector("table.next-moves tbody tr[data-move]");
  const overflow = await small.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  check(overflow <= 0, `no sideways scrolling on a phone (${overflow} px)`);
  await shot(small, "7-phone.png", true);
  // The games tables (explorer, search) on a phone: the game, both
  // players and the score in view (names wrap; the year, which the game's
  // id holds, gives way), the columns after them reached by scrolling
  // sideways inside the card.
  for (const [path, columns] of [["/explorer?play=f5d6c3", "game,black,score,white,mean,tournament"],
    ["/search?player=nakamura", "game,black,score,white,tournament"]]) {
    await small.goto(`${base}${path}`);
    await small.waitForSelector("table.games tbody tr");
    const table = await small.$eval("table.games", (t) => {
      const wrap = t.closest(".table-wrap");
      const heads = [...t.querySelectorAll("thead th")].filter((th) => th.getClientRects().length > 0);
      const shown = heads.map((th) => th.textContent.replace(/[▲▼\s]/g, ""));
      const box = wrap.getBoundingClientRect();
      const inView = heads.filter((th) => th.getBoundingClientRect().right <= box.right + 1).map((th) => th.textContent.replace(/[▲▼\s]/g, ""));
      wrap.scrollLeft = wrap.scrollWidth;
      const last = heads[heads.length - 1].getBoundingClientRect();
      return { shown, inView, scrolls: getComputedStyle(wrap).overflowX, reached: last.left >= box.left - 1 && last.right <= box.right + 1,
        inside: wrap.getBoundingClientRect().right <= document.documentElement.clientWidth };
    });
    check(table.shown.join(",").toLowerCase() === columns,
      `${path} on a phone: the games table's columns (${table.shown.join(", ")})`);
    check(table.inView.slice(0, 4).join(",").toLowerCase() === "game,black,score,white",
      `${path} on a phone: the game, both players and the score in view without scrolling (${table.inView.join(", ")})`);
    check(table.scrolls === "auto" && table.reached && table.inside,
      `${path} on a phone: the games table scrolls sideways inside its card to its last column`);
  }
  // The ratings list and a player's opponents on a phone: every column in
  // view.
  for (const [path, sel] of [["/ratings", "table.ratings-table"], ["/player/Takuji%20Nakamura", "table.opponents"]]) {
    await small.goto(`${base}${path}`);
    await small.waitForSelector(`${sel} tbody tr`);
    const cut = await small.$eval(sel, (t) => {
      const box = (t.closest(".table-wrap") || t.parentElement).getBoundingClientRect();
      return [...t.querySelectorAll("thead th")].filter((th) => th.getBoundingClientRect().right > box.right + 1).map((th) => th.textContent);
    });
    check(cut.length === 0, `${path} on a phone: every column of ${sel} in view (cut: ${cut.join(", ")})`);
  }
  await small.goto(`${base}/explorer?play=f5d6c3`);
  await small.waitForSelector("table.games tbody tr");
  await small.$eval("table.games", (t) => t.closest(".table-wrap").scrollIntoView());
  await shot(small, "7-phone-games.png");

  // 8. The line of moves: each number beside its move, none under the
  // highlight of the last move.
  await page.goto(`${base}/explorer?play=f5d6c3d3c4`);
  await page.waitForSelector(".line a.cur");
  const lastMove = await page.textContent(".line a.cur");
  check(lastMove === "c4", `the highlighted last move holds the move alone (${lastMove})`);
  const apart = await page.evaluate(() => {
    const cur = document.querySelector(".line a.cur").getBoundingClientRect();
    return [...document.querySelectorAll(".line .num")].map((n) => n.getBoundingClientRect())
      .every((n) => n.right <= cur.left || n.left >= cur.right || n.bottom <= cur.top || n.top >= cur.bottom);
  });
  check(apart, "no move number lies under the highlighted move");
  check((await page.textContent(".line")).replace(/\s+/g, "") === "1.f5d62.c3d33.c4", "the line reads 1.f5 d6 2.c3 d3 3.c4");

  // 9. The start: one row (f5) for the four first moves, said under the table.
  await page.goto(`${base}/explorer`);
  await page.waitForSelector("table.next-moves tbody tr[data-move]");
  const startNote = await page.textContent(".start-note", { timeout: 3000 }).catch(() => "");
  check(/stores every game from f5: the 4 first moves \(.*\) are one move under the board's symmetries/.test(startNote),
    `the start says why the table has one row (${startNote})`);
  await page.goto(`${base}/explorer?play=f5d6`);
  await page.waitForSelector("table.next-moves tbody tr[data-move]");
  check(await page.$(".start-note") === null, "no such note past the start");

  // 10. An illegal play=: the board at the moves before it, with the error.
  const legal = await api("/api/v1/explorer?play=f5d6c3&games=0");
  await page.goto(`${base}/explorer?play=f5d6c3f5`);
  const board = await page.waitForSelector("svg.board", { timeout: 5000 }).then(() => true, () => false);
  const alert = await page.textContent("[role=alert]", { timeout: 3000 }).catch(() => "");
  check(board && alert.includes("move 4 (f5) of the transcript is illegal"), `an illegal move: the board and the error (${alert})`);
  const kept = await page.waitForFunction(() => new URLSearchParams(location.search).get("play") === "f5d6c3",
    null, { timeout: 5000 }).then(() => true, () => false);
  const hints = await page.$$eval("svg.board .hint", (h) => h.length);
  check(kept && hints === legal.position.legalMoves.length && (await page.textContent(".line")).replace(/\s+/g, "") === "1.f5d62.c3",
    `the board is the position after f5 d6 c3 (${hints} legal moves)`);
  await shot(page, "8-explorer-illegal.png");
  const gone = kept && await page.click(`table.next-moves tbody tr[data-move="${legal.moves[0].move}"]`, { timeout: 5000 })
    .then(() => page.waitForFunction((m) => new URLSearchParams(location.search).get("play") === `f5d6c3${m}`
      && document.querySelector("[role=alert]") === null, legal.moves[0].move, { timeout: 5000 }))
    .then(() => true, () => false);
  check(gone, "the error goes once a move is played");

  // 11. The analysis of a game: every estimate marked ~ with its depth,
  // where the exact part starts said and drawn.
  const analysed = await api("/api/v1/games/2001:5?analysis=1");
  await page.goto(`${base}/game/2001:5`);
  await page.click("text=Analyse");
  await page.waitForSelector("svg.graph");
  const marks = await page.$$eval(".moves-grid a[data-ply]", (as) => as.map((a) => a.querySelector("small")?.textContent ?? null));
  const wantMarks = analysed.moves.map((_, i) => {
    const m = analysed.analysis.moves.find((j) => j.index === i);
    return m && m.loss > 0 ? `−${m.loss}${m.exact ? "" : "~"}` : null;
  });
  check(wantMarks.some((m) => m && m.endsWith("~")) && wantMarks.some((m) => m && !m.endsWith("~")),
    "the game has exact and estimated losses");
  check(JSON.stringify(marks) === JSON.stringify(wantMarks), "each loss shown as the API's, the estimates marked ~");
  // The estimates are the midgame search's at one depth (the default),
  // which each estimated mark's title and the caption give.
  const depth = analysed.analysis.estimate.depth;
  check(analysed.analysis.estimate.search === "midgame" && depth > 0
    && analysed.analysis.moves.every((m) => m.exact ? m.depth === undefined : m.depth === Math.min(depth, m.empties)),
    `every estimated move of the API has the search's depth (${depth}), no exact one has any`);
  const titles = await page.$$eval(".moves-grid a.estimated small", (ss) => ss.map((s) => s.getAttribute("title")));
  check(titles.length > 0 && titles.every((t) => t.endsWith(`(an estimate: the midgame search, depth ${depth})`)),
    `each estimated loss says its depth (${titles[0]})`);
  const firstExact = analysed.analysis.moves.find((m) => m.exact);
  const analysisNote = await page.textContent(".analysis-note", { timeout: 5000 }).catch(() => "");
  check(analysisNote.includes(`Exact from ${analysed.analysis.exactFrom} empties (move ${firstExact.index + 1} on`)
    && analysisNote.includes(`before are estimates of the midgame search at depth ${depth} (`)
    && !analysisNote.includes("end game"), `the caption says where the exact part starts and the estimates' depth (${analysisNote})`);
  const bandLabel = await page.textContent(".graph-labels .estimated", { timeout: 5000 }).catch(() => "");
  check(bandLabel === `estimated ~ (depth ${depth})`, `the graph's estimated part says its depth (${bandLabel})`);
  const boundary = await page.$eval("svg.graph", (g, n) => {
    const line = g.querySelector(".exact-start");
    return line ? Math.abs(Number(line.getAttribute("x1")) - n * g.viewBox.baseVal.width) < 0.5 : false;
  }, firstExact.index / (analysed.analysis.blackLine.length - 1));
  check(boundary, "the graph marks where the exact part starts");
  await shot(page, "9-game-analysis.png");

  // 12. The theoretical score of a game that ends before the file's depth.
  const short = await api("/api/v1/games/2003:1196");
  const ends = short.positions[short.positions.length - 1];
  check(ends.empties > short.depth && ends.toMove === null && short.blackTheoreticalScore === 63
    && short.blackScore === 63, "2003:1196 ends (63 black discs) before its file's depth");
  await page.goto(`${base}/game/2003:1196`);
  const theory = await page.textContent("dd.theoretical", { timeout: 5000 }).catch(() => "");
  check(theory === `63 black discs, the final score: the game ended at ${ends.empties} empties, before the file's depth ` +
    `(${short.depth} empties), so there is no position to solve`, `what the stored theoretical score is (${theory})`);
  // One disc is said in the singular (2003:112: 1 by perfect play).
  await page.goto(`${base}/game/2003:112`);
  const one = await page.textContent("dd.theoretical", { timeout: 5000 }).catch(() => "");
  check(one === "1 black disc by perfect play from 12 empties", `one black disc (${one})`);
  await page.goto(`${base}/game/2001:5`);
  const deep = await page.textContent("dd.theoretical", { timeout: 5000 }).catch(() => "");
  check(deep === `${analysed.blackTheoreticalScore} black discs by perfect play from ${analysed.depth} empties`,
    `a game that reaches its depth (${deep})`);

  // 13. A player's openings by name, with the player's own results.
  const np = await api("/api/v1/players/Takuji%20Nakamura");
  await page.goto(`${base}/player/Takuji%20Nakamura`);
  await page.waitForSelector("table.player-openings tbody tr", { timeout: 5000 }).catch(() => null);
  const tables = await page.$$eval("table.player-openings", (ts) => ts.map((t) => [...t.querySelectorAll("tbody tr")].map((tr) => ({
    name: tr.querySelector(".name")?.textContent,
    bar: [...tr.querySelectorAll(".bar span")].map((b) => Number(b.dataset.count)),
  }))));
  check(tables.length === 2 && tables[0][0]?.name === np.asBlack[0].name && tables[1][0]?.name === np.asWhite[0].name,
    `openings shown by their names (${tables.map((t) => t[0]?.name).join(", ")})`);
  const asWhite = np.asWhite[0];
  check(JSON.stringify(tables[1]?.[0]?.bar) === JSON.stringify([asWhite.blackLosses, asWhite.draws, asWhite.blackWins]),
    "the bar of an opening as white: the player's wins (black's losses), draws, losses");
  const asBlack = np.asBlack[0];
  check(JSON.stringify(tables[0]?.[0]?.bar) === JSON.stringify([asBlack.blackWins, asBlack.draws, asBlack.blackLosses]),
    "the bar of an opening as black: the player's wins, draws, losses");

  // 14. The chart by year on a long record with years without games (the
  // player's answer given by the test): a slot for every year, the
  // labels apart, at a desktop's width and at a phone's.
  const byYear = [];
  for (let year = 1980; year <= 2025; year++) {
    if (year >= 2009 && year <= 2011) continue;
    // Bars of about the same height: their counts side by side.
    const games = 150 + (year % 3) * 4;
    byYear.push({ year, games, wins: Math.floor(games / 2), draws: 3, losses: games - Math.floor(games / 2) - 3 });
  }
  for (const [where, label] of [[context, "desktop"], [phone, "phone"]]) {
    const p = await where.newPage();
    await p.route("**/api/v1/players/Chart%20Test", (route) => route.fulfill({ json: { ...np, name: "Chart Test", byYear } }));
    await p.goto(`${base}/player/Chart%20Test`);
    await p.waitForSelector("svg.year-chart", { timeout: 5000 }).catch(() => null);
    const chart = await p.$eval("svg.year-chart", (g) => {
      const slots = [...g.querySelectorAll("g.year")].map((s) => Number(s.dataset.year));
      const barX = (year) => Number(g.querySelector(`g.year[data-year="${year}"] rect`)?.getAttribute("x"));
      const boxes = [...g.querySelectorAll("text")].map((t) => t.getBoundingClientRect());
      const overlaps = boxes.filter((a, i) => boxes.some((b, j) => i < j && a.left < b.right && b.left < a.right
        && a.top < b.bottom && b.top < a.bottom)).length;
      return { slots, step: barX(2008) - barX(2007), gap: barX(2012) - barX(2008), texts: boxes.length, overlaps };
    });
    const every = Array.from({ length: 46 }, (_, i) => 1980 + i);
    check(JSON.stringify(chart.slots) === JSON.stringify(every) && Math.abs(chart.gap - 4 * chart.step) < 0.01,
      `${label}: a slot for every year, 2009-2011 kept empty (2008 to 2012: ${(chart.gap / chart.step).toFixed(2)} slots)`);
    check(chart.texts >= 4 && chart.overlaps === 0, `${label}: the chart's ${chart.texts} labels do not overlap`);
    await shot(p, `10-player-chart-${label}.png`, true);
    await p.close();
  }

  // 15. An opening name that names nothing: the search says so, with the
  // closest names as links.
  const tigre = await api("/api/v1/search?opening_name=tigre&limit=1");
  await page.goto(`${base}/search?opening_name=tigre`);
  await page.waitForSelector(".opening-suggestions a", { timeout: 5000 }).catch(() => null);
  const links = await page.$$eval(".opening-suggestions a", (as) => as.map((a) => a.textContent));
  check(tigre.suggestions.length > 0 && JSON.stringify(links) === JSON.stringify(tigre.suggestions),
    `the search suggests ${links.join(", ")} for "tigre"`);
  // The explorer too says that the name names nothing (it showed 0 games
  // without a word).
  await page.goto(`${base}/explorer?play=f5d6&opening_name=tigre`);
  await page.waitForSelector(".opening-suggestions", { timeout: 5000 }).catch(() => null);
  const explorerNote = await page.$eval(".opening-suggestions", (p) => p.textContent).catch(() => "");
  check(explorerNote.includes("tigre") && tigre.suggestions.every((name) => explorerNote.includes(name)),
    `the explorer says "${explorerNote}" for "tigre"`);

  // 16. The values of the moves: a row for every legal move (those nobody
  // played too, with a value and no games), the best move starred,
  // estimates with the depth of their search, exact values near the end.
  const valued = "play=f5d6c3d3c4f4f6&player=nakamura";
  const wantValues = await api(`/api/v1/explorer?${valued}&games=0`);
  await page.goto(`${base}/explorer?${valued}`);
  await page.waitForSelector("table.next-moves tbody tr[data-move] td.val .v");
  const valueRows = await page.$$eval("table.next-moves tbody tr[data-move]", (trs) => trs.map((tr) => ({
    move: tr.dataset.move,
    games: Number(tr.children[1].firstChild.textContent.replace(/,/g, "")),
    value: tr.querySelector("td.val .v")?.textContent ?? "",
    depth: tr.querySelector("td.val .depth")?.textContent ?? "",
    star: tr.querySelector("td.val .best-mark") !== null,
  })));
  const sorted = (xs) => [...xs].sort().join(",");
  check(sorted(valueRows.map((r) => r.move)) === sorted(wantValues.position.legalMoves),
    `a row for every legal move (${valueRows.map((r) => r.move).join(", ")})`);
  const unplayedRows = valueRows.filter((r) => r.games === 0);
  check(unplayedRows.length > 0 && unplayedRows.every((r) => /^~[+-]?\d+\.\d$/.test(r.value)),
    `the moves nobody played have a value (${unplayedRows.map((r) => `${r.move} ${r.value}`).join(", ")})`);
  const shown = (x) => `~${Math.abs(x) < 0.05 ? "0.0" : (x > 0 ? "+" : "") + x.toFixed(1)}`;
  check(valueRows.every((r) => {
    const w = wantValues.moves.find((m) => m.move === r.move);
    return w && r.value === shown(w.value) && r.depth === `d${w.depth}` && r.star === w.best;
  }), "each value is the API's, the estimates with their depth (d14), the best moves starred");
  const starred = valueRows.filter((r) => r.star).map((r) => r.move);
  const bestValue = Math.max(...wantValues.moves.map((m) => m.value));
  check(starred.length >= 1 && starred.every((m) => wantValues.moves.find((w) => w.move === m).value === bestValue),
    `the best move is starred (${starred.join(", ")})`);
  await shot(page, "11-explorer-values.png");
  // Exact near the end: 20 empties of a game of the 2003 file.
  const late = (await api("/api/v1/games/2003:18")).moves.slice(0, 40).join("");
  const wantExact = await api(`/api/v1/explorer?play=${late}&games=0`);
  await page.goto(`${base}/explorer?play=${late}`);
  await page.waitForSelector("table.next-moves tbody tr[data-move] td.val .v");
  const exactRows = await page.$$eval("table.next-moves tbody tr[data-move]", (trs) => trs.map((tr) => ({
    move: tr.dataset.move, value: tr.querySelector("td.val .v")?.textContent ?? "",
    depth: tr.querySelector("td.val .depth"), star: tr.querySelector("td.val .best-mark") !== null })));
  check(wantExact.values.exact && exactRows.length === wantExact.moves.length && exactRows.every((r) => {
    const w = wantExact.moves.find((m) => m.move === r.move);
    return w && r.value === (w.exact > 0 ? `+${w.exact}` : `${w.exact}`) && r.depth === null && r.star === w.best;
  }), `20 empties: exact values without a depth (${exactRows.map((r) => `${r.move} ${r.value}`).join(", ")})`);
  const caption = await page.textContent(".values-note");
  check(caption.startsWith("Values: exact"), `the caption says they are exact (${caption})`);
  await shot(page, "13-explorer-exact.png");
  // A phone: the value column shown, no sideways scrolling.
  await small.goto(`${base}/explorer?${valued}`);
  await small.waitForSelector("table.next-moves tbody tr[data-move] td.val .v");
  const phoneValues = await small.evaluate(() => ({
    overflow: document.documentElement.scrollWidth - window.innerWidth,
    shown: [...document.querySelectorAll("table.next-moves thead th")].filter((th) => th.getClientRects().length > 0)
      .map((th) => th.textContent),
    inside: (() => {
      const cell = document.querySelector("table.next-moves tbody td.val").getBoundingClientRect();
      const wrap = document.querySelector("table.next-moves").closest(".table-wrap").getBoundingClientRect();
      return cell.right <= wrap.right + 1;
    })(),
  }));
  check(phoneValues.overflow <= 0 && phoneValues.shown.includes("Value") && phoneValues.inside,
    `a phone: the value column in view, no sideways scrolling (${phoneValues.shown.join(", ")}; ${phoneValues.overflow} px)`);
  await small.$eval("table.next-moves", (t) => t.closest(".panel").scrollIntoView());
  await shot(small, "12-phone-values.png");

  // 14. The archive through time (issue 40): a trend per move, the
  // history panel with the first games, the year range, the novelty.
  const hq = "play=f5d6c3d3";
  const wantHistory = await api(`/api/v1/history?${hq}`);
  await page.goto(`${base}/explorer?${hq}`);
  await page.waitForSelector("table.next-moves tbody tr[data-move] td.trend svg.spark");
  await page.waitForSelector(".history .first-game a");
  const trends = await page.$$eval("table.next-moves tbody tr[data-move]", (trs) => trs.map((tr) => ({
    move: tr.dataset.move, games: Number(tr.children[1].firstChild.textContent.replace(/,/g, "")),
    dots: tr.querySelectorAll("td.trend svg.spark circle").length,
    title: tr.querySelector("td.trend svg.spark title")?.textContent ?? "" })));
  const activeYears = wantHistory.years.filter((y) => y.moves.length).length;
  check(await page.$eval("table.next-moves thead", (t) => t.textContent.includes("Trend"))
    && trends.filter((t) => t.games > 0).every((t) => t.dots === activeYears && t.title.startsWith(`${t.move}, its share`)),
  `a trend sparkline per move, a dot per year with games here (${activeYears})`);
  const firstShown = await page.$eval(".history .first-game a", (a) => a.textContent);
  check(firstShown === wantHistory.first.game, `the history panel lists the first game (${firstShown})`);
  const moveFirsts = await page.$$eval("table.history-moves tbody tr", (trs) => trs.map((tr) =>
    [tr.dataset.move, tr.children[2].querySelector("a").textContent]));
  check(JSON.stringify(moveFirsts) === JSON.stringify(wantHistory.moves.map((m) => [m.move, m.first.game])),
    `and the first game of each move (${moveFirsts.map((m) => m.join(" ")).join(", ")})`);
  await page.$eval(".history", (h) => h.scrollIntoView());
  await shot(page, "14-explorer-history.png");
  // The year range: one field changed, the table recomputed.
  const span = [wantHistory.years[0].year, wantHistory.years[wantHistory.years.length - 1].year];
  const lo = span[0] + 2, hi = span[0] + 3;
  const wantYears = await api(`/api/v1/explorer?${hq}&year=${lo}..${hi}&games=0`);
  const wantFrom = await api(`/api/v1/explorer?${hq}&year=${lo}..${span[1]}&games=0`);
  await page.fill("input.year-from", String(lo));
  await page.press("input.year-from", "Enter");
  await page.waitForFunction((y) => new URLSearchParams(location.search).get("year") === y, `${lo}..${span[1]}`);
  // The table recomputed, and with it the range's fields drawn again,
  // before the second field is changed: an Enter in the field about to be
  // replaced would be lost (seen once under load).
  await page.waitForFunction((n) => document.querySelector(".summary .big")?.textContent === n, wantFrom.reached.toLocaleString("en-US"));
  await page.waitForSelector(`.year-range input.year-to`);
  await page.fill("input.year-to", String(hi));
  await page.press("input.year-to", "Enter");
  await page.waitForFunction((y) => new URLSearchParams(location.search).get("year") === y, `${lo}..${hi}`);
  await page.waitForFunction((n) => document.querySelector(".summary .big")?.textContent === n, wantYears.reached.toLocaleString("en-US"));
  const yearRows = await page.$$eval("table.next-moves tbody tr[data-move]", (trs) => trs.map((tr) =>
    [tr.dataset.move, Number(tr.children[1].firstChild.textContent.replace(/,/g, ""))]));
  check(JSON.stringify(yearRows) === JSON.stringify(wantYears.moves.map((m) => [m.move, m.games]))
    && wantYears.reached !== wantHistory.reached,
  `the year range ${lo}..${hi} recomputes the table (${wantYears.reached} games, was ${wantHistory.reached})`);
  check(await page.$eval("input[name=year]", (i) => i.value) === `${lo}..${hi}`, "the filters panel says the same years");
  await shot(page, "15-explorer-years.png");
  await page.click("button.year-all");
  await page.waitForFunction(() => !new URLSearchParams(location.search).has("year"));
  check(true, "All years clears the year filter");
  // The game page: the novelty marked on the move list and the graph.
  const novelGame = "2005:3";
  const wantNovelty = (await api(`/api/v1/games/${novelGame}?novelty=1`)).novelty;
  await page.goto(`${base}/game/${novelGame}`);
  await page.waitForSelector(".moves-grid a.novelty");
  const marked = await page.$eval(".moves-grid a.novelty", (a) => ({ ply: Number(a.dataset.ply), mark: a.querySelector("sup")?.textContent,
    title: a.title }));
  check(wantNovelty.kind === "novelty" && marked.ply === wantNovelty.move && marked.mark === "N"
    && marked.title.includes("no game of an earlier year reached this position"),
  `the novelty marked on the move list (move ${marked.ply}: ${marked.title})`);
  const fact = await page.textContent(".novelty-fact");
  check(fact.startsWith(`move ${wantNovelty.move} (${wantNovelty.square})`), `the facts say it (${fact})`);
  check(fact.includes(`Its value ${wantNovelty.value > 0 ? "+" : ""}${wantNovelty.value} (`)
    && fact.includes(wantNovelty.loss === 0 ? "a best move" : `losing ${wantNovelty.loss} disc`),
  `the facts say the move's value and loss (${fact})`);
  await page.click("text=Analyse");
  await page.waitForSelector("svg.graph line.novelty-line", { state: "attached", timeout: 120000 });
  const lineTitle = await page.$eval("svg.graph line.novelty-line title", (t) => t.textContent);
  check(lineTitle.startsWith(`Novelty at move ${wantNovelty.move}`), `and on the graph (${lineTitle})`);
  // Analysed, the facts give the move the analysis's value (the move list's).
  const both = (await api(`/api/v1/games/${novelGame}?novelty=1&analysis=1`)).novelty;
  const analysedFact = await page.textContent(".novelty-fact");
  check(analysedFact.includes(`Its value ${both.value > 0 ? "+" : ""}${both.value} (`)
    && analysedFact.includes(both.loss === 0 ? "a best move" : `losing ${both.loss} disc`),
  `analysed, the facts give the analysis's value and loss (${analysedFact})`);
  await shot(page, "16-game-novelty.png");

  // 17. Ratings in the explorer (issue 39): the movers' rating and
  // performance per move, the games list's top rated games.
  const rq = "play=f5d6c3";
  const wantRated = await api(`/api/v1/explorer?${rq}&games=12`);
  const wantTop = await api(`/api/v1/explorer?${rq}&games=12&top=1`);
  await page.goto(`${base}/explorer?${rq}`);
  await page.waitForSelector("table.next-moves tbody tr[data-move] td.mover-rating");
  const ratedRows = await page.$$eval("table.next-moves tbody tr[data-move]", (trs) => trs.map((tr) => [tr.dataset.move,
    tr.querySelector("td.mover-rating").textContent, tr.querySelector("td.performance").textContent]));
  const shownRating = (x) => (x === null ? "–" : x.toFixed(0));
  check(ratedRows.length > 0 && JSON.stringify(ratedRows) === JSON.stringify(wantRated.moves.map((m) =>
    [m.move, shownRating(m.moverRating), shownRating(m.performance)])),
  `each move's mover rating and performance are the API's (${ratedRows.map((r) => r.join(" ")).join(", ")})`);
  const ids = () => page.$$eval("table.games tbody tr td:first-child a", (as) => as.map((a) => a.textContent));
  check(JSON.stringify(await ids()) === JSON.stringify(wantRated.games.map((g) => g.game)), "the latest games by default");
  const topAnswer = page.waitForResponse((r) => r.url().includes("/api/v1/explorer") && r.url().includes("top=1"));
  await page.click(".games-order button:has-text('Top rated')");
  await topAnswer;
  await page.waitForFunction(() => new URLSearchParams(location.search).get("top") === "1");
  await page.waitForFunction((first) => document.querySelector("table.games tbody tr td:first-child a")?.textContent === first,
    wantTop.games[0].game);
  const means = await page.$$eval("table.games tbody td.mean-rating", (tds) => tds.map((td) => Number(td.textContent)));
  check(JSON.stringify(await ids()) === JSON.stringify(wantTop.games.map((g) => g.game))
    && means.every((m, i) => i === 0 || m <= means[i - 1] + 1),
  `Top rated lists the API's top games, by the mean rating (${means.slice(0, 4).join(", ")}…)`);
  await page.$eval("table.games", (t) => t.closest(".panel").scrollIntoView());
  await shot(page, "17-explorer-top-games.png");

  // Whether a wait ends within its time (a check of what it waits for).
  const soft = (waiting) => waiting.then(() => true, () => false);

  // 18. Passes (a QA pass): 2001:22 ends h1 (black), white passes, e8
  // (black), f8, g8: the move lists write the pass and keep each move in
  // its colour's column.
  const passGame = await api("/api/v1/games/2001:22");
  await page.goto(`${base}/game/2001:22`);
  await page.waitForSelector(".moves-grid .pair");
  const lastRows = await page.$$eval(".moves-grid .pair", (ps) => ps.slice(-3).map((p) => p.textContent.replace(/\s+/g, "")));
  check(JSON.stringify(lastRows) === JSON.stringify(["29.h1pass", "30.e8f8", "31.g8"]),
    `the game's moves write white's pass after h1 (${lastRows.join(" ")})`);
  check(await page.$eval(".moves-grid a[data-ply=\"58\"]", (a) => a.textContent) === "e8", "the move after the pass is still move 58 of the record");
  await page.goto(`${base}/explorer?play=${passGame.moves.join("")}`);
  await page.waitForSelector(".line a.cur");
  const passLine = (await page.textContent(".line")).replace(/\s+/g, "");
  check(passLine.endsWith("28.f7d729.h1pass30.e8f831.g8"), `the explorer's line writes the pass (…${passLine.slice(-28)})`);
  await page.click(".line a:text-is('e8')");
  await page.waitForFunction((n) => new URLSearchParams(location.search).get("play").length === n, 2 * 58);
  check(true, "a move after the pass in the line goes to its position");

  // 19. The explorer's moves table at laptop widths: as wide as its card
  // (no sideways scrolling), the move, its games and its value in view.
  for (const width of [1024, 1180, 1280, 1400]) {
    const wide = await newContext({ viewport: { width, height: 900 } });
    const p = await wide.newPage();
    await p.goto(`${base}/explorer?play=f5d6c3d3c4f4f6`);
    await p.waitForSelector("table.next-moves tbody tr[data-move] td.val .v");
    const fit = await p.$eval("table.next-moves", (t) => {
      const wrap = t.closest(".table-wrap");
      const box = wrap.getBoundingClientRect();
      const heads = [...t.querySelectorAll("thead th")].filter((th) => th.getClientRects().length > 0);
      return { over: wrap.scrollWidth - wrap.clientWidth, page: document.documentElement.scrollWidth - window.innerWidth,
        inView: heads.filter((th) => th.getBoundingClientRect().right <= box.right + 1).map((th) => th.textContent) };
    });
    check(fit.over <= 0 && fit.page <= 0 && ["Move", "Games", "Value"].every((h) => fit.inView.includes(h)),
      `${width} px: the moves table fits its card (${fit.over} px over; ${fit.inView.join(", ")})`);
    if (width === 1024) await shot(p, "18-explorer-1024.png");
    await wide.close();
  }

  // 20. A 10x10 game: its position explored on the 10x10 board; no
  // analysis offered (only 8x8 games are analysed).
  await page.goto(`${base}/game/${encodeURIComponent("WTH_2001.wtd:3")}?ply=3`);
  await page.waitForSelector(".moves-grid a[data-ply]");
  const tenHref = await page.getAttribute("a.button-link", "href");
  const tenGame = await api(`/api/v1/games/${encodeURIComponent("WTH_2001.wtd:3")}`);
  check(tenHref === `/explorer?play=${tenGame.moves.slice(0, 3).join("")}&size=10`, `a 10x10 game's explorer link has size=10 (${tenHref})`);
  check(await page.$("button:text-is('Analyse')") === null, "a 10x10 game offers no analysis");
  await page.click("a.button-link");
  const tenShown = await soft(page.waitForSelector("table.next-moves tbody tr[data-move]", { timeout: 10000 }));
  check(tenShown && await page.$("[role=alert], .error") === null && await page.$eval("svg.board", (b) => b.viewBox.baseVal.width) === 48 * 10 + 2 * 28,
    "the explorer shows that 10x10 position");

  // 21. Moves the API refuses are said, never dropped: a play= that is no
  // transcript, a pasted line with a bad move; the text kept to mend.
  await page.goto(`${base}/explorer?play=zz9`);
  const zz = await page.textContent("[role=alert]", { timeout: 5000 }).catch(() => "");
  const zzApi = (await (await fetch(`${base}/api/v1/explorer?play=zz9`)).json()).error;
  check(zz.startsWith(zzApi), `play=zz9: the API's error (${zz})`);
  check(await page.inputValue("form.paste input") === "zz9", "play=zz9: the text kept in the paste box");
  await page.goto(`${base}/explorer?play=f5d6`);
  await page.waitForSelector(".line a.cur");
  await page.fill("form.paste input", "f5 d6 c3 xx d3");
  await page.click("form.paste button");
  const xx = await page.textContent("[role=alert]", { timeout: 5000 }).catch(() => "");
  check(xx.includes("(move 4): not a square name") && new URL(page.url()).searchParams.get("play") === "f5d6"
    && await page.inputValue("form.paste input") === "f5 d6 c3 xx d3",
  `a pasted line with a bad move: the error, the line kept, the position unchanged (${xx})`);

  // 22. Each move is a step of the browser's history: Back returns to the
  // position before, Forward to the one after.
  await page.goto(`${base}/explorer`);
  for (const move of ["f5", "d6", "c3"]) {
    await page.click(`svg.board rect.hit[data-square="${move}"]`);
    await page.waitForFunction((m) => (new URLSearchParams(location.search).get("play") || "").endsWith(m), move);
  }
  const lineIs = (text) => soft(page.waitForFunction((t) => document.querySelector(".line")?.textContent.replace(/\s+/g, "") === t,
    text, { timeout: 10000 }));
  await page.goBack();
  const back1 = await lineIs("1.f5d6") && new URLSearchParams(new URL(page.url()).search).get("play") === "f5d6";
  await page.goBack();
  const back2 = back1 && await lineIs("1.f5");
  await page.goForward();
  const forward = back2 && await lineIs("1.f5d6");
  check(back1 && back2 && forward && new URL(page.url()).pathname === "/explorer",
    `Back and Forward step through the moves played, within the explorer (${back1}, ${back2}, ${forward})`);

  // 23. solve=1 in the URL solves; the Solve button puts it there.
  const solvePlay = (await api("/api/v1/games/2003:18")).moves.slice(0, 38).join("");
  await page.goto(`${base}/explorer?play=${solvePlay}`);
  await page.waitForSelector("button:text-is('Solve')");
  await page.click("button:text-is('Solve')");
  const solveInUrl = await soft(page.waitForFunction(() => new URLSearchParams(location.search).get("solve") === "1", null, { timeout: 10000 }));
  check(solveInUrl, "the Solve button puts solve=1 in the URL");
  await page.waitForSelector("table.next-moves td.val.exact");
  const solved = await api(`/api/v1/explorer?play=${solvePlay}&solve=1&games=0`);
  const solvedShown = await page.$$eval("table.next-moves tbody tr[data-move]", (trs) => trs.map((tr) => [tr.dataset.move, tr.querySelector("td.val .v").textContent]));
  check(solved.solved === true && JSON.stringify(solvedShown) === JSON.stringify(solved.moves.map((m) => [m.move, m.exact > 0 ? `+${m.exact}` : `${m.exact}`])),
    `Solve: the exact scores, solve=1 in the URL (${solvedShown.map((r) => r.join(" ")).join(", ")})`);
  await page.goto(`${base}/explorer?play=${solvePlay}&solve=1`);
  await page.waitForSelector("table.next-moves tbody tr[data-move] td.val .v");
  // The exact scores (the estimates first, without solve=1).
  await soft(page.waitForSelector("table.next-moves td.val.exact", { timeout: 20000 }));
  const loaded = await page.$$eval("table.next-moves tbody tr[data-move]", (trs) => trs.map((tr) => [tr.dataset.move, tr.querySelector("td.val .v").textContent]));
  check(JSON.stringify(loaded) === JSON.stringify(solvedShown) && await page.$("button:text-is('Solve')") === null,
    "a URL with solve=1 shows the exact scores");

  // 24. The search past its last page: a sane range and the last page;
  // reverse=1 and exact=1 ticked.
  await page.goto(`${base}/search?year=2003&offset=5000`);
  await page.waitForSelector(".past-end a", { timeout: 5000 }).catch(() => null);
  const pastEnd = await page.evaluate(() => ({ pager: document.querySelector(".pager")?.textContent ?? "",
    href: document.querySelector(".past-end a")?.getAttribute("href") ?? "" }));
  check(!/5001/.test(pastEnd.pager) && new URLSearchParams(pastEnd.href.split("?")[1]).get("offset") === "1450",
    `an offset past the end: no range past the total, a link to the last page (${pastEnd.href})`);
  await page.goto(`${base}/search?player=Takuji%20Nakamura&sort=year&reverse=1&exact=1`);
  await page.waitForSelector("table.games tbody tr");
  const boxes = await page.$$eval(".filter-form input[type=checkbox]", (cs) => cs.map((c) => c.checked));
  check(boxes.length === 2 && boxes.every(Boolean), `reverse=1 and exact=1 tick Descending and Whole names (${boxes})`);

  // 25. The header's player box: Enter with suggestions open goes to the
  // player suggested; a name not found suggests names.
  await page.fill("#find-player-input", "naka");
  await page.waitForSelector(".top .suggest li");
  await page.keyboard.press("Enter");
  await soft(page.waitForFunction(() => document.querySelector("main h1")?.textContent === "Takuji Nakamura", null, { timeout: 10000 }));
  check(decodeURIComponent(new URL(page.url()).pathname) === "/player/Takuji Nakamura", `Enter goes to the suggested player (${page.url()})`);
  await page.goto(`${base}/player/naka`);
  const meant = await page.textContent(".did-you-mean a", { timeout: 5000 }).catch(() => "");
  check(meant === "Takuji Nakamura", `a name not found: did you mean ${meant}`);

  // 26. The footer's API link: the current API.
  check(await page.getAttribute("footer a", "href") === "/api/v1/search?limit=1", "the footer links to /api/v1/");

  check(errors.length === 0, `no JavaScript error (${errors.join("; ")})`);
} catch (err) {
  console.log(`e2e: FAIL ${err.stack || err}`);
  failed++;
} finally {
  await browser.close();
  server.kill("SIGTERM");
}
console.log(`e2e: screenshots in ${SHOTS}`);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : code);
