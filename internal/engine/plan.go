package engine

// The plan: what a question does next. Every choice between the engine's
// strategies is made in this file, from the state a File is in; the files
// named below only carry a strategy out. A newcomer reads this comment as
// the engine's map.
//
// # States of a File, and what moves it on
//
//	Loaded     Load keeps a copy of the file (File.pending), nothing else:
//	           1.055 bytes kept per byte over the corpus (the copy rounds
//	           up to a size class, 4 %; a Robots takes 48 bytes, 1.2 %:
//	           the compiled form's fields sit behind one pointer,
//	           File.compiledForm, allocated when the compile begins, and
//	           the File's flags share one word, File.state).
//	           LoadString (robotstxt.ParseString, and ParseOwned of a
//	           slice handed over) keeps the caller's string instead,
//	           which cannot change: no copy, and no
//	           padding after it, which a scoped set reads past a rule
//	           that starts in the file's last 7 bytes (loadKey). The
//	           first set that holds such a rule copies the file, with
//	           the padding, and the File keeps the copy instead
//	           (ownPaddedCopy): 185 of the corpus's 2,132 files, asked
//	           as Googlebot and bingbot. A set built before then keeps
//	           the string: 5 files keep both (5.7 KB of 8.7 MB), 13 as
//	           four agents (167 KB).
//	Scoped     1 to maxScopedAgents agents asked about, each with the rule
//	           set of the groups that apply to it compiled alone from one
//	           pass over the copy (scoped.go, scopedcollect.go), which
//	           reads the user-agent lines of the other groups alone
//	           (parse.passBlocks, 64 bytes a step) and, in a group, the
//	           lines of the keys a set reads alone (parse.GroupLines), a
//	           run of disallow lines in one loop (disallowRun), a simple
//	           allow line without the tokenizer (simpleAllowValue), and
//	           the first rule of a group that does not apply not at all
//	           (parse.Grouper.RuleAhead); the
//	           agents that no group names share one set (the "*" groups),
//	           a later agent without another pass when the summary of
//	           the product tokens the pass read rules it out
//	           (agentSummary), else after reading the user-agent lines
//	           that may name it (namesAgent). The first pass leaves the
//	           file's directory of groups (groupdir.go: where each
//	           starts, two bits of each product token, 4 bytes a group,
//	           for files of minDirectoryGroups or more): a later agent's
//	           pass reads the runs of groups that may apply to it alone
//	           (regionCursor): the groups that may name it when one
//	           does, as namesAgent found, else the "*" groups. The
//	           copy stays: a set's patterns are spans of it, and the lines
//	           of its rules are counted in it when Explain asks (ruleLine),
//	           so that a set takes 144 bytes and 8 a rule.
//	Large      the groups that apply to an agent hold more than
//	           maxScopedLines lines and would take more than the copy
//	           (tooLarge): questions stream over the copy (stream.go: a
//	           run of disallow lines is read in one loop, disallowRun,
//	           each wildcard rule first tested against the path's bytes
//	           and pairs from its end, pathpairs.go) while each question
//	           after the first compiles buildPartWork more bytes of the
//	           whole file, their rules compiled and their classes marked
//	           (compileRead), and the next one finishes the compile, a
//	           part of its own that sorts or copies them (buildparts.go).
//	Compiling  a Scoped file of compileWholeBytes or more, asked
//	           compileWholeAfter questions besides those that built its
//	           sets (not counted: see plan): each later question compiles
//	           buildPartWork more bytes (buildparts.go), then answers from
//	           its scoped set.
//	Compiled   the whole file compiled (build.go, sets.go), the copy and
//	           the scoped sets dropped: one rule set per agent, shared by
//	           the agents of a group.
//
// Loaded goes to Scoped at the first question about an agent (Allowed,
// Explain, or Rules of one agent), or to Compiled when the scoped pass of
// that question finds no user-agent line in a file of a few long lines
// (compileSparse: an HTML page, whose compiled form keeps almost nothing
// of it); Scoped stays Scoped for a new agent
// while fewer than maxScopedAgents are published; Loaded or Scoped goes to
// Large when the new agent's groups are too large; every state goes to
// Compiled at a fifth agent, at Groups, Fields, Sitemaps or Compile, for a
// blanket disallow, when a streamed question gives up (its wildcard work
// passes streamWildBudget), or when the last part of a compile in parts,
// the one that finishes it after those that read the lines, is done
// (Large or Compiling). Scoped goes to Compiling at the
// compileWholeAfter-th question answered by a set built before it, of a
// file of compileWholeBytes or more. Nothing ever leaves Compiled.
//
// # What a question about a rule set does
//
// A rule set, scoped or compiled, goes through the same steps, each
// chosen below by counting its questions and the work they did. Before
// any of them, a set whose first rule in deciding order matches every
// path (a lone "disallow: /", "allow: /", "/*": matchesEveryPath, rule.go)
// answers from that rule without the URL being read; every other question
// finds the URL's path in one pass when it starts with "https://" or
// "http://" and is in wire form (plainPath, path.go), else by Google's
// rules in full (scanPath). The agent is found, in a compiled file, by a
// hash of its name and one probe most often (agents.go).
//
//	file order  a scoped set's first 1+fileOrderScans questions try its
//	            rules in file order (scopedSet.rules, as compiled), never
//	            sorted for a file asked up to five times (scoped.go).
//	sorted      then the rules are sorted once, in place, into deciding
//	            order (sort.go), their wildcard rules' path classes
//	            marked (markClasses, as the compile does for every
//	            set), and a set of fewer than indexMinRules rules tries
//	            them in turn for good (decide).
//	scan        a set of indexMinRules or more tries them in turn for
//	            scopedScans more questions, within the stream's budget,
//	            if scoped, before it gets its lazy index (lazyindex.go),
//	            not built yet: then up to scanQueries questions try the
//	            rules in turn within scanBytesPerRule a rule in all.
//	parts       a set of stepwiseRules or more builds its index a part of
//	            indexStepWork per question, and answers by a scan with no
//	            budget meanwhile (ruling wildcard rules out by the path's
//	            bytes and pairs, pathpairs.go).
//	index       then the index answers. A set of fewer than stepwiseRules
//	            rules gets a prefixIndex (prefixindex.go, 4 bytes a
//	            distinct plain pattern): a binary search over the plain
//	            patterns and a parent chain, then the rules that are not
//	            plain, up to prefixIndexOthers tried in turn, more through
//	            a ruleIndex of their own. A larger set's ruleIndex
//	            (index.go, window.go, records.go): a binary search over the
//	            rules' literal prefixes, and the window filters of
//	            wildcard rules.
//
// No step runs apart from the question that needs it: no goroutine is
// started, so that a call returns with no work of the engine's left.
//
// # What each costs (one CPU, the corpus: 2,132 files, 8.7 MB)
//
//	Load                      0.70 us a file (the copy), and about as
//	                          much again later: parse + 1 question took
//	                          2.4 us a file with no copy (the caller's
//	                          bytes kept, unsafe), 2.55 copied into one
//	                          buffer used again, 3.1 copied into a new
//	                          one: a fresh allocation's bytes are cold,
//	                          and a short copy waits on each line it
//	                          writes (gobench check1, 17:50 UTC; GOGC 25
//	                          to 400 moved it by 0.1 us at most). By
//	                          size (BenchmarkParseCheckBySize), Parse
//	                          alone is a quarter of parse + 1 on files
//	                          under 16 KiB, three fifths on larger ones,
//	                          whose copy is bound by the memory's
//	                          bandwidth (about 10 GB/s here). LoadString
//	                          spares the copy: parse + 1 question took
//	                          2.51 us a file against Parse's 3.35
//	                          (BenchmarkParseCheckTwoAgents, string/
//	                          checks=1 against checks=1, 5 alternating
//	                          runs; 0.66-0.83 of Parse's time in the
//	                          side-by-side rounds, BENCHMARKS.md)
//	first question (Scoped)   3.75 us a file with Load before 387d95f
//	                          (compiling the agent's rules alone: 30 k
//	                          instructions with Load; 26 k since ba17866,
//	                          and 3-6 % less time in paired runs,
//	                          BENCHMARKS.md; 25 k since 71d9c72, the
//	                          first rule of a group that does not apply
//	                          and simple allow lines read untokenized;
//	                          24 k since 77fbbbf, bestWithin's rejected
//	                          rules passed over in a loop that spills
//	                          nothing); a
//	                          second agent no group names gets the shared
//	                          set at once, the file's summary of product
//	                          tokens ruling it out; one that a group may
//	                          name, or the "*" set after a named first
//	                          agent, reads the directory's groups that may
//	                          apply, the groups naming it if one does,
//	                          else the "*" groups (parse + 2 questions as
//	                          two agents: 1.25 times parse + 1 in
//	                          instructions, 1.17 since the directory,
//	                          which costs the first question 1.3 %: 24.5
//	                          k; 1.15 since 9581176). Keeping
//	                          the set and its rules is about a
//	                          tenth of parse + 1 under 16 KiB: their
//	                          bytes go to memory the allocator gives
//	                          cold, and a stream, which keeps
//	                          nothing, is that much faster once
//	                          (BENCHMARKS.md, the ninth round). The
//	                          code a corpus file's first question
//	                          runs through fills the 32 KiB
//	                          instruction cache: a fast path added
//	                          beside the one it spares has cut
//	                          instructions and cost time (two such
//	                          paths, the ninth round)
//	one question, not kept    1.79 us a file (AllowedOnce: the stream)
//	whole compile             10.6 us a file, 384 MB/s
//	sorted or indexed         about 100 ns a question on the corpus;
//	                          667 instructions a question on the
//	                          many-agent workload, 1,049 on the
//	                          two-agent one (BenchmarkAllowedWorkload)
//	index building            some hundreds of ns a rule; 2-5 ms for
//	                          24,000 hostile wildcard rules, in parts
//	                          of indexStepWork (about 1-1.3 M
//	                          instructions a part beside the
//	                          question's scan), the rules'
//	                          literal prefixes listed and the pages
//	                          of the tables the steps fill written
//	                          first, touchWork bytes a part (0.1 ms)
//	compile part              buildPartWork bytes: 0.6-0.85 M
//	                          instructions on the hostile files (0.5 M
//	                          on chains), a run of disallow lines read
//	                          in one loop, the rules compiled and
//	                          marked; the finishing part 0.5-0.7 M
//	                          (2.3 M with compact rules)
//	a question of a Large     a stream over the copy: 4.7-7.7 M
//	hostile file              instructions for 500 KiB (about 150 a
//	                          line, and about 100 for the pairs' test
//	                          of a wildcard line that neither the last
//	                          pair nor the last pieces' order rules
//	                          out); at most 8.0 M with a compile
//	                          part, 2-6.6 M once compiled while its
//	                          index is built in parts (the most when
//	                          its window table is compacted,
//	                          compactWindows), whose
//	                          parts that take page faults are the
//	                          slowest by time: fewer instructions a
//	                          ns (TestQuestionInstructions,
//	                          BenchmarkSlowestQuestion, BENCHMARKS.md)
//
// Memory kept per byte of input (BenchmarkRetainedStates): 1.055 loaded;
// 1.127 with one scoped set (8 bytes a rule, 144 a set, 32 of them the
// summary of the file's product tokens, agentSummary: 1.114 with 8; the
// directory of groups 0.005), after 1 or 10 questions, the sparse files
// compiled (1.147 if not); 1.142 after 10 from two agents (two sets for
// 171 files of 2,132, a 32-byte name for the second agent of every
// file); 1.027-1.046 after 100 questions (the files of 256 KiB or more compiled whole, the
// others' sets indexed); 0.921 compiled, 0.987 with every asked set's
// index built.
// A scoped set that would take more than the copy is not made (tooLarge).
//
// # The tuning table
//
// Every constant that sets when the plan moves on, with the measurement
// that chose it.
const (
	// maxScopedAgents bounds the agents with a scoped set: a file asked
	// about more is compiled whole. A crawler asks as one to three
	// agents; the corpus's two-agent workload never compiles whole.
	maxScopedAgents = 4

	// maxScopedLines: a scoped set of more than this many lines whose
	// rules would take more than the file's size (12 bytes a rule, 8 for
	// the rule and a margin for its array's rounding and the lazy index,
	// and about 24 more for a wildcard rule's part of the index), or whose
	// string block of its own would take more than half, is not made,
	// and the file is compiled whole, which drops the copy. The sets of
	// the hostile files of reference.HostileFamilies (tens of thousands
	// of short wildcard rules, or of non-ASCII rules kept apart) would
	// otherwise keep up to three times the file with their index
	// (BenchmarkRetainedHostile); on the corpus, one file's set for
	// Googlebot has more than 4,096 lines (4,997 plain rules in 118 KB),
	// the next 1,182.
	maxScopedLines = 4096

	// earlyScopedLines is how many lines a scoped set reads before it
	// may be given up for being denser than the part of the file read
	// (see collectScoped): a file of more than maxScopedLines short
	// wildcard rules in one group is known as such after its first
	// lines.
	earlyScopedLines = 512

	// denseCheckLines is how many lines of a run of disallow lines
	// (disallowRun) are read between two of those tests once a set holds
	// more than earlyScopedLines lines: a hostile set is given up at most
	// that many lines later. With a test at every line, parse + 1
	// question of a site's set of 4,997 plain rules (118 KB) took
	// 1.72 M instructions, 106-108 us warm (a turn of the pass's loop
	// a line past the 512th); in runs of 64, 1.24 M and 84-94 us.
	denseCheckLines = 64

	// minDirectoryGroups is the fewest groups a file's directory lists
	// (groupdir.go): the second agent's pass over a file of one or two
	// groups costs little more than the list's allocation costs the
	// first question. With it, 402 of the corpus's 723 files that name
	// an agent keep a list; parse + 2 checks took 64.2 M instructions a
	// corpus pass before the directory and 61.0 M with it, parse + 1
	// 51.6 M before and 52.2 M with it.
	minDirectoryGroups = 3

	// maxDirectoryShare bounds a directory's groups to a share of its
	// file: 4 bytes a group, at most an eighth of the file's bytes (a
	// file of a "user-agent: x" and a "disallow:" line a group, 23
	// bytes, keeps none). Over the corpus the lists keep 0.004 bytes
	// per byte.
	maxDirectoryShare = 32

	// fileOrderScans is how many questions after the one that built a
	// scoped set scan its rules in file order before they are sorted. It
	// is the ski-rental point of the two costs measured on the corpus: a
	// sort costs about 2,900 instructions a file, and a scan in file
	// order, which tries every rule the path's first bytes do not rule
	// out where the sorted set stops at its first match, about 660 more
	// than a question of the sorted set. Four scans, so that a file asked
	// up to five times never sorts (parse + 3 checks -7 % instructions,
	// parse + 5 checks -5 %), for +2 % at ten checks and +1.5 % at
	// twenty.
	fileOrderScans = 4

	// scopedScans is how many questions a sorted scoped set of
	// indexMinRules rules or more answers by scanVerdict before it gets
	// its lazy index, which then decides: a wildcard-heavy set's index
	// would otherwise be built at its second question (see
	// lazyIndex.scan), which costs as much as compiling the set, where a
	// scan within the stream's budget costs less than streaming once. The
	// lazyIndex (96 bytes) is made after them, not with the set: 10
	// questions from one agent kept 1.156 bytes a byte with it, 1.147
	// without (BenchmarkRetainedStates).
	scopedScans = 16

	// indexMinRules is the size from which a rule set gets a lazy index;
	// smaller sets are scanned, which is as fast. Raising it to 64 took
	// BenchmarkAllowedCorpus from 98-102 to 108-123 ns a question, to 256
	// from there to 148-151 ns (no index at all: 150-153 ns).
	indexMinRules = 16

	// Scanning a rule list costs about a nanosecond per rule, with a full
	// match only for the few rules whose first bytes agree with the path;
	// building the index costs some hundreds of nanoseconds per rule. So
	// the first scanQueries queries scan while the full matches of
	// wildcard rules (which hostile rules make cost a pass over the path
	// each) have cost less than half of what building would. Each match
	// is charged the lengths of the path and the pattern, wildStarCost
	// bytes a star (each piece after one costs a search: "/*a*a*a...*b$"
	// costs more than its length) and wildMatchCost; the scans of every
	// query together may be charged scanBytesPerRule bytes a rule. The
	// query that would pass that builds the index, and every later one
	// uses it: the scans then cost at most half the building (a query
	// whose scan would pass the budget, as the last full scan's charge
	// tells, builds without scanning), and a first question with a short
	// path on a fresh hostile file (24,000 wildcard rules, a 100-byte
	// path) scans them all for a fraction of the building's cost. As
	// renting skis until the rent would pay for them, this bounds the
	// total to 1.5 times the better choice. A wildcard match charged more
	// than scanBytesPerRule (a longer path, or a pattern of many stars)
	// builds the index at once, as the scan would likely pass the budget.
	// Once a question's matches cost pairsAfter, or a single match would
	// cost more than a rule's share, the scan first tests each wildcard
	// rule against the path's bytes and pairs (pathpairs.go), which rule
	// out hostile rules for a few bytes read each, charged wildMatchCost:
	// then only the rules they admit are matched and charged in full, and
	// a fresh hostile file's questions scan, whatever the path's length,
	// until the budget or scanQueries is spent.
	scanQueries      = 16
	scanBytesPerRule = 512
	wildMatchCost    = 16
	wildStarCost     = 32
	pairsAfter       = 8 << 10

	// stepwiseRules: the index of a set of at least this many rules,
	// which takes a millisecond or more to build
	// (BenchmarkIndexBuildHostile: 2-5 ms for 24,000 wildcard rules), is
	// built a part per question once the scans' budget is spent
	// (stepThenScan): each question does one part, then scans, so that
	// none waits for the whole building.
	stepwiseRules = 4096

	// indexStepWork is the work of one step of a stepwise building (see
	// ruleBuildWork), of one part of writing its records, and the bytes
	// of one part of writing the wire form of compact prefixes
	// (wireStep: non-ascii's 1 MB of them at once took 7 M instructions,
	// a part of 128 KiB 1.5 M). A step takes about 1-1.3 M instructions
	// on the hostile families beside the question's scan of 2.3-4.3 M
	// (1.5-2.6 M at 128 KiB, whose steps took 0.2-0.7 ms of CPU, and
	// 256 KiB up to 1.3 ms); halved with buildPartWork (see there).
	indexStepWork = 64 << 10

	// touchWork is how many bytes of the tables a building's steps fill
	// at random places (the window table, the pattern set: 512 KiB each
	// for 32,000 wildcard rules) a part writes a page at a time before
	// the steps start (touchStep): 64 pages, about 0.15 ms of page faults
	// in a fresh process, where the first step took them all at once
	// (535 faults, 1.69 ms against 0.4 for a later step; measured per
	// part on star-tail, the first hostile file of a process). The
	// rules' literal prefixes (24 bytes a rule) are listed as many bytes
	// a part (listStep): listed at once, the question that started the
	// index of 32,000 rules took 190 page faults and 6.8 M instructions,
	// the slowest of star-tail's in a fresh process (0.65 ms of CPU
	// against 0.46 for its slowest stream); in three parts, 64 faults and
	// 3.9-4.1 M instructions each, 0.27-0.31 ms (TestQuestionInstructions,
	// and the faults of each question in one fresh process).
	touchWork = 256 << 10

	// buildPartWork is how many bytes of the file a part of a compile in
	// parts reads: 0.6-0.85 M instructions on the hostile files, 0.5 M
	// on chains (a run of disallow lines read in one loop,
	// readDisallowRun, and the part's rules compiled and marked,
	// compileRead), whose questions stream in 4.7-7.7 M; the lines of
	// 500 KiB are read by the 17th question, and the 18th finishes the
	// compile (0.5-0.7 M: a sort or a copy of the compiled rules) and
	// scans the compiled rules (2-5 M). At 64 KiB, with indexStepWork at
	// 128 KiB, a part took 1.15-1.8 M: over 128 questions of each hostile
	// family and path the slowest took 8.91 M instructions, against
	// 8.25 M with both halved (8.01 M since the window table is compacted
	// in a part of its own), and all of them 11,010 M against 10,762 M
	// (TestQuestionInstructions); the median of 20 fresh processes'
	// slowest question, averaged over the families, went from 0.653 to
	// 0.581 ms (BenchmarkSlowestQuestion, four alternating runs of 40
	// questions). The parts end later: a hostile file keeps more than
	// twice its size up to its 93rd question, not its 60th, while its
	// index is built (up to 6.6 times it either way;
	// TestRetainedHostileWithinTwice).
	buildPartWork = 32 << 10

	// A file of compileWholeBytes or more is compiled whole, a part of
	// buildPartWork bytes a question, from its compileWholeAfter-th
	// question that has a scoped set on: the compiled form then answers,
	// and the copy is dropped. The corpus's largest files are mostly
	// HTML pages served as robots.txt, whose compiled form keeps a third
	// to a half of them. Without it, the bytes kept a byte after 100
	// questions from 1 and 2 agents are 1.176 and 1.194, over the bar of
	// 1.15 (BenchmarkRetainedStates). At 64 KiB (26 files, 60 % of the
	// corpus's bytes) they were 0.869 and 0.886, and the compile took
	// 13 % of parse + 100 checks' instructions; at 256 KiB (5 files,
	// 33 % of the bytes) they are 1.005 and 1.023 (1.014 and 1.033 since the
	// prefix index's wildcard rules take 16 bytes), and parse + 100 checks
	// takes 7.5 % fewer instructions (496.6 M to 459.6 M a corpus pass,
	// BenchmarkParseCheckTwoAgents; 128 KiB: 0.923 and 0.941, -4.1 %),
	// about 7 % less time (20.1 to 18.6-19.4 us a file, pinned,
	// alternating), and parse + 1,000 checks the same. After 32
	// questions, so that parse + N for N up to 20 never pays for it.
	compileWholeBytes = 256 << 10
	compileWholeAfter = 32

	// streamWildBudget bounds the work a streamed question, or a scan in
	// file order, spends on patterns with wildcards: the path and pattern
	// bytes they are matched over. A file that needs more (many wildcard
	// rules, a long path) is compiled instead, where the rule index bounds
	// the work; the bytes spent streaming are then lost, but they are
	// bounded too.
	streamWildBudget = 64 << 10

	// A file of sparseMinBytes or more with no user-agent line, whose
	// lines are sparseLineBytes long or more on average, is compiled
	// whole at its first question, after the scoped pass that finds it
	// has no group (compileSparse): its copy is dropped. Such files are
	// HTML pages served as robots.txt, of a few long lines, whose
	// compiled form keeps the few lines that look like directives (as
	// fields), nothing else. On the corpus, three files (0.3 MB of its
	// 8.7) keep 240 to 7,024 bytes compiled where their copy and empty
	// set kept 16-197 KB, and their compile costs about what the scoped
	// pass that found them did (36 us against 55 us for 191 KB in 27
	// lines): the bytes kept a byte after 1 question went from 1.147 to
	// 1.114, after 10 from two agents from 1.161 to 1.128, for at most
	// +0.25 % instructions at parse + N checks, N = 1 to 10
	// (BenchmarkParseCheckTwoAgents, medians of three callgrind runs;
	// the runs spread by 0.5 %). At 512 bytes a line: 1.102 and 1.115,
	// for +1.0 % at N = 2; at 256, nine more files, whose lines are
	// shorter and compile slower: 1.030 and 1.044, for +4.8 % at N = 1
	// and +4.4 % at N = 2 (one run each).
	sparseMinBytes  = 8 << 10
	sparseLineBytes = 1 << 10
)

