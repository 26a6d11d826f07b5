// Small DOM helpers shared by the page's modules.

export const $ = (id) => document.getElementById(id);

// el creates an element with attributes (class, data-*, aria-*, or
// properties) and children.
export function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null) continue;
    if (k === "class") node.className = v;
    else if (k.startsWith("data-") || k.startsWith("aria-") || k === "role" || k === "scope") node.setAttribute(k, v);
    else node[k] = v;
  }
  for (const c of children) if (c !== null && c !== undefined && c !== "") node.append(c);
  return node;
}

// breakable returns a URL as text with a line break opportunity (<wbr>)
// after each '/', '?', '&' and '=', so that a narrow column wraps it between
// its parts rather than anywhere.
export function breakable(url) {
  const parts = [];
  for (const piece of url.split(/(?<=[/?&=])/)) parts.push(piece, document.createElement("wbr"));
  parts.pop();
  return parts;
}

// yieldToBrowser lets the browser handle input and draw a frame before
// the caller goes on with a long piece of work.
export function yieldToBrowser() {
  if (globalThis.scheduler && typeof globalThis.scheduler.yield === "function") return globalThis.scheduler.yield();
  return new Promise((resolve) => setTimeout(resolve, 0));
}

// patchList makes list's children the n items that build(i) makes,
// rebuilding only those whose signature sig(i) changed since the last
// patch, in slices of a few milliseconds between which the browser
// handles input and draws: a 15,000-line file never blocks typing. It
// stops, returning false, as soon as current() does.
export async function patchList(list, n, sig, build, current) {
  const kids = list.children;
  let sliceEnd = performance.now() + 8;
  let fragment = null; // new items past the end, appended together
  const flush = () => {
    if (fragment) list.append(fragment);
    fragment = null;
  };
  for (let i = 0; i < n; i++) {
    const s = sig(i);
    const old = i < kids.length ? kids[i] : null;
    if (!old || old.dataset.sig !== s) {
      const node = build(i);
      node.dataset.sig = s;
      if (old) old.replaceWith(node);
      else (fragment ||= document.createDocumentFragment()).append(node);
    }
    if ((i & 127) === 127 && performance.now() > sliceEnd) {
      flush();
      await yieldToBrowser();
      if (!current()) return false;
      sliceEnd = performance.now() + 8;
    }
  }
  flush();
  while (kids.length > n) list.lastElementChild.remove();
  return true;
}

// chunkSize is how many items patchChunks puts in one chunk.
export const chunkSize = 256;

// patchChunks is patchList for long lists: the n items go into chunks of
// chunkSize, each a <tag class="chunk"> inside container, which the page's
// style lets the browser skip (content-visibility: auto) while out of view.
// A 15,000-line file is 60 chunks to track rather than 15,000 lines, and
// a frame lays out and paints only the chunks in view.
export async function patchChunks(container, tag, n, sig, build, current) {
  const chunks = Math.ceil(n / chunkSize);
  const kids = container.children;
  while (kids.length > chunks) container.lastElementChild.remove();
  while (kids.length < chunks) container.append(document.createElement(tag));
  // A short list is drawn whole; only a long one lets the browser skip
  // chunks out of view (which a full-page screenshot would show empty).
  container.classList.toggle("long", chunks > 2);
  let sliceEnd = performance.now() + 8;
  for (let c = 0; c < chunks; c++) {
    const chunk = kids[c];
    chunk.className = "chunk";
    if (tag === "ol") chunk.start = c * chunkSize + 1;
    const first = c * chunkSize, count = Math.min(chunkSize, n - first);
    const items = chunk.children;
    for (let i = 0; i < count; i++) {
      const s = sig(first + i);
      const old = i < items.length ? items[i] : null;
      if (old && old.dataset.sig === s) continue;
      const node = build(first + i);
      node.dataset.sig = s;
      if (old) old.replaceWith(node);
      else chunk.append(node);
    }
    while (items.length > count) chunk.lastElementChild.remove();
    if (performance.now() > sliceEnd) {
      await yieldToBrowser();
      if (!current()) return false;
      sliceEnd = performance.now() + 8;
    }
  }
  return true;
}

let splitText = null, splitLines = [];

// linesOf returns text's lines as Google numbers them (a line ends at CR,
// LF or CR LF; the empty line after a last line end is not counted),
// splitting a given text only once: the check and the audit of one edit
// share the split of a 500 KiB file.
export function linesOf(text) {
  if (text !== splitText) {
    splitLines = text.split(/\r\n|\r|\n/);
    if (splitLines.length > 1 && splitLines[splitLines.length - 1] === "") splitLines.pop();
    splitText = text;
  }
  return splitLines;
}
