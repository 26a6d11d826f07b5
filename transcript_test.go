package robotstxt_test

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"errors"
	"flag"
	"fmt"
	"hash/crc32"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/seed50c7eacc/robotstxt"
)

// The transcript, testdata/google-answers.gz, holds the answers of
// Google's robots.txt library (github.com/google/robotstxt, at the commit
// its header names) to every query of the generated files of
// transcript_gen_test.go: the verdict of
// RobotsMatcher::OneAgentAllowedByRobots and RobotsMatcher::matching_line(),
// with the URL in wire form. TestGoogleTranscript compares the library
// with it on every run; nothing of Google's but these answers is in the
// repository.
//
// Format, gzip-compressed: a text header of "key value..." lines ended by
// an empty line, then one record per file in file order:
//
//	fingerprint  4 bytes, little endian: CRC-32C of the file's body
//	             and its queries, so that a generator that drifts is
//	             caught, not compared with answers to other questions
//	count        uvarint: the number of queries
//	answers      count uvarints: matching line << 1 | 1 if allowed
const transcriptFile = "testdata/google-answers.gz"

// googleCommit is the commit of google/robotstxt whose answers are
// recorded.
const googleCommit = "22b355ff855419e6a3ff8ff09c0ad7fdb17116f9"

// Recording sizes: every file up to trTranscriptQueries queries in all;
// the default run compares the first files up to trDefaultQueries.
const (
	trTranscriptQueries = 4_000_000
	trDefaultQueries    = 1_000_000
)

var (
	trUpdateTranscript = flag.Bool("update", false, "record "+transcriptFile+" again with Google's library (needs ROBOTSTXT_ORACLE)")
	trLongTranscript   = flag.Bool("long", false, "compare every trAnswer of "+transcriptFile+" (also ROBOTSTXT_TRANSCRIPT_LONG=1)")
)

// trFingerprint identifies a generated file and its queries.
func trFingerprint(f trGenFile) uint32 {
	h := crc32.New(crc32.MakeTable(crc32.Castagnoli))
	var n [binary.MaxVarintLen64]byte
	h.Write(n[:binary.PutUvarint(n[:], uint64(len(f.body)))])
	h.Write(f.body)
	for _, q := range f.queries {
		io.WriteString(h, q.agent)
		h.Write([]byte{'\t'})
		io.WriteString(h, q.url)
		h.Write([]byte{'\n'})
	}
	return h.Sum32()
}

// A trAnswer is Google's verdict and matching line for one query.
type trAnswer struct {
	allowed bool
	line    int
}

func (a trAnswer) String() string {
	if a.allowed {
		return fmt.Sprintf("allowed (line %d)", a.line)
	}
	return fmt.Sprintf("disallowed by line %d", a.line)
}

// A trTranscriptHeader is what the header says.
type trTranscriptHeader struct {
	google                      string
	generator                   int
	files, queries              int
	defaultFiles, defaultCounts int
}

func (h trTranscriptHeader) write(w io.Writer) error {
	_, err := fmt.Fprintf(w, "robotstxt-transcript 1\n"+
		"google github.com/google/robotstxt %s RobotsMatcher::OneAgentAllowedByRobots matching_line wire-form-url\n"+
		"generator %d\n"+
		"files %d %d\n"+
		"default %d %d\n\n",
		h.google, h.generator, h.files, h.queries, h.defaultFiles, h.defaultCounts)
	return err
}

func trReadHeader(r *bufio.Reader) (trTranscriptHeader, error) {
	var h trTranscriptHeader
	for {
		line, err := r.ReadString('\n')
		if err != nil {
			return h, fmt.Errorf("header: %v", err)
		}
		f := strings.Fields(line)
		if len(f) == 0 {
			break
		}
		num := func(i int) int {
			if i >= len(f) {
				return -1
			}
			n, err := strconv.Atoi(f[i])
			if err != nil {
				return -1
			}
			return n
		}
		switch f[0] {
		case "robotstxt-transcript":
			if num(1) != 1 {
				return h, fmt.Errorf("format %q, want 1", line)
			}
		case "google":
			if len(f) > 2 {
				h.google = f[2]
			}
		case "generator":
			h.generator = num(1)
		case "files":
			h.files, h.queries = num(1), num(2)
		case "default":
			h.defaultFiles, h.defaultCounts = num(1), num(2)
		}
	}
	if h.google == "" || h.files <= 0 || h.defaultFiles <= 0 || h.defaultFiles > h.files {
		return h, fmt.Errorf("header incomplete: %+v", h)
	}
	return h, nil
}

// A trRecord is one file's entry in the transcript.
type trRecord struct {
	file        int
	fingerprint uint32
	answers     []trAnswer
}

