// The browser tester's engine, off the page's main thread: robotstxt
// compiled to WebAssembly, run by Go's wasm_exec.js. The page sends the
// compiled module once ({module}), then jobs ({seq, args: [robots, agent,
// urls, audit]}). Each job is answered with the check,
// {seq, fn: "check", result, ms, partial: true}, then with the audit when
// audit is true, {seq, fn: "audit", result, ms}, or else {seq, fn: "done"};
// a failure with {seq, fn, error}. One worker does both in turn, so that
// on a two-core machine one core is left for the page. The page drops answers to stale jobs, and terminates
// a worker stuck on one to start a fresh one from the same module.
"use strict";
importScripts("wasm_exec.js");

let ready = null; // resolves once robotstxtCheck and robotstxtAudit exist

self.onmessage = async (e) => {
  const msg = e.data;
  if (msg.module) {
    const go = new Go();
    ready = WebAssembly.instantiate(msg.module, go.importObject).then((instance) => {
      go.run(instance); // defines the functions, then waits for calls
    });
    return;
  }
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
