//go:build js && wasm

// Command wasm is the browser tester's engine: robotstxt compiled to
// WebAssembly. It defines one JavaScript function on the page,
//
//	robotstxtCheck(robots, agent, urls) -> JSON string
//	robotstxtAudit(robots, urls) -> JSON string
//
// whose results are a web.Result and an audit report (web.Audit), and
// then waits for calls.
package main

import (
	"encoding/json"
	"syscall/js"

	"github.com/seed50c7eacc/robotstxt/web"
)

func main() {
	js.Global().Set("robotstxtCheck", js.FuncOf(func(_ js.Value, args []js.Value) any {
		if len(args) != 3 {
			return `{"error":"robotstxtCheck needs three strings: robots, agent, urls"}`
		}
		out, err := json.Marshal(web.Check(args[0].String(), args[1].String(), args[2].String()))
		if err != nil {
			return `{"error":"cannot encode the result"}`
		}
		return string(out)
	}))
	js.Global().Set("robotstxtAudit", js.FuncOf(func(_ js.Value, args []js.Value) any {
		if len(args) != 2 {
			return `{"error":"robotstxtAudit needs two strings: robots, urls"}`
		}
		rep, err := web.Audit(args[0].String(), args[1].String())
		if err != nil {
			return `{"error":"the crawler list did not load"}`
		}
		out, err := json.Marshal(rep)
		if err != nil {
			return `{"error":"cannot encode the audit"}`
		}
		return string(out)
	}))
	select {}
}