func trReadRecord(r *bufio.Reader, file int) (trRecord, error) {
	var fp [4]byte
	if _, err := io.ReadFull(r, fp[:]); err != nil {
		return trRecord{}, err
	}
	n, err := binary.ReadUvarint(r)
	if err != nil || n > 1<<20 {
		return trRecord{}, fmt.Errorf("file %d: query count: %v", file, err)
	}
	rec := trRecord{file: file, fingerprint: binary.LittleEndian.Uint32(fp[:]), answers: make([]trAnswer, n)}
	for i := range rec.answers {
		v, err := binary.ReadUvarint(r)
		if err != nil {
			return trRecord{}, fmt.Errorf("file %d: trAnswer %d: %v", file, i, err)
		}
		rec.answers[i] = trAnswer{allowed: v&1 == 1, line: int(v >> 1)}
	}
	return rec, nil
}

// TestGoogleTranscript compares the library's answers with Google's
// recorded ones: the verdict and the deciding line of every query, through
// Explain (the first questions of a file streamed, later ones compiled),
// Allowed, an Agent, Explain on a file never compiled, and the verdict of
// the one-question function robotstxt.Allowed.
func TestGoogleTranscript(t *testing.T) {
	if *trUpdateTranscript {
		t.Skip("-update: TestRecordGoogleTranscript records the transcript")
	}
	f, err := os.Open(transcriptFile)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	r := bufio.NewReader(zr)
	h, err := trReadHeader(r)
	if err != nil {
		t.Fatal(err)
	}
	if h.generator != trGeneratorVersion {
		t.Fatalf("%s was recorded from generator %d; this is generator %d: trRecord it again (go test -run TestRecordGoogleTranscript -update with %s set)",
			transcriptFile, h.generator, trGeneratorVersion, trOracleEnvVar)
	}
	limit, mode := h.defaultFiles, "default run"
	switch {
	case *trLongTranscript || os.Getenv("ROBOTSTXT_TRANSCRIPT_LONG") != "":
		limit, mode = h.files, "-long"
	case transcriptUnderRace:
		// The race detector slows the library some tenfold; its run
		// checks the first fifth of the default run's files.
		limit, mode = h.defaultFiles/5, "race detector run (a fifth of the default run)"
	}

	recs := make(chan trRecord, 64)
	var compared, mismatches, drifted atomic.Int64
	var drift sync.Once
	var wg sync.WaitGroup
	for range runtime.GOMAXPROCS(0) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for rec := range recs {
				gf := trGenFileAt(rec.file)
				if fp := trFingerprint(gf); fp != rec.fingerprint || len(gf.queries) != len(rec.answers) {
					drift.Do(func() {
						t.Errorf("file %d: the generator's output is not what %s was recorded from (fingerprint %08x, recorded %08x; %d queries, recorded %d): "+
							"transcript_gen_test.go changed without a new trGeneratorVersion and a new recording",
							rec.file, transcriptFile, fp, rec.fingerprint, len(gf.queries), len(rec.answers))
					})
					drifted.Add(1)
					mismatches.Add(1)
					continue
				}
				trCompareFile(t, rec, gf, &mismatches)
				compared.Add(int64(len(gf.queries)))
			}
		}()
	}
	for i := 0; i < limit && mismatches.Load() < 50; i++ {
		rec, err := trReadRecord(r, i)
		if err != nil {
			t.Errorf("%s: %v", transcriptFile, err)
			break
		}
		recs <- rec
	}
	close(recs)
	wg.Wait()
	if drifted.Load() > 0 {
		t.Fatalf("stopped after %d files generated otherwise than when recorded", drifted.Load())
	}
	if mismatches.Load() > 0 {
		t.Fatalf("%d files have answers that differ from Google's recorded ones", mismatches.Load())
	}
	if limit == h.defaultFiles && compared.Load() < trDefaultQueries {
		t.Errorf("compared %d queries, want at least %d", compared.Load(), trDefaultQueries)
	}
	t.Logf("%d queries of %d files (%s) agree with Google's library at commit %s, as recorded in %s (%d queries of %d files in all)",
		compared.Load(), limit, mode, h.google, transcriptFile, h.queries, h.files)
}

// trCompareFile compares the library's answers on one file with the
// recorded ones; it reports at most the first difference of a file.
func trCompareFile(t *testing.T, rec trRecord, gf trGenFile, mismatches *atomic.Int64) {
	robots := robotstxt.Parse(gf.body)
	for i, q := range gf.queries {
		want := rec.answers[i]
		v := robots.Explain(q.agent, q.url)
		got := []trAnswer{{v.Allowed, v.Rule.Line}}
		how := []string{"Explain"}
		if i >= 4 { // the first four were streamed already
			v := robotstxt.Parse(gf.body).Explain(q.agent, q.url)
			got, how = append(got, trAnswer{v.Allowed, v.Rule.Line}), append(how, "Explain on a fresh Parse")
		}
		v = robots.Agent(q.agent).Explain(q.url)
		got, how = append(got, trAnswer{v.Allowed, v.Rule.Line}), append(how, "Agent(agent).Explain")
		got, how = append(got, trAnswer{robots.Allowed(q.agent, q.url), want.line}), append(how, "Allowed")
		got, how = append(got, trAnswer{robotstxt.Allowed(gf.body, q.agent, q.url), want.line}), append(how, "robotstxt.Allowed (one question, the file not kept)")
		for j, g := range got {
			if g != want {
				if mismatches.Add(1) <= 20 {
					t.Errorf("file %d query %d: %s(%q, %q) = %v; Google's library: %v\nrobots.txt (%d bytes): %q",
						rec.file, i, how[j], q.agent, q.url, g, want, len(gf.body), trClip(gf.body))
				}
				return
			}
		}
	}
}

