package caddyguard_test

import (
	"encoding/json"
	"fmt"
	"log"

	"github.com/caddyserver/caddy/v2/caddyconfig"
	_ "github.com/caddyserver/caddy/v2/caddyconfig/httpcaddyfile" // the Caddyfile adapter
	_ "github.com/caddyserver/caddy/v2/modules/caddyhttp/fileserver"

	_ "github.com/seed50c7eacc/robotstxt/guard/caddyguard"
)

// A site's Caddyfile with the directive, and the JSON config Caddy adapts
// it to: the guard comes before file_server, as its registered order
// says, whatever order the site block writes them in.
func Example() {
	caddyfile := `:8080

file_server
root * /srv/www
robotstxt_guard {
	robots /srv/www/robots.txt
	status 429
	metrics
}
`
	cfg, _, err := caddyconfig.GetAdapter("caddyfile").Adapt([]byte(caddyfile), nil)
	if err != nil {
		log.Fatal(err)
	}
	var doc struct {
		Apps struct {
			HTTP struct {
				Servers map[string]struct {
					Routes []struct {
						Handle []json.RawMessage `json:"handle"`
					} `json:"routes"`
				} `json:"servers"`
			} `json:"http"`
		} `json:"apps"`
	}
	if err := json.Unmarshal(cfg, &doc); err != nil {
		log.Fatal(err)
	}
	for _, route := range doc.Apps.HTTP.Servers["srv0"].Routes {
		for _, h := range route.Handle {
			fmt.Println(string(h))
		}
	}
	// Output:
	// {"handler":"vars","root":"/srv/www"}
	// {"handler":"robotstxt_guard","metrics":true,"robots":"/srv/www/robots.txt","status":429}
	// {"handler":"file_server","hide":["./Caddyfile"]}
}
