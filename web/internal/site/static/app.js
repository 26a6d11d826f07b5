// The browser tester's page: it sends the file, the crawler and the URLs
// to the WebAssembly engine, which runs in a Web Worker (engine.js,
// worker.js) so that typing never waits for a check, and renders the
// verdicts, the file as Google reads it with the linter's findings, and
// the AI crawler audit (audit.js); and, at #compare, the compare view
// of two versions (compare.js).
import { $, el, breakable, linesOf, patchChunks, drawChunkOf } from "./dom.js";
import { Engine } from "./engine.js";
import { AuditView } from "./audit.js";
import { CompareView } from "./compare.js";

// longRule is the length past which a deciding rule may wrap in its
// cell; a shorter one stays on one line, so that "line 11: disallow:
// /search" does not break into three at desktop width.
const longRule = 40;

const example = `# Example: edit freely.
User-agent: *
Disallow: /private/
Allow: /private/press/
Disallow: /*.pdf$
Crawl-delay: 5
Content-Signal: search=yes, ai-input=yes, ai-train=no

User-agent: Googlebot
Disallowed: /drafts/
Disallow: /search
Allow: /search/about

User-agent: GPTBot
User-agent: CCBot
Disallow: /

License: https://example.com/license.xml
Sitemap: https://example.com/sitemap.xml
`;

const exampleURLs = `https://example.com/
https://example.com/private/report.html
https://example.com/private/press/launch.html
https://example.com/search?q=robots
https://example.com/drafts/plan.html`;


const robotsBox = $("robots"), agentBox = $("agent"), urlsBox = $("urls");
let selected = 0; // index of the selected verdict
let last = null;  // the last check result shown
let lastLines = []; // the lines of the file that result is about

// The questions are numbered; an answer is shown only if it answers the
// newest question the engine was asked (the engine drops the others), and
// a render in progress stops when a newer answer arrives.
let seq = 0;
let engine = null;
let auditAsked = null; // [robots, urls] of the last audit asked
let checkRender = 0, auditRender = 0; // generation of the render in progress
let rendering = 0; // renders in progress
let timer = 0;     // the input debounce
const audit = new AuditView({ onRender: (p) => track(p) });

const KiB = (n) => `${Math.round(n / 1024)} KiB (${n.toLocaleString("en-US")} bytes)`;

// busy shows "checking…" while a question is waiting, asked or being
// drawn, and tells the tests (body[data-busy]) when the page has caught up.
function busy() {
  const on = timer !== 0 || rendering > 0 || (engine && engine.busy);
  if (on) document.body.dataset.busy = "true";
  else delete document.body.dataset.busy;
  for (const id of ["verdicts-panel", "file-panel", "audit-panel"]) $(id).setAttribute("aria-busy", String(!!on));
}

function track(promise) {
  rendering++;
  busy();
  promise.finally(() => {
    rendering--;
    busy();
  });
}

// ask sends the boxes' contents to the engine: the check always, the
// audit when the file or the URLs changed (it does not depend on the
// crawler named).
function ask() {
  clearTimeout(timer);
  timer = 0;
  if (!engine) return;
  seq++;
  const robots = robotsBox.value, agent = agentBox.value, urls = urlsBox.value;
  const audit = !auditAsked || auditAsked[0] !== robots || auditAsked[1] !== urls;
  if (audit) auditAsked = [robots, urls];
  engine.ask(seq, [robots, agent, urls, audit]);
  busy();
}

function later() {
  clearTimeout(timer);
  timer = setTimeout(ask, 100);
  busy();
}

function checked(msg, args) {
  if (msg.error || msg.result.error) {
    setStatus(msg.error || msg.result.error, true);
    return;
  }
  last = msg.result;
  lastLines = linesOf(args[0]);
  selected = Math.min(selected, Math.max(0, last.verdicts.length - 1));
  track(render(msg.ms));
}

function audited(msg, args) {
  const gen = ++auditRender;
  if (msg.error || msg.result.error) {
    audit.error(msg.error || msg.result.error);
    return;
  }
  audit.show(msg.result, args[0], () => gen === auditRender);
}

