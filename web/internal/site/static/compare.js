// The compare view: two versions of a robots.txt file side by side, the
// lines that changed marked in each editor, and what changes for each
// crawler (package diff, in robotstxt diff -json's shape), search crawlers
// first, then AI crawlers by purpose, as the command lists them. Each
// change has a witness URL; selecting it tests the URL on both versions
// and marks the deciding lines. The diff runs in a Web Worker of its own
// (engine.js, worker.js), asked after a pause in typing (as long as the
// last diff took, for slow files); a newer edit supersedes an older diff:
// the older one's answer is dropped, and only the newest edit waits its
// turn, so no keystroke waits on a diff. Witnesses are answered by a
// second worker, so that they never wait on a diff either.
import { $, el, breakable } from "./dom.js";
import { Engine } from "./engine.js";

// The example: the new version adds a rule for Googlebot, drops the *
// group's PDF rule, moves the sitemap and lets GPTBot in.
const exampleOld = `User-agent: *
Disallow: /tmp/
Disallow: /*.pdf$

User-agent: Googlebot
Disallow: /search
Allow: /search/about

User-agent: GPTBot
Disallow: /

Sitemap: https://example.com/sitemap.xml
`;

const exampleNew = `User-agent: *
Disallow: /tmp/

User-agent: Googlebot
Disallow: /search
Allow: /search/about
Disallow: /private/

User-agent: GPTBot
Disallow: /private/

Sitemap: https://example.com/sitemap-index.xml
`;

// lineHeight is the editors' line height in CSS pixels (style.css): the
// marks are placed by line number.
const lineHeight = 20;

// maxChanges bounds the changes a crawler's card lists.
const maxChanges = 50;

// debounceMs is the pause in typing after which the versions are
// compared; after a diff that took longer, the page waits for a pause as
// long as that diff (up to maxPauseMs): then typing into files that take
// a second to compare does not keep the worker busy on diffs that each
// next key makes stale, and on a two-core machine the page keeps its core.
const debounceMs = 150, maxPauseMs = 1000;

const purposeLabels = {
  search: "search", "ai-training": "AI training", "ai-input": "AI input", "ai-search": "AI search", "ai-other": "AI, other",
};

// splitLines returns text's lines as the engine numbers them.
function splitLines(text) {
  const lines = text.split(/\r\n|\r|\n/);
  if (lines.length > 1 && lines[lines.length - 1] === "") lines.pop();
  return lines;
}

// runs turns sorted line numbers into [first, count] runs.
function runs(lines) {
  const out = [];
  for (const n of lines) {
    const last = out[out.length - 1];
    if (last && last[0] + last[1] === n) last[1]++;
    else out.push([n, 1]);
  }
  return out;
}

// rangeText writes line numbers as "3, 5–7".
function rangeText(lines) {
  return runs(lines).map(([n, c]) => (c === 1 ? String(n) : `${n}–${n + c - 1}`)).join(", ");
}

// An Editor is a textarea with marks behind its lines: lines removed or
// added, and the deciding line of a tested witness.
class Editor {
  constructor(box, kind) {
    this.box = box;
    this.kind = kind; // "removed" (old) or "added" (new)
    this.layer = box.parentElement.querySelector(".layer");
    this.changed = [];
    this.deciding = 0;
    box.addEventListener("scroll", () => this.sync());
  }

  sync() {
    this.layer.style.transform = `translateY(${-this.box.scrollTop}px)`;
  }

  band(first, count, cls) {
    return el("div", {
      class: `mark ${cls}`, "data-line": String(first), "data-lines": String(count),
      style: `top: ${(first - 1) * lineHeight}px; height: ${count * lineHeight}px`,
    });
  }

  draw() {
    const bands = runs(this.changed).map(([n, c]) => this.band(n, c, this.kind));
    if (this.deciding) bands.push(this.band(this.deciding, 1, "decides"));
    this.layer.replaceChildren(...bands);
    this.sync();
  }

  mark(lines) {
    this.changed = lines;
    this.draw();
  }

  // decide marks line n (0: none) as deciding, and scrolls to it.
  decide(n) {
    this.deciding = n;
    this.draw();
    if (!n) return;
    const top = (n - 1) * lineHeight, box = this.box;
    if (top < box.scrollTop || top + lineHeight > box.scrollTop + box.clientHeight - 16) {
      box.scrollTop = Math.max(0, top - box.clientHeight / 3);
    }
  }
}

