// The browser tester: sends the file, the crawler and the URLs to
// robotstxtCheck (robotstxt compiled to WebAssembly) and renders the result.
"use strict";

const example = `# Example: edit freely.
User-agent: *
Disallow: /private/
Allow: /private/press/
Disallow: /*.pdf$
Crawl-delay: 5

User-agent: Googlebot
Disallowed: /drafts/
Disallow: /search
Allow: /search/about

Sitemap: https://example.com/sitemap.xml
`;

const exampleURLs = `https://example.com/
https://example.com/private/report.html
https://example.com/private/press/launch.html
https://example.com/search?q=robots
https://example.com/drafts/plan.html`;

const $ = (id) => document.getElementById(id);
const robotsBox = $("robots"), agentBox = $("agent"), urlsBox = $("urls");
let selected = 0; // index of the selected verdict
let last = null;  // the last result

function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k === "class") node.className = v;
    else if (k.startsWith("data-")) node.setAttribute(k, v);
    else node[k] = v;
  }
  for (const c of children) node.append(c);
  return node;
}

function check() {
  if (typeof globalThis.robotstxtCheck !== "function") return;
  const result = JSON.parse(globalThis.robotstxtCheck(robotsBox.value, agentBox.value, urlsBox.value));
  if (result.error) {
    setStatus(result.error, true);
    return;
  }
  last = result;
  selected = Math.min(selected, Math.max(0, result.verdicts.length - 1));
  render();
}

function render() {
  const r = last;
  const note = r.specific
    ? `A group names ${r.agent}; the * group does not apply to it.`
    : `No group names ${r.agent || "this crawler"}: the * group applies, if there is one.`;
  $("agent-note").textContent = note + (r.crawlDelay ? ` Crawl-delay: ${r.crawlDelay} s.` : "");

  const rows = r.verdicts.map((v, i) => {
    const row = el("tr", {
      class: "result" + (i === selected ? " selected" : ""),
      "data-verdict": v.allowed ? "allowed" : "disallowed",
      "data-line": String(v.line),
      tabIndex: 0,
    },
      el("td", { class: "url" }, v.url),
      el("td", {}, el("span", { class: "verdict" }, v.allowed ? "ALLOWED" : "DISALLOWED")),
      el("td", { class: "decider" }, v.line ? el("span", { class: "rule" }, `line ${v.line}: ${v.rule}`) : "no rule applied"));
    const choose = () => { selected = i; render(); };
    row.addEventListener("click", choose);
    row.addEventListener("keydown", (e) => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); choose(); } });
    return row;
  });
  $("results").replaceChildren(...rows);

  const highlight = r.verdicts.length ? r.verdicts[selected].line : 0;
  const deciding = new Set(r.verdicts.map((v) => v.line).filter((n) => n > 0));
  const byLine = new Map();
  for (const d of r.diagnostics) {
    if (!byLine.has(d.line)) byLine.set(d.line, []);
    byLine.get(d.line).push(d);
  }
  // Google ends a line at CR, LF or CR LF; a textarea already holds only LF.
  const lines = robotsBox.value.split(/\r\n|\r|\n/);
  if (lines.length > 1 && lines[lines.length - 1] === "") lines.pop();
  const items = lines.map((text, i) => {
    const n = i + 1;
    const item = el("li", {
      "data-line": String(n),
      class: [deciding.has(n) ? "decides" : "", n === highlight ? "highlight" : ""].join(" ").trim(),
    }, el("span", { class: "num" }, String(n)), el("span", { class: "text" }, text || " "));
    for (const d of byLine.get(n) || []) {
      item.append(el("span", { class: `finding severity-${d.severity}`, "data-code": d.code }, `${d.severity}: ${d.message} [${d.code}]`));
    }
    return item;
  });
  $("file").replaceChildren(...items);
  const marked = $("file").querySelector("li.highlight");
  if (marked) marked.scrollIntoView({ block: "nearest" });

  const findings = r.diagnostics.map((d) => el("li", {
    class: `diagnostic severity-${d.severity}`,
    "data-line": String(d.line), "data-code": d.code, "data-severity": d.severity,
  }, `line ${d.line}: ${d.severity}: ${d.message} `, el("code", {}, `[${d.code}]`)));
  if (findings.length === 0) findings.push(el("li", {}, "No findings."));
  $("diagnostics").replaceChildren(...findings);

  const n = r.verdicts.length;
  setStatus(`${n} URL${n === 1 ? "" : "s"} checked` +
    (r.truncated ? " (the file is over 500 KiB; Google reads only the first 500 KiB)" : "") + ".");
}

function setStatus(text, isError) {
  const s = $("status");
  s.textContent = text;
  s.classList.toggle("error", !!isError);
}

let timer = 0;
function later() {
  clearTimeout(timer);
  timer = setTimeout(check, 150);
}

robotsBox.value = example;
urlsBox.value = exampleURLs;
for (const box of [robotsBox, agentBox, urlsBox]) box.addEventListener("input", later);
$("check").addEventListener("click", check);

const go = new Go();
WebAssembly.instantiateStreaming(fetch("robotstxt.wasm"), go.importObject)
  .then(({ instance }) => {
    go.run(instance); // defines robotstxtCheck, then waits for calls
    document.body.dataset.ready = "true";
    check();
  })
  .catch((err) => setStatus(`The parser did not load: ${err}`, true));
