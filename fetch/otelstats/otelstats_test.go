package otelstats_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/seed50c7eacc/robotstxt/fetch"
	"github.com/seed50c7eacc/robotstxt/fetch/otelstats"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"
)

// The metrics a manual reader collects are the Client's and the
// Transport's counters at the time of collection.
func TestRegister(t *testing.T) {
	ctx := context.Background()
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/robots.txt" {
			io.WriteString(w, "User-agent: *\nDisallow: /private\n")
		}
	}))
	defer site.Close()
	client := &fetch.Client{}
	transport := fetch.NewTransport(http.DefaultTransport, "bot", client)
	reader := sdkmetric.NewManualReader()
	provider := sdkmetric.NewMeterProvider(sdkmetric.WithReader(reader))
	defer provider.Shutdown(ctx)
	reg, err := otelstats.Register(provider.Meter("test"), client, transport)
	if err != nil {
		t.Fatal(err)
	}
	hc := &http.Client{Transport: transport}
	for _, path := range []string{"/a", "/b", "/private/x"} {
		if resp, err := hc.Get(site.URL + path); err == nil {
			resp.Body.Close()
		}
	}
	if err := client.Purge(ctx, site.URL+"/"); err != nil {
		t.Fatal(err)
	}

	got := collect(t, reader)
	s, ts := client.Stats(), transport.Stats()
	want := map[string]float64{
		"robotstxt.fetch.memory_hits":   float64(s.MemoryHits),
		"robotstxt.fetch.fetches":       float64(s.Fetches),
		"robotstxt.fetch.store.misses":  float64(s.StoreMisses),
		"robotstxt.fetch.purges":        1,
		"robotstxt.fetch.memo.entries":  float64(s.MemoEntries),
		"robotstxt.transport.requests":  3,
		"robotstxt.transport.refused":   1,
		"robotstxt.transport.wait_time": ts.WaitTime.Seconds(),
	}
	if s.Fetches != 1 || s.MemoryHits != 2 {
		t.Fatalf("Stats %+v: want one fetch and two answers from memory", s)
	}
	for name, v := range want {
		if g, ok := got[name]; !ok || g != v {
			t.Errorf("%s = %v (collected: %v), want %v", name, g, ok, v)
		}
	}
	if len(got) != 17 {
		t.Errorf("%d metrics collected, want 17 (11 client counters, the memo gauge, 4 transport counters and the wait time):\n%v", len(got), got)
	}

	if err := reg.Unregister(); err != nil {
		t.Fatal(err)
	}
	if got := collect(t, reader); len(got) != 0 {
		t.Errorf("after Unregister: %d metrics", len(got))
	}

	// Without a Transport, only the Client's.
	if _, err := otelstats.Register(provider.Meter("client-only"), client, nil); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(12, len(collect(t, reader))); diff != "" {
		t.Errorf("client only (-want +got):\n%s", diff)
	}
}

// collect reads every metric's last value (a sum's or a gauge's).
func collect(t *testing.T, reader *sdkmetric.ManualReader) map[string]float64 {
	t.Helper()
	var rm metricdata.ResourceMetrics
	if err := reader.Collect(context.Background(), &rm); err != nil {
		t.Fatal(err)
	}
	out := map[string]float64{}
	for _, sm := range rm.ScopeMetrics {
		for _, m := range sm.Metrics {
			switch d := m.Data.(type) {
			case metricdata.Sum[int64]:
				for _, p := range d.DataPoints {
					out[m.Name] = float64(p.Value)
				}
			case metricdata.Sum[float64]:
				for _, p := range d.DataPoints {
					out[m.Name] = p.Value
				}
			case metricdata.Gauge[int64]:
				for _, p := range d.DataPoints {
					out[m.Name] = float64(p.Value)
				}
			}
		}
	}
	return out
}
