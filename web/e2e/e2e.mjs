// End-to-end test of the browser tester in headless Chromium.
//
// It builds the serve command into a temporary directory, runs it (it
// builds and serves the page), loads the page in the system's Chromium
// through playwright-core, and checks: keystroke to frame while a 500 KiB
// file is checked in the Web Worker (under 100 ms), the "checking…" state,
// stale answers dropped and a stuck worker replaced; the verdicts, the
// highlighted deciding line and a linter finding; the AI crawler audit
// (the deciding rule as written, usage preferences, the summary matrix,
// licence links, own groups first, filter, purpose chips, only
// blocked/allowed, sort); the served files (gzipped wasm, ETag, favicon);
// keyboard-only use (arrow keys and Enter in the verdict table, a finding's
// link jumping to its line); the warning for an agent that is not a
// product token; a file past the 500 KiB limit; the layout at 375 px, and
// at 1280x800 and 375x812 (no sideways scrolling, no verdict cut, header
// rows under 60 px, text contrast of at least 4.5:1), saving screenshots
// in web/e2e/artifacts/ (with
// UPDATE_SCREENSHOTS=1 also web/screenshot.png, web/audit-screenshot.png
// and web/compare-screenshot.png). The compare view (#compare), at
// 1280x800 and 375x812: a Disallow added for Googlebot listed for
// Googlebot alone with its witness, the witness tested on both versions
// (verdicts, deciding lines, the deciding line marked), the changed lines
// marked level with their text, the other changes, the editors side by
// side or stacked, no sideways scrolling, contrast; then typing into a
// 485 KB version while hostile diffs run (keystroke to frame, no stale
// diff drawn, the newest edit's diff shown, "not decided" shown), and,
// when ../shared/corpus-2025 is there, the time real pairs take.
// Then it runs every example of spec-cases.json (RFC 9309's and Google's
// documented rules) through the page and fails on any answer that differs
// from the library's (go run ./web/e2e/expect). Last it stops the server
// with SIGTERM and checks that it removed its temporary site. With
// SCREENSHOT=path it also saves a screenshot of the page, and with
// SCREENSHOT_PHONE=path one at 375 px.
//
//	cd web/e2e && npm ci && node e2e.mjs
import { spawn, execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { chromium } from "playwright-core";

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, "..", "..");
const browserPath = process.env.CHROMIUM || "/usr/bin/chromium";
const deadline = 360_000;

let server = null;
let serverExit = null; // resolves with the server's exit code
let siteDir = "";      // the server's temporary site
let binDir = "";       // where this test builds the serve command
let browser = null;
let failures = 0;

function fail(message) {
  failures++;
  console.error(`FAIL: ${message}`);
}

function check(cond, message) {
  if (!cond) fail(message);
}

async function cleanup() {
  if (browser) await browser.close().catch(() => {});
  if (server && server.exitCode === null && server.signalCode === null) {
    try { server.kill("SIGTERM"); } catch { /* already gone */ }
    await Promise.race([serverExit, new Promise((r) => setTimeout(r, 10_000))]);
  }
  if (binDir) fs.rmSync(binDir, { recursive: true, force: true });
}

const watchdog = setTimeout(async () => {
  console.error(`FAIL: the browser test did not finish within ${deadline / 1000} s`);
  await cleanup();
  process.exit(1);
}, deadline);

// startServer builds the serve command (so that no "go run" stands between
// the test and the server's signal handling) and runs it; it resolves with
// the URL it prints, and notes the directory it serves.
function startServer() {
  binDir = fs.mkdtempSync(path.join(os.tmpdir(), "robotstxt-e2e-"));
  const bin = path.join(binDir, "serve");
  execFileSync("go", ["build", "-o", bin, "./web/serve"], { cwd: root, stdio: "inherit" });
  return new Promise((resolve, reject) => {
    server = spawn(bin, ["-addr", "127.0.0.1:0"], { cwd: root, stdio: ["ignore", "pipe", "inherit"] });
    serverExit = new Promise((r) => server.on("exit", (code, signal) => r(signal ? signal : code)));
    let out = "";
    server.stdout.on("data", (chunk) => {
      out += chunk;
      const m = out.match(/serving (http:\/\/\S+) from (\S+)\n/);
      if (m) {
        siteDir = m[2];
        resolve(m[1]);
      }
    });
    server.on("exit", (code) => reject(new Error(`the server exited with status ${code}`)));
  });
}

// stopServer sends SIGTERM, as CI and Ctrl-C do, and checks that the
// server exits cleanly and leaves no temporary directory behind.
async function stopServer() {
  check(siteDir !== "" && fs.existsSync(siteDir), `the server's site ${JSON.stringify(siteDir)} does not exist while it serves`);
  server.kill("SIGTERM");
  const code = await Promise.race([serverExit, new Promise((r) => setTimeout(() => r("timeout"), 15_000))]);
  check(code === 0, `the server exited with ${code} on SIGTERM, want 0`);
  check(!fs.existsSync(siteDir), `the server left its temporary site ${siteDir} behind`);
  console.log(`server: stopped by SIGTERM, ${siteDir} removed`);
}

// ask puts a file, an agent and URLs into the page, presses Check and
// returns the rows of the verdict table.
async function ask(page, robots, agent, urls) {
  if (robots.length > 100_000) {
    // fill types into the box in ways that take minutes for 500 KiB.
    await page.$eval("#robots", (box, text) => { box.value = text; }, robots);
  } else {
    await page.fill("#robots", robots);
  }
  await page.fill("#agent", agent);
  await page.fill("#urls", urls.join("\n"));
  await page.click("#check");
  await settled(page);
  return page.$$eval("#results tr.result", (rows) => rows.map((r) => ({
    url: r.querySelector(".url").textContent,
    allowed: r.dataset.verdict === "allowed",
    line: Number(r.dataset.line),
  })));
}

async function scenario(page) {
  const robots = [
    "Disallow: /nowhere/",   // 1: before any user-agent line: ignored
    "User-agent: *",         // 2
    "Disallow: /private/",   // 3
    "Allow: /private/press/", // 4
    "",                      // 5
    "User-agent: FooBot",    // 6
    "Disallow: /foo/",       // 7
  ].join("\n") + "\n";
  const rows = await ask(page, robots, "Googlebot", [
    "https://example.com/private/x",
    "https://example.com/private/press/y",
    "https://example.com/nowhere/z",
  ]);
  // RFC 9309: a rule before any user-agent line belongs to no group
  // (section 2.1), the * group answers a crawler no group names (2.2.1),
  // the longest match wins, allow on a tie (2.2.2).
  const want = [
    { allowed: false, line: 3 },
    { allowed: true, line: 4 },
    { allowed: true, line: 0 },
  ];
  check(rows.length === want.length, `scenario: ${rows.length} rows, want ${want.length}`);
  want.forEach((w, i) => {
    const got = rows[i] || {};
    check(got.allowed === w.allowed && got.line === w.line,
      `scenario row ${i + 1}: got ${JSON.stringify(got)}, want ${JSON.stringify(w)}`);
  });
  const deciding = await page.$$eval("#results tr.result .decider", (cells) => cells.map((c) => c.textContent));
  check(deciding[0] === "line 3: disallow: /private/", `scenario: deciding rule shown as ${JSON.stringify(deciding[0])}`);
  check(deciding[2] === "no rule applied", `scenario: a URL no rule matches shows ${JSON.stringify(deciding[2])}`);

  // Selecting a verdict highlights its deciding line in the file view.
  let marked = await page.$$eval("#file li.highlight", (items) => items.map((li) => li.dataset.line));
  check(marked.length === 1 && marked[0] === "3", `scenario: highlighted lines ${JSON.stringify(marked)}, want ["3"]`);
  await page.click("#results tr.result:nth-child(2)");
  marked = await page.$$eval("#file li.highlight", (items) => items.map((li) => li.dataset.line));
  check(marked.length === 1 && marked[0] === "4", `scenario: after selecting row 2, highlighted ${JSON.stringify(marked)}, want ["4"]`);

  // The linter's finding about line 1, in the list and beside the line.
  const listed = await page.$$eval("#diagnostics li.diagnostic", (items) => items.map((li) => `${li.dataset.line}:${li.dataset.code}`));
  check(listed.includes("1:rule-outside-group"), `scenario: findings ${JSON.stringify(listed)} lack 1:rule-outside-group`);
  const beside = await page.$$eval('#file li[data-line="1"] .finding', (items) => items.map((f) => f.dataset.code));
  check(beside.includes("rule-outside-group"), `scenario: line 1 of the file view shows findings ${JSON.stringify(beside)}`);

  // Another crawler, typed into the agent field.
  const foo = await ask(page, robots, "FooBot", ["https://example.com/foo/bar", "https://example.com/private/x"]);
  check(foo.length === 2 && !foo[0].allowed && foo[0].line === 7 && foo[1].allowed && foo[1].line === 0,
    `scenario FooBot: got ${JSON.stringify(foo)}`);
}

