//go:build js && wasm

// Command wasm is the browser tester's engine: robotstxt compiled to
// WebAssembly, run by the page's Web Worker (worker.js). It defines two
// JavaScript functions in the worker's global scope,
//
//	robotstxtCheck(robots, agent, urls) -> JSON string
//	robotstxtAudit(robots, urls) -> JSON string
//
// whose results are a tester.Result and an audit report (tester.Audit),
// and then waits for calls.
package main

import (
	"encoding/json"
	"syscall/js"

	"github.com/seed50c7eacc/robotstxt/diff"
	"github.com/seed50c7eacc/robotstxt/web/internal/tester"
)

func main() {
	js.Global().Set("robotstxtCheck", js.FuncOf(func(_ js.Value, args []js.Value) any {
		if len(args) != 3 {
			return `{"error":"robotstxtCheck needs three strings: robots, agent, urls"}`
		}
		out, err := json.Marshal(tester.Check(args[0].String(), args[1].String(), args[2].String()))
		if err != nil {
			return `{"error":"cannot encode the result"}`
		}
		return string(out)
	}))
	js.Global().Set("robotstxtAudit", js.FuncOf(func(_ js.Value, args []js.Value) any {
		if len(args) != 2 {
			return `{"error":"robotstxtAudit needs two strings: robots, urls"}`
		}
		rep, err := tester.Audit(args[0].String(), args[1].String())
		if err != nil {
			return `{"error":"the crawler list did not load"}`
		}
		out, err := json.Marshal(rep)
		if err != nil {
			return `{"error":"cannot encode the audit"}`
		}
		return string(out)
	}))
	js.Global().Set("robotstxtLines", js.FuncOf(func(_ js.Value, args []js.Value) any {
		if len(args) != 2 {
			return `{"error":"robotstxtLines needs two strings: old, new"}`
		}
		return encode(tester.Lines(args[0].String(), args[1].String()))
	}))
	js.Global().Set("robotstxtCompare", js.FuncOf(func(_ js.Value, args []js.Value) any {
		if len(args) != 2 {
			return `{"error":"robotstxtCompare needs two strings: old, new"}`
		}
		return encode(tester.Compare(args[0].String(), args[1].String(), compareWork))
	}))
	js.Global().Set("robotstxtWitness", js.FuncOf(func(_ js.Value, args []js.Value) any {
		if len(args) != 4 {
			return `{"error":"robotstxtWitness needs four strings: old, new, agent, url"}`
		}
		return encode(tester.Witness(args[0].String(), args[1].String(), args[2].String(), args[3].String()))
	}))
	select {}
}

// compareWork is the compare view's work budget: the command's default,
// so that the page and robotstxt diff decide the same crawlers. It bounds
// how long a diff holds the compare view's worker (a second or two on
// hostile files); typing never waits on it, and the answer to a diff that
// a newer edit superseded is dropped (compare.js).
const compareWork = diff.DefaultMaxWork

// encode returns v as JSON, or an error object.
func encode(v any) string {
	out, err := json.Marshal(v)
	if err != nil {
		return `{"error":"cannot encode the result"}`
	}
	return string(out)
}
