//go:build race

package audit

// raceEnabled thins the corpus audit under the race detector, which makes
// it ten times slower; the full run is the ordinary test.
const raceEnabled = true