// aiAudit checks the AI and search crawler section: the verdict of each
// crawler at the URL, its usage preferences, and the names Google's
// product-token rule reads differently.
async function aiAudit(page) {
  const robots = "User-agent: *\nAllow: /\nContent-Usage: train-ai=n\n\nUser-agent: GPTBot\nUser-agent: AI2Bot\nDisallow: /\n";
  await ask(page, robots, "Googlebot", ["https://example.com/"]);
  const rows = await page.$$eval("#audit-rows tr.audit-row", (trs) => Object.fromEntries(trs.map((tr) => {
    const cell = tr.querySelector("td[data-verdict]");
    return [tr.dataset.name, { verdict: cell.dataset.verdict, text: cell.textContent }];
  })));
  check(Object.keys(rows).length > 100, `audit: ${Object.keys(rows).length} crawler rows, want the whole list`);
  check(rows.GPTBot && rows.GPTBot.verdict === "disallowed" && rows.GPTBot.text.includes("line 7"),
    `audit: GPTBot row ${JSON.stringify(rows.GPTBot)}, want disallowed by line 7`);
  check(rows.ClaudeBot && rows.ClaudeBot.verdict === "allowed" && rows.ClaudeBot.text.includes("Content-Usage, line 3: train-ai=disallow"),
    `audit: ClaudeBot row ${JSON.stringify(rows.ClaudeBot)}, want allowed with Content-Usage, line 3: train-ai=disallow`);
  const restricts = await page.$$eval('#audit-rows tr[data-name="ClaudeBot"] .restricts', (e) => e.map((x) => x.textContent));
  check(JSON.stringify(restricts) === '["train-ai=disallow"]', `audit: ClaudeBot's preferences against its use ${JSON.stringify(restricts)}`);
  const tokens = await page.textContent("#audit-tokens");
  check(tokens.includes("AI2Bot as AI (line 6)") && tokens.includes("Crawl4AI as Crawl"), `audit: token note ${JSON.stringify(tokens)}`);
  const intro = await page.textContent("#audit-intro");
  check(intro.includes("1 Content-Usage/Content-Signal line.") && /named by a group of their own: .*GPTBot/.test(intro),
    `audit: intro ${JSON.stringify(intro)}`);
  // The cell shows the deciding rule as the file writes it.
  const gpt = await page.$eval('#audit-rows tr[data-name="GPTBot"] td.cell .rule', (e) => e.textContent);
  check(gpt === "line 7: Disallow: /", `audit: GPTBot's rule shown as ${JSON.stringify(gpt)}`);
  // The summary picture: one row per URL, a cell per purpose, with counts
  // and a sentence for screen readers.
  const matrix = await page.$$eval("#audit-matrix tbody td", (tds) => tds.map((td) => ({
    purpose: td.dataset.purpose, state: td.dataset.state, count: td.querySelector(".count").textContent,
    words: td.querySelector(".sr-only").textContent, bars: td.querySelectorAll(".bar .seg").length,
  })));
  const training = matrix.find((m) => m.purpose === "ai-training");
  check(matrix.length >= 4 && training && /^[1-9]\d*\/\d+$/.test(training.count) && training.state === "mixed" && training.bars === 2 &&
    /AI training at https:\/\/example\.com\/: [1-9]\d* of \d+ may not fetch, \d+ may fetch but are asked not to use it/.test(training.words),
    `audit: summary matrix ${JSON.stringify(matrix)}`);
  // draft-ietf-aipref-vocab-08's AI Use (ai-use, section 4.2) is shown
  // beside train-ai and search, and concerns AI input crawlers, not
  // training ones.
  await ask(page, "User-agent: *\nAllow: /\nContent-Usage: ai-use=n, search=y\n", "Googlebot", ["https://example.com/"]);
  const uses = await page.$$eval("#audit-rows tr.audit-row", (trs) => Object.fromEntries(trs
    .filter((tr) => tr.dataset.name === "ChatGPT-User" || tr.dataset.name === "ClaudeBot")
    .map((tr) => [tr.dataset.name, {
      state: tr.querySelector("td.cell").dataset.state,
      text: tr.querySelector("td.cell").textContent,
      restricts: [...tr.querySelectorAll(".restricts")].map((e) => e.textContent),
    }])));
  const chat = uses["ChatGPT-User"], claude = uses.ClaudeBot;
  check(chat && chat.state === "preference" && JSON.stringify(chat.restricts) === '["ai-use=disallow"]' &&
    chat.text.includes("Content-Usage, line 3: ai-use=disallow, search=allow"),
    `audit: ChatGPT-User (AI input) with ai-use=n: ${JSON.stringify(chat)}`);
  check(claude && claude.state === "allowed" && claude.restricts.length === 0,
    `audit: ClaudeBot (AI training) with ai-use=n: ${JSON.stringify(claude)}, want allowed, nothing against its use`);
  // The site's guard (package guard) follows a crawler's documented
  // fallback group where the verdict, asked by its token alone, does not:
  // Applebot obeys Googlebot's group when the file names Applebot nowhere.
  await ask(page, "User-agent: Googlebot\nDisallow: /x\n\nUser-agent: *\nAllow: /\n", "Googlebot", ["https://example.com/x"]);
  const guards = await page.$$eval("#audit-rows tr.audit-row", (trs) => Object.fromEntries(trs
    .filter((tr) => tr.querySelector(".guard"))
    .map((tr) => [tr.dataset.name, tr.querySelector(".guard").dataset.guard])));
  check(JSON.stringify(guards) === '{"Applebot":"refuses"}', `audit: the guard's differences ${JSON.stringify(guards)}, want Applebot refused`);
  console.log("audit: AI crawler section checked");
}

// served checks the files as the server sends them to Chromium.
async function served(page, url, wasmResponse) {
  check(wasmResponse !== null, "the page did not fetch robotstxt.wasm");
  if (wasmResponse) {
    const h = await wasmResponse.allHeaders();
    check(h["content-encoding"] === "gzip", `robotstxt.wasm: Content-Encoding ${JSON.stringify(h["content-encoding"])}, want gzip`);
    check(/accept-encoding/i.test(h["vary"] || ""), `robotstxt.wasm: Vary ${JSON.stringify(h["vary"])}`);
    check(h["content-type"] === "application/wasm", `robotstxt.wasm: Content-Type ${JSON.stringify(h["content-type"])}`);
    check(/^"[0-9a-f]+"$/.test(h["etag"] || ""), `robotstxt.wasm: ETag ${JSON.stringify(h["etag"])}`);
    check(/no-cache/.test(h["cache-control"] || ""), `robotstxt.wasm: Cache-Control ${JSON.stringify(h["cache-control"])}`);
  }
  const favicon = await page.evaluate(async () => {
    const r = await fetch("/favicon.ico");
    return { status: r.status, type: r.headers.get("content-type") };
  });
  check(favicon.status === 200 && favicon.type === "image/svg+xml", `favicon.ico: ${JSON.stringify(favicon)}`);
  const revalidated = await page.evaluate(async () => {
    const first = await fetch("robotstxt.wasm", { cache: "no-store" });
    const tag = first.headers.get("etag");
    await first.arrayBuffer();
    const again = await fetch("robotstxt.wasm", { cache: "no-store", headers: { "If-None-Match": tag } });
    return again.status;
  });
  check(revalidated === 304, `robotstxt.wasm with If-None-Match: status ${revalidated}, want 304`);
}

// lowContrast returns the visible elements matching sel whose text has
// less than 4.5:1 contrast with the background behind it (WCAG AA).
const lowContrast = (page, sel) => page.evaluate((sel) => {
  const rgb = (c) => (c.match(/[\d.]+/g) || []).map(Number);
  const lum = ([r, g, b]) => {
    const f = (v) => ((v /= 255) <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4);
    return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b);
  };
  const background = (e) => {
    for (; e; e = e.parentElement) {
      const c = rgb(getComputedStyle(e).backgroundColor);
      if (c.length === 3 || c[3] > 0) return c.slice(0, 3);
    }
    return [255, 255, 255];
  };
  return [...document.querySelectorAll(sel)].filter((e) => e.getClientRects().length > 0).map((e) => {
    const a = lum(rgb(getComputedStyle(e).color)), b = lum(background(e));
    return { what: `${e.className || e.tagName} "${e.textContent.slice(0, 20)}"`, ratio: (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05) };
  }).filter((x) => x.ratio < 4.5);
}, sel);

const activeRow = (page) => page.evaluate(() => {
  const a = document.activeElement;
  return a && a.matches("tr.result") ? Number(a.dataset.index) : (a ? a.tagName + "#" + a.id : "none");
});
const highlighted = (page) => page.$$eval("#file li.highlight", (items) => items.map((li) => Number(li.dataset.line)));

