package diff

import (
	"bytes"
	"slices"
	"strings"

	"github.com/seed50c7eacc/robotstxt/lint"
)

// fileChanges fills in what changes outside the verdicts: sitemaps,
// License lines, the product tokens named, and lines ignored.
func (r *Report) fileChanges(files [2]*fileView, old, new []byte) {
	r.SitemapsAdded, r.SitemapsRemoved = setDiff(files[0].robots.Sitemaps(), files[1].robots.Sitemaps())
	r.LicensesAdded, r.LicensesRemoved = setDiff(files[0].robots.Licenses(), files[1].robots.Licenses())
	var named [2][]string
	for f := range files {
		for _, name := range files[f].named {
			named[f] = append(named[f], name)
		}
		slices.Sort(named[f])
	}
	for _, name := range named[1] {
		if files[0].named[strings.ToLower(name)] == "" {
			r.AgentsNamed = append(r.AgentsNamed, name)
		}
	}
	for _, name := range named[0] {
		if files[1].named[strings.ToLower(name)] == "" {
			r.AgentsUnnamed = append(r.AgentsUnnamed, name)
		}
	}
	r.Lines = lineChanges(old, new)
}

// setDiff returns the values only in new and only in old, in file order,
// each once.
func setDiff(old, new []string) (added, removed []string) {
	for _, v := range new {
		if !slices.Contains(old, v) && !slices.Contains(added, v) {
			added = append(added, v)
		}
	}
	for _, v := range old {
		if !slices.Contains(new, v) && !slices.Contains(removed, v) {
			removed = append(removed, v)
		}
	}
	return added, removed
}

// ignoredCodes are the lint codes that say a line is ignored, never
// matches, or is read otherwise than written.
var ignoredCodes = map[lint.Code]bool{
	lint.CodeNotADirective:     true,
	lint.CodeUnknownKey:        true,
	lint.CodeRuleOutsideGroup:  true,
	lint.CodePathNotAbsolute:   true,
	lint.CodeUsageOutsideGroup: true,
	lint.CodeAgentTokenDiffers: true,
	lint.CodeContentPastLimit:  true,
	lint.CodeLineTooLong:       true,
}

// lineChanges returns the ignored-line findings of lint present in only
// one version, matched by code and line text (lines move when a file is
// edited).
func lineChanges(old, new []byte) []LineChange {
	type finding struct {
		code, text string
	}
	collect := func(data []byte) (map[finding]lint.Diagnostic, []finding) {
		lines := splitLines(data)
		m := map[finding]lint.Diagnostic{}
		var order []finding
		for _, d := range lint.Lint(data).Diagnostics {
			if !ignoredCodes[d.Code] {
				continue
			}
			text := ""
			if d.Line >= 1 && d.Line <= len(lines) {
				text = lines[d.Line-1]
			}
			k := finding{string(d.Code), text}
			if _, ok := m[k]; !ok {
				m[k] = d
				order = append(order, k)
			}
		}
		return m, order
	}
	om, oOrder := collect(old)
	nm, nOrder := collect(new)
	var out []LineChange
	for _, k := range nOrder {
		if _, ok := om[k]; !ok {
			d := nm[k]
			out = append(out, LineChange{Text: k.text, Code: k.code, New: d.Line, Issue: d.Message})
		}
	}
	for _, k := range oOrder {
		if _, ok := nm[k]; !ok {
			d := om[k]
			out = append(out, LineChange{Text: k.text, Code: k.code, Old: d.Line, Issue: d.Message})
		}
	}
	return out
}

// splitLines splits data at "\n", "\r\n" and "\r", as Google numbers
// lines, keeping at most a few hundred bytes of each.
func splitLines(data []byte) []string {
	var out []string
	for len(data) > 0 {
		i := bytes.IndexAny(data, "\r\n")
		if i < 0 {
			out = append(out, clip(data))
			break
		}
		out = append(out, clip(data[:i]))
		if data[i] == '\r' && i+1 < len(data) && data[i+1] == '\n' {
			i++
		}
		data = data[i+1:]
	}
	return out
}

func clip(b []byte) string {
	const max = 200
	if len(b) > max {
		return string(b[:max]) + "…"
	}
	return string(b)
}
