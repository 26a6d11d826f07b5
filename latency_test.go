//go:build linux

package robotstxt_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/seed50c7eacc/robotstxt"
	"github.com/seed50c7eacc/robotstxt/internal/testsupport/reference"
)

// The slowest single question, not a median: a crawler that fetches a
// hostile file must not stall on any one question of it, the first of a
// fresh process included (cold caches, a heap not grown yet). The bound
// is checked as the maximum over fresh processes, each asking every
// hostile family in its own order, so that each family is the first
// hostile file of some process.

// latencyProcesses is how many fresh processes BenchmarkSlowestQuestion
// runs.
const latencyProcesses = 20

// latencyChildEnv, set to a process's number, makes
// BenchmarkSlowestQuestion measure in this process and print its figures.
const latencyChildEnv = "ROBOTSTXT_LATENCY_CHILD"

// latencyFiles are the hostile families of the tests (firstQuestionFiles)
// and two-star rules anchored at the end ("/*a*xyz$").
func latencyFiles() []reference.HostileFamily {
	files := firstQuestionFiles()
	var b strings.Builder
	b.WriteString("User-agent: *\n")
	for i := 0; ; i++ {
		line := "Disallow: /*a*" + string([]byte{'b' + byte(i%24), 'b' + byte(i/24%24), 'b' + byte(i/576%24)}) + "$\n"
		if b.Len()+len(line) > robotstxt.DefaultMaxSize {
			break
		}
		b.WriteString(line)
	}
	mixed := files[0].Path // star-tail's: every byte of the pieces, none of the tails
	return append(files, reference.HostileFamily{Name: "two-stars-anchored", File: []byte(b.String()), Path: mixed})
}

// A latencyFigure is the slowest question of one family and path size in
// one process: its time, which question it was (1 is the first after
// Parse), and Parse's time; and the same by the CPU time of the question's
// thread, which leaves out the time other processes of a busy machine
// took the CPU.
type latencyFigure struct {
	Family     string
	Path       int
	Slowest    time.Duration
	At         int
	Parse      time.Duration
	SlowestCPU time.Duration
	AtCPU      int
	ParseCPU   time.Duration
	// Control and ControlCPU are the slowest run of controlWork, timed
	// the same way after each question: the same computation each time,
	// so that what it varies by is the machine's, not the library's.
	Control    time.Duration
	ControlCPU time.Duration
}

// controlSink keeps controlWork's result alive.
var controlSink uint64

// controlWork is a fixed computation of n rounds of a xorshift, touching
// no memory: its time varies only with what the machine does beside it
// (other processes, the hypervisor, the Go runtime's own work).
//
//go:noinline
func controlWork(n int) {
	x := uint64(88172645463325252)
	for i := 0; i < n; i++ {
		x ^= x << 13
		x ^= x >> 7
		x ^= x << 17
	}
	controlSink += x
}

// controlRounds returns how many rounds of controlWork take about d on
// this machine, the fastest of five runs.
func controlRounds(d time.Duration) int {
	const probe = 1 << 18
	fastest := time.Duration(1 << 62)
	for range 5 {
		t0 := time.Now()
		controlWork(probe)
		fastest = min(fastest, time.Since(t0))
	}
	return max(1, int(float64(probe)*float64(d)/float64(max(fastest, 1))))
}

// controlLength is the time controlWork is calibrated to take: about a
// slow hostile question's.
const controlLength = 500 * time.Microsecond

// threadCPU returns the CPU time of the calling thread.
func threadCPU() time.Duration {
	var ts unix.Timespec
	if err := unix.ClockGettime(unix.CLOCK_THREAD_CPUTIME_ID, &ts); err != nil {
		return 0
	}
	return time.Duration(ts.Nano())
}

