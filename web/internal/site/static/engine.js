// An Engine runs the WebAssembly engine (worker.js) in a Web Worker, so
// that checking a large file never blocks typing. The newest question
// wins: while a job runs, a newer one waits in its place and replaces any
// older waiting one; the running job's answer, stale by then, is dropped.
// A worker still busy with a stale job after stuckMs is terminated and a
// fresh one started from the same compiled module; so is a worker that
// fails, and its question is asked once more. An engine asks one kind of
// question (worker.js): "check" (the tester's check and audit),
// "compare" or "witness" (the compare view's).

export class Engine {
  // module is the compiled robotstxt.wasm; onAnswer(msg, args) gets
  // each answer (the check, then the audit) that is not stale; onChange()
  // is told whenever the engine becomes busy or idle.
  constructor(module, { onAnswer, onChange, stuckMs = 1000, kind = "check" }) {
    Object.assign(this, { module, onAnswer, onChange, stuckMs, kind });
    this.running = null; // {seq, args, retried, started}
    this.waiting = null; // {seq, args}
    this.auditOwed = false; // an audit was asked for and not yet answered
    this.restarts = 0; // workers replaced: stuck on a stale job, or failed
    this.dropped = 0;  // stale answers dropped
    this.timer = 0;
    this.start();
  }

  get busy() { return this.running !== null || this.waiting !== null; }

  start() {
    this.worker = new Worker("worker.js");
    this.worker.onmessage = (e) => this.answer(e.data);
    this.worker.onerror = (e) => {
      e.preventDefault();
      this.failed(`the checker failed: ${e.message}`);
    };
    this.worker.postMessage({ module: this.module });
  }

  // ask asks the worker for the question numbered seq: for a check, args
  // are robots, agent, urls and whether to audit too.
  ask(seq, args) {
    // A question that replaces one with an audit asks for the audit too.
    if (this.kind === "check") {
      if (this.auditOwed) args = [...args.slice(0, 3), true];
      if (args[3]) this.auditOwed = true;
    }
    const job = { seq, args };
    if (this.running) {
      this.waiting = job;
      this.watch();
    } else {
      this.send(job);
    }
    this.onChange();
  }

  send(job) {
    this.running = { seq: job.seq, args: job.args, retried: !!job.retried, started: performance.now() };
    this.worker.postMessage({ seq: job.seq, kind: this.kind, args: job.args });
  }

  // watch restarts the worker if it is still on its stale job stuckMs
  // after that job began.
  watch() {
    clearTimeout(this.timer);
    const left = this.running.started + this.stuckMs - performance.now();
    this.timer = setTimeout(() => {
      if (!this.running || !this.waiting) return;
      this.worker.terminate();
      this.restarts++;
      this.running = null;
      this.start();
      this.next();
    }, Math.max(0, left));
  }

  // next sends the waiting job, if any.
  next() {
    const job = this.waiting;
    this.waiting = null;
    if (job) this.send(job);
    this.onChange();
  }

  // failed replaces a worker that failed (it could not start, or its
  // engine threw) and asks the running question once more; a question
  // that fails twice is answered with the error.
  failed(error) {
    const job = this.running;
    this.worker.terminate();
    this.restarts++;
    this.running = null;
    this.start();
    if (job && !job.retried && !this.waiting) {
      this.send({ seq: job.seq, args: job.args, retried: true });
      return;
    }
    if (job && !this.waiting) this.onAnswer({ seq: job.seq, fn: this.kind, error }, job.args);
    this.next();
  }

  answer(msg) {
    const job = this.running;
    if (!job || msg.seq !== job.seq) return; // a terminated worker's last word
    if (msg.error) {
      this.failed(msg.error);
      return;
    }
    if (msg.partial) {
      if (this.waiting) this.dropped++;
      else this.onAnswer(msg, job.args);
      return;
    }
    this.running = null;
    clearTimeout(this.timer);
    if (this.waiting) {
      this.dropped++;
      this.next(); // msg answers a stale question: dropped
      return;
    }
    if (msg.fn === "audit") this.auditOwed = false;
    if (msg.fn !== "done") this.onAnswer(msg, job.args);
    this.onChange();
  }
}
