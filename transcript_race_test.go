//go:build race

package robotstxt_test

// transcriptUnderRace is true under the race detector, whose run of
// TestGoogleTranscript compares fewer files.
const transcriptUnderRace = true