// keepsDirectory reports whether a file of size bytes, whose first
// scoped pass read groups groups and a summary of agents, keeps its
// directory of groups for the passes of later agents: not when no group
// names an agent (every later agent shares the "*" set), nor for fewer
// than minDirectoryGroups groups, nor for more than maxDirectoryShare
// allows.
func keepsDirectory(agents agentSummary, groups, size int) bool {
	return agents != (agentSummary{}) && groups >= minDirectoryGroups && groups*maxDirectoryShare <= size
}

// compileSparse reports whether a file of size bytes in lines lines, that
// names no agent, is compiled whole at its first question rather than
// kept with an empty scoped set (see sparseMinBytes).
func compileSparse(size, lines int) bool {
	return size >= sparseMinBytes && size >= sparseLineBytes*lines
}

// The tuning of the structures themselves: how the index is built and
// searched. They change how fast a step is, not which step is taken.
const (
	// maxEveryPathLen is the longest first rule matchesEveryPath reads to
	// tell whether it matches every path ("", "/", "*", "/*", "/*$",
	// "/**$"): a set's first rule is its longest, so most sets are ruled
	// out by the rule's length alone. On the many-agent workload, where a
	// quarter of the questions ask a set of one "disallow: /" (a crawler
	// shut out), the shortcut took a question from 1,086 to 965
	// instructions (BenchmarkAllowedWorkload/many, callgrind), and the
	// two-agent workload's from 1,334 to 1,322.
	maxEveryPathLen = 4

	// needAfter is how many rules an entry has from which a wild rule
	// keeps no byte signature when its filter's windows hold every byte
	// it would require: the signature then only spares the first
	// filterAfter matches of a query, and cost 32 bits a rule, more than
	// the rest of its record.
	needAfter = 64

	// filterAfter is how many wild rules a search matches before it finds
	// the windows of the path and filters the rest: fewer are cheaper to
	// match.
	filterAfter = 16

	// ruleBuildWork is what a step of an index building charges for a
	// rule it reads besides the bytes of its pattern (sorting, the prefix
	// entry, the window table's lookups), in about the time a pattern
	// byte costs.
	ruleBuildWork = 48

	// radixItems is how many items a build sorts by the bytes of their
	// keys rather than by comparing them: a hostile set's 12,000
	// non-ASCII rules took 2.5 ms to sort by comparison, 0.1 ms by their
	// keys' bytes.
	radixItems = 256

	// sortInPlaceMax is the size up to which sortRules sorts by
	// insertion, and may sort a slice in place.
	sortInPlaceMax = 24

	// bucketLoad is the mean number of hashes in a bucket of a complete
	// window table: a window then costs 4 bytes, and half the 4 of its
	// bucket's start, and a lookup reads a bucket start and one or two
	// hashes.
	bucketLoad = 2

	// crowdedBucket is the most hashes a bucket holds for lookups to scan
	// it; windows chosen to collide make larger ones, searched by
	// bisection.
	crowdedBucket = 16

	// denseWindows is the most windows a table can have for its
	// occurrences to take the dense form from the start: the map would
	// save at most 8 bytes a window, and cost a hash probe per window
	// found.
	denseWindows = 64

	// prefixIndexOthers is the most rules that are not plain prefixes
	// (wildcards, non-ASCII bytes) a prefixIndex tries in turn, ruling
	// most out by their first bytes and the bytes they require, and
	// prefixIndexStars the most stars they may hold together, which
	// bound a question's full matches to about as many passes over the
	// path; more get a ruleIndex of their own. On BenchmarkAllowedCorpus
	// (compiled, instructions a question by callgrind) and
	// BenchmarkRetainedStates (100 questions from 2 agents): 16 took
	// 1,202 instructions (before the required bytes) and kept 1.353
	// bytes a byte, 32 1,142 and 1.336, 64 1,127 and about 1.318, 128
	// 1,108 and 1.316: a ruleIndex over a few dozen wild rules costs more
	// instructions than trying them, and 28 bytes a rule.
	prefixIndexOthers = 64
	prefixIndexStars  = 2 * prefixIndexOthers

	// prefixIndexMaxRules: a set of stepwiseRules rules or more, up to
	// this many, whose rules are plain but for prefixIndexOthers, takes
	// a prefixIndex too, built at once: sorting 8,192 patterns takes
	// about 4 M instructions, where its ruleIndex would keep 40 bytes a
	// pattern (the corpus's one such set, 4,997 rules for Googlebot in
	// 118 KB, kept 0.023 bytes a byte of the whole corpus). Larger sets,
	// the hostile files' tens of thousands of plain rules, are indexed in
	// parts.
	prefixIndexMaxRules = 8192
)

