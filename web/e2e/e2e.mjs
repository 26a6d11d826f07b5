// End-to-end test of the browser tester in headless Chromium.
//
// It builds and serves the page (go run ./web/serve), loads it in the
// system's Chromium through playwright-core, pastes a robots.txt file,
// enters URLs and checks the verdicts, the highlighted deciding line and a
// linter finding; then it runs every example of SPEC.md (spec-cases.json)
// through the page and fails on any answer that differs from the library's
// (go run ./web/e2e/expect). With SCREENSHOT=path it also saves a
// screenshot of the page.
//
//	cd web/e2e && npm ci && node e2e.mjs
import { spawn, execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import path from "node:path";
import { chromium } from "playwright-core";

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, "..", "..");
const browserPath = process.env.CHROMIUM || "/usr/bin/chromium";
const deadline = 240_000;

let server = null;
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
  if (server && server.exitCode === null) {
    try { process.kill(-server.pid, "SIGTERM"); } catch { /* already gone */ }
  }
}

const watchdog = setTimeout(async () => {
  console.error(`FAIL: the browser test did not finish within ${deadline / 1000} s`);
  await cleanup();
  process.exit(1);
}, deadline);

// startServer runs the serve command in its own process group (go run
// starts a child) and resolves with the URL it prints.
function startServer() {
  return new Promise((resolve, reject) => {
    server = spawn("go", ["run", "./web/serve", "-addr", "127.0.0.1:0"], {
      cwd: root, detached: true, stdio: ["ignore", "pipe", "inherit"],
    });
    let out = "";
    server.stdout.on("data", (chunk) => {
      out += chunk;
      const m = out.match(/serving (http:\/\/\S+)/);
      if (m) resolve(m[1]);
    });
    server.on("exit", (code) => reject(new Error(`the server exited with status ${code}`)));
  });
}

// ask puts a file, an agent and URLs into the page, presses Check and
// returns the rows of the verdict table.
async function ask(page, robots, agent, urls) {
  await page.fill("#robots", robots);
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
  await page.goto(url);
  await page.waitForSelector("body[data-ready=true]", { timeout: 60_000 });
  const status = await page.textContent("#status");
  check(/checked/.test(status), `the page did not check its example on load: status ${JSON.stringify(status)}`);
  await scenario(page);
  await specCases(page);
  if (process.env.SCREENSHOT) await screenshot(page, url, path.resolve(process.env.SCREENSHOT));
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
