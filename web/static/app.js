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
  clearTimeout(timer);
  if (typeof globalThis.robotstxtCheck !== "function") return;
  const result = JSON.parse(globalThis.robotstxtCheck(robotsBox.value, agentBox.value, urlsBox.value));
  if (result.error) {
    setStatus(result.error, true);
    return;
  }
  last = result;
  selected = Math.min(selected, Math.max(0, result.verdicts.length - 1));
  render();
  renderAudit();
}

// usageText describes the AI usage preferences some line says yes or no
// to, as the audit command prints them.
function usageText(u) {
  if (!u.fetchable) return "";
  const parts = [];
  for (const [name, d] of [["train-ai", u.train_ai], ["search", u.search], ["signal search", u.signal.search],
    ["signal ai-input", u.signal.ai_input], ["signal ai-train", u.signal.ai_train]]) {
    if (d.preference !== "unknown") parts.push(`${name}=${d.preference} (line ${d.line})`);
  }
  return parts.join(", ");
}

// renderAudit shows what the file says to the well-known AI and search
// crawlers for each URL (robotstxtAudit, the robotstxt audit command's
// report).
function renderAudit() {
  if (typeof globalThis.robotstxtAudit !== "function") return;
  const rep = JSON.parse(globalThis.robotstxtAudit(robotsBox.value, urlsBox.value));
  if (rep.error) {
    $("audit-summary").textContent = rep.error;
    return;
  }
  const blocked = rep.urls.map((_, i) => rep.crawlers.filter((c) => !c.results[i].allowed).length);
  $("audit-summary").textContent = `${rep.crawlers.length} crawlers from ${rep.source.name} (${rep.source.date}, ${rep.source.license}); ` +
    `${rep.preference_lines} Content-Usage/Content-Signal line${rep.preference_lines === 1 ? "" : "s"}. ` +
    rep.urls.map((u, i) => `${u}: ${blocked[i]} may not fetch it`).join("; ") + ".";
  $("audit-head").replaceChildren(el("tr", {}, el("th", { scope: "col" }, "Crawler"), el("th", { scope: "col" }, "Purpose"),
    ...rep.urls.map((u) => el("th", { scope: "col", class: "url" }, ...breakable(u)))));
  $("audit-rows").replaceChildren(...rep.crawlers.map((c) => el("tr", { class: "audit-row", "data-name": c.name },
    el("td", {}, c.name, c.read_as ? el("span", { class: "read-as", title: "Google's product-token rule reads the name this way" }, ` read as ${c.read_as}`) : ""),
    el("td", {}, c.purpose),
    ...c.results.map((r) => el("td", { "data-verdict": r.allowed ? "allowed" : "disallowed" },
      el("span", { class: "verdict" }, r.allowed ? "ALLOWED" : "DISALLOWED"),
      r.rule.line ? ` line ${r.rule.line}` : "",
      usageText(r.usage) ? el("span", { class: "usage" }, ` ${usageText(r.usage)}`) : "")))));
  const differs = rep.crawlers.filter((c) => c.read_as);
  $("audit-tokens").textContent = `Google's product-token rule (leading letters, '-' and '_') reads ${differs.length} of these names differently from how they are written: ` +
    differs.map((c) => `${c.name} as ${c.read_as}` + (c.named_on_lines ? ` (line ${c.named_on_lines.join(", ")})` : "")).join("; ") + ".";
}

const KiB = (n) => `${Math.round(n / 1024)} KiB (${n.toLocaleString("en-US")} bytes)`;

// breakable returns a URL as text with a line break opportunity (<wbr>)
// after each '/', '?', '&' and '=', so that a narrow column wraps it between
// its parts rather than anywhere.
function breakable(url) {
  const parts = [];
  for (const piece of url.split(/(?<=[/?&=])/)) parts.push(piece, document.createElement("wbr"));
  parts.pop();
  return parts;
}

// agentNote says which group answers, warns about an agent that is not a
// product token, and explains a group that lies past the size limit.
function agentNote(r) {
  const note = $("agent-note");
  const parts = [];
  if (r.agentWarning) {
    parts.push(el("strong", { class: "warning", id: "agent-warning" }, `Warning: ${r.agentWarning}.`), " ");
  }
  if (r.specific) {
    parts.push(`A group names ${r.agent}; the * group does not apply to it.`);
  } else if (r.cut && r.cut.groupLine) {
    parts.push(el("span", { id: "group-past-limit" },
      `A group names ${r.agent} at line ${r.cut.groupLine}, but it lies past the first ${KiB(r.cut.limit)}, ` +
      "where Google stops reading: Google never sees it, so the * group applies, if there is one."));
  } else if (!r.agentWarning) {
    parts.push(`No group names ${r.agent || "this crawler"}: the * group applies, if there is one.`);
  }
  if (r.crawlDelay) parts.push(` Crawl-delay: ${r.crawlDelay} s.`);
  note.replaceChildren(...parts);
}