// keyboard uses the verdicts and the findings without a mouse.
async function keyboard(page) {
  const lines = ["User-agent: *", "Disallow: /a/", "Allow: /a/b/", "Disallow: /c"];
  for (let i = 0; i < 150; i++) lines.push(`# filler ${i}`);
  lines.push("Disallow: nowhere"); // line 155: path-not-absolute
  await ask(page, lines.join("\n") + "\n", "Googlebot", ["https://example.com/a/x", "https://example.com/a/b/y", "https://example.com/c"]);
  // The table is one tab stop after the Check button: the selected row.
  const was = await page.$eval("#results tr.selected", (r) => Number(r.dataset.index));
  await page.focus("#check");
  await page.keyboard.press("Tab");
  check(await activeRow(page) === was, `Tab from Check: focus on ${await activeRow(page)}, want the selected row ${was}`);
  await page.keyboard.press("Home");
  check(await activeRow(page) === 0 && JSON.stringify(await highlighted(page)) === "[2]", `Home: row ${await activeRow(page)}, highlighted ${JSON.stringify(await highlighted(page))}`);
  await page.keyboard.press("ArrowDown");
  check(await activeRow(page) === 1, `ArrowDown: focus on ${await activeRow(page)}, want row 1`);
  check(JSON.stringify(await highlighted(page)) === "[3]", `ArrowDown: highlighted ${JSON.stringify(await highlighted(page))}, want [3]`);
  await page.keyboard.press("Enter");
  check(await activeRow(page) === 1, `Enter: focus on ${await activeRow(page)}, want it to stay on row 1`);
  await page.waitForTimeout(300); // past the page's input debounce: a late re-check must not steal the focus
  check(await activeRow(page) === 1, `after a re-check: focus on ${await activeRow(page)}, want row 1`);
  const sel = await page.$$eval("#results tr.result", (rows) => rows.map((r) => r.getAttribute("aria-selected")));
  check(JSON.stringify(sel) === '["false","true","false"]', `Enter: aria-selected ${JSON.stringify(sel)}`);
  await page.keyboard.press("End");
  check(await activeRow(page) === 2 && JSON.stringify(await highlighted(page)) === "[4]", `End: row ${await activeRow(page)}, highlighted ${JSON.stringify(await highlighted(page))}`);
  await page.keyboard.press("ArrowDown"); // stays on the last row
  check(await activeRow(page) === 2, `ArrowDown on the last row: focus on ${await activeRow(page)}`);
  await page.keyboard.press("ArrowUp");
  await page.keyboard.press("ArrowUp");
  check(await activeRow(page) === 0 && JSON.stringify(await highlighted(page)) === "[2]", `ArrowUp twice: row ${await activeRow(page)}, highlighted ${JSON.stringify(await highlighted(page))}`);
  // Shift+Tab leaves the table; Tab comes back to the selected row.
  await page.keyboard.press("Shift+Tab");
  await page.keyboard.press("Tab");
  check(await activeRow(page) === 0, `Tab back into the table: focus on ${await activeRow(page)}, want the selected row 0`);

  // A finding's link, activated with Enter, jumps to its line, far down the file view.
  const link = '#diagnostics a.jump[data-line="155"]';
  check(await page.$(link) !== null, "no finding links to line 155");
  await page.focus(link);
  await page.keyboard.press("Enter");
  const jump = await page.evaluate(() => {
    const box = document.getElementById("file").getBoundingClientRect();
    const li = document.getElementById("line-155");
    const r = li.getBoundingClientRect();
    return {
      focused: document.activeElement === li, target: li.classList.contains("target"),
      visible: r.top >= box.top - 1 && r.bottom <= box.bottom + 1 && r.top >= 0 && r.bottom <= window.innerHeight,
    };
  });
  check(jump.focused && jump.target && jump.visible, `Enter on the finding for line 155: ${JSON.stringify(jump)}, want it focused, marked and scrolled into view`);
  // And with a click.
  await page.click('#diagnostics a.jump[data-line="155"]');
  check(await page.evaluate(() => document.activeElement.id) === "line-155", "clicking a finding does not jump to its line");
}

// phone checks the page at 375 px: the URL column is wide enough to read.
async function phone(page, url) {
  await page.setViewportSize({ width: 375, height: 800 });
  await page.goto(url);
  await page.waitForSelector("body[data-ready=true]");
  await page.waitForSelector("#results tr.result");
  await settled(page);
  const m = await page.evaluate(() => {
    const cells = [...document.querySelectorAll("#results td.url")];
    return {
      pageWidth: document.documentElement.scrollWidth,
      cells: cells.map((td) => {
        const range = document.createRange();
        range.selectNodeContents(td);
        const lines = new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size;
        return { chars: td.textContent.length, width: td.getBoundingClientRect().width, lines };
      }),
    };
  });
  check(m.pageWidth <= 375, `at 375 px the page is ${m.pageWidth} px wide (scrolls sideways)`);
  for (const c of m.cells) {
    // Before: 58 px, a line every five characters.
    check(c.width >= 250, `at 375 px a URL cell is ${c.width} px wide, want at least 250`);
    check(c.lines <= Math.ceil(c.chars / 30), `at 375 px a URL of ${c.chars} characters takes ${c.lines} lines`);
  }
  console.log(`375 px: URL cells ${m.cells.map((c) => `${Math.round(c.width)} px/${c.lines} line(s)`).join(", ")}`);
  // The URL box wraps a long URL rather than show its tail.
  const box = await page.evaluate(() => {
    const urls = document.querySelector("#urls");
    urls.value = "https://example.com/a/rather/long/path/to/some/page/that/goes/on/and/on.html?query=yes";
    urls.scrollLeft = urls.scrollWidth;
    return { scrollWidth: urls.scrollWidth, clientWidth: urls.clientWidth, scrollLeft: urls.scrollLeft };
  });
  check(box.scrollWidth <= box.clientWidth + 1 && box.scrollLeft === 0, `at 375 px the URL box scrolls sideways (${box.scrollWidth} px in ${box.clientWidth}, at ${box.scrollLeft}): a long URL shows only its tail`);
  // Each crawler of the audit is a card: its name keeps a readable width
  // (before: one letter a line), its notes stay in the panel.
  const a = await page.evaluate(() => {
    const box = (e) => e.getBoundingClientRect();
    const panel = box(document.querySelector(".audit-section .panel"));
    const past = (id) => [...document.querySelectorAll(`#${id}`)].some((e) => e.scrollWidth > e.clientWidth + 1 || box(e).right > panel.right + 1);
    return {
      nameWidth: Math.min(...[...document.querySelectorAll("#audit-rows th.crawler")].map((th) => box(th).width)),
      spills: ["audit-intro", "audit-tokens"].filter(past),
    };
  });
  check(a.nameWidth >= 250, `at 375 px an audit crawler card is ${a.nameWidth} px wide, want at least 250`);
  check(a.spills.length === 0, `at 375 px the audit notes ${a.spills.join(", ")} run past the panel`);
  console.log(`375 px: audit crawler cards ${Math.round(a.nameWidth)} px wide`);
  if (process.env.SCREENSHOT_PHONE) {
    await page.click("#results tr.result:last-child");
    await page.screenshot({ path: path.resolve(process.env.SCREENSHOT_PHONE), fullPage: true });
    console.log(`screenshot: ${process.env.SCREENSHOT_PHONE}`);
  }
  await page.setViewportSize({ width: 1280, height: 1000 });
}

// pastLimit checks a file longer than Google's 500 KiB limit whose
// Googlebot group lies past it.
async function pastLimit(page) {
  const filler = "# " + "x".repeat(97) + "\n"; // 100 bytes
  const head = "User-agent: *\nDisallow: /private/\n"; // 34 bytes, lines 1-2
  const robots = head + filler.repeat(5120) + "User-agent: Googlebot\nDisallow: /\n";
  const rows = await ask(page, robots, "Googlebot", ["https://example.com/private/x", "https://example.com/x"]);
  check(rows.length === 2 && !rows[0].allowed && rows[0].line === 2 && rows[1].allowed,
    `past the limit: the * group should answer, got ${JSON.stringify(rows)}`);
  const cutLine = 2 + Math.floor((512000 - 34) / 100) + 1; // 5122
  const groupLine = 2 + 5120 + 1; // 5123
  const note = await page.textContent("#agent-note");
  check(note.includes(`A group names Googlebot at line ${groupLine}`) && note.includes("Google never sees it"),
    `past the limit: the agent note says ${JSON.stringify(note)}`);
  check(!note.includes("No group names"), `past the limit: the note still says ${JSON.stringify(note)}`);
  const v = await page.evaluate((cutLine) => {
    const items = [...document.querySelectorAll("#file li")];
    const ignored = items.filter((li) => li.classList.contains("ignored")).map((li) => Number(li.dataset.line));
    const cut = document.getElementById(`line-${cutLine}`);
    const part = cut && cut.querySelector(".ignored-part");
    const grey = (node) => node && getComputedStyle(node).color;
    return {
      lines: items.length, first: ignored[0], count: ignored.length,
      kept: cut ? cut.querySelector(".text").firstChild.textContent : null,
      part: part ? part.textContent : null,
      note: cut ? cut.querySelector(".limit-note")?.textContent : null,
      limit: document.getElementById("limit").hidden ? null : document.getElementById("limit").textContent,
      greyIgnored: grey(items[items.length - 1].querySelector(".text")), normal: grey(items[0].querySelector(".text")),
    };
  }, cutLine);
  const keptLen = (512000 - 34) % 100; // 66
  check(v.lines === 5124 && v.first === cutLine + 1 && v.count === 5124 - cutLine,
    `past the limit: ${v.lines} lines, greyed from ${v.first} (${v.count}), want 5124 lines greyed from ${cutLine + 1}`);
  check(v.kept === filler.slice(0, keptLen) && v.part === filler.slice(keptLen, 99),
    `past the limit: line ${cutLine} split as ${JSON.stringify(v.kept)} + ${JSON.stringify(v.part)}`);
  check(/Google reads only the first 500 KiB/.test(v.note || "") && /Google reads only the first 500 KiB/.test(v.limit || ""),
    `past the limit: no explanation (${JSON.stringify(v.note)}, ${JSON.stringify(v.limit)})`);
  check(v.greyIgnored !== v.normal, `past the limit: ignored lines are coloured ${v.greyIgnored} like the rest`);
  // The audit warns that the file was cut.
  const warn = await page.$eval("#audit-truncated", (e) => (e.hidden ? null : e.textContent));
  check(warn && warn.includes("longer than 512,000 bytes"), `past the limit: the audit's warning is ${JSON.stringify(warn)}`);
  // The explanation's link jumps to the cut.
  await page.click("#limit a.jump");
  check(await page.evaluate(() => document.activeElement.id) === `line-${cutLine}`, "the size-limit note does not jump to the cut");
}

// agentWarning checks the warning for an agent that is not a product token.
async function agentWarning(page) {
  const robots = "User-agent: Googlebot\nDisallow: /\n\nUser-agent: *\nDisallow: /private/\n";
  for (const [agent, token] of [["Googlebot/2.1", "Googlebot"], ["Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)", "Googlebot"]]) {
    const rows = await ask(page, robots, agent, ["https://example.com/x"]);
    check(rows.length === 1 && rows[0].allowed, `agent ${agent}: the * group should answer, got ${JSON.stringify(rows)}`);
    const warning = await page.$eval("#agent-warning", (e) => e.textContent).catch(() => "");
    check(warning.includes("not a product token") && warning.includes(`"${token}"`) && warning.includes("* group answers"),
      `agent ${agent}: warning ${JSON.stringify(warning)}`);
  }
  await ask(page, robots, "Googlebot", ["https://example.com/x"]);
  check(await page.$("#agent-warning") === null, "agent Googlebot: a warning is shown");
}