export class CompareView {
  constructor() {
    this.oldBox = $("old");
    this.newBox = $("new");
    this.editors = [new Editor(this.oldBox, "removed"), new Editor(this.newBox, "added")];
    this.oldBox.value = exampleOld;
    this.newBox.value = exampleNew;
    this.engine = null;
    this.witnessEngine = null;
    this.seq = 0;
    this.timer = 0;
    this.shown = "";        // the JSON of the report shown
    this.witnessAsked = null; // [agent, url] of the witness shown
    this.reveal = false;      // scroll the witness's answer into view
    this.lastMs = 0;          // the worker's time for the last diff
    this.stale = 0;           // diffs answered after an edit made them stale, not drawn
    // For the tests: every diff drawn, and whether it answered the
    // versions in the editors at that moment.
    this.log = [];
    for (const box of [this.oldBox, this.newBox]) box.addEventListener("input", () => this.later());
    $("witness-form").addEventListener("submit", (e) => {
      e.preventDefault();
      this.askWitness($("witness-agent").value.trim(), $("witness-url").value.trim());
    });
    $("compare-from-tester").addEventListener("click", () => {
      this.oldBox.value = this.newBox.value = $("robots").value;
      this.ask();
    });
    $("compare-crawlers").addEventListener("click", (e) => {
      const b = e.target.closest("button.witness");
      if (!b) return;
      $("witness-agent").value = b.dataset.agent;
      $("witness-url").value = b.dataset.url;
      this.askWitness(b.dataset.agent, b.dataset.url);
      this.reveal = true; // show the answer, below on a phone
    });
  }

  // start starts the view's workers from the compiled module, once.
  start(module) {
    if (this.engine) return;
    // A stale diff is left to finish and its answer dropped, not cut
    // short: the work budget bounds it (a second or two at worst), while
    // replacing a worker holding hundreds of MB cost the page long tasks
    // of 200-800 ms each (measured in Chromium while typing). A worker
    // still busy after stuckMs is broken, and replaced.
    this.engine = new Engine(module, {
      kind: "compare", stuckMs: 10_000,
      onAnswer: (msg, args) => this.answered(msg, args), onChange: () => this.busy(),
    });
    this.witnessEngine = new Engine(module, {
      kind: "witness", onAnswer: (msg, args) => this.witnessed(msg, args), onChange: () => this.busy(),
    });
    this.ask();
  }

  busy() {
    const on = this.timer !== 0 || (this.engine && this.engine.busy) || (this.witnessEngine && this.witnessEngine.busy);
    const view = $("compare-view");
    if (on) view.dataset.busy = "true";
    else delete view.dataset.busy;
    $("compare-panel").setAttribute("aria-busy", String(!!on));
  }

  later() {
    clearTimeout(this.timer);
    const running = this.engine && this.engine.running;
    const slow = Math.max(this.lastMs, running ? performance.now() - running.started : 0);
    this.timer = setTimeout(() => this.ask(), Math.min(maxPauseMs, Math.max(debounceMs, slow)));
    this.busy();
  }

  ask() {
    clearTimeout(this.timer);
    this.timer = 0;
    if (!this.engine) return;
    this.engine.ask(++this.seq, [this.oldBox.value, this.newBox.value]);
    if (this.witnessAsked) this.askWitness(...this.witnessAsked);
    this.busy();
  }

  askWitness(agent, url) {
    if (!this.witnessEngine || !url) return;
    this.witnessAsked = [agent, url];
    this.witnessEngine.ask(++this.seq, [this.oldBox.value, this.newBox.value, agent || "*", url]);
    this.busy();
  }

  // current reports whether an answer is about the versions now in the
  // editors; one that is not is dropped, as a newer question follows.
  current(args) {
    return args[0] === this.oldBox.value && args[1] === this.newBox.value;
  }

  answered(msg, args) {
    if (msg.error || msg.result.error) {
      setStatus(`The comparison failed: ${msg.error || msg.result.error}`, true);
      return;
    }
    if (msg.fn === "diff" && !msg.cached) this.lastMs = msg.ms;
    if (!this.current(args)) {
      if (msg.fn === "diff") this.stale++;
      return;
    }
    if (msg.fn === "lines") {
      this.editors[0].mark(msg.result.old);
      this.editors[1].mark(msg.result.new);
      const say = (lines, what) => (lines.length ? `${what}: line${lines.length === 1 ? "" : "s"} ${rangeText(lines)}` : `No line ${what.toLowerCase()}.`);
      $("old-marked").textContent = say(msg.result.old, "Removed or changed");
      $("new-marked").textContent = say(msg.result.new, "Added or changed") +
        (msg.result.exact ? "" : " (the versions differ in too many lines to match them up: every line between the first and the last change is marked)");
      return;
    }
    this.log.push({ seq: msg.seq, current: true, ms: msg.ms, cached: !!msg.cached });
    const json = JSON.stringify(msg.result);
    if (json !== this.shown) {
      this.shown = json;
      this.render(msg.result, args);
    }
    const r = msg.result;
    const changed = r.crawlers.filter((c) => c.changes.length > 0).length;
    setStatus(`Compared ${r.crawlers.length} crawler class${r.crawlers.length === 1 ? "" : "es"}` +
      (msg.cached ? "." : ` in ${Math.round(msg.ms)} ms.`) +
      ` Verdicts change for ${changed}` + (r.undecided.length ? `; ${r.undecided.length} not decided.` : "."));
  }

