// Command wasm is the browser tester's engine: robotstxt compiled to
// WebAssembly (GOOS=js GOARCH=wasm). See main.go, and web.Build, which
// compiles it.
package main
