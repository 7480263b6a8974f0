package main

import (
	"flag"
	"fmt"
)

// commands are what the first argument may name; none serves the API.
var commands = []struct{ name, usage string }{
	{"", "serve the API (the default)"},
	{"reindex", "rebuild the search index from the store, with the service stopped"},
	{"verify", "compare the search index with the store and report what differs"},
	{"users", "list: the users and their roles; reset-password LOGIN [--keep-others]: a new password, the others revoked (or kept); set-role LOGIN ROLE: another role, administrator too (service stopped)"},
	{"restore", "fill an empty data directory from a backup archive: calendar restore [flags] FILE (- reads standard input); service stopped"},
	{"version", "print the version, the commit and the Go release it was built from (also -version)"},
	{"help", "show this help"},
}

// writeUsage is what -h and help show: the commands, then every setting with
// its flag and environment variable.
func writeUsage(fs *flag.FlagSet) {
	out := fs.Output()
	fmt.Fprintln(out, "Usage: calendar [command] [flags]")
	fmt.Fprintln(out, "\nCommands:")
	for _, c := range commands {
		name := c.name
		if name == "" {
			name = "(none)"
		}
		fmt.Fprintf(out, "  %-8s %s\n", name, c.usage)
	}
	fmt.Fprintln(out, "\nFlags (each also read from the environment variable in brackets; a flag wins):")
	fs.PrintDefaults()
}
