// Command expect answers the browser test's cases with the library itself,
// so that the test can check that the page answers the same.
//
//	go run ./web/e2e/expect web/e2e/spec-cases.json
//
// It prints the cases as JSON, each URL with the library's verdict and
// deciding line.
package main

import (
	"encoding/json"
	"fmt"
	"os"

	"github.com/seed50c7eacc/robotstxt"
)

type answer struct {
	URL     string `json:"url"`
	Allowed bool   `json:"allowed"`
	Line    int    `json:"line"`
}

type testCase struct {
	Section string   `json:"section"`
	Robots  string   `json:"robots"`
	Agent   string   `json:"agent"`
	URLs    []string `json:"urls"`
	Answers []answer `json:"answers"`
}

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: expect CASES.json")
		os.Exit(2)
	}
	data, err := os.ReadFile(os.Args[1])
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	var file struct {
		Cases []testCase `json:"cases"`
	}
	if err := json.Unmarshal(data, &file); err != nil {
		fmt.Fprintf(os.Stderr, "%s: %v\n", os.Args[1], err)
		os.Exit(2)
	}
	for i := range file.Cases {
		c := &file.Cases[i]
		r := robotstxt.ParseString(c.Robots)
		for _, u := range c.URLs {
			v := r.Explain(c.Agent, u)
			c.Answers = append(c.Answers, answer{URL: u, Allowed: v.Allowed, Line: v.Rule.Line})
		}
	}
	out, _ := json.MarshalIndent(file.Cases, "", " ")
	fmt.Println(string(out))
}