async function render(ms) {
  const gen = ++checkRender;
  const r = last;
  agentNote(r);
  // The table is rebuilt: a row that has the focus gives it to its successor.
  const hadFocus = document.activeElement && document.activeElement.matches("#results tr.result");
  const rows = r.verdicts.map((v, i) => {
    const line = v.rule ? v.rule.line : 0;
    const row = el("tr", {
      class: "result",
      "data-verdict": v.allowed ? "allowed" : "disallowed",
      "data-line": String(line),
      "data-index": String(i),
      tabIndex: -1,
    },
    el("td", { class: "url" }, ...breakable(v.url)),
    el("td", { class: "verdict-cell" }, el("span", { class: "verdict" }, v.allowed ? "ALLOWED" : "DISALLOWED")),
    el("td", { class: "decider" }, line ? el("span", { class: v.says.length > longRule ? "rule long" : "rule" }, `line ${line}: ${v.says}`) : "no rule applied"));
    row.addEventListener("click", () => select(i, true));
    row.addEventListener("keydown", (e) => rowKey(e, i));
    return row;
  });
  $("results").replaceChildren(...rows);
  select(selected, hadFocus);

  const cut = r.cut;
  const limit = $("limit");
  limit.hidden = !cut;
  if (cut) {
    limit.replaceChildren(`Google reads only the first ${KiB(cut.limit)}: from line ${cut.line} on, greyed out below, the file is ignored. `,
      el("a", { href: `#line-${cut.line}`, class: "jump", "data-line": String(cut.line) }, `Go to line ${cut.line}`));
  }
  const n = r.verdicts.length;
  setStatus(`${n} URL${n === 1 ? "" : "s"} checked` +
    (cut ? ` (the file is over ${KiB(cut.limit)}; Google reads only that much)` : "") +
    (ms !== undefined ? ` in ${Math.round(ms)} ms.` : "."));

  const current = () => gen === checkRender;
  const deciding = new Set(r.verdicts.map((v) => (v.rule ? v.rule.line : 0)).filter((x) => x > 0));
  const byLine = new Map();
  for (const d of r.diagnostics) {
    if (!byLine.has(d.line)) byLine.set(d.line, []);
    byLine.get(d.line).push(d);
  }
  const lines = lastLines;
  const findingText = (d) => `${d.severity}: ${d.message} [${d.code}]`;
  const classOf = (n) => {
    const c = [];
    if (deciding.has(n)) c.push("decides");
    if (cut && n > cut.line) c.push("ignored");
    else if (cut && n === cut.line) c.push("cut");
    return c.join(" ");
  };
  const sig = (i) => {
    const n = i + 1;
    return classOf(n) + "\u0000" + lines[i] + (cut && n === cut.line ? "\u0000" + cut.kept + cut.limit : "") +
      (byLine.has(n) ? "\u0000" + byLine.get(n).map(findingText).join("\u0000") : "");
  };
  const build = (i) => {
    const n = i + 1, text = lines[i];
    let shown = el("span", { class: "text" }, text || " ");
    if (cut && n === cut.line) {
      // The line the cut falls in: what Google reads, then the rest grey.
      const kept = text.startsWith(cut.kept) ? cut.kept.length : 0;
      shown = el("span", { class: "text" }, text.slice(0, kept),
        el("span", { class: "ignored-part", title: "past the size limit: Google ignores it" }, text.slice(kept) || " "));
    }
    const item = el("li", { "data-line": String(n), id: `line-${n}`, tabIndex: -1, class: classOf(n) || undefined },
      el("span", { class: "num" }, String(n)), shown);
    if (cut && n === cut.line) {
      item.append(el("span", { class: "finding limit-note" },
        `Google reads only the first ${KiB(cut.limit)} of a robots.txt file: the rest of this line and every line after it (greyed out) are ignored.`));
    }
    for (const d of byLine.get(n) || []) {
      item.append(el("span", { class: `finding severity-${d.severity}`, "data-code": d.code }, findingText(d)));
    }
    return item;
  };
  if (!await patchChunks($("file"), "ol", lines.length, sig, build, current)) return;
  highlight();

  const ds = r.diagnostics;
  $("no-findings").hidden = ds.length > 0;
  await patchChunks($("diagnostics"), "ul", ds.length, (i) => `${ds[i].line}\u0000${findingText(ds[i])}`, (i) => {
    const d = ds[i];
    return el("li", {
      class: `diagnostic severity-${d.severity}`,
      "data-line": String(d.line), "data-code": d.code, "data-severity": d.severity,
    }, el("a", { href: `#line-${d.line}`, class: "jump", "data-line": String(d.line) }, `line ${d.line}`),
    `: ${d.severity}: ${d.message} `, el("code", {}, `[${d.code}]`));
  }, current);
}

// agentNote says which group answers, warns about an agent that is not a
// product token, and explains a group that lies past the size limit.
function agentNote(r) {
  const note = $("agent-note");
  const parts = [];
  if (r.agent_warning) {
    parts.push(el("strong", { class: "warning", id: "agent-warning" }, `Warning: ${r.agent_warning}.`), " ");
  }
  if (r.specific) {
    parts.push(`A group names ${r.agent}; the * group does not apply to it.`);
  } else if (r.cut && r.cut.group_line) {
    parts.push(el("span", { id: "group-past-limit" },
      `A group names ${r.agent} at line ${r.cut.group_line}, but it lies past the first ${KiB(r.cut.limit)}, ` +
      "where Google stops reading: Google never sees it, so the * group applies, if there is one."));
  } else if (!r.agent_warning) {
    parts.push(`No group names ${r.agent || "this crawler"}: the * group applies, if there is one.`);
  }
  if (r.crawl_delay) parts.push(` Crawl-delay: ${r.crawl_delay} s.`);
  note.replaceChildren(...parts);
}