function render() {
  const r = last;
  agentNote(r);
  // The table is rebuilt: a row that has the focus gives it to its successor.
  const hadFocus = document.activeElement && document.activeElement.matches("#results tr.result");

  const rows = r.verdicts.map((v, i) => {
    const row = el("tr", {
      class: "result",
      "data-verdict": v.allowed ? "allowed" : "disallowed",
      "data-line": String(v.line),
      "data-index": String(i),
      tabIndex: -1,
    },
      el("td", { class: "url" }, ...breakable(v.url)),
      el("td", { class: "verdict-cell" }, el("span", { class: "verdict" }, v.allowed ? "ALLOWED" : "DISALLOWED")),
      el("td", { class: "decider" }, v.line ? el("span", { class: "rule" }, `line ${v.line}: ${v.rule}`) : "no rule applied"));
    row.addEventListener("click", () => select(i, true));
    row.addEventListener("keydown", (e) => rowKey(e, i));
    return row;
  });
  $("results").replaceChildren(...rows);

  const deciding = new Set(r.verdicts.map((v) => v.line).filter((n) => n > 0));
  const byLine = new Map();
  for (const d of r.diagnostics) {
    if (!byLine.has(d.line)) byLine.set(d.line, []);
    byLine.get(d.line).push(d);
  }
  // Google ends a line at CR, LF or CR LF; a textarea already holds only LF.
  const lines = robotsBox.value.split(/\r\n|\r|\n/);
  if (lines.length > 1 && lines[lines.length - 1] === "") lines.pop();
  const cut = r.cut;
  const items = lines.map((text, i) => {
    const n = i + 1;
    const classes = [deciding.has(n) ? "decides" : ""];
    let shown = el("span", { class: "text" }, text || " ");
    if (cut && n > cut.line) {
      classes.push("ignored");
    } else if (cut && n === cut.line) {
      // The line the cut falls in: what Google reads, then the rest grey.
      const kept = text.startsWith(cut.kept) ? cut.kept.length : 0;
      shown = el("span", { class: "text" }, text.slice(0, kept),
        el("span", { class: "ignored-part", title: "past the size limit: Google ignores it" }, text.slice(kept) || " "));
      classes.push("cut");
    }
    const item = el("li", {
      "data-line": String(n), id: `line-${n}`, tabIndex: -1,
      class: classes.join(" ").trim(),
    }, el("span", { class: "num" }, String(n)), shown);
    if (cut && n === cut.line) {
      item.append(el("span", { class: "finding limit-note" },
        `Google reads only the first ${KiB(cut.limit)} of a robots.txt file: the rest of this line and every line after it (greyed out) are ignored.`));
    }
    for (const d of byLine.get(n) || []) {
      item.append(el("span", { class: `finding severity-${d.severity}`, "data-code": d.code }, `${d.severity}: ${d.message} [${d.code}]`));
    }
    return item;
  });
  $("file").replaceChildren(...items);
  const limit = $("limit");
  limit.hidden = !cut;
  if (cut) {
    limit.replaceChildren(`Google reads only the first ${KiB(cut.limit)}: from line ${cut.line} on, greyed out below, the file is ignored. `,
      el("a", { href: `#line-${cut.line}`, class: "jump", "data-line": String(cut.line) }, `Go to line ${cut.line}`));
  }

  const findings = r.diagnostics.map((d) => el("li", {
    class: `diagnostic severity-${d.severity}`,
    "data-line": String(d.line), "data-code": d.code, "data-severity": d.severity,
  }, el("a", { href: `#line-${d.line}`, class: "jump", "data-line": String(d.line) }, `line ${d.line}`),
  `: ${d.severity}: ${d.message} `, el("code", {}, `[${d.code}]`)));
  if (findings.length === 0) findings.push(el("li", {}, "No findings."));
  $("diagnostics").replaceChildren(...findings);

  select(selected, hadFocus);
  const n = r.verdicts.length;
  setStatus(`${n} URL${n === 1 ? "" : "s"} checked` +
    (cut ? ` (the file is over ${KiB(cut.limit)}; Google reads only that much)` : "") + ".");
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
  const line = last.verdicts[selected].line;
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
  const top = item.offsetTop - box.offsetTop;
  if (top < box.scrollTop || top + item.offsetHeight > box.scrollTop + box.clientHeight) {
    box.scrollTop = Math.max(0, top - box.clientHeight / 3);
  }
}

// jumpTo shows line n of the file view: scrolled to, marked and focused.
function jumpTo(n) {
  const item = document.getElementById(`line-${n}`);
  if (!item) return;
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
    go.run(instance); // defines robotstxtCheck and robotstxtAudit, then waits for calls
    document.body.dataset.ready = "true";
    check();
  })
  .catch((err) => setStatus(`The parser did not load: ${err}`, true));