  render(r, args) {
    const lines = [splitLines(args[0]), splitLines(args[1])];
    // Crawlers whose changes read alike share a card, as the command
    // lists them together.
    const cards = [], bySig = new Map(), unchanged = [];
    for (const c of r.crawlers) {
      const settings = c.crawl_delay || c.request_rate || (c.usage && c.usage.length) || c.usage_decided === false;
      if (c.decided && c.changes.length === 0 && !settings) {
        unchanged.push(c);
        continue;
      }
      const sig = JSON.stringify([c.decided, c.changes, c.crawl_delay, c.request_rate, c.usage, c.usage_decided]);
      if (bySig.has(sig)) bySig.get(sig).push(c);
      else {
        const group = [c];
        bySig.set(sig, group);
        cards.push(group);
      }
    }
    $("compare-crawlers").replaceChildren(...cards.map((group) => card(group, lines)));
    $("compare-summary").textContent = cards.length === 0 ?
      "No crawler's verdicts change: every path is answered as before, for every crawler either version names and every other crawler." :
      "Each change is a class of paths whose verdict changes, with its shortest witness, the deciding lines before and after, and the class by its patterns.";
    $("compare-unchanged").textContent = unchanged.length === 0 ? "" :
      `No change for ${unchanged.map(title).join(", ")}.`;
    const other = otherChanges(r);
    $("compare-other").replaceChildren(...other);
    $("compare-other-section").hidden = other.length === 0;
  }

  witnessed(msg, args) {
    if (msg.error || msg.result.error) {
      $("witness-result").replaceChildren(el("p", { class: "error" }, `The test failed: ${msg.error || msg.result.error}`));
      return;
    }
    if (!this.current(args)) return;
    const w = msg.result, lines = [splitLines(args[0]), splitLines(args[1])];
    const row = (side, v, i) => {
      const line = v.rule ? v.rule.line : 0;
      return el("tr", { class: "witness-row", "data-side": side, "data-verdict": v.allowed ? "allowed" : "disallowed", "data-line": String(line) },
        el("th", { scope: "row" }, side),
        el("td", {}, el("span", { class: "verdict" }, v.allowed ? "ALLOWED" : "DISALLOWED")),
        el("td", { class: "decider" }, line ? el("span", { class: "rule" }, `line ${line}: ${written(lines[i], v.rule)}`) : "no rule applied",
          el("span", { class: "group" }, v.specific ? `a group names ${w.agent}` : "the * groups apply")));
    };
    const who = w.agent === "*" ? "every other crawler" : w.agent;
    $("witness-result").replaceChildren(
      el("p", { class: "witness-title" }, `${who} at `, el("code", {}, ...breakable(w.url)),
        w.old.allowed === w.new.allowed ? ": the same verdict in both versions." : `: ${word(w.old.allowed)} → ${word(w.new.allowed)}.`),
      el("table", { id: "witness-table" },
        el("thead", {}, el("tr", {}, el("th", { scope: "col" }, "Version"), el("th", { scope: "col" }, "Verdict"), el("th", { scope: "col" }, "Deciding line"))),
        el("tbody", {}, row("old", w.old, 0), row("new", w.new, 1))));
    this.editors[0].decide(w.old.rule ? w.old.rule.line : 0);
    this.editors[1].decide(w.new.rule ? w.new.rule.line : 0);
    if (this.reveal) $("witness-result").scrollIntoView({ block: "nearest" });
    this.reveal = false;
  }
}

function setStatus(text, isError) {
  const s = $("compare-status");
  s.textContent = text;
  s.classList.toggle("error", !!isError);
}

const word = (allowed) => (allowed ? "allowed" : "disallowed");

// title names a crawler class with its purpose.
function title(c) {
  if (c.agent === "*") return "every other crawler (the * groups)";
  return c.purpose ? `${c.agent} (${purposeLabels[c.purpose] || c.purpose})` : c.agent;
}

// written is a rule as the file writes it, else as the engine reads it.
function written(lines, rule) {
  return (lines[rule.line - 1] || `${rule.kind}: ${rule.pattern}`).trim();
}

