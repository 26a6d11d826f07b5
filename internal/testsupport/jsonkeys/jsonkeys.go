// Package jsonkeys checks that the JSON the tools print keeps one shape of
// key: snake_case, at every depth, as the command's -json output and the
// tester page both promise.
package jsonkeys

import (
	"regexp"
	"testing"
)

var snakeCase = regexp.MustCompile(`^[a-z][a-z0-9]*(_[a-z0-9]+)*$`)

// CheckSnakeCase fails t for each key of v, at any depth, that is not
// snake_case; v is a value encoding/json decoded into an any. path names v
// in the failures (for example "audit").
func CheckSnakeCase(t testing.TB, path string, v any) {
	t.Helper()
	switch v := v.(type) {
	case map[string]any:
		for k, e := range v {
			if !snakeCase.MatchString(k) {
				t.Errorf("key %s.%s is not snake_case", path, k)
			}
			CheckSnakeCase(t, path+"."+k, e)
		}
	case []any:
		for _, e := range v {
			CheckSnakeCase(t, path+"[]", e)
		}
	}
}