// Allowed reports whether the crawler agent may fetch url: the verdict of
// the agent's scoped set, of the stream, or of the compiled form, as plan
// chooses.
func (f *File) Allowed(agent, url string) bool {
	if !f.isBuilt() {
		rs, v, answered := f.plan(agent, url, false)
		if answered {
			return v.Allowed
		}
		if rs != nil {
			return rs.Allowed(url)
		}
	}
	// lookup, not Rules, and decideURL, not rs.Allowed: two calls less on
	// every compiled question.
	rs, _ := f.lookup(agent)
	c := rs.decideURL(url)
	return c == nil || c.allows()
}

// Explain returns the verdict for agent and url, with the rule that
// decided it, as Allowed finds it.
func (f *File) Explain(agent, url string) Verdict {
	if !f.isBuilt() {
		rs, v, answered := f.plan(agent, url, true)
		if answered {
			return v
		}
		if rs != nil {
			return rs.Verdict(url)
		}
	}
	rs, _ := f.lookup(agent)
	return rs.Verdict(url)
}

// plan chooses what a question about a file not compiled yet does, from
// the file's state (see the map above). It answers the question itself
// (answered is true and v the verdict) from the agent's scoped set in
// file order, or by a scan within budget, or by streaming a Large file;
// or returns the agent's scoped set (rs), sorted, whose decide answers;
// or, with rs nil and answered false, compiles f whole, whose compiled
// form then answers. A verdict found by a scan names its rule only for
// explain (Explain): Allowed does not count the rule's line.
func (f *File) plan(agent, url string, explain bool) (rs *RuleSet, v Verdict, answered bool) {
	body, ok := f.body()
	if !ok || f.isDisallowAll() {
		f.compile()
		return nil, Verdict{}, false
	}
	s := f.findScoped(agent)
	if s != nil && len(body) >= compileWholeBytes && f.addAsked() > compileWholeAfter {
		// A large file asked often is compiled whole, a part a question,
		// which drops its copy and its scoped sets.
		f.mu.Lock()
		built := f.buildStep(buildPartWork)
		f.mu.Unlock()
		if built {
			return nil, Verdict{}, false
		}
	}
	if s == nil {
		first := firstQuestion{url: url, explain: explain}
		if s = f.scope(body, agent, &first); s == nil {
			if f.isTooLarge() {
				// scope found the set too large, now or before. Only
				// then is the question counted: the count is a locked
				// instruction, which waits for the stores before it, and
				// the first question comes right after the copy's.
				v, answered = f.largeQuestion(body, agent, url, f.addAsked())
				return nil, v, answered
			}
			f.compile()
			return nil, Verdict{}, false
		}
		// The question that built the set scanned its rules in file
		// order, within a budget, rather than sort them or build their
		// index; an agent given the shared set of the agents no group
		// names asks it as a later question does.
		if first.answered {
			return nil, first.v, true
		}
		if first.tried {
			return s.ruleSet(), Verdict{}, false
		}
	}
	if s.fileOrderScansLeft() {
		if v, ok := s.fileOrderVerdict(url, explain); ok {
			return nil, v, true
		}
	}
	if s.scanning() {
		if v, ok := s.sortedRules().scanVerdict(url, explain); ok {
			return nil, v, true
		}
	}
	return s.ruleSet(), Verdict{}, false
}

