package caddyguard

import (
	"errors"
	"sync"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/seed50c7eacc/robotstxt/guard"
)

// guardCollector exports the counts of the guards of one Caddy config,
// summed by robots.txt file. The first handler with metrics on registers
// it in the config's registry; the others find it there and add their
// guard, so that two sites enforcing one file report it once.
type guardCollector struct {
	mu     sync.Mutex
	guards map[string][]*guard.Guard // by the file's path
}

var (
	descRequests     = newDesc("requests_total", "Requests the robots.txt guard saw.")
	descCrawlers     = newDesc("crawlers_total", "Requests that named a crawler.")
	descRefused      = newDesc("refused_total", "Requests refused by the crawler's group of robots.txt, or as an impostor's.")
	descImpostors    = newDesc("impostors_total", "Requests that do not come from the crawler they name.")
	descVerifyErrors = newDesc("verify_errors_total", "Requests whose claim to be a crawler could not be verified.")
)

func newDesc(name, help string) *prometheus.Desc {
	return prometheus.NewDesc(prometheus.BuildFQName("caddy", "robotstxt_guard", name), help, []string{"robots"}, nil)
}

// registerMetrics adds g, enforcing the file at path, to the collector
// of reg.
func registerMetrics(reg prometheus.Registerer, path string, g *guard.Guard) error {
	c := &guardCollector{guards: map[string][]*guard.Guard{}}
	if err := reg.Register(c); err != nil {
		var dup prometheus.AlreadyRegisteredError
		if !errors.As(err, &dup) {
			return err
		}
		existing, ok := dup.ExistingCollector.(*guardCollector)
		if !ok {
			return err
		}
		c = existing
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.guards[path] = append(c.guards[path], g)
	return nil
}

// Describe implements prometheus.Collector.
func (c *guardCollector) Describe(ch chan<- *prometheus.Desc) {
	for _, d := range []*prometheus.Desc{descRequests, descCrawlers, descRefused, descImpostors, descVerifyErrors} {
		ch <- d
	}
}

// Collect implements prometheus.Collector.
func (c *guardCollector) Collect(ch chan<- prometheus.Metric) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for path, gs := range c.guards {
		var sum guard.Stats
		for _, g := range gs {
			s := g.Stats()
			sum.Requests += s.Requests
			sum.Crawlers += s.Crawlers
			sum.Refused += s.Refused
			sum.Impostors += s.Impostors
			sum.VerifyErrors += s.VerifyErrors
		}
		for _, m := range []struct {
			d *prometheus.Desc
			v int64
		}{
			{descRequests, sum.Requests},
			{descCrawlers, sum.Crawlers},
			{descRefused, sum.Refused},
			{descImpostors, sum.Impostors},
			{descVerifyErrors, sum.VerifyErrors},
		} {
			ch <- prometheus.MustNewConstMetric(m.d, prometheus.CounterValue, float64(m.v), path)
		}
	}
}
