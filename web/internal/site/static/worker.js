// The browser tester's engine, off the page's main thread: robotstxt
// compiled to WebAssembly, run by Go's wasm_exec.js. The page sends the
// compiled module once ({module}), then jobs ({seq, args: [robots, agent,
// urls, audit]}). Each job is answered with the check,
// {seq, fn: "check", result, ms, partial: true}, then with the audit when
// audit is true, {seq, fn: "audit", result, ms}, or else {seq, fn: "done"};
// a failure with {seq, fn, error}. One worker does both in turn, so that
// on a two-core machine one core is left for the page. The page drops answers to stale jobs, and terminates
// a worker stuck on one to start a fresh one from the same module.
//
// The compare view has workers of its own: a job of kind "compare"
// ({seq, kind, args: [old, new]}) is answered with the line marks,
// {seq, fn: "lines", result, partial: true}, then with the diff, {seq,
// fn: "diff", result, ms, cached}; the diff of the last pair compared is
// kept, so that asking again costs nothing. A job of kind "witness"
// ({seq, kind, args: [old, new, agent, url]}) is answered with the URL's
// verdicts on both versions, {seq, fn: "witness", result, ms}.
"use strict";
importScripts("wasm_exec.js");

let ready = null; // resolves once robotstxtCheck and robotstxtAudit exist
let compared = null; // {old, new, result} of the last diff

self.onmessage = async (e) => {
  const msg = e.data;
  if (msg.module) {
    const go = new Go();
    ready = WebAssembly.instantiate(msg.module, go.importObject).then((instance) => {
      go.run(instance); // defines the functions, then waits for calls
    });
    return;
  }
  if (msg.kind === "compare") return compare(msg);
  if (msg.kind === "witness") return witness(msg);
  const [robots, agent, urls, audit] = msg.args;
  let fn = "check";
  try {
    await ready;
    let start = performance.now();
    const check = JSON.parse(globalThis.robotstxtCheck(robots, agent, urls));
    self.postMessage({ seq: msg.seq, fn, result: check, ms: performance.now() - start, partial: true });
    if (!audit) {
      self.postMessage({ seq: msg.seq, fn: "done" });
      return;
    }
    fn = "audit";
    start = performance.now();
    const result = JSON.parse(globalThis.robotstxtAudit(robots, urls));
    self.postMessage({ seq: msg.seq, fn, result, ms: performance.now() - start });
  } catch (err) {
    self.postMessage({ seq: msg.seq, fn, error: String(err && err.message || err) });
  }
};

async function compare(msg) {
  const [old, now] = msg.args;
  let fn = "lines";
  try {
    await ready;
    let start = performance.now();
    const lines = JSON.parse(globalThis.robotstxtLines(old, now));
    self.postMessage({ seq: msg.seq, fn, result: lines, ms: performance.now() - start, partial: true });
    fn = "diff";
    const cached = compared !== null && compared.old === old && compared.new === now;
    start = performance.now();
    if (!cached) compared = { old, new: now, result: JSON.parse(globalThis.robotstxtCompare(old, now)) };
    self.postMessage({ seq: msg.seq, fn, result: compared.result, ms: performance.now() - start, cached });
  } catch (err) {
    self.postMessage({ seq: msg.seq, fn, error: String(err && err.message || err) });
  }
}

async function witness(msg) {
  const [old, now, agent, url] = msg.args;
  try {
    await ready;
    const start = performance.now();
    const result = JSON.parse(globalThis.robotstxtWitness(old, now, agent, url));
    self.postMessage({ seq: msg.seq, fn: "witness", result, ms: performance.now() - start });
  } catch (err) {
    self.postMessage({ seq: msg.seq, fn: "witness", error: String(err && err.message || err) });
  }
}
