//go:build !race

package diff_test

const raceEnabled = false
