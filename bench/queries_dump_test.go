package bench

import (
	"bufio"
	"bytes"
	"flag"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/seed50c7eacc/robotstxt"
	"github.com/seed50c7eacc/robotstxt/internal/testsupport/corpus"
)

// queriesOut names the file TestDumpQueries writes. Harnesses that measure
// libraries in other languages (Google's C++ library, its forks) read it,
// so that they parse the same bytes and ask the same questions as
// BenchmarkParseCheck and the root module's BenchmarkParseCheckCorpus.
var queriesOut = flag.String("queries-out", "", "write the corpus files and their queries to this `file` (TestDumpQueries)")

// queriesHeader opens the dump; a reader rejects any other first line.
const queriesHeader = "robotstxt-queries 1"

// queryFile is one corpus file with what a crawler asks of it.
type queryFile struct {
	Name         string
	Body         []byte
	Agents, URLs []string
}

// writeQueries writes files in the dump format: the header line, the
// number of files, then per file a line "NAME<TAB>BODY-BYTES<TAB>AGENTS<TAB>URLS",
// the body's bytes and a newline, one agent per line and one URL per line.
// Bodies are counted, not escaped, so any byte may occur in them; names,
// agents and URLs hold no newline (corpus.Queries builds them from single
// lines).
func writeQueries(w io.Writer, files []queryFile) error {
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "%s\n%d\n", queriesHeader, len(files))
	for _, f := range files {
		for _, s := range append(append([]string{f.Name}, f.Agents...), f.URLs...) {
			if strings.ContainsAny(s, "\n\t") {
				return fmt.Errorf("file %s: %q holds a tab or newline", f.Name, s)
			}
		}
		fmt.Fprintf(bw, "%s\t%d\t%d\t%d\n", f.Name, len(f.Body), len(f.Agents), len(f.URLs))
		bw.Write(f.Body)
		bw.WriteByte('\n')
		for _, s := range f.Agents {
			fmt.Fprintf(bw, "%s\n", s)
		}
		for _, s := range f.URLs {
			fmt.Fprintf(bw, "%s\n", s)
		}
	}
	return bw.Flush()
}

// readQueries reads what writeQueries wrote.
func readQueries(r io.Reader) ([]queryFile, error) {
	br := bufio.NewReader(r)
	line := func() (string, error) {
		s, err := br.ReadString('\n')
		if err != nil {
			return "", err
		}
		return strings.TrimSuffix(s, "\n"), nil
	}
	if h, err := line(); err != nil || h != queriesHeader {
		return nil, fmt.Errorf("not a queries dump (first line %q, %v)", h, err)
	}
	s, err := line()
	if err != nil {
		return nil, err
	}
	n, err := strconv.Atoi(s)
	if err != nil {
		return nil, fmt.Errorf("file count: %v", err)
	}
	var files []queryFile
	for i := 0; i < n; i++ {
		s, err := line()
		if err != nil {
			return nil, err
		}
		fields := strings.Split(s, "\t")
		if len(fields) != 4 {
			return nil, fmt.Errorf("file %d: header %q", i, s)
		}
		var counts [3]int
		for j := range counts {
			if counts[j], err = strconv.Atoi(fields[j+1]); err != nil {
				return nil, fmt.Errorf("file %d: %v", i, err)
			}
		}
		f := queryFile{Name: fields[0], Body: make([]byte, counts[0])}
		if _, err := io.ReadFull(br, f.Body); err != nil {
			return nil, err
		}
		if b, err := br.ReadByte(); err != nil || b != '\n' {
			return nil, fmt.Errorf("file %d: body not followed by a newline", i)
		}
		for j := 0; j < counts[1]+counts[2]; j++ {
			s, err := line()
			if err != nil {
				return nil, err
			}
			if j < counts[1] {
				f.Agents = append(f.Agents, s)
			} else {
				f.URLs = append(f.URLs, s)
			}
		}
		files = append(files, f)
	}
	return files, nil
}

// TestQueriesFormat checks that a dump reads back as written, bodies with
// newlines, NUL and no final newline included.
func TestQueriesFormat(t *testing.T) {
	want := []queryFile{
		{Name: "a.txt", Body: []byte("User-agent: *\nDisallow: /x\n"), Agents: []string{"Googlebot"}, URLs: []string{"https://example.com/", "https://example.com/x"}},
		{Name: "b.txt", Body: []byte("a\x00b\r\n\n\nno final newline"), Agents: []string{"Googlebot", "bingbot"}, URLs: []string{"https://example.com/"}},
		{Name: "empty.txt", Body: []byte{}, Agents: []string{"Googlebot"}, URLs: []string{"https://example.com/"}},
	}
	var buf bytes.Buffer
	if err := writeQueries(&buf, want); err != nil {
		t.Fatal(err)
	}
	got, err := readQueries(&buf)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("read back (-want +got):\n%s", diff)
	}
	if err := writeQueries(io.Discard, []queryFile{{Name: "x", URLs: []string{"a\nb"}}}); err == nil {
		t.Error("a URL with a newline was written")
	}
}

// TestDumpQueries writes the corpus, each file cut at DefaultMaxSize, with
// the agents and URLs of corpus.Queries, to the file named by -queries-out:
//
//	go test -run '^TestDumpQueries$' -queries-out /tmp/queries.txt .
//
// The parse + N checks benchmarks ask file j the questions
// ("Googlebot", URLs[k mod len(URLs)]) for k = 0..N-1.
func TestDumpQueries(t *testing.T) {
	if *queriesOut == "" {
		t.Skip("set -queries-out FILE to write the queries dump")
	}
	names, bodies := corpus.Load(t, robotstxt.DefaultMaxSize)
	files := make([]queryFile, len(names))
	for i := range names {
		agents, urls := corpus.Queries(bodies[i])
		files[i] = queryFile{Name: names[i], Body: bodies[i], Agents: agents, URLs: urls}
	}
	out, err := os.Create(*queriesOut)
	if err != nil {
		t.Fatal(err)
	}
	if err := writeQueries(out, files); err != nil {
		out.Close()
		t.Fatal(err)
	}
	if err := out.Close(); err != nil {
		t.Fatal(err)
	}
	in, err := os.Open(*queriesOut)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	back, err := readQueries(in)
	if err != nil {
		t.Fatal(err)
	}
	if len(back) != len(files) {
		t.Fatalf("the dump reads back %d files, wrote %d", len(back), len(files))
	}
	for i := range files {
		if !bytes.Equal(back[i].Body, files[i].Body) || back[i].Name != files[i].Name ||
			!slices.Equal(back[i].Agents, files[i].Agents) || !slices.Equal(back[i].URLs, files[i].URLs) {
			t.Fatalf("file %s reads back differently", files[i].Name)
		}
	}
	t.Logf("%d files, %d bytes of robots.txt, to %s", len(files), corpus.Size(bodies), *queriesOut)
}