// select marks verdict i as selected, highlights its deciding line and,
// when focus is true, moves the keyboard focus to its row. The table is
// not rebuilt, so focus stays where the user is.
function select(i, focus) {
  const rows = [...$("results").children];
  if (rows.length === 0) return;
  selected = Math.max(0, Math.min(i, rows.length - 1));
  rows.forEach((row, j) => {
    const on = j === selected;
    row.classList.toggle("selected", on);
    row.setAttribute("aria-selected", String(on));
    row.tabIndex = on ? 0 : -1; // one tab stop for the table; arrows move within it
  });
  if (focus) rows[selected].focus();
  highlight();
}

// highlight marks the selected verdict's deciding line in the file view.
function highlight() {
  const v = last && last.verdicts[selected];
  const line = v && v.rule ? v.rule.line : 0;
  for (const li of $("file").querySelectorAll("li.highlight")) li.classList.remove("highlight");
  const marked = line ? document.getElementById(`line-${line}`) : null;
  if (marked) {
    marked.classList.add("highlight");
    scrollWithin($("file"), marked);
  }
}

function rowKey(e, i) {
  const end = $("results").children.length - 1;
  const to = { ArrowDown: i + 1, ArrowUp: i - 1, Home: 0, End: end, Enter: i, " ": i }[e.key];
  if (to === undefined) return;
  e.preventDefault();
  select(to, true);
}

// scrollWithin scrolls the file view, not the page, to show item.
function scrollWithin(box, item) {
  drawChunkOf(item);
  const top = item.getBoundingClientRect().top - box.getBoundingClientRect().top - box.clientTop + box.scrollTop;
  if (top < box.scrollTop || top + item.offsetHeight > box.scrollTop + box.clientHeight) {
    box.scrollTop = Math.max(0, top - box.clientHeight / 3);
  }
}

// jumpTo shows line n of the file view: scrolled to, marked and focused.
function jumpTo(n) {
  const item = document.getElementById(`line-${n}`);
  if (!item) return;
  drawChunkOf(item);
  for (const li of $("file").querySelectorAll("li.target")) li.classList.remove("target");
  item.classList.add("target");
  item.scrollIntoView({ block: "nearest" }); // the file view into the window
  scrollWithin($("file"), item);
  item.focus({ preventScroll: true });
}

// A finding's "line N" link, or the size-limit note's, jumps to its line.
document.addEventListener("click", (e) => {
  const link = e.target.closest("a.jump");
  if (!link) return;
  e.preventDefault();
  jumpTo(Number(link.dataset.line));
});

function setStatus(text, isError) {
  const s = $("status");
  s.textContent = text;
  s.classList.toggle("error", !!isError);
}


robotsBox.value = example;
urlsBox.value = exampleURLs;
for (const box of [robotsBox, agentBox, urlsBox]) box.addEventListener("input", later);
$("check").addEventListener("click", ask);

// The views: the tester, and at #compare the compare view, whose workers
// start the first time it is shown.
const compare = new CompareView();
globalThis.robotstxtCompare = compare; // for the tests
let compiled = null; // the compiled module, once it is

function showView() {
  const comparing = location.hash === "#compare";
  $("tester-view").hidden = comparing;
  $("compare-view").hidden = !comparing;
  for (const [id, on] of [["view-test", !comparing], ["view-compare", comparing]]) {
    if (on) $(id).setAttribute("aria-current", "page");
    else $(id).removeAttribute("aria-current");
  }
  if (comparing && compiled) compare.start(compiled);
}
window.addEventListener("hashchange", showView);
showView();

// The module is compiled once, here, and handed to each worker: a worker
// restarted after being stuck on a stale job starts without compiling.
WebAssembly.compileStreaming(fetch("robotstxt.wasm"))
  .then((module) => {
    compiled = module;
    engine = new Engine(module, { onAnswer: (msg, args) => (msg.fn === "audit" ? audited : checked)(msg, args), onChange: busy });
    globalThis.robotstxtEngine = engine; // for the tests
    document.body.dataset.ready = "true";
    ask();
    showView();
  })
  .catch((err) => {
    setStatus(`The parser did not load: ${err}`, true);
    $("compare-status").textContent = `The parser did not load: ${err}`;
  });