// measureLatency asks each family and path size a fresh file
// hostileQuestions questions, starting from family start, and returns
// the slowest question of each.
func measureLatency(start int) []latencyFigure {
	// The thread's CPU time is the question's only while the goroutine
	// keeps its thread.
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	files := latencyFiles()
	rounds := controlRounds(controlLength)
	var out []latencyFigure
	for k := range files {
		f := files[(start+k)%len(files)]
		for _, n := range []int{100, 16 << 10} {
			url := "https://example.com" + f.Path(n)
			t0, c0 := time.Now(), threadCPU()
			r := robotstxt.Parse(f.File)
			fig := latencyFigure{Family: f.Name, Path: n, Parse: time.Since(t0), ParseCPU: threadCPU() - c0}
			for q := 1; q <= hostileQuestions; q++ {
				t0, c0 = time.Now(), threadCPU()
				r.Allowed("Googlebot", url)
				c, d := threadCPU()-c0, time.Since(t0)
				if d > fig.Slowest {
					fig.Slowest, fig.At = d, q
				}
				if c > fig.SlowestCPU {
					fig.SlowestCPU, fig.AtCPU = c, q
				}
				t0, c0 = time.Now(), threadCPU()
				controlWork(rounds)
				c, d = threadCPU()-c0, time.Since(t0)
				fig.Control, fig.ControlCPU = max(fig.Control, d), max(fig.ControlCPU, c)
			}
			out = append(out, fig)
		}
	}
	return out
}

