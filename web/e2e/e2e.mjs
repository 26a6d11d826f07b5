// End-to-end test of the browser tester in headless Chromium.
//
// It builds the serve command into a temporary directory, runs it (it
// builds and serves the page), loads the page in the system's Chromium
// through playwright-core, pastes a robots.txt file, enters URLs and checks
// the verdicts, the highlighted deciding line and a linter finding; the
// served files (gzipped wasm, ETag, favicon); keyboard-only use (arrow
// keys and Enter in the verdict table, a finding's link jumping to its
// line); the page at 375 px; a file past the 500 KiB limit; the warning
// for an agent that is not a product token. Then it runs every example of
// SPEC.md (spec-cases.json) through the page and fails on any answer that
// differs from the library's (go run ./web/e2e/expect). Last it stops the
// server with SIGTERM and checks that it removed its temporary site. With
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
const deadline = 240_000;

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
  // Checked by hand against SPEC 4.2, 5.4 and 6.6.
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
  check(rows.ClaudeBot && rows.ClaudeBot.verdict === "allowed" && rows.ClaudeBot.text.includes("train-ai=disallow (line 3)"),
    `audit: ClaudeBot row ${JSON.stringify(rows.ClaudeBot)}, want allowed with train-ai=disallow (line 3)`);
  const tokens = await page.textContent("#audit-tokens");
  check(tokens.includes("AI2Bot as AI (line 6)") && tokens.includes("Crawl4AI as Crawl"), `audit: token note ${JSON.stringify(tokens)}`);
  const summary = await page.textContent("#audit-summary");
  check(summary.includes("1 Content-Usage/Content-Signal line.") && /https:\/\/example\.com\/: \d+ may not fetch it/.test(summary),
    `audit: summary ${JSON.stringify(summary)}`);
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
  const link = 'ul#diagnostics a.jump[data-line="155"]';
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
  await page.click('ul#diagnostics a.jump[data-line="155"]');
  check(await page.evaluate(() => document.activeElement.id) === "line-155", "clicking a finding does not jump to its line");
}

// phone checks the page at 375 px: the URL column is wide enough to read.
async function phone(page, url) {
  await page.setViewportSize({ width: 375, height: 800 });
  await page.goto(url);
  await page.waitForSelector("body[data-ready=true]");
  await page.waitForSelector("#results tr.result");
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
  // The crawler audit scrolls in its box instead of squeezing its columns
  // (before: the crawler names one letter a line) or spilling its notes.
  const a = await page.evaluate(() => {
    const box = (e) => e.getBoundingClientRect();
    const panel = box(document.querySelector(".audit-section .panel"));
    const past = (id) => [...document.querySelectorAll(`#${id}`)].some((e) => e.scrollWidth > e.clientWidth + 1 || box(e).right > panel.right + 1);
    return {
      nameWidth: Math.min(...[...document.querySelectorAll("#audit-rows td:first-child")].map((td) => box(td).width)),
      urlWidth: Math.min(...[...document.querySelectorAll("#audit-head th.url")].map((th) => box(th).width)),
      spills: ["audit-summary", "audit-tokens"].filter(past),
    };
  });
  check(a.nameWidth >= 120, `at 375 px an audit crawler cell is ${a.nameWidth} px wide, want at least 120`);
  check(a.urlWidth >= 120, `at 375 px an audit URL column is ${a.urlWidth} px wide, want at least 120`);
  check(a.spills.length === 0, `at 375 px the audit notes ${a.spills.join(", ")} run past the panel`);
  console.log(`375 px: audit crawler column ${Math.round(a.nameWidth)} px, URL columns ${Math.round(a.urlWidth)} px`);
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

async function specCases(page) {
  const out = execFileSync("go", ["run", "./web/e2e/expect", "web/e2e/spec-cases.json"], { cwd: root, encoding: "utf8" });
  const cases = JSON.parse(out);
  let urls = 0;
  for (const c of cases) {
    const rows = await ask(page, c.robots, c.agent, c.urls);
    check(rows.length === c.answers.length, `SPEC ${c.section}: ${rows.length} rows for ${c.answers.length} URLs`);
    c.answers.forEach((want, i) => {
      const got = rows[i] || {};
      check(got.url === want.url && got.allowed === want.allowed && got.line === want.line,
        `SPEC ${c.section}, agent ${c.agent}: page says ${JSON.stringify(got)}, library says ${JSON.stringify(want)}`);
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
  const status = await page.textContent("#status");
  check(/checked/.test(status), `the page did not check its example on load: status ${JSON.stringify(status)}`);
  await served(page, url, await wasm);
  await scenario(page);
  await aiAudit(page);
  await keyboard(page);
  await agentWarning(page);
  await pastLimit(page);
  await phone(page, url);
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
