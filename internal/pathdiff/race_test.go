//go:build race

package pathdiff

// raceEnabled says the tests run under the race detector, where the
// random tests check a quarter of their pairs: the package shares no
// state between goroutines, and the plain run checks them all.
const raceEnabled = true
