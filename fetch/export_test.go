package fetch

// RemoveDotSegmentsRFC is RFC 3986's dot-segment algorithm as the RFC
// writes it, for the external tests' model of what a server resolves.
var RemoveDotSegmentsRFC = removeDotSegmentsRFC
