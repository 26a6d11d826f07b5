// The AI and search crawler audit: what the file says to each well-known
// crawler at each URL (the robotstxt audit command's report), drawn for a
// site owner to read at a glance. A matrix of crawler purpose by URL sums
// it up; below, the crawlers that the file names in a group of their own
// come first, then the others by purpose; a text box, purpose chips and a
// verdict choice filter them, and a list sorts them. Each cell shows the
// verdict, the deciding rule as the file writes it, and the usage
// preferences that apply.
import { $, el, breakable, linesOf, patchList } from "./dom.js";

// The purposes of the crawler list (internal/crawlers), in the order the
// audit shows them, with the usage preference categories that concern
// each: a preference that says no to one of them marks an allowed fetch
// as restricted by preference. Content-Usage has the three categories of
// draft-ietf-aipref-vocab-08 (train-ai, ai-use, search); its AI Use
// (section 4.2: content fed to a generative model without the user
// handing it over) is what AI input crawlers do, and AI search answers,
// which summarise, fall under it rather than under Search (section 4.3).
const purposes = [
  { id: "ai-training", label: "AI training", uses: ["train_ai", "signal.ai_train"] },
  { id: "ai-input", label: "AI input", uses: ["ai_use", "signal.ai_input"] },
  { id: "ai-search", label: "AI search", uses: ["search", "ai_use", "signal.search", "signal.ai_input"] },
  { id: "ai-other", label: "AI, other", uses: null }, // use undocumented: every preference concerns it
  { id: "search", label: "Search", uses: ["search", "signal.search"] },
];
const purposeOf = new Map(purposes.map((p, i) => [p.id, { ...p, rank: i }]));
const purposeLabel = (id) => (purposeOf.get(id) || { label: id }).label;
const purposeRank = (id) => (purposeOf.has(id) ? purposeOf.get(id).rank : purposes.length);

// preferences lists the usage preferences that apply to a result and say
// yes or no: [{key, name, source, preference, line}], key as in purposes'
// uses ("train_ai", "ai_use", "signal.ai_train"), name as written in
// robots.txt ("ai-use").
function preferences(usage) {
  const out = [];
  if (!usage || !usage.fetchable) return out;
  const add = (source, prefix, obj) => {
    for (const [k, d] of Object.entries(obj || {})) {
      if (!d || typeof d !== "object" || !("preference" in d) || d.preference === "unknown") continue;
      out.push({ key: prefix + k, name: k.replaceAll("_", "-"), source, preference: d.preference, line: d.line });
    }
  };
  add("Content-Usage", "", usage);
  add("Content-Signal", "signal.", usage.signal);
  return out;
}

// ruleOf reads a result's deciding rule: null when none applied, else
// {line, kind, pattern}.
function ruleOf(r) {
  return r && r.line ? r : null;
}

// cellOf describes crawler c at URL i: its verdict, the deciding rule
// as written in lines, the preferences that apply, and its state for the
// matrix: "disallowed", "preference" (may fetch, but a preference says no
// to the crawler's use) or "allowed".
function cellOf(c, i, lines) {
  const r = c.results[i];
  const rule = ruleOf(r.rule);
  const prefs = preferences(r.usage);
  const uses = (purposeOf.get(c.purpose) || {}).uses;
  const restricts = prefs.filter((p) => p.preference === "disallow" && (!uses || uses.includes(p.key)));
  return {
    allowed: r.allowed,
    rule: rule && { line: rule.line, written: (lines[rule.line - 1] || `${rule.kind}: ${rule.pattern}`).trim() },
    prefs: prefs.map((p) => ({ ...p, restricts: restricts.includes(p) })),
    state: !r.allowed ? "disallowed" : restricts.length ? "preference" : "allowed",
    // What package guard does on the site where it differs from the
    // verdict (a crawler's documented fallback group): "refuses" or
    // "passes"; "" when they agree or no crawler sends the name.
    guard: c.kind !== "crawler" ? "" : r.guard_refuses && r.allowed ? "refuses" : !r.guard_refuses && !r.allowed ? "passes" : "",
  };
}

// shortURLs returns the URLs as the headers show them: paths alone when
// they all share one origin.
function shortURLs(urls) {
  const origin = (u) => {
    try {
      const p = new URL(u);
      return p.origin;
    } catch {
      return null;
    }
  };
  const o = urls.map(origin);
  if (o.some((x) => x === null || x !== o[0])) return urls;
  return urls.map((u) => {
    const p = new URL(u);
    return p.pathname + p.search;
  });
}

// usageLines writes preferences one line per source line, such as
// "Content-Signal, line 7: search=allow, ai-train=disallow", a preference
// that says no to the crawler's use in bold.
function usageLines(prefs) {
  const lines = new Map();
  for (const p of prefs) {
    const key = `${p.source}, line ${p.line}`;
    if (!lines.has(key)) lines.set(key, []);
    lines.get(key).push(p);
  }
  return [...lines].map(([key, ps]) => el("span", { class: "pref" }, `${key}: `,
    ...ps.flatMap((p, i) => [i ? ", " : "", el(p.restricts ? "strong" : "span", { class: p.restricts ? "item restricts" : "item" }, `${p.name}=${p.preference}`)])));
}