// largeQuestion answers a question about a Large file, the asked-th
// question asked of it: by streaming while the compile is done in parts,
// else by the compiled form (answered false), which also answers a
// question that the stream gives up on, once the compile is completed.
// The first question only streams: a file asked once costs a stream,
// where compiling it costs about twice as much.
func (f *File) largeQuestion(body, agent, url string, asked uint32) (v Verdict, answered bool) {
	if asked > 1 {
		// Lock, not TryLock: a question that passed a part under way by
		// would leave the compile a part behind the questions. A
		// question waits at most for the parts of those ahead of it,
		// which the compile needed.
		f.mu.Lock()
		f.buildStep(buildPartWork)
		f.mu.Unlock()
	}
	if f.isBuilt() {
		return Verdict{}, false
	}
	if v, ok := streamVerdict(body, agent, url); ok {
		return v, true
	}
	f.compile()
	return Verdict{}, false
}

// scanning reports whether the next question about s is to be answered
// by scanVerdict from its sorted rules: the first scopedScans questions
// after the fileOrderScans ones, for a set of indexMinRules rules or
// more, which gets its lazy index only after them (see
// scopedSet.ruleSet).
func (s *scopedSet) scanning() bool {
	n := s.state.Load()
	return n&indexBits == noIndex && n/scanOne < scopedScans && len(s.rules.compiled) >= indexMinRules && s.state.Add(scanOne)/scanOne <= scopedScans
}

