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

// The server, on a free port; its URL from its first line.
const server = spawn(WTHOR_BIN, ["serve", "--db", "testdata", "--addr", "127.0.0.1:0"],
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
let code = 0;
try {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, acceptDownloads: true });
  const page = await context.newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(String(e)));

  // 1. The explorer: first load measured in the browser (a fresh context;
  // the browser's own cold start, a first renderer, is left out by one
  // warm-up page in a context of its own).
  const warm = await browser.newContext();
  await (await warm.newPage()).goto(`${base}/favicon.ico`);
  await warm.close();
  const firstCall = page.waitForResponse((r) => r.url().includes("/api/explorer"));
  await page.goto(`${base}/explorer`);
  await firstCall;
  await page.waitForSelector("table.next-moves tbody tr[data-move]");
  const timing = await page.evaluate(() => {
    const nav = performance.getEntriesByType("navigation")[0];
    const res = performance.getEntriesByType("resource");
    const end = (f) => Math.max(0, ...res.filter((r) => r.name.includes(f)).map((r) => r.responseEnd));
    return { html: nav.responseEnd, js: end("/assets/app.js"), css: end("/assets/style.css"), api: end("/api/explorer"),
      domContentLoaded: nav.domContentLoadedEventEnd, load: nav.loadEventEnd };
  });
  const firstLoad = Math.max(timing.html, timing.js, timing.css, timing.api);
  console.log(`e2e: first load of the explorer (HTML, JS, CSS, first API call): ${firstLoad.toFixed(1)} ms ` +
    `(html ${timing.html.toFixed(1)}, js ${timing.js.toFixed(1)}, css ${timing.css.toFixed(1)}, api ${timing.api.toFixed(1)})`);
  // The goal is 200 ms with a release build; the tests run the
  // debug build, whose gzip and queries are slower: FIRST_LOAD_MS sets the bound.
  const bound = Number(process.env.FIRST_LOAD_MS || 1500);
  check(firstLoad > 0 && firstLoad <= bound, `first load ≤ ${bound} ms (${firstLoad.toFixed(1)} ms)`);
  await page.screenshot({ path: join(SHOTS, "1-explorer-start.png") });

  // 2. Play f5 then d6 by clicking the board.
  for (const move of ["f5", "d6"]) {
    const answer = page.waitForResponse((r) => r.url().includes("/api/explorer") && r.url().includes("play="));
    await page.click(`svg.board rect.hit[data-square="${move}"]`);
    await answer;
  }
  await page.waitForFunction(() => location.search.includes("play=f5d6"));
  await page.waitForSelector(".line a.cur");
  check((await page.textContent(".line")).replace(/\s+/g, "").includes("1.f5d6"), "f5 and d6 played by clicking");
  check(new URL(page.url()).searchParams.get("play") === "f5d6", "the URL holds the moves");
  await page.screenshot({ path: join(SHOTS, "2-explorer-f5d6.png") });

  // 3. The table's first rows against the API.
  const want = await api("/api/explorer?play=f5d6&games=0");
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
  const pasted = (await api("/api/explorer?play=f5d6c3&games=0")).obf;
  await page.fill("form.paste input", pasted);
  const pastedAnswer = page.waitForResponse((r) => r.url().includes("/api/explorer") && r.url().includes("position="));
  await page.click("form.paste button");
  await pastedAnswer;
  await page.waitForFunction((obf) => new URLSearchParams(location.search).get("position") === obf, pasted);
  const fromPasted = await api(`/api/explorer?position=${encodeURIComponent(pasted)}&games=0`);
  await page.waitForFunction((m) => document.querySelector("table.next-moves tbody tr[data-move]")?.dataset.move === m,
    fromPasted.moves[0].move);
  const firstMove = await page.getAttribute("table.next-moves tbody tr[data-move]", "data-move");
  await page.click(`table.next-moves tbody tr[data-move="${firstMove}"]`);
  await page.waitForFunction((m) => new URLSearchParams(location.search).get("play") === m, firstMove);
  const after = await api(`/api/explorer?play=f5d6c3${firstMove}&games=0`);
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
  const game = await api(`/api/games/${encodeURIComponent(gameId)}`);
  check(await plyOf() === game.moves.length, `End goes to the last move (${game.moves.length})`);
  const cur = await page.textContent(".moves-grid a.cur span");
  check(cur === game.moves[game.moves.length - 1], `the last move is marked (${cur})`);
  await page.screenshot({ path: join(SHOTS, "3-game-end.png") });
  await page.keyboard.press("Home");
  check(await plyOf() === 0, "Home goes to the start");
  await page.screenshot({ path: join(SHOTS, "4-game-start.png") });

  // 5. A player through the autocomplete.
  await page.fill("#find-player-input", "naka");
  await page.waitForSelector(".top .suggest li");
  await page.keyboard.press("ArrowDown");
  await page.keyboard.press("Enter");
  await page.waitForSelector("main h1");
  const name = await page.textContent("main h1");
  check(name === "Takuji Nakamura", `the autocomplete leads to the player (${name})`);
  await page.waitForSelector("svg.year-chart");
  await page.screenshot({ path: join(SHOTS, "5-player.png"), fullPage: true });

  // 6. Search and download the CSV: the bytes of `wthor export`.
  await page.goto(`${base}/search?player=nakamura&year=2003`);
  await page.waitForSelector("table.games tbody tr");
  const total = await page.textContent(".game-head h2");
  check(total.startsWith("556 games"), `the search finds the games (${total})`);
  await page.screenshot({ path: join(SHOTS, "6-search.png") });
  const download = page.waitForEvent("download");
  await page.click("text=Download CSV");
  const file = await (await download).path();
  const got = readFileSync(file);
  const cli = execFileSync(WTHOR_BIN, ["export", "--db", "testdata", "--format", "csv", "--player", "nakamura", "--year", "2003"],
    { cwd: WORKSPACE });
  check(got.equals(cli), `the downloaded CSV is wthor export's (${got.length} bytes)`);

  // 7. A phone.
  const phone = await browser.newContext({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true });
  const small = await phone.newPage();
  await small.goto(`${base}/explorer?play=f5d6c3`);
  await small.waitForSelector("table.next-moves tbody tr[data-move]");
  const overflow = await small.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  check(overflow <= 0, `no sideways scrolling on a phone (${overflow} px)`);
  await small.screenshot({ path: join(SHOTS, "7-phone.png"), fullPage: true });

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
