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

// awayMargin is how far outside its scroller's view a chunk is still
// drawn, so that scrolling shows drawn lines.
const awayMargin = "1500px 0px";

// observers holds each container's IntersectionObserver, made by
// chunkObserver on the container's first long list.
const observers = new WeakMap();

// chunkObserver returns the observer that marks container's chunks "away"
// while they are out of view (and awayMargin beyond): the page's style
// then takes their items out of the layout, and the chunk keeps the height
// it had, so that the scrollbar and the other chunks stay where they were.
function chunkObserver(container) {
  let o = observers.get(container);
  if (!o) {
    o = new IntersectionObserver((entries) => {
      for (const e of entries) {
        const chunk = e.target;
        if (e.isIntersecting || !container.classList.contains("long")) {
          chunk.classList.remove("away");
          chunk.style.height = "";
        } else if (!chunk.classList.contains("away")) {
          chunk.style.height = `${e.boundingClientRect.height}px`;
          chunk.classList.add("away");
        }
      }
    }, { root: container, rootMargin: awayMargin });
    observers.set(container, o);
  }
  return o;
}

// drawChunkOf draws the chunk holding item now, if it is away, so that item
// has a box to scroll to and focus; the observer marks the chunk away
// again once it is out of view.
export function drawChunkOf(item) {
  const chunk = item.parentElement;
  if (chunk && chunk.classList.contains("away")) {
    chunk.classList.remove("away");
    chunk.style.height = "";
  }
}

// estimateAway gives the chunks of container that are away and were never
// drawn the height their items would take at the first chunk's height per
// item (lines that wrap make a drawn chunk taller; it then takes its own).
function estimateAway(container) {
  const first = container.firstElementChild;
  if (!first || first.classList.contains("away") || first.children.length === 0) return;
  const perItem = first.offsetHeight / first.children.length;
  for (const chunk of container.children) {
    if (chunk.classList.contains("away") && chunk.style.height === "") {
      chunk.style.height = `${Math.round(chunk.children.length * perItem)}px`;
    }
  }
}

// patchChunks is patchList for long lists: the n items go into chunks of
// chunkSize, each a <tag class="chunk"> inside container, which the page
// skips while out of view (chunkObserver). A 15,000-line file is 60 chunks
// to track rather than 15,000 lines, and a frame lays out and paints only
// the chunks in view.
export async function patchChunks(container, tag, n, sig, build, current) {
  const chunks = Math.ceil(n / chunkSize);
  const kids = container.children;
  const observer = chunkObserver(container);
  while (kids.length > chunks) {
    observer.unobserve(container.lastElementChild);
    container.lastElementChild.remove();
  }
  while (kids.length < chunks) {
    // A new chunk starts away (but the first two, which are in view at
    // the top) until the observer has seen where it is.
    const chunk = document.createElement(tag);
    if (kids.length >= 2) chunk.classList.add("away");
    container.append(chunk);
    observer.observe(chunk);
  }
  // A short list is drawn whole; only a long one lets the browser skip
  // chunks out of view (which a full-page screenshot would show empty).
  if (!container.classList.toggle("long", chunks > 2)) {
    for (const chunk of kids) {
      chunk.classList.remove("away");
      chunk.style.height = "";
    }
  }
  let sliceEnd = performance.now() + 8;
  for (let c = 0; c < chunks; c++) {
    const chunk = kids[c];
    chunk.classList.add("chunk");
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
  if (chunks > 2) estimateAway(container);
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
