package controllers

import (
	"net/http"

	"github.com/go-fuego/fuego"

	"calendar/app"
)

// Status is the body of the health probes.
type Status struct {
	Status string `json:"status"`
}

func isProbe(path string) bool { return path == "/healthz" || path == "/readyz" }

// mountHealth registers {base_url}/healthz (the process answers) and
// {base_url}/readyz (the store and the index answer). They skip authentication.
func (api *API) mountHealth() {
	fuego.Get(api.server, "/healthz", func(c fuego.ContextNoBody) (Status, error) {
		return Status{"ok"}, nil
	}, fuego.OptionHide())
	fuego.Get(api.server, "/readyz", func(c fuego.ContextNoBody) (Status, error) {
		if err := api.app.Ready(c.Request().Context()); err != nil {
			api.cfg.Logger.Warn("not ready", "error", err)
			return Status{}, app.NewError(http.StatusServiceUnavailable, "not_ready", "The service is not ready: "+err.Error())
		}
		return Status{"ready"}, nil
	}, fuego.OptionHide())
}
