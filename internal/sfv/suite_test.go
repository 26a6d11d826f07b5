package sfv

import (
	"encoding/base32"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestStructuredFieldSuite runs the cases of the HTTP working group's
// structured-field-tests (github.com/httpwg/structured-field-tests,
// commit 1e280c3 of 2026-06-09) that a Content-Usage or Content-Signal
// value can hold: every dictionary case, and every item case (binary.json's
// byte sequences among them) as the value of a dictionary member "a=".
// The parsed value must equal "expected" and serialize to "canonical" (or
// the raw value); "must_fail" cases must fail. "can_fail" cases must
// parse where RFC 9651 says parsers SHOULD NOT fail: section 4.2.7, a
// byte sequence with missing "=" padding or non-zero pad bits.
//
// The suite's dictionary, parameter, example and binary files are kept
// in testdata/structured-field-tests (with its licence); SFV_TEST_SUITE
// names a checkout of the whole suite to run instead.
func TestStructuredFieldSuite(t *testing.T) {
	dir := os.Getenv("SFV_TEST_SUITE")
	if dir == "" {
		dir = filepath.Join("testdata", "structured-field-tests")
	}
	files, err := filepath.Glob(filepath.Join(dir, "*.json"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no test files in %s (%v)", dir, err)
	}
	ran := 0
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		var cases []struct {
			Name       string          `json:"name"`
			Raw        []string        `json:"raw"`
			HeaderType string          `json:"header_type"`
			Expected   json.RawMessage `json:"expected"`
			MustFail   bool            `json:"must_fail"`
			CanFail    bool            `json:"can_fail"`
			Canonical  []string        `json:"canonical"`
		}
		if err := json.Unmarshal(data, &cases); err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		for _, c := range cases {
			switch {
			case c.HeaderType == "dictionary":
			case c.HeaderType == "item" && asMember(c.Raw):
				c.Raw = []string{"a=" + c.Raw[0]}
				canonical := c.Raw
				if c.Canonical != nil {
					canonical = []string{"a=" + c.Canonical[0]}
				}
				// A member whose value is true is written as its key alone
				// (RFC 9651 section 4.1.2).
				if rest, ok := strings.CutPrefix(canonical[0], "a=?1"); ok {
					canonical = []string{"a" + rest}
				}
				c.Canonical = canonical
				if !c.MustFail {
					c.Expected = json.RawMessage(`[["a", ` + string(c.Expected) + `]]`)
				}
			default:
				continue
			}
			ran++
			name := filepath.Base(file) + "/" + c.Name
			d, err := ParseDictionary(strings.Join(c.Raw, ", "))
			if c.CanFail && mustNotFail[c.Name] {
				c.CanFail = false
			}
			if c.MustFail {
				if err == nil {
					t.Errorf("%s: parsed %v, want failure", name, d)
				}
				continue
			}
			if err != nil {
				if !c.CanFail {
					t.Errorf("%s: %v", name, err)
				}
				continue
			}
			var want any
			if err := json.Unmarshal(c.Expected, &want); err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			if diff := cmp.Diff(want, suiteDict(d)); diff != "" {
				t.Errorf("%s: mismatch (-want +got):\n%s", name, diff)
			}
			canonical := c.Canonical
			if canonical == nil {
				canonical = c.Raw
			}
			if got := d.String(); got != strings.Join(canonical, ", ") {
				t.Errorf("%s: serialized %q, want %q", name, got, strings.Join(canonical, ", "))
			}
		}
	}
	t.Logf("%d dictionary cases", ran)
}

// mustNotFail are the suite's "can_fail" cases that RFC 9651 says
// parsers SHOULD NOT fail (section 4.2.7).
var mustNotFail = map[string]bool{
	"bad padding":       true, // ":aGVsbG8:", no "=" padding
	"non-zero pad bits": true, // ":iZ==:"
}

// asMember reports whether an item case can stand as the value of a
// dictionary member: one field line, with no white space around it (a
// member's value cannot start with a space, which an item may) and no
// comma (which ends a member but not an item).
func asMember(raw []string) bool {
	return len(raw) == 1 && raw[0] != "" && strings.TrimSpace(raw[0]) == raw[0] && !strings.Contains(raw[0], ",")
}

// suiteDict converts d to the JSON shape the suite's "expected" uses.
func suiteDict(d Dictionary) any {
	out := []any{}
	for _, m := range d {
		var v any
		if m.Value.IsInnerList {
			l := []any{}
			for _, it := range m.Value.List {
				l = append(l, []any{suiteItem(it.Item), suiteParams(it.Params)})
			}
			v = l
		} else {
			v = suiteItem(m.Value.Item)
		}
		out = append(out, []any{m.Key, []any{v, suiteParams(m.Value.Params)}})
	}
	return out
}

func suiteParams(ps []Param) any {
	out := []any{}
	for _, p := range ps {
		out = append(out, []any{p.Key, suiteItem(p.Value)})
	}
	return out
}

func suiteItem(it Item) any {
	switch it.Kind {
	case Integer:
		return float64(it.Int)
	case Decimal:
		return float64(it.Int) / 1000
	case String:
		return it.Str
	case Token:
		return map[string]any{"__type": "token", "value": it.Str}
	case ByteSequence:
		return map[string]any{"__type": "binary", "value": base32.StdEncoding.EncodeToString(it.Bytes)}
	case Boolean:
		return it.Bool
	case Date:
		return map[string]any{"__type": "date", "value": float64(it.Int)}
	case DisplayString:
		return map[string]any{"__type": "displaystring", "value": it.Str}
	}
	return nil
}