// BenchmarkSlowestQuestion runs latencyProcesses fresh processes of this
// test binary, each measuring every hostile family (measureLatency), and
// reports per family and path size the slowest single question over all
// of them (max-ms, and max-at which question it was), the median over
// the processes of each one's slowest (median-ms), and the slowest Parse
// (parse-max-ms); and by the CPU time of the question's thread (cpu-max-ms,
// cpu-max-at, parse-cpu-max-ms), which other processes on the CPU do not
// inflate. After each question the same processes time a fixed
// computation of about controlLength (controlWork): its slowest run
// (control-max-ms, control-cpu-max-ms) is how much the machine alone
// stretched a question of that length in the same minutes.
// Pin it to one CPU:
//
//	go test -c -o /tmp/root.test . && taskset -c 0 /tmp/root.test -test.run '^$' -test.bench '^BenchmarkSlowestQuestion$' -test.benchtime 1x
func BenchmarkSlowestQuestion(b *testing.B) {
	if child := os.Getenv(latencyChildEnv); child != "" {
		start, _ := strconv.Atoi(child)
		enc := json.NewEncoder(os.Stdout)
		for _, fig := range measureLatency(start) {
			if err := enc.Encode(fig); err != nil {
				b.Fatal(err)
			}
		}
		b.SkipNow()
	}
	type key struct {
		family string
		path   int
	}
	slowest := map[key][]latencyFigure{}
	var order []key
	for p := 0; p < latencyProcesses; p++ {
		cmd := exec.Command(os.Args[0], "-test.run", "^$", "-test.bench", "^BenchmarkSlowestQuestion$", "-test.benchtime", "1x")
		cmd.Env = append(os.Environ(), latencyChildEnv+"="+strconv.Itoa(p))
		out, err := cmd.Output()
		if err != nil {
			b.Fatalf("process %d: %v", p, err)
		}
		sc := bufio.NewScanner(bytes.NewReader(out))
		for sc.Scan() {
			line := sc.Bytes()
			if len(line) == 0 || line[0] != '{' {
				continue
			}
			var fig latencyFigure
			if err := json.Unmarshal(line, &fig); err != nil {
				b.Fatalf("process %d: %v in %q", p, err, line)
			}
			k := key{fig.Family, fig.Path}
			if slowest[k] == nil {
				order = append(order, k)
			}
			slowest[k] = append(slowest[k], fig)
		}
	}
	if len(order) == 0 {
		b.Fatal("no figures from the processes")
	}
	for _, k := range order {
		figs := slowest[k]
		var worst, worstCPU latencyFigure
		var parse, parseCPU, control, controlCPU time.Duration
		times := make([]time.Duration, len(figs))
		for i, fig := range figs {
			times[i] = fig.Slowest
			if fig.Slowest > worst.Slowest {
				worst = fig
			}
			if fig.SlowestCPU > worstCPU.SlowestCPU {
				worstCPU = fig
			}
			parse, parseCPU = max(parse, fig.Parse), max(parseCPU, fig.ParseCPU)
			control, controlCPU = max(control, fig.Control), max(controlCPU, fig.ControlCPU)
		}
		median := medianDuration(times)
		b.Run(fmt.Sprintf("%s/path=%d", k.family, k.path), func(b *testing.B) {
			b.ReportMetric(ms(worst.Slowest), "max-ms")
			b.ReportMetric(float64(worst.At), "max-at")
			b.ReportMetric(ms(median), "median-ms")
			b.ReportMetric(ms(parse), "parse-max-ms")
			b.ReportMetric(ms(worstCPU.SlowestCPU), "cpu-max-ms")
			b.ReportMetric(float64(worstCPU.AtCPU), "cpu-max-at")
			b.ReportMetric(ms(parseCPU), "parse-cpu-max-ms")
			b.ReportMetric(ms(control), "control-max-ms")
			b.ReportMetric(ms(controlCPU), "control-cpu-max-ms")
		})
	}
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

func medianDuration(ds []time.Duration) time.Duration {
	s := append([]time.Duration(nil), ds...)
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && s[j] < s[j-1]; j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
	return s[len(s)/2]
}

// latencyCountEnv, set, makes TestQuestionInstructions ask every family
// and path size hostileQuestions questions through countedQuestion, for
// callgrind to count each question's instructions (it dumps after each
// call):
//
//	go test -c -o /tmp/root.test .
//	ROBOTSTXT_LATENCY_COUNT=1 GOGC=off GODEBUG=asyncpreemptoff=1 valgrind --tool=callgrind \
//	  --collect-atstart=no --toggle-collect='*countedQuestion' --dump-after='*countedQuestion' \
//	  --toggle-collect='*countedMarker' --dump-after='*countedMarker' \
//	  --callgrind-out-file=/tmp/q.out /tmp/root.test -test.run '^TestQuestionInstructions$' -test.v
//	for f in $(ls /tmp/q.out.* | sort -t. -k3 -n); do if grep -q 'Trigger:.*countedMarker' $f; then echo; else grep -m1 '^summary' $f | cut -d' ' -f2 | tr '\n' ' '; fi; done; echo
//
// prints one line a family and path size, in the order the test prints
// them: the count of each of its questions (a dump of countedMarker, by
// its trigger, starts each line).
const latencyCountEnv = "ROBOTSTXT_LATENCY_COUNT"

// TestQuestionInstructions asks the questions whose instructions
// callgrind counts (see latencyCountEnv); it prints the order of the
// families and path sizes, hostileQuestions questions each.
func TestQuestionInstructions(t *testing.T) {
	if os.Getenv(latencyCountEnv) == "" {
		t.Skip("set " + latencyCountEnv + " and run under callgrind to count each question's instructions")
	}
	// A question that grows the goroutine's stack moves it, which
	// callgrind takes for returns: its counting of the question, and the
	// toggles of the collection, would go wrong. Grown once here, the
	// stack is not moved again (GOGC=off: it never shrinks).
	growStack(0)
	for _, f := range latencyFiles() {
		for _, n := range []int{100, 16 << 10} {
			url := "https://example.com" + f.Path(n)
			r := robotstxt.Parse(f.File)
			countedMarker() // a dump of a few instructions: the family starts
			for q := 1; q <= hostileQuestions; q++ {
				countedQuestion(r, url)
			}
			fmt.Printf("family %s path %d\n", f.Name, n)
		}
	}
}

// countedQuestion is one question, a function of its own for callgrind
// to count.
//
//go:noinline
func countedQuestion(r *robotstxt.Robots, url string) bool { return r.Allowed("Googlebot", url) }

// growStack grows the calling goroutine's stack to at least 256 KiB.
//
//go:noinline
func growStack(depth int) byte {
	var frame [64 << 10]byte
	frame[depth] = byte(depth)
	if depth < 3 {
		return growStack(depth+1) + frame[depth]
	}
	return frame[depth]
}

// countedMarker marks where a family's questions start among the counts.
//
//go:noinline
func countedMarker() {}
