// Package crawlers is the list of well-known AI crawlers, usage-only
// product tokens and search crawlers that the audit reports on, kept as
// data in crawlers.json.
//
// Most entries come from the ai.robots.txt project's robots.json
// (https://github.com/ai-robots-txt/ai.robots.txt), MIT licensed,
// Copyright (c) 2024 ai.robots.txt; see LICENSE.ai-robots-txt. The snapshot's
// commit and date are in the file and in Source.
package crawlers

import (
	_ "embed"
	"encoding/json"
	"fmt"

	"github.com/seed50c7eacc/robotstxt/internal/parse"
)

//go:embed crawlers.json
var data []byte

// Purpose says what a crawler's operator uses fetched content for.
type Purpose string

// The purposes of the list.
const (
	AITraining Purpose = "ai-training" // collecting content to train models
	AISearch   Purpose = "ai-search"   // indexing for an AI search or answer product
	AIInput    Purpose = "ai-input"    // live, often user-initiated, input to an AI model
	AIOther    Purpose = "ai-other"    // AI-related, use undocumented
	Search     Purpose = "search"      // a classic search engine
)

// Kind says whether a name is sent by a crawler or only read from
// robots.txt.
type Kind string

// The kinds of entries.
const (
	// Crawler: a crawler sends this name and obeys the group that names it.
	Crawler Kind = "crawler"
	// UsageToken: no crawler sends it; other crawlers of the operator
	// obey its group for one use of the content (Google-Extended for
	// Gemini training and grounding, per Google's common crawlers
	// documentation; Applebot-Extended for Apple's model training, per
	// Apple's "About Applebot").
	UsageToken Kind = "usage-token"
)

// An Entry is one name of the list.
type Entry struct {
	Name     string  `json:"name"`     // as the source writes it
	Operator string  `json:"operator"` // as the source writes it (may hold a Markdown link)
	Function string  `json:"function"` // the source's description of its use
	Purpose  Purpose `json:"purpose"`
	Kind     Kind    `json:"kind"`
	From     string  `json:"from"` // "ai.robots.txt", or "robotstxt" for entries this project adds
}

// SourceInfo names the snapshot the list was taken from.
type SourceInfo struct {
	Name        string `json:"name"`
	URL         string `json:"url"`
	Commit      string `json:"commit"`
	Date        string `json:"date"`
	License     string `json:"license"`
	Copyright   string `json:"copyright"`
	LicenseFile string `json:"license_file"`
}

type file struct {
	Source   SourceInfo `json:"source"`
	Note     string     `json:"note"`
	Crawlers []Entry    `json:"crawlers"`
}

// List returns the entries in the file's order, and the snapshot they come
// from. Each call returns a fresh copy.
func List() ([]Entry, SourceInfo, error) {
	var f file
	if err := json.Unmarshal(data, &f); err != nil {
		return nil, SourceInfo{}, fmt.Errorf("crawlers: embedded crawlers.json: %w", err)
	}
	return f.Crawlers, f.Source, nil
}

// GoogleToken returns the part of name that Google's robots.txt parser
// reads from a user-agent line: the leading run of ASCII letters, '-' and
// '_' (Google's documentation of user-agent matching; google/robotstxt
// ExtractUserAgent). "AI2Bot" is read as "AI", "Crawl4AI" as "Crawl",
// "ChatGPT Agent" as "ChatGPT", so a group written for one of them applies
// to whatever crawler sends the shorter token, and never to a crawler that
// matches its name with the digits or spaces.
func GoogleToken(name string) string { return parse.ProductToken(name) }