// typing measures, at a 500 KiB file, how long a keystroke takes to reach
// the screen: from the keydown event's time stamp (when the browser
// received the key, before it waits for a busy page) to the first
// animation frame after the textarea's value holds it. Keys come 250 ms
// apart, past the page's input debounce, so that each lands while the
// previous edit is being checked, and are sent without waiting for the
// page to take the one before, so that a frozen page shows in full.
async function typing(page) {
  const robots = bigFile(500 * 1024);
  await page.fill("#agent", "Googlebot");
  await page.fill("#urls", "https://example.com/private/x\nhttps://example.com/x");
  await page.$eval("#robots", (box, text) => {
    box.value = text;
    box.dispatchEvent(new Event("input", { bubbles: true }));
  }, robots);
  await settled(page);
  const keys = "abcdefghij";
  await page.$eval("#robots", (box) => {
    box.focus();
    box.setSelectionRange(32, 32); // after "Disallow: /private"
    window.keyLatencies = [];
    window.longTasks = [];
    new PerformanceObserver((l) => window.longTasks.push(...l.getEntries().map((e) => `${Math.round(e.startTime)}+${Math.round(e.duration)}`))).observe({ type: "longtask" });
    // The input event follows the key's insertion: the next frame after
    // it is the first to show the key. The value is not read here, since
    // reading a 500 KiB textarea's value is work the page itself may
    // avoid; the text is checked once at the end.
    box.addEventListener("keydown", (e) => {
      if (e.key.length !== 1) return;
      box.addEventListener("input", () => requestAnimationFrame(() => {
        window.keyLatencies.push(performance.now() - e.timeStamp);
      }), { once: true });
    });
  });
  // A user pastes a file: an edit. Setting the value is not, and
  // Chromium's first edit after it costs 150-270 ms even in a page holding
  // nothing but the textarea; one key typed and deleted stands for the paste.
  await page.keyboard.press("z");
  await page.keyboard.press("Backspace");
  await settled(page);
  await page.keyboard.press("z");
  await page.keyboard.press("Backspace");
  // While the worker checks, the page says so.
  const shown = await page.waitForFunction(() => document.body.dataset.busy &&
    getComputedStyle(document.querySelector(".busy-indicator")).opacity === "1", null, { timeout: 5000 }).then(() => true, () => false);
  check(shown, "typing: no visible \"checking…\" while a 500 KiB file is checked");
  await settled(page);
  // The machine may be shared: a run with a keystroke over the bound is
  // measured again, up to three runs, and every run is reported. The page before the
  // worker failed every run: median 1,522-1,675 ms, max 2,530-2,685 ms.
  const shareBefore = cpuShare();
  let typed = "", max = Infinity;
  for (let run = 1; run <= 3 && max >= 100; run++) {
    await page.evaluate(() => { window.keyLatencies = []; window.longTasks = []; });
    // A typist does not wait for the page: a key every 250 ms, each sent
    // without waiting for the page to take the one before.
    const presses = [];
    for (const k of keys) {
      presses.push(page.keyboard.press(k));
      await new Promise((r) => setTimeout(r, 250));
    }
    await Promise.all(presses);
    typed += keys;
    await settled(page);
    const lat = await page.evaluate(() => window.keyLatencies);
    const tasks = await page.evaluate(() => window.longTasks.join(" "));
    check(lat.length === keys.length, `typing: ${lat.length} keystrokes measured, want ${keys.length}`);
    const sorted = [...lat].sort((a, b) => a - b);
    max = sorted[sorted.length - 1];
    const median = sorted[Math.floor(sorted.length / 2)];
    console.log(`typing at ${robots.length} bytes, run ${run}: keystroke to frame median ${median.toFixed(1)} ms, max ${max.toFixed(1)} ms ` +
      `(${lat.map((x) => Math.round(x)).join(", ")}); long tasks (start+ms): ${tasks || "none"}`);
  }
  // A worker still on a stale question after stuckMs is replaced; the page
  // then shows the answer to the newest edit. Each key is pressed once the
  // page has asked about the one before (a job runs), so that the next
  // question comes while that job, hundreds of milliseconds on this file,
  // is still running: keys typed on a timer alone can fall within one
  // debounce when the page is busy, and then no job is ever stale.
  await page.evaluate(() => { robotstxtEngine.stuckMs = 0; });
  for (let attempt = 0; attempt < 3; attempt++) {
    for (const k of "xyz") {
      const asked = await page.evaluate(() => robotstxtEngine.running ? robotstxtEngine.running.seq : -1);
      await page.keyboard.type(k);
      await page.waitForFunction((seq) => robotstxtEngine.running !== null && robotstxtEngine.running.seq !== seq,
        asked, { timeout: 10_000, polling: 5 }).catch(() => {});
    }
    typed += "xyz";
    await settled(page);
    if (await page.evaluate(() => robotstxtEngine.restarts > 0)) break;
  }
  const after = await page.evaluate(() => ({
    restarts: robotstxtEngine.restarts, shown: document.querySelector("#line-2 .text").textContent,
    written: document.getElementById("robots").value.split("\n")[1], status: document.getElementById("status").textContent,
  }));
  check(after.restarts > 0 && after.shown === after.written, `a stuck worker: ${JSON.stringify(after)}, want a restart and line 2 shown as written`);
  await page.evaluate(() => { robotstxtEngine.stuckMs = 1000; });
  const e = await page.evaluate(() => ({ dropped: robotstxtEngine.dropped, restarts: robotstxtEngine.restarts }));
  console.log(`typing: the engine dropped ${e.dropped} stale answers and restarted ${e.restarts} stuck workers`);
  const text = await page.$eval("#robots", (box) => box.value.slice(0, 200));
  check(text.startsWith("User-agent: *\nDisallow: /private" + typed + "/"), `typing: the file begins ${JSON.stringify(text)}`);
  // A site owner replacing the file selects it all first: Ctrl+A in the box
  // holding 500 KiB, from the key to the frame that shows the selection.
  // It took 35-40 s while the file view left its chunks to
  // content-visibility: auto, which a selection makes Chromium lay out.
  await page.$eval("#robots", (box) => {
    box.focus();
    window.selectAllMs = -1;
    const onKey = (e) => {
      if (e.code !== "KeyA" || !(e.ctrlKey || e.metaKey)) return; // Control's own keydown comes first
      box.removeEventListener("keydown", onKey);
      requestAnimationFrame(() => { window.selectAllMs = performance.now() - e.timeStamp; });
    };
    box.addEventListener("keydown", onKey);
  });
  await page.keyboard.press("Control+A");
  await page.waitForFunction(() => window.selectAllMs >= 0, null, { timeout: 60_000 });
  const selectAll = await page.evaluate(() => ({ ms: window.selectAllMs, selected: document.getElementById("robots").selectionEnd - document.getElementById("robots").selectionStart }));
  console.log(`select all at ${robots.length} bytes: ${selectAll.ms.toFixed(1)} ms to the frame, ${selectAll.selected} characters selected`);
  check(selectAll.selected === robots.length + typed.length, `select all: ${selectAll.selected} characters selected, want ${robots.length + typed.length}`);
  // The file view draws only the chunks of lines near its view: scrolled to
  // the end, the last line is drawn (has a box) and the first is not.
  const drawn = await page.evaluate(() => new Promise((resolve) => {
    const file = document.getElementById("file");
    file.scrollTop = file.scrollHeight;
    const look = () => {
      const items = file.querySelectorAll("li[data-line]");
      resolve({ last: items[items.length - 1].getBoundingClientRect().height, first: items[0].getBoundingClientRect().height, chunks: file.children.length });
    };
    requestAnimationFrame(() => requestAnimationFrame(() => requestAnimationFrame(look)));
  }));
  check(drawn.last > 0 && drawn.first === 0 && drawn.chunks > 2, `file view scrolled to the end: ${JSON.stringify(drawn)}, want the last line drawn and the first not`);
  await page.evaluate(() => { document.getElementById("file").scrollTop = 0; });
  // The bound is for this machine when the test has it to itself. On a
  // machine other work is loading, the page gets a fraction of a CPU and
  // no main-thread work fits a fixed bound: that is measured (cpuShare)
  // and reported loudly instead of failing.
  const share = Math.min(shareBefore, cpuShare());
  if (max >= 100 && share < 0.6) {
    console.log(`########################################################################
##  THE 100 ms KEYSTROKE BOUND WAS NOT ENFORCED: other work is loading
##  this machine (this process got ${Math.round(share * 100)} % of a CPU in a busy loop
##  before or after the typing);
##  the keystroke times above are reported, not judged.
########################################################################`);
  } else {
    check(max < 100, `typing at 500 KiB: a keystroke took ${max.toFixed(1)} ms to reach the screen, want < 100 ms (the test had ${Math.round(share * 100)} % of a CPU)`);
    // An empty page takes 115-150 ms for this selection in Chromium 156.
    check(selectAll.ms < 500, `select all at 500 KiB took ${selectAll.ms.toFixed(1)} ms to reach the screen, want < 500 ms (the test had ${Math.round(share * 100)} % of a CPU)`);
  }
}

// cpuShare spins for 300 ms of wall time and returns the share of one CPU
// this process got meanwhile: near 1 on a machine the test has to itself,
// far less when other work competes for the CPUs.
function cpuShare() {
  const start = process.hrtime.bigint(), used = process.cpuUsage();
  while (process.hrtime.bigint() - start < 300_000_000n) { /* spin */ }
  const cpu = process.cpuUsage(used);
  return (cpu.user + cpu.system) / 1e3 / 300;
}

