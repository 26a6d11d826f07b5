package jsonkeys

import (
	"encoding/json"
	"fmt"
	"testing"
)

// recorder keeps the failures CheckSnakeCase reports.
type recorder struct {
	testing.TB
	failures []string
}

func (r *recorder) Helper() {}

func (r *recorder) Errorf(format string, args ...any) {
	r.failures = append(r.failures, fmt.Sprintf(format, args...))
}

func TestCheckSnakeCase(t *testing.T) {
	for _, tc := range []struct {
		json string
		want int
	}{
		{`{"agent":"x","rules":[{"line":1,"match_length":2}]}`, 0},
		{`{"matchLength":1}`, 1},
		{`{"a":[{"Line":1},{"ok_key":{"Bad-Key":2}}]}`, 2},
		{`["_x", {"x_":1, "x__y":2, "x2_3":3}]`, 2},
	} {
		var v any
		if err := json.Unmarshal([]byte(tc.json), &v); err != nil {
			t.Fatal(err)
		}
		r := &recorder{TB: t}
		CheckSnakeCase(r, "v", v)
		if len(r.failures) != tc.want {
			t.Errorf("%s: %d failures %q, want %d", tc.json, len(r.failures), r.failures, tc.want)
		}
	}
}
