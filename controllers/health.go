package controllers

import (
	"github.com/go-fuego/fuego"

	"calendar/app/calendar"
)

// Status is the body of the health probes.
type Status struct {
	Status string `json:"status"`
}

// isProbe tells the paths that skip authentication and the rate limit: the
// probes, and /metrics, which checks its own token.
func isProbe(path string) bool { return path == "/healthz" || path == "/readyz" || path == metricsPath }

// mountHealth registers {base_url}/healthz (the process answers) and
// {base_url}/readyz (the store and the index answer). They skip authentication.
func (api *API) mountHealth() {
	fuego.Get(api.server, "/healthz", func(c fuego.ContextNoBody) (Status, error) {
		return Status{"ok"}, nil
	}, fuego.OptionHide())
	fuego.Get(api.server, "/readyz", func(c fuego.ContextNoBody) (Status, error) {
		if err := api.ready(c.Request().Context()); err != nil {
			api.logger(c.Request()).Warn("not ready", "error", err)
			return Status{}, calendar.NewError(calendar.KindUnavailable, "not_ready", "The service is not ready: "+err.Error())
		}
		return Status{"ready"}, nil
	}, fuego.OptionHide())
}
