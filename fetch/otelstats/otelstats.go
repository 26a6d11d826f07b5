// Package otelstats exports the counters of a fetch.Client and a
// fetch.Transport (fetch.Stats, fetch.TransportStats) as OpenTelemetry
// metrics: observable instruments read when the meter provider collects,
// so that counting costs the crawler nothing more than the Client's own
// atomic adds.
//
//	reg, err := otelstats.Register(otel.Meter("crawler"), client, transport)
//	defer reg.Unregister()
//
// It lives in its own module so that users of robotstxt who do not use
// OpenTelemetry never download it.
package otelstats

import (
	"context"

	"github.com/seed50c7eacc/robotstxt/fetch"
	"go.opentelemetry.io/otel/metric"
)

// Prefix starts the name of every instrument.
const Prefix = "robotstxt."

// A clientCounter is one counter of fetch.Stats and its instrument.
type clientCounter struct {
	name, help string
	value      func(fetch.Stats) int64
}

var clientCounters = []clientCounter{
	{"fetch.memory_hits", "questions answered from the parsed copy in memory", func(s fetch.Stats) int64 { return s.MemoryHits }},
	{"fetch.joined", "callers that waited for a resolution under way", func(s fetch.Stats) int64 { return s.Joined }},
	{"fetch.store.hits", "fresh entries read from the shared store", func(s fetch.Stats) int64 { return s.StoreHits }},
	{"fetch.store.misses", "store reads that found no fresh entry", func(s fetch.Stats) int64 { return s.StoreMisses }},
	{"fetch.store.errors", "failed store calls", func(s fetch.Stats) int64 { return s.StoreErrors }},
	{"fetch.store.drops", "copies not stored: too many being stored", func(s fetch.Stats) int64 { return s.StoreDrops }},
	{"fetch.lease.waits", "resolutions that waited on another process's lease", func(s fetch.Stats) int64 { return s.LeaseWaits }},
	{"fetch.stale_served", "stale copies served while another process fetched", func(s fetch.Stats) int64 { return s.StaleServed }},
	{"fetch.fetches", "robots.txt fetches", func(s fetch.Stats) int64 { return s.Fetches }},
	{"fetch.fetch_failures", "robots.txt fetches that failed", func(s fetch.Stats) int64 { return s.FetchFailures }},
	{"fetch.purges", "calls of Purge", func(s fetch.Stats) int64 { return s.Purges }},
}

// A transportCounter is one counter of fetch.TransportStats.
type transportCounter struct {
	name, help string
	value      func(fetch.TransportStats) int64
}

var transportCounters = []transportCounter{
	{"transport.requests", "requests and redirect hops checked", func(s fetch.TransportStats) int64 { return s.Requests }},
	{"transport.refused", "requests refused by robots.txt", func(s fetch.TransportStats) int64 { return s.Refused }},
	{"transport.waits", "requests held back for their site's turn", func(s fetch.TransportStats) int64 { return s.Waits }},
	{"transport.pauses", "429 and 503 responses that paused a site", func(s fetch.TransportStats) int64 { return s.Pauses }},
}

// Register makes meter report the counters of client and, when not nil,
// of transport: a counter per field of fetch.Stats and
// fetch.TransportStats, named Prefix + "fetch.store.hits" and so on, the
// number of robots.txt URLs held in memory as the gauge
// robotstxt.fetch.memo.entries, and the Transport's waits in all as the
// counter robotstxt.transport.wait_time, in seconds. Unregister the
// returned Registration to stop.
func Register(meter metric.Meter, client *fetch.Client, transport *fetch.Transport) (metric.Registration, error) {
	var observables []metric.Observable
	clientInstruments := make([]metric.Int64ObservableCounter, len(clientCounters))
	for i, c := range clientCounters {
		inst, err := meter.Int64ObservableCounter(Prefix+c.name, metric.WithDescription(c.help))
		if err != nil {
			return nil, err
		}
		clientInstruments[i] = inst
		observables = append(observables, inst)
	}
	memo, err := meter.Int64ObservableGauge(Prefix+"fetch.memo.entries", metric.WithDescription("robots.txt URLs whose parsed copy is held in memory"))
	if err != nil {
		return nil, err
	}
	observables = append(observables, memo)
	var transportInstruments []metric.Int64ObservableCounter
	var waitTime metric.Float64ObservableCounter
	if transport != nil {
		for _, c := range transportCounters {
			inst, err := meter.Int64ObservableCounter(Prefix+c.name, metric.WithDescription(c.help))
			if err != nil {
				return nil, err
			}
			transportInstruments = append(transportInstruments, inst)
			observables = append(observables, inst)
		}
		waitTime, err = meter.Float64ObservableCounter(Prefix+"transport.wait_time", metric.WithUnit("s"), metric.WithDescription("time requests waited for their site's turn"))
		if err != nil {
			return nil, err
		}
		observables = append(observables, waitTime)
	}
	return meter.RegisterCallback(func(_ context.Context, o metric.Observer) error {
		s := client.Stats()
		for i, c := range clientCounters {
			o.ObserveInt64(clientInstruments[i], c.value(s))
		}
		o.ObserveInt64(memo, int64(s.MemoEntries))
		if transport != nil {
			ts := transport.Stats()
			for i, c := range transportCounters {
				o.ObserveInt64(transportInstruments[i], c.value(ts))
			}
			o.ObserveFloat64(waitTime, ts.WaitTime.Seconds())
		}
		return nil
	}, observables...)
}
