package controllers

// DeclaredEndpoint is one endpoint as its route declares it: the route's
// pattern (/vendor/events/v1/venues/{id}), its methods, its parameters.
type DeclaredEndpoint struct {
	Path    string
	Methods []string
	Args    []Arg
}

// Declared lists every endpoint the API registered, in registration order,
// for the tests that walk the declarations.
func (api *API) Declared() []DeclaredEndpoint {
	var out []DeclaredEndpoint
	for _, rt := range api.routes {
		for _, e := range rt.endpoints {
			out = append(out, DeclaredEndpoint{Path: rt.path, Methods: e.methods, Args: e.args})
		}
	}
	return out
}

// ItemsBound is the bound on a list parameter's items: its own, or every
// list's.
func (a Arg) ItemsBound() int { return a.maxItems() }
