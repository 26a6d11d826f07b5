// Command serve builds the browser tester and serves it on localhost, or
// writes it to a directory for hosting anywhere:
//
//	go run ./web/serve                      # http://localhost:8080/
//	go run ./web/serve -addr 127.0.0.1:0    # any free port; the URL is printed
//	go run ./web/serve -out site/           # write the static site and exit
//
// It needs the go command, to compile the library to WebAssembly, and runs
// from within this module.
package main

import (
	"flag"
	"fmt"
	"log"
	"net"
	"net/http"
	"os"

	"github.com/seed50c7eacc/robotstxt/web"
)

func main() {
	addr := flag.String("addr", "localhost:8080", "address to listen on")
	out := flag.String("out", "", "write the static site to this directory and exit")
	flag.Parse()
	log.SetFlags(0)
	log.SetPrefix("serve: ")

	dir := *out
	if dir == "" {
		tmp, err := os.MkdirTemp("", "robotstxt-web-")
		if err != nil {
			log.Fatal(err)
		}
		defer os.RemoveAll(tmp)
		dir = tmp
	}
	if err := web.Build(dir); err != nil {
		log.Fatal(err)
	}
	if *out != "" {
		fmt.Printf("wrote %s\n", dir)
		return
	}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		log.Fatal(err)
	}
	// Tests read this line to learn the port.
	fmt.Printf("serving http://%s/\n", ln.Addr())
	log.Fatal(http.Serve(ln, web.Handler(dir)))
}