function side(label, s, lines) {
  return el("span", { class: "side", "data-line": String(s.rule ? s.rule.line : 0) }, `${label}: `,
    s.rule ? el("span", { class: "rule" }, `line ${s.rule.line} `, el("code", {}, written(lines, s.rule))) : "no rule applied");
}

function seconds(v) {
  return v === null || v === undefined ? "none" : `${v} s`;
}

// usageText lists the AI usage preferences of one side.
function usageText(u) {
  const p = (d) => (d ? d.preference : "unknown");
  return `train-ai=${p(u.train_ai)} ai-use=${p(u.ai_use)} search=${p(u.search)}; Content-Signal ai-train=${p(u.signal && u.signal.ai_train)} ai-input=${p(u.signal && u.signal.ai_input)} search=${p(u.signal && u.signal.search)}`;
}

// card draws the changes of crawlers whose changes read alike.
function card(group, lines) {
  const c = group[0];
  const agents = group.map((x) => x.agent);
  const items = c.changes.slice(0, maxChanges).map((ch) => el("li", {
    class: "change", "data-path": ch.path, "data-old": ch.old.verdict, "data-new": ch.new.verdict,
  },
  el("div", { class: "change-head" },
    el("span", { class: "becomes" }, el("span", { class: `verdict ${ch.old.verdict}` }, ch.old.verdict), " → ",
      el("span", { class: `verdict ${ch.new.verdict}` }, ch.new.verdict)),
    " ", el("button", {
      type: "button", class: "witness", "data-agent": c.agent, "data-url": ch.path,
      title: "Test this witness on both versions", "aria-label": `Test ${ch.path} on both versions for ${c.agent === "*" ? "every other crawler" : c.agent}`,
    }, ...breakable(ch.path))),
  el("div", { class: "class-desc" }, ch.describe),
  el("div", { class: "rules" }, side("old", ch.old, lines[0]), side("new", ch.new, lines[1]))));
  if (c.changes.length > maxChanges) items.push(el("li", { class: "more" }, `and ${c.changes.length - maxChanges} more classes of paths`));
  const settings = [];
  if (c.crawl_delay) settings.push(el("li", { class: "setting" }, `crawl-delay: ${seconds(c.crawl_delay.old_seconds)} → ${seconds(c.crawl_delay.new_seconds)}`));
  if (c.request_rate) settings.push(el("li", { class: "setting" }, `request-rate interval: ${seconds(c.request_rate.old_seconds)} → ${seconds(c.request_rate.new_seconds)}`));
  if (c.usage_decided === false) {
    settings.push(el("li", { class: "setting undecided-note" },
      "AI usage not decided: the work budget ran out before every path was compared; the usage changes listed are genuine, but there may be more."));
  }
  for (const u of c.usage || []) {
    settings.push(el("li", { class: "setting usage-change", "data-path": u.path }, "AI usage at ",
      el("code", {}, ...breakable(u.path)),
      `: ${u.becomes || `${usageText(u.old)} → ${usageText(u.new)}`}`,
      u.describe ? el("div", { class: "class-desc" }, u.describe) : null));
  }
  return el("article", { class: "crawler-card", "data-agents": agents.join(" "), "data-decided": String(c.decided) },
    el("h3", {}, group.map(title).join(", "),
      c.decided ? null : el("span", { class: "badge undecided" }, "not decided")),
    c.decided ? null : el("p", { class: "undecided-note" },
      "Not decided: the work budget ran out before every path was compared. The changes listed are genuine, but there may be more."),
    items.length ? el("ul", { class: "changes" }, ...items) : null,
    settings.length ? el("ul", { class: "settings" }, ...settings) : null);
}

// otherChanges lists what changes outside the verdicts.
function otherChanges(r) {
  const out = [];
  const add = (kind, text, value) => out.push(el("li", { "data-kind": kind }, text, value ? el("code", {}, value) : null));
  for (const v of r.sitemaps_added) add("sitemap-added", "Sitemap added: ", v);
  for (const v of r.sitemaps_removed) add("sitemap-removed", "Sitemap removed: ", v);
  for (const v of r.licenses_added) add("license-added", "License added: ", v);
  for (const v of r.licenses_removed) add("license-removed", "License removed: ", v);
  if (r.agents_named.length) add("agents-named", "Agents now named by a group: ", r.agents_named.join(", "));
  if (r.agents_unnamed.length) add("agents-unnamed", "Agents no longer named by any group (they now obey the * groups): ", r.agents_unnamed.join(", "));
  for (const l of r.lines) {
    if (l.new > 0) add("line-new", `New finding, new line ${l.new} [${l.code}]: ${l.issue}: `, l.text);
    else add("line-gone", `Finding gone, old line ${l.old} [${l.code}]: `, l.text);
  }
  return out;
}