const verdictText = (allowed) => (allowed ? "ALLOWED" : "DISALLOWED");

export class AuditView {
  constructor({ onRender }) {
    this.onRender = onRender;
    this.rep = null;
    this.lines = [];
    this.current = () => true;
    this.filter = { text: "", purposes: new Set(purposes.map((p) => p.id)), show: "all", sort: "group" };
    this.controls();
  }

  // controls wires the filter and sort controls.
  controls() {
    const chips = $("audit-purposes");
    chips.replaceChildren(...purposes.map((p) => {
      const b = el("button", { type: "button", class: "chip", "data-purpose": p.id, "aria-pressed": "true" },
        p.label, el("span", { class: "chip-count" }, ""));
      b.addEventListener("click", () => {
        const on = b.getAttribute("aria-pressed") !== "true";
        b.setAttribute("aria-pressed", String(on));
        if (on) this.filter.purposes.add(p.id);
        else this.filter.purposes.delete(p.id);
        this.rows();
      });
      return b;
    }));
    $("audit-filter").addEventListener("input", (e) => {
      this.filter.text = e.target.value.trim().toLowerCase();
      this.rows();
    });
    for (const radio of document.querySelectorAll('input[name="audit-show"]')) {
      radio.addEventListener("change", (e) => {
        this.filter.show = e.target.value;
        this.rows();
      });
    }
    $("audit-sort").addEventListener("change", (e) => {
      this.filter.sort = e.target.value;
      this.rows();
    });
  }

  error(text) {
    $("audit-intro").textContent = text;
  }

  // show draws report rep of the file robots; current() turns false when a
  // newer report arrives.
  show(rep, robots, current) {
    this.rep = rep;
    this.current = current;
    this.lines = linesOf(robots);
    this.crawlers = rep.crawlers.map((c) => ({ ...c, cells: c.results.map((_, i) => cellOf(c, i, this.lines)) }));
    this.crawlers.forEach((c) => { c.blocked = c.cells.filter((x) => !x.allowed).length; });
    this.short = shortURLs(rep.urls);
    this.intro();
    this.matrix();
    this.head();
    this.rows();
    this.tokens();
  }