// bigFile returns a robots.txt file of about size bytes that reads like
// the largest real ones: hundreds of groups of rules with wildcards, crawl
// delays, sitemaps and some lines the linter flags. Its first lines are
// "User-agent: *" and "Disallow: /private/".
function bigFile(size) {
  const lines = ["User-agent: *", "Disallow: /private/"];
  let bytes = 34;
  for (let g = 0; bytes < size; g++) {
    const group = [
      "", `# section ${g}`, `User-agent: crawler-${g}`, `User-agent: Crawler${g}Bot/1.0`,
      `Disallow: /catalog-${g}/*?sort=`, `Disallow: /catalog-${g}/*&filter=*$`, `Allow: /catalog-${g}/public/`,
      `Disallow: /*.pdf$`, `Disallow: /search-${g}?q=*`, `Allow: /search-${g}/about`, `Disallowed: /typo-${g}/`,
      `Disallow: nowhere-${g}`, `Crawl-delay: ${g % 10}`, `Content-Usage: train-ai=n`,
      `Sitemap: https://example.com/sitemap-${g}.xml`,
    ];
    for (const l of group) {
      lines.push(l);
      bytes += l.length + 1;
    }
  }
  return lines.join("\n") + "\n";
}

// settled waits until the page has answered the current input: no check
// is pending or running.
async function settled(page) {
  await page.waitForFunction(() => !document.body.dataset.busy, null, { timeout: 60_000 });
}

// auditOrder checks the crawler table's order and its filter and sort
// controls, keyboard only.
async function auditOrder(page) {
  const robots = "User-agent: *\nAllow: /\nContent-Signal: ai-train=no\n\nUser-agent: GPTBot\nUser-agent: Bingbot\nDisallow: /private/\n\nLicense: https://example.com/license.xml\n";
  await ask(page, robots, "Googlebot", ["https://example.com/", "https://example.com/private/x"]);
  const rows = () => page.$$eval("#audit-rows tr.audit-row", (trs) => trs.map((tr) => ({
    name: tr.dataset.name, purpose: tr.dataset.purpose, specific: tr.dataset.specific === "true",
    verdicts: [...tr.querySelectorAll("td.cell")].map((td) => td.dataset.verdict),
  })));
  const purposeOrder = ["ai-training", "ai-input", "ai-search", "ai-other", "search"];
  let r = await rows();
  // Own group first (GPTBot and Bingbot, a search crawler), then by purpose.
  const own = r.filter((x) => x.specific).map((x) => x.name);
  check(JSON.stringify(own) === '["GPTBot","bingbot"]' || JSON.stringify(own.map((n) => n.toLowerCase()).sort()) === '["bingbot","gptbot"]',
    `audit order: crawlers with their own group ${JSON.stringify(own)}, want GPTBot and Bingbot`);
  check(r.slice(0, own.length).every((x) => x.specific), `audit order: own groups not first: ${JSON.stringify(r.slice(0, 4))}`);
  const ranks = r.slice(own.length).map((x) => purposeOrder.indexOf(x.purpose));
  check(ranks.every((k, i) => i === 0 || ranks[i - 1] <= k), "audit order: the other crawlers are not in purpose order");
  check(r[0].purpose === "ai-training" && r[1].purpose === "search", `audit order: ${JSON.stringify(r.slice(0, 2))}`);
  // Licences and no truncation warning.
  const lic = await page.$$eval("#audit-license-list a", (as) => as.map((a) => a.href));
  check(JSON.stringify(lic) === '["https://example.com/license.xml"]', `audit: licence links ${JSON.stringify(lic)}`);
  check(await page.$eval("#audit-truncated", (e) => e.hidden), "audit: a truncation warning on a short file");

  // Filter by name, typed.
  await page.focus("#audit-filter");
  await page.keyboard.type("bot");
  await settled(page);
  r = await rows();
  check(r.length > 10 && r.every((x) => x.name.toLowerCase().includes("bot")), `filter "bot": ${r.length} rows, some without "bot"`);
  const count = await page.textContent("#audit-count");
  check(count === `Showing ${r.length} of 168 crawlers.`, `filter "bot": count ${JSON.stringify(count)}`);
  await page.fill("#audit-filter", "");
  // Purpose chips: Tab to them, Space toggles; only Search left pressed.
  for (const p of ["ai-training", "ai-input", "ai-search", "ai-other"]) {
    await page.focus(`#audit-purposes button[data-purpose="${p}"]`);
    await page.keyboard.press("Space");
  }
  r = await rows();
  const pressed = await page.$$eval("#audit-purposes button", (bs) => bs.map((b) => `${b.dataset.purpose}:${b.getAttribute("aria-pressed")}`));
  check(r.length > 0 && r.every((x) => x.purpose === "search"), `chips: ${JSON.stringify(pressed)} show ${JSON.stringify(r.map((x) => x.purpose))}`);
  for (const p of ["ai-training", "ai-input", "ai-search", "ai-other"]) await page.click(`#audit-purposes button[data-purpose="${p}"]`);
  // Only blocked, only allowed.
  await page.check('input[name="audit-show"][value="blocked"]');
  r = await rows();
  check(r.length === 2 && r.every((x) => x.specific && JSON.stringify(x.verdicts) === '["allowed","disallowed"]'), `only blocked: ${JSON.stringify(r)}`);
  await page.check('input[name="audit-show"][value="allowed"]');
  r = await rows();
  check(r.length === 166 && r.every((x) => !x.verdicts.includes("disallowed")), `only allowed: ${r.length} rows, want 166`);
  await page.check('input[name="audit-show"][value="all"]');
  // Sort by name, chosen with the keyboard.
  await page.selectOption("#audit-sort", "name");
  r = await rows();
  const names = r.map((x) => x.name);
  const sorted = [...names].sort((a, b) => a.localeCompare(b, "en", { sensitivity: "base" }));
  check(r.length === 168 && JSON.stringify(names) === JSON.stringify(sorted), "sort by name: not sorted");
  await page.selectOption("#audit-sort", "blocked");
  r = await rows();
  const blocked = r.map((x) => x.verdicts.filter((v) => v === "disallowed").length);
  check(blocked.every((b, i) => i === 0 || blocked[i - 1] >= b) && blocked[1] === 1 && blocked[2] === 0, `sort by most blocked: ${JSON.stringify(blocked.slice(0, 5))}`);
  await page.selectOption("#audit-sort", "group");
  console.log(`audit: own groups first (${own.join(", ")}), then by purpose; filter, chips, only blocked/allowed and sort checked`);
}