// decide returns the rule of rs that decides for path, or nil when none
// matches: a small set tries its rules in deciding order, ruling most out
// with one comparison of their first bytes; a large set asks its lazy
// index.
func (rs *RuleSet) decide(path string) *compiledRule {
	// Google keeps the longest match of each kind (the first one on ties)
	// and lets allow win ties; an empty pattern matches with priority 0,
	// which names a line but never disallows. The order of rs.compiled
	// makes the first matching rule exactly that answer.
	if rs.index != nil {
		if pos := rs.index.find(path); pos != noRule {
			return &rs.compiled[pos]
		}
		return nil
	}
	key := prefixKey(path)
	var have uint8 // the path's pathClasses, once a wildcard rule needs them
	// Locals, not read from rs again after each call.
	compiled, text := rs.compiled, rs.text
	for i := range compiled {
		// mayMatch is inlined here; matchesFully, which it mostly spares,
		// is not.
		c := &compiled[i]
		if !c.mayMatch(text, key) {
			continue
		}
		if need := c.needsClasses(); need != 0 {
			if have == 0 {
				have = pathClasses(path) | haveKnown
			}
			if need&^have != 0 {
				continue // the path lacks a byte the pattern requires
			}
		}
		if c.matchesFully(text, path) {
			return c
		}
	}
	return nil
}

// haveKnown marks a path's pathClasses as found, which are then never 0.
const haveKnown = 1 << 7

// find returns the position of the deciding rule for path, or noRule: by
// scanning the rules while that is cheaper (lazyIndex.scan keeps the
// budget), then, for a set of stepwiseRules or more, by a part of the
// building and a scan, else through the index, built at once if need be.
func (l *lazyIndex) find(path string) int32 {
	if p := l.small.Load(); p != nil {
		return p.find(l.compiled, l.text, path)
	}
	idx := l.built.Load()
	if idx == nil {
		if pos, ok := l.scan(path); ok {
			return pos
		}
		if p := l.getSmall(); p != nil {
			return p.find(l.compiled, l.text, path)
		}
		if len(l.compiled) >= stepwiseRules {
			if pos, ok := l.stepThenScan(path); ok {
				return pos
			}
		}
		idx = l.get()
	}
	return idx.find(l.compiled, l.text, path)
}