  intro() {
    const rep = this.rep;
    const own = this.crawlers.filter((c) => c.specific);
    $("audit-intro").replaceChildren(
      `What the file says to ${rep.crawlers.length} well-known crawlers (list: ${rep.source.name}, ${rep.source.date}, ${rep.source.license}); `,
      `${rep.preference_lines} Content-Usage/Content-Signal line${rep.preference_lines === 1 ? "" : "s"}. `,
      own.length ? `${own.length} named by a group of their own: ${own.map((c) => c.name).join(", ")}.` : "No group names any of them: the * group answers them all.");
    const outside = rep.preferences_outside_groups || [];
    if (outside.length) {
      $("audit-intro").append(el("strong", { class: "warning" }, ` The preference line${outside.length === 1 ? "" : "s"} on line ${outside.join(", ")} ` +
        "stand before the first user-agent line and apply to no crawler: put them in a group (User-agent: * for every crawler)."));
    }
    const warn = $("audit-truncated");
    warn.hidden = !rep.truncated;
    if (rep.truncated) {
      warn.textContent = `Warning: the file is longer than ${rep.limit ? rep.limit.toLocaleString("en-US") + " bytes" : "Google's limit"}; ` +
        "Google and this audit read only that much, so what follows is ignored.";
    }
    const licenses = rep.licenses || [];
    $("audit-licenses").hidden = licenses.length === 0;
    $("audit-license-list").replaceChildren(...licenses.map((u) => el("li", {},
      /^https?:\/\//i.test(u) ? el("a", { href: u, rel: "noopener noreferrer", target: "_blank" }, ...breakable(u)) : el("code", {}, u))));
  }

  // matrix draws the summary: one row per URL, one column per purpose;
  // each cell a bar of its crawlers that may not fetch, may fetch but are
  // asked not to use, and may fetch, with the counts in words.
  matrix() {
    const rep = this.rep;
    const present = purposes.filter((p) => this.crawlers.some((c) => c.purpose === p.id));
    const head = el("tr", {}, el("th", { scope: "col" }, "URL"),
      ...present.map((p) => el("th", { scope: "col", "data-purpose": p.id }, p.label)));
    const rows = rep.urls.map((u, i) => el("tr", {},
      el("th", { scope: "row", class: "url", title: u }, ...breakable(this.short[i])),
      ...present.map((p) => {
        const cs = this.crawlers.filter((c) => c.purpose === p.id).map((c) => c.cells[i].state);
        const n = { disallowed: 0, preference: 0, allowed: 0 };
        for (const s of cs) n[s]++;
        const words = `${p.label} at ${u}: ${n.disallowed} of ${cs.length} may not fetch` +
          (n.preference ? `, ${n.preference} may fetch but are asked not to use it` : "") + `, ${n.allowed} may fetch.`;
        const state = n.disallowed === cs.length ? "disallowed" : n.allowed === cs.length ? "allowed" : n.preference === cs.length ? "preference" : "mixed";
        return el("td", { "data-purpose": p.id, "data-state": state, title: words },
          el("span", { class: "bar", "aria-hidden": "true" },
            ...["disallowed", "preference", "allowed"].filter((s) => n[s] > 0).map((s) => el("span", { class: `seg ${s}`, style: `flex-grow:${n[s]}` }))),
          el("span", { class: "count", "aria-hidden": "true" }, `${n.disallowed}/${cs.length}`),
          el("span", { class: "sr-only" }, words));
      })));
    $("audit-matrix").replaceChildren(el("thead", {}, head), el("tbody", {}, ...rows));
    $("audit-matrix").style.setProperty("--purposes", String(present.length));
    for (const b of $("audit-purposes").children) {
      const n = this.crawlers.filter((c) => c.purpose === b.dataset.purpose).length;
      b.hidden = n === 0;
      b.querySelector(".chip-count").textContent = ` ${n}`;
    }
  }

  head() {
    const key = JSON.stringify(this.rep.urls);
    if ($("audit-head").dataset.sig === key) return;
    $("audit-head").dataset.sig = key;
    $("audit-head").replaceChildren(el("tr", {}, el("th", { scope: "col" }, "Crawler"), el("th", { scope: "col" }, "Purpose"),
      ...this.rep.urls.map((u, i) => el("th", { scope: "col", class: "url", title: u }, ...breakable(this.short[i])))));
  }

  // visible returns the crawlers the filter lets through, sorted.
  visible() {
    const f = this.filter;
    let list = this.crawlers.filter((c) => f.purposes.has(c.purpose) || !purposeOf.has(c.purpose));
    if (f.text) list = list.filter((c) => c.name.toLowerCase().includes(f.text) || c.token.toLowerCase().includes(f.text));
    if (f.show === "blocked") list = list.filter((c) => c.blocked > 0);
    if (f.show === "allowed") list = list.filter((c) => c.blocked === 0);
    const byName = (a, b) => a.name.localeCompare(b.name, "en", { sensitivity: "base" });
    const byGroup = (a, b) => (b.specific - a.specific) || (purposeRank(a.purpose) - purposeRank(b.purpose)) || byName(a, b);
    const sorts = {
      group: byGroup,
      name: byName,
      blocked: (a, b) => (b.blocked - a.blocked) || byGroup(a, b),
      purpose: (a, b) => (purposeRank(a.purpose) - purposeRank(b.purpose)) || byName(a, b),
    };
    return list.sort(sorts[f.sort] || byGroup);
  }

  rows() {
    if (!this.rep) return;
    const list = this.visible();
    $("audit-count").textContent = `Showing ${list.length} of ${this.crawlers.length} crawlers.`;
    $("audit-empty").hidden = list.length > 0;
    const short = this.short;
    const sig = (i) => JSON.stringify([list[i].name, list[i].specific, list[i].read_as, list[i].named_on_lines, list[i].cells, short]);
    const build = (i) => {
      const c = list[i];
      return el("tr", { class: "audit-row", "data-name": c.name, "data-purpose": c.purpose, "data-specific": String(c.specific) },
        el("th", { scope: "row", class: "crawler" }, el("span", { class: "name" }, c.name),
          c.specific ? el("span", { class: "badge own", title: "a group of the file names this crawler" }, "own group") : "",
          c.read_as ? el("span", { class: "read-as", title: "Google's product-token rule reads the name this way" }, ` read as ${c.read_as}`) : ""),
        el("td", { class: "purpose", "data-label": "Purpose" }, purposeLabel(c.purpose)),
        ...c.cells.map((x, j) => el("td", { class: "cell", "data-verdict": x.allowed ? "allowed" : "disallowed", "data-state": x.state, "data-url": short[j] },
          el("span", { class: "verdict" }, verdictText(x.allowed)),
          x.rule ? el("span", { class: "rule" }, el("span", { class: "line" }, `line ${x.rule.line}: `), el("code", {}, x.rule.written)) : el("span", { class: "rule none" }, "no rule applies"),
          x.prefs.length ? el("span", { class: "usage" }, ...usageLines(x.prefs)) : "",
          x.guard ? el("span", { class: "guard", "data-guard": x.guard }, x.guard === "refuses" ? "the site's guard refuses it: the crawler's documented fallback group disallows it" : "the site's guard lets it through") : "")));
    };
    this.onRender(patchList($("audit-rows"), list.length, sig, build, this.current));
  }

  tokens() {
    const differs = this.crawlers.filter((c) => c.read_as);
    $("audit-tokens").textContent = `Google's product-token rule (leading letters, '-' and '_') reads ${differs.length} of these names differently from how they are written: ` +
      differs.map((c) => `${c.name} as ${c.read_as}` + (c.named_on_lines ? ` (line ${c.named_on_lines.join(", ")})` : "")).join("; ") + ".";
  }
}