// layout checks the page at one size: no sideways scrolling, no verdict
// cut or spilling out of its cell, header rows of normal height, and
// saves screenshots (web/e2e/artifacts/) of the page and the audit.
async function layout(page, url, width, height) {
  await page.setViewportSize({ width, height });
  await page.goto(url);
  await page.waitForSelector("body[data-ready=true]");
  await settled(page);
  await page.click("#results tr.result:last-child");
  const m = await page.evaluate(() => {
    const se = document.scrollingElement;
    const verdicts = [...document.querySelectorAll(".verdict")].filter((v) => v.getClientRects().length > 0);
    const cut = verdicts.filter((v) => {
      const cell = v.closest("td, th, li") || v.parentElement;
      return v.scrollWidth > v.clientWidth + 0.5 || v.getBoundingClientRect().right > cell.getBoundingClientRect().right + 0.5 ||
        v.getClientRects().length > 1;
    }).map((v) => `${v.closest("tr")?.dataset.name || ""} ${v.textContent} ${v.scrollWidth}/${v.clientWidth}`);
    // A phone's visually hidden header (cards instead of rows) is 1 px.
    const heads = [...document.querySelectorAll("thead tr")].filter((tr) => tr.closest("thead").getBoundingClientRect().height > 1)
      .map((tr) => ({ table: tr.closest("table").id, height: tr.getBoundingClientRect().height }));
    return { scrollWidth: se.scrollWidth, innerWidth: window.innerWidth, verdicts: verdicts.length, cut, heads };
  });
  // Text contrast of the audit and the verdicts: at least 4.5:1 (WCAG AA).
  const low = await lowContrast(page, ".verdict, #audit .rule, #audit .usage, #audit .restricts, #audit .badge, #audit .read-as, #audit td.purpose, .matrix .count, .chip, .note, .legend li, #audit-count, label, legend");
  check(low.length === 0, `${width}x${height}: text below 4.5:1 contrast: ${low.slice(0, 5).map((x) => `${x.what} ${x.ratio.toFixed(2)}`).join("; ")}`);
  check(m.scrollWidth <= m.innerWidth, `${width}x${height}: the page is ${m.scrollWidth} px wide in a ${m.innerWidth} px window`);
  check(m.verdicts > 100, `${width}x${height}: only ${m.verdicts} verdicts shown`);
  check(m.cut.length === 0, `${width}x${height}: verdicts cut or spilling: ${m.cut.slice(0, 5).join("; ")}`);
  for (const h of m.heads) check(h.height < 60, `${width}x${height}: the header row of #${h.table} is ${Math.round(h.height)} px high`);
  if (width >= 1000) {
    // A short deciding rule keeps to one line at desktop width (before:
    // "line 11: disallow: /search" took three).
    const rules = await page.evaluate(() => [...document.querySelectorAll("#results td.decider .rule:not(.long)")].map((r) => ({
      text: r.textContent, lines: new Set([...r.getClientRects()].map((x) => Math.round(x.top))).size,
    })));
    check(rules.length > 0, `${width}x${height}: no deciding rule shown`);
    for (const r of rules) check(r.lines === 1, `${width}x${height}: the deciding rule "${r.text}" takes ${r.lines} lines`);
  }
  console.log(`${width}x${height}: page ${m.scrollWidth} px wide, ${m.verdicts} verdicts none cut, header rows ${m.heads.map((h) => `#${h.table} ${Math.round(h.height)} px`).join(", ") || "hidden (cards)"}`);
  const dir = path.join(here, "artifacts");
  fs.mkdirSync(dir, { recursive: true });
  const shots = [[`page-${width}.png`, () => page.screenshot({ path: path.join(dir, `page-${width}.png`), fullPage: true })],
    [`audit-${width}.png`, () => page.locator("#audit-panel").screenshot({ path: path.join(dir, `audit-${width}.png`) })]];
  if (width === 1280) {
    // The README's picture of the tester: the page down to the audit.
    const bottom = await page.evaluate(() => document.querySelector(".audit-section").getBoundingClientRect().top + window.scrollY);
    shots.push(["tester-1280.png", () => page.screenshot({ path: path.join(dir, "tester-1280.png"), fullPage: true, clip: { x: 0, y: 0, width, height: bottom } })]);
  }
  for (const [, take] of shots) await take();
  console.log(`screenshots: ${shots.map(([n]) => path.join("web/e2e/artifacts", n)).join(", ")}`);
  if (process.env.UPDATE_SCREENSHOTS && width === 1280) {
    fs.copyFileSync(path.join(dir, "tester-1280.png"), path.join(root, "web", "screenshot.png"));
    fs.copyFileSync(path.join(dir, "audit-1280.png"), path.join(root, "web", "audit-screenshot.png"));
    console.log("screenshots: web/screenshot.png and web/audit-screenshot.png refreshed");
  }
}

// compareSettled waits until the compare view has answered the versions
// in its editors: no diff or witness is pending or running.
async function compareSettled(page, timeout = 60_000) {
  await page.waitForFunction(() => robotstxtCompare.engine && robotstxtCompare.log.length > 0 &&
    !document.getElementById("compare-view").dataset.busy, null, { timeout });
}

// setVersions puts two versions into the compare view's editors, as a
// paste does, and waits for the comparison.
async function setVersions(page, old, now) {
  await page.evaluate(([old, now]) => {
    for (const [id, text] of [["old", old], ["new", now]]) {
      const box = document.getElementById(id);
      box.value = text;
      box.dispatchEvent(new Event("input", { bubbles: true }));
    }
  }, [old, now]);
  await compareSettled(page);
}

// markedLines returns the line numbers an editor marks with cls.
const markedLines = (page, id, cls) => page.$$eval(`#${id}-editor .mark.${cls}`, (ms) => ms.flatMap((m) =>
  Array.from({ length: Number(m.dataset.lines) }, (_, i) => Number(m.dataset.line) + i)).sort((a, b) => a - b));

// compareView checks the compare view (#compare) at one window size: a
// Disallow added for Googlebot is listed for Googlebot alone, with its
// witness; selecting the witness tests it on both versions (verdicts and
// deciding lines, the deciding line marked); the changed lines are marked
// behind the right lines of each editor; the other changes are listed;
// the editors stand side by side on a desktop and stacked on a phone, the
// page does not scroll sideways, and its text has 4.5:1 contrast; "Start
// from the tester's file" puts it into both versions.
async function compareView(page, url, width, height) {
  await page.setViewportSize({ width, height });
  if (width >= 1000) {
    // From the tester, by its tab, and back.
    await page.goto(url);
    await page.waitForSelector("body[data-ready=true]");
    await page.click("#view-compare");
    await compareSettled(page);
    const shown = await page.evaluate(() => [document.getElementById("tester-view").hidden, document.getElementById("compare-view").hidden,
      document.getElementById("view-compare").getAttribute("aria-current")]);
    check(JSON.stringify(shown) === JSON.stringify([true, false, "page"]), `compare: the tab did not show the compare view: ${JSON.stringify(shown)}`);
    await page.click("#view-test");
    // The views follow the hash (a hashchange event after the click), so
    // the tester is waited for; the check says what was seen if it never
    // shows.
    await page.waitForFunction(() => !document.getElementById("tester-view").hidden, null, { timeout: 5000 }).catch(() => {});
    const back = await page.evaluate(() => [document.getElementById("tester-view").hidden, document.getElementById("compare-view").hidden]);
    check(JSON.stringify(back) === JSON.stringify([false, true]), `compare: the tab did not show the tester again: ${JSON.stringify(back)}`);
  }
  await page.goto(url + "#compare");
  await page.waitForSelector("body[data-ready=true]");
  await compareSettled(page);
  const old = "User-agent: *\nDisallow: /tmp/\n\nUser-agent: Googlebot\nDisallow: /search\n";
  const now = "User-agent: *\nDisallow: /tmp/\n\nUser-agent: Googlebot\nDisallow: /search\nDisallow: /private/\n\nSitemap: https://example.com/sitemap.xml\n";
  await setVersions(page, old, now);
  const cards = await page.$$eval("#compare-crawlers .crawler-card", (cs) => cs.map((c) => ({
    agents: c.dataset.agents, decided: c.dataset.decided, title: c.querySelector("h3").textContent,
    changes: [...c.querySelectorAll("li.change")].map((li) => ({
      path: li.dataset.path, old: li.dataset.old, now: li.dataset.new,
      witness: li.querySelector("button.witness").dataset.url, rules: li.querySelector(".rules").textContent,
    })),
  })));
  const want = [{
    agents: "Googlebot", decided: "true", title: "Googlebot (search)",
    changes: [{ path: "/private/", old: "allowed", now: "disallowed", witness: "/private/", rules: "old: no rule appliednew: line 6 Disallow: /private/" }],
  }];
  check(JSON.stringify(cards) === JSON.stringify(want), `compare ${width}: changes ${JSON.stringify(cards)}, want ${JSON.stringify(want)}`);
  const unchanged = await page.textContent("#compare-unchanged");
  check(unchanged.includes("every other crawler"), `compare ${width}: every other crawler not said unchanged: ${JSON.stringify(unchanged)}`);
  const other = await page.$$eval("#compare-other li", (ls) => ls.map((l) => `${l.dataset.kind}: ${l.querySelector("code").textContent}`));
  check(JSON.stringify(other) === JSON.stringify(["sitemap-added: https://example.com/sitemap.xml"]),
    `compare ${width}: other changes ${JSON.stringify(other)}`);
  // The marks: nothing removed; lines 6-8 of the new version added, each
  // band level with its line of text.
  const marks = { old: await markedLines(page, "old", "removed"), now: await markedLines(page, "new", "added") };
  check(JSON.stringify(marks) === JSON.stringify({ old: [], now: [6, 7, 8] }), `compare ${width}: marked lines ${JSON.stringify(marks)}, want none in old and 6-8 in new`);
  const level = await page.evaluate(() => {
    const box = document.getElementById("new"), band = document.querySelector('#new-editor .mark.added[data-line="6"]');
    const style = getComputedStyle(box);
    const firstLine = box.getBoundingClientRect().top + parseFloat(style.borderTopWidth) + parseFloat(style.paddingTop);
    return { offset: band.getBoundingClientRect().top - firstLine, height: band.getBoundingClientRect().height, lineHeight: parseFloat(style.lineHeight) };
  });
  check(Math.abs(level.offset - 5 * level.lineHeight) < 1.5 && Math.abs(level.height - 3 * level.lineHeight) < 1.5,
    `compare ${width}: the band of lines 6-8 is ${level.offset.toFixed(1)} px below the first line and ${level.height} px high, want ${5 * level.lineHeight} and ${3 * level.lineHeight}`);
  // The witness, tested on both versions.
  await page.click('#compare-crawlers button.witness[data-url="/private/"]');
  await page.waitForSelector("#witness-table tr.witness-row");
  await compareSettled(page);
  const rows = await page.$$eval("#witness-table tr.witness-row", (rs) => rs.map((r) => `${r.dataset.side} ${r.dataset.verdict} ${r.dataset.line} ${r.querySelector(".decider").textContent}`));
  const wantRows = ["old allowed 0 no rule applieda group names Googlebot", "new disallowed 6 line 6: Disallow: /private/a group names Googlebot"];
  check(JSON.stringify(rows) === JSON.stringify(wantRows), `compare ${width}: the witness on both versions ${JSON.stringify(rows)}, want ${JSON.stringify(wantRows)}`);
  if (width >= 1000) {
    // By keyboard: another URL typed into the form and Enter.
    await page.fill("#witness-url", "/search/x");
    await page.focus("#witness-url");
    await page.keyboard.press("Enter");
    await page.waitForFunction(() => document.querySelector("#witness-result code").textContent === "/search/x");
    const byKey = await page.$$eval("#witness-table tr.witness-row", (rs) => rs.map((r) => `${r.dataset.side} ${r.dataset.verdict} ${r.dataset.line}`));
    check(JSON.stringify(byKey) === JSON.stringify(["old disallowed 5", "new disallowed 5"]), `compare: /search/x tested by keyboard: ${JSON.stringify(byKey)}`);
    // Tab to the witness and Enter.
    await page.focus("#compare-crawlers button.witness");
    await page.keyboard.press("Enter");
    await page.waitForFunction(() => document.querySelector("#witness-result code").textContent === "/private/");
    await compareSettled(page);
  }
  const deciding = { old: await markedLines(page, "old", "decides"), now: await markedLines(page, "new", "decides") };
  check(JSON.stringify(deciding) === JSON.stringify({ old: [], now: [6] }), `compare ${width}: deciding lines marked ${JSON.stringify(deciding)}, want new line 6`);
  const inView = await page.evaluate(() => {
    const r = document.getElementById("witness-table").getBoundingClientRect();
    return { ok: r.top >= -1 && r.bottom <= innerHeight + 1, top: r.top, bottom: r.bottom, innerHeight, scrollY };
  });
  check(inView.ok, `compare ${width}: the witness's answer is not in view after selecting it: ${JSON.stringify(inView)}`);
  // The layout.
  const m = await page.evaluate(() => {
    const o = document.getElementById("old").getBoundingClientRect(), n = document.getElementById("new").getBoundingClientRect();
    const spill = [...document.querySelectorAll("#compare-view button.witness, #compare-view .rules, #witness-table")].filter((e) => {
      const r = e.getBoundingClientRect(), p = e.closest(".panel").getBoundingClientRect();
      return r.right > p.right + 0.5;
    }).map((e) => e.className || e.id);
    return { scrollWidth: document.documentElement.scrollWidth, innerWidth, side: o.top === n.top && o.right <= n.left, stacked: n.top >= o.bottom, spill };
  });
  check(m.scrollWidth <= m.innerWidth, `compare ${width}: the page is ${m.scrollWidth} px wide in a ${m.innerWidth} px window`);
  check(width >= 1000 ? m.side : m.stacked, `compare ${width}: the editors are not ${width >= 1000 ? "side by side" : "stacked"}: ${JSON.stringify(m)}`);
  check(m.spill.length === 0, `compare ${width}: spilling out of their panel: ${m.spill.join(", ")}`);
  const low = await lowContrast(page, "#compare-view .verdict, #compare-view .note, .class-desc, .rules, button.witness, .view-tab, #compare-view label, #witness-table .group, .other-changes li");
  check(low.length === 0, `compare ${width}: text below 4.5:1 contrast: ${low.slice(0, 5).map((x) => `${x.what} ${x.ratio.toFixed(2)}`).join("; ")}`);
  const dir = path.join(here, "artifacts");
  fs.mkdirSync(dir, { recursive: true });
  const shot = path.join(dir, `compare-${width}.png`);
  await page.screenshot({ path: shot, fullPage: true });
  // "Start from the tester's file": both versions the tester's file, no
  // change for any crawler.
  await page.click("#compare-from-tester");
  await compareSettled(page);
  const from = await page.evaluate(() => ({
    same: document.getElementById("old").value === document.getElementById("robots").value &&
      document.getElementById("new").value === document.getElementById("robots").value,
    cards: document.querySelectorAll("#compare-crawlers .crawler-card").length,
    summary: document.getElementById("compare-summary").textContent,
  }));
  check(from.same && from.cards === 0 && from.summary.startsWith("No crawler's verdicts change"), `compare ${width}: from the tester's file: ${JSON.stringify(from)}`);
  if (width >= 1000) {
    // The rest of the file: a crawl-delay on the crawler's card, an agent
    // newly named, a line newly ignored (a misspelt key).
    await setVersions(page, "User-agent: *\nDisallow: /a\n", "User-agent: *\nDisallow: /a\nCrawl-delay: 5\nFoo: bar\n\nUser-agent: Bingbot\nDisallow: /a\n");
    const rest = await page.evaluate(() => ({
      cards: [...document.querySelectorAll("#compare-crawlers .crawler-card")].map((c) => `${c.dataset.agents}: ${[...c.querySelectorAll("li")].map((l) => l.textContent).join("; ")}`),
      other: [...document.querySelectorAll("#compare-other li")].map((l) => `${l.dataset.kind}: ${l.textContent}`),
    }));
    const wantRest = {
      cards: ["*: crawl-delay: none → 5 s"],
      other: ["agents-named: Agents now named by a group: Bingbot", 'line-new: New finding, new line 4 [unknown-key]: unknown key "Foo"; Google ignores the line: Foo: bar'],
    };
    check(JSON.stringify(rest) === JSON.stringify(wantRest), `compare: the rest of the file ${JSON.stringify(rest)}, want ${JSON.stringify(wantRest)}`);
    // AI usage preferences per class of paths (Content-Usage lines,
    // draft-ietf-aipref-attach-05 section 3.1: the longest matching path
    // applies): only /news/ changes, and its witness is listed.
    await setVersions(page, "User-agent: *\nContent-Usage: train-ai=n\nContent-Usage: /news/ train-ai=y\n",
      "User-agent: *\nContent-Usage: train-ai=n\nContent-Usage: /news/ train-ai=n\n");
    const usage = await page.evaluate(() => [...document.querySelectorAll("#compare-crawlers .crawler-card li.usage-change")].map((l) => `${l.dataset.path}: ${l.textContent}`));
    const wantUsage = ["/news/: AI usage at /news/: train-ai: allow → disallowpaths matching /news/ that both versions let it fetch"];
    check(JSON.stringify(usage) === JSON.stringify(wantUsage), `compare: AI usage changes ${JSON.stringify(usage)}, want ${JSON.stringify(wantUsage)}`);
  }
  console.log(`compare ${width}x${height}: Googlebot's /private/ listed and tested on both versions, lines 6-8 marked, page ${m.scrollWidth} px wide; screenshot ${path.relative(root, shot)}`);
  if (process.env.UPDATE_SCREENSHOTS && width === 1280) {
    fs.copyFileSync(shot, path.join(root, "web", "compare-screenshot.png"));
    console.log("screenshots: web/compare-screenshot.png refreshed");
  }
}

// hostileFile returns about 485 KB of robots.txt (within the 500 KiB
// Google reads): 27,000 wildcard rules over a small alphabet, which
// exhaust the diff's work budget.
function hostileFile(seed) {
  let x = seed >>> 0;
  const next = (n) => { // mulberry32
    x = (x + 0x6d2b79f5) >>> 0;
    let t = x;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (((t ^ (t >>> 14)) >>> 0) % n);
  };
  const letters = "abcdefgh", lines = ["User-agent: *"];
  for (let i = 0; i < 27000; i++) {
    let p = "/";
    for (let j = 0; j < 3; j++) p += letters[next(8)] + "*";
    p += letters[next(8)] + (next(2) ? "$" : "");
    lines.push(`${next(2) ? "Disallow" : "Allow"}: ${p}`);
  }
  return lines.join("\n") + "\n";
}

// compareTyping types into the new version while hostile diffs run (two
// files of 32,000 wildcard rules: each diff takes the worker a second or
// more): each keystroke reaches the screen promptly (keydown to frame, as
// typing measures it), no diff of a version no longer in the editors is
// drawn, the newest edit's diff is shown in the end, and the crawlers the
// budget did not decide are shown as not decided.
async function compareTyping(page, url) {
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto(url + "#compare");
  await page.waitForSelector("body[data-ready=true]");
  await compareSettled(page);
  const old = hostileFile(1), now = hostileFile(2);
  const t0 = Date.now();
  await setVersions(page, old, now);
  const first = await page.evaluate(() => robotstxtCompare.log[robotstxtCompare.log.length - 1]);
  console.log(`compare: the hostile pair (${old.length} and ${now.length} bytes) compared in ${Math.round(first.ms)} ms in the worker, ${Date.now() - t0} ms to the page`);
  const undecided = await page.$$eval('#compare-crawlers .crawler-card[data-decided="false"]', (cs) => cs.map((c) => `${c.dataset.agents}: ${c.querySelector(".badge").textContent}`));
  check(JSON.stringify(undecided) === JSON.stringify(["*: not decided"]), `compare: the hostile pair's undecided crawlers ${JSON.stringify(undecided)}, want * not decided`);
  await page.evaluate(() => {
    const box = document.getElementById("new");
    box.focus();
    box.setSelectionRange(box.value.length, box.value.length);
    window.keyLatencies = [];
    window.longTasks = [];
    new PerformanceObserver((l) => window.longTasks.push(...l.getEntries().map((e) => `${Math.round(e.startTime)}+${Math.round(e.duration)}`))).observe({ type: "longtask" });
    robotstxtCompare.log = [];
    box.addEventListener("keydown", (e) => {
      if (e.key.length !== 1 && e.key !== "Enter") return;
      box.addEventListener("input", () => requestAnimationFrame(() => {
        window.keyLatencies.push(performance.now() - e.timeStamp);
      }), { once: true });
    });
  });
  // typeKeys types text at the end of the new version, a key every 250 ms
  // (past the debounce), without waiting for the page to take each, and
  // returns the keystrokes' times to the screen, sorted.
  const typeKeys = async (text) => {
    await page.evaluate(() => { window.keyLatencies = []; window.longTasks = []; });
    const presses = [];
    for (const k of text) {
      presses.push(page.keyboard.press(k === "\n" ? "Enter" : k));
      await new Promise((r) => setTimeout(r, 250));
    }
    await Promise.all(presses);
    const lat = await page.evaluate(() => window.keyLatencies);
    check(lat.length === text.length, `compare typing: ${lat.length} keystrokes measured, want ${text.length}`);
    return [...lat].sort((a, b) => a - b);
  };
  const median = (xs) => xs[xs.length >> 1], last = (xs) => xs[xs.length - 1];
  // Each attempt types twice: a comment line with the diff switched off
  // (the control: what typing into this page costs on this machine now),
  // then, while the diff of that edit runs, a new group: the running diff
  // goes stale, and after a diff that slow the page waits for a longer
  // pause before the next. The diff must add nothing noticeable to a keystroke:
  // the median at most 1.5 times the control's and 25 ms. The 100 ms bound
  // holds when the control meets it and this process gets 60 % of a CPU
  // or more (sampled around every run); on a machine other work loads,
  // the times are reported, not judged. Typing alone into a 480 KB
  // textarea takes up to 85-94 ms a key on the development machine, so
  // the slowest key of 36 may pass 100 ms by a frame while a diff runs
  // even when the diff costs the key nothing: a slowest key within 1.25
  // times the control's slowest (one CI run: 101 and 103 ms against 88
  // and 94) is the typing's own cost, and is reported, not failed; a
  // diff that made a key wait (a long task of the worker's answer on the
  // main thread) costs far more. As for the tester, a failing attempt is
  // made again, up to three.
  let ok = false, why = "";
  for (let run = 1; run <= 3 && !ok; run++) {
    let share = cpuShare();
    await page.evaluate(() => { robotstxtCompare.engine.askNow = robotstxtCompare.engine.ask; robotstxtCompare.engine.ask = () => {}; });
    const control = await typeKeys(`\n# control ${run}`);
    await page.evaluate(() => { robotstxtCompare.engine.ask = robotstxtCompare.engine.askNow; });
    share = Math.min(share, cpuShare());
    const [restartsBefore, droppedBefore] = await page.evaluate(() => {
      robotstxtCompare.log = [];
      return [robotstxtCompare.engine.restarts, robotstxtCompare.engine.dropped + robotstxtCompare.stale];
    });
    // The typing starts while a hostile diff runs: the control's edit is
    // compared now, and the new group typed at once.
    await page.evaluate(() => robotstxtCompare.ask());
    await page.waitForFunction(() => robotstxtCompare.engine.running !== null, null, { timeout: 10_000, polling: 5 });
    const agent = `Typed${"abc"[run - 1]}bot`, typed = `\nUser-agent: ${agent}\nDisallow: /t/`;
    const lat = await typeKeys(typed);
    const typedAt = Date.now();
    await compareSettled(page);
    const settledMs = Date.now() - typedAt;
    share = Math.min(share, cpuShare());
    const r = await page.evaluate(() => ({
      log: robotstxtCompare.log, tasks: window.longTasks.join(" "),
      restarts: robotstxtCompare.engine.restarts, dropped: robotstxtCompare.engine.dropped + robotstxtCompare.stale,
      tail: document.getElementById("new").value.slice(-40),
      cards: [...document.querySelectorAll("#compare-crawlers .crawler-card")].map((c) => c.dataset.agents),
    }));
    console.log(`compare typing at ${now.length} bytes while hostile diffs run, run ${run}: keystroke to frame median ${median(lat).toFixed(1)} ms, max ${last(lat).toFixed(1)} ms ` +
      `(without diffs: median ${median(control).toFixed(1)} ms, max ${last(control).toFixed(1)} ms; ${Math.round(share * 100)} % of a CPU); ` +
      `${r.log.length} diffs drawn, ${r.restarts - restartsBefore} workers replaced, ${r.dropped - droppedBefore} stale answers dropped; the last edit's diff shown ${settledMs} ms after the last key; ` +
      `keystrokes ${lat.map((x) => Math.round(x)).join(", ")}; long tasks (start+ms): ${r.tasks || "none"}`);
    check(r.tail.endsWith(typed), `compare typing: the new version ends ${JSON.stringify(r.tail)}`);
    check(r.log.every((e) => e.current), `compare typing: a diff of a version no longer in the editors was drawn: ${JSON.stringify(r.log)}`);
    check(r.log.length >= 1 && r.log.length < typed.length, `compare typing: ${r.log.length} diffs drawn for ${typed.length} edits, want the newest, not one a key`);
    check(r.cards.includes(agent), `compare typing: the newest edit's diff is not shown: cards ${JSON.stringify(r.cards)}`);
    // Replacing a worker busy with a stale diff cost the page long tasks
    // of 200-800 ms each (keystrokes up to 2 s): the budget bounds a diff,
    // and a stale one is left to finish.
    check(r.restarts === restartsBefore, `compare typing: ${r.restarts - restartsBefore} workers replaced while typing`);
    check(r.dropped > droppedBefore, "compare typing: no stale diff was dropped");
    const added = median(lat) <= 1.5 * median(control) + 25;
    const bounded = last(lat) < 100 || last(lat) <= 1.25 * last(control) || last(control) >= 100 || share < 0.6;
    ok = added && bounded;
    why = !added ? `the median keystroke took ${median(lat).toFixed(1)} ms while diffs ran, ${median(control).toFixed(1)} ms without` :
      `a keystroke took ${last(lat).toFixed(1)} ms while diffs ran (without: at most ${last(control).toFixed(1)} ms), want < 100 ms (the test had ${Math.round(share * 100)} % of a CPU)`;
    if (ok && last(lat) >= 100) {
      const reason = last(control) >= 100 ? "typing without diffs missed it too" :
        share < 0.6 ? `this process got ${Math.round(share * 100)} % of a CPU` :
        `the slowest key, ${last(lat).toFixed(1)} ms, is within 1.25 times typing's own slowest, ${last(control).toFixed(1)} ms`;
      console.log(`##  THE 100 ms KEYSTROKE BOUND WAS NOT ENFORCED in the compare view, run ${run}: ${reason}`);
    }
  }
  check(ok, `compare typing: ${why}`);
}

// compareCorpus times real pairs of versions in the page, when the corpus
// of 2025-26 files lies beside the repository (../shared/corpus-2025):
// from the paste to the diff drawn, and the worker's own time.
async function compareCorpus(page, url) {
  const dir = process.env.ROBOTSTXT_CORPUS_2025 || path.resolve(root, "..", "shared", "corpus-2025");
  if (!fs.existsSync(dir)) {
    console.log(`compare: no corpus at ${dir}: real pairs not timed`);
    return;
  }
  await page.goto(url + "#compare");
  await page.waitForSelector("body[data-ready=true]");
  await compareSettled(page);
  for (const [a, b] of [["cnn.com_2025-03.txt", "cnn.com_2025-04.txt"], ["github.com_2025-06.txt", "github.com_2025-09.txt"], ["www.pornhub.com_2025-09.txt", "www.pornhub.com_2025-10.txt"]]) {
    if (!fs.existsSync(path.join(dir, a)) || !fs.existsSync(path.join(dir, b))) continue;
    const old = fs.readFileSync(path.join(dir, a), "latin1"), now = fs.readFileSync(path.join(dir, b), "latin1");
    const times = [];
    for (let run = 0; run < 3; run++) {
      // A first line differing by run, so that no diff is cached.
      const start = Date.now();
      await setVersions(page, `# run ${run}\n` + old, `# run ${run}\n` + now);
      const e = await page.evaluate(() => robotstxtCompare.log[robotstxtCompare.log.length - 1]);
      times.push(`${Math.round(e.ms)}/${Date.now() - start}`);
    }
    const cards = await page.$$eval("#compare-crawlers .crawler-card", (cs) => cs.length);
    console.log(`compare ${a} → ${b}: worker/page ms per run (page: paste to drawn, 150 ms debounce included) ${times.join(", ")}; ${cards} crawler cards`);
  }
}

async function specCases(page) {
  const out = execFileSync("go", ["run", "./web/e2e/expect", "web/e2e/spec-cases.json"], { cwd: root, encoding: "utf8" });
  const cases = JSON.parse(out);
  let urls = 0;
  for (const c of cases) {
    const rows = await ask(page, c.robots, c.agent, c.urls);
    check(rows.length === c.answers.length, `case ${JSON.stringify(c.section)}: ${rows.length} rows for ${c.answers.length} URLs`);
    c.answers.forEach((want, i) => {
      const got = rows[i] || {};
      check(got.url === want.url && got.allowed === want.allowed && got.line === want.line,
        `case ${JSON.stringify(c.section)}, agent ${c.agent}: page says ${JSON.stringify(got)}, library says ${JSON.stringify(want)}`);
    });
    urls += c.answers.length;
  }
  console.log(`spec examples: ${cases.length} files, ${urls} URLs answered by the page as by the library`);
}

async function screenshot(page, url, file) {
  await page.setViewportSize({ width: 1280, height: 1000 });
  await page.goto(url);
  await page.waitForSelector("body[data-ready=true]");
  await page.waitForSelector("#results tr.result");
  await settled(page);
  await page.click("#results tr.result:last-child"); // a disallowed URL: its line is highlighted
  await page.screenshot({ path: file, fullPage: true });
  console.log(`screenshot: ${file}`);
}

async function main() {
  const url = await startServer();
  console.log(`page: ${url}`);
  browser = await chromium.launch({
    executablePath: browserPath,
    headless: true,
    // The machine has no outside network: keep Chromium from trying.
    args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
      "--disable-background-networking", "--disable-component-update", "--disable-sync"],
  });
  const page = await browser.newPage();
  page.on("pageerror", (err) => fail(`page error: ${err.message}`));
  const failed = [];
  page.on("response", (r) => { if (r.status() >= 400) failed.push(`${r.status()} ${r.url()}`); });
  const wasm = page.waitForResponse((r) => r.url().endsWith("/robotstxt.wasm"), { timeout: 60_000 }).catch(() => null);
  await page.goto(url);
  await page.waitForSelector("body[data-ready=true]", { timeout: 60_000 });
  await settled(page);
  const status = await page.textContent("#status");
  check(/checked/.test(status), `the page did not check its example on load: status ${JSON.stringify(status)}`);
  await served(page, url, await wasm);
  await typing(page);
  await scenario(page);
  await aiAudit(page);
  await keyboard(page);
  await agentWarning(page);
  await pastLimit(page);
  await auditOrder(page);
  await phone(page, url);
  await layout(page, url, 1280, 800);
  await layout(page, url, 375, 812);
  await compareView(page, url, 1280, 800);
  await compareView(page, url, 375, 812);
  await compareTyping(page, url);
  await compareCorpus(page, url);
  await page.goto(url);
  await page.waitForSelector("body[data-ready=true]");
  await settled(page);
  await page.setViewportSize({ width: 1280, height: 1000 });
  await specCases(page);
  if (process.env.SCREENSHOT) await screenshot(page, url, path.resolve(process.env.SCREENSHOT));
  check(failed.length === 0, `failed requests: ${JSON.stringify(failed)}`);
  await browser.close();
  browser = null;
  await stopServer();
}

try {
  await main();
} catch (err) {
  fail(err.stack || String(err));
} finally {
  clearTimeout(watchdog);
  await cleanup();
}
if (failures > 0) {
  console.error(`browser test: ${failures} failure(s)`);
  process.exit(1);
}
console.log("browser test: ok");
