package controllers

import (
	"net/http"

	"github.com/go-fuego/fuego"
)

// ErrorBody documents the error shape every failure answers with.
type ErrorBody struct {
	Code    string `json:"code" example:"rest_invalid_param"`
	Message string `json:"message" example:"Invalid parameter(s): page"`
	Data    struct {
		Status  int               `json:"status" example:"400"`
		Params  map[string]string `json:"params,omitempty"`
		Details map[string]any    `json:"details,omitempty"`
	} `json:"data"`
}

func errorResponses() []fuego.RouteOption {
	var opts []fuego.RouteOption
	for code, text := range map[int]string{
		http.StatusBadRequest:            "Invalid or missing parameters, malformed body",
		http.StatusUnauthorized:          "Missing or wrong credentials",
		http.StatusForbidden:             "Signed in but not allowed",
		http.StatusNotFound:              "No such route",
		http.StatusRequestEntityTooLarge: "Body over 1 MiB",
		http.StatusTooManyRequests:       "Too many wrong credentials from this address; see Retry-After",
		http.StatusInternalServerError:   "Unexpected failure",
	} {
		opts = append(opts, fuego.OptionAddResponse(code, text, fuego.Response{Type: ErrorBody{}, ContentTypes: []string{"application/json"}}))
	}
	return opts
}
