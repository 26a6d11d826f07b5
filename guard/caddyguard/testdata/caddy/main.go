// Command caddy is Caddy with the standard modules and caddyguard, as
// "xcaddy build --with github.com/seed50c7eacc/robotstxt/guard/caddyguard"
// builds it. The end-to-end test builds and runs it.
package main

import (
	caddycmd "github.com/caddyserver/caddy/v2/cmd"

	_ "github.com/caddyserver/caddy/v2/modules/standard"
	_ "github.com/seed50c7eacc/robotstxt/guard/caddyguard"
)

func main() { caddycmd.Main() }