// trClip shortens a file for a failure message.
func trClip(b []byte) []byte {
	if len(b) > 2000 {
		return append(append([]byte{}, b[:2000]...), "..."...)
	}
	return b
}

// trOracleEnvVar names Google's library built as a program that answers
// queries (see oracle_test.go for its protocol).
const trOracleEnvVar = "ROBOTSTXT_ORACLE"

// TestRecordGoogleTranscript records the transcript again from Google's
// library; it runs only with -update and the oracle.
func TestRecordGoogleTranscript(t *testing.T) {
	if !*trUpdateTranscript {
		t.Skip("records " + transcriptFile + " only with -update")
	}
	oracle := os.Getenv(trOracleEnvVar)
	if oracle == "" {
		t.Fatalf("-update needs %s: Google's library built as the oracle program", trOracleEnvVar)
	}
	// Generate and ask in parallel, a batch of files at a time; write in
	// file order.
	dir := t.TempDir()
	workers := runtime.GOMAXPROCS(0)
	var body, out bytes.Buffer
	total, files, defaultFiles, defaultCount := 0, 0, 0, 0
	for total < trTranscriptQueries {
		const batch = 1000
		recs := make([]trRecord, batch)
		fps := make([]uint32, batch)
		errs := make([]error, batch)
		var wg sync.WaitGroup
		for w := range workers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				path := filepath.Join(dir, fmt.Sprintf("robots-%d.txt", w))
				for j := w; j < batch; j += workers {
					gf := trGenFileAt(files + j)
					recs[j].answers, errs[j] = trAskGoogle(oracle, path, gf)
					fps[j] = trFingerprint(gf)
				}
			}()
		}
		wg.Wait()
		for j := 0; j < batch && total < trTranscriptQueries; j++ {
			if errs[j] != nil {
				t.Fatalf("file %d: %v", files, errs[j])
			}
			body.Write(binary.LittleEndian.AppendUint32(nil, fps[j]))
			body.Write(binary.AppendUvarint(nil, uint64(len(recs[j].answers))))
			for _, a := range recs[j].answers {
				v := uint64(a.line) << 1
				if a.allowed {
					v |= 1
				}
				body.Write(binary.AppendUvarint(nil, v))
			}
			total += len(recs[j].answers)
			files++
			if defaultFiles == 0 && total >= trDefaultQueries {
				defaultFiles, defaultCount = files, total
			}
		}
		t.Logf("%d files, %d queries", files, total)
	}
	zw, _ := gzip.NewWriterLevel(&out, gzip.BestCompression)
	h := trTranscriptHeader{google: googleCommit, generator: trGeneratorVersion, files: files, queries: total, defaultFiles: defaultFiles, defaultCounts: defaultCount}
	if err := h.write(zw); err != nil {
		t.Fatal(err)
	}
	zw.Write(body.Bytes())
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(transcriptFile, out.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("recorded %d queries of %d files (default run: %d queries of %d files) in %s, %d bytes",
		total, files, defaultCount, defaultFiles, transcriptFile, out.Len())
}

// trAskGoogle asks the oracle every query of one file, the body cut at the
// library's default read limit and the URLs in wire form, as the
// library's contract compares them.
func trAskGoogle(oracle, path string, gf trGenFile) ([]trAnswer, error) {
	body := gf.body
	if len(body) > robotstxt.DefaultMaxSize {
		body = body[:robotstxt.DefaultMaxSize]
	}
	if err := os.WriteFile(path, body, 0o644); err != nil {
		return nil, err
	}
	var in bytes.Buffer
	for _, q := range gf.queries {
		if strings.ContainsAny(q.agent, "\t\n") || strings.Contains(q.url, "\n") {
			return nil, fmt.Errorf("query %q %q cannot pass the oracle's line protocol", q.agent, q.url)
		}
		fmt.Fprintf(&in, "%s\t%s\n", q.agent, trWireForm(q.url))
	}
	cmd := exec.Command(oracle, path)
	cmd.Stdin = &in
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("oracle: %v: %s", err, stderr.Bytes())
	}
	var ans []trAnswer
	for _, line := range strings.Split(strings.TrimSuffix(string(out), "\n"), "\n") {
		verdict, num, ok := strings.Cut(line, " ")
		n, err := strconv.Atoi(num)
		if !ok || err != nil || (verdict != "A" && verdict != "D") {
			return nil, fmt.Errorf("oracle trAnswer %q", line)
		}
		ans = append(ans, trAnswer{verdict == "A", n})
	}
	if len(ans) != len(gf.queries) {
		return nil, errors.New("oracle answered " + strconv.Itoa(len(ans)) + " of " + strconv.Itoa(len(gf.queries)) + " queries")
	}
	return ans, nil
}
