//go:build race

package caddyguard_test

// raceEnabled says the tests run under the race detector.
const raceEnabled = true
