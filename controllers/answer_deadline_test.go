package controllers

import (
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"
)

// TestAnAnswerMadeAfterTheServersWriteTimeoutStillReachesTheClient: the
// server's WriteTimeout runs from the request's headers; an answer ready
// after it (a loaded machine) is sent within a window of its own
// (SendTimeout), not dropped with the connection after its work was done.
func TestAnAnswerMadeAfterTheServersWriteTimeoutStillReachesTheClient(t *testing.T) {
	const writeTimeout = 100 * time.Millisecond
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		a := newAnswer(w, r)
		time.Sleep(3 * writeTimeout) // the answer takes longer to make than the server gives
		a.WriteHeader(http.StatusCreated)
		_, _ = a.Write([]byte(`{"id":1}`))
		a.send(0)
	}))
	srv.Config.WriteTimeout = writeTimeout
	srv.Start()
	defer srv.Close()
	res, err := http.Post(srv.URL, "application/json", nil)
	if err != nil {
		t.Fatalf("the answer was dropped: %v", err)
	}
	defer res.Body.Close()
	body, err := io.ReadAll(res.Body)
	if err != nil || res.StatusCode != http.StatusCreated || string(body) != `{"id":1}` {
		t.Fatalf("got %d %q, %v; want 201 {\"id\":1}", res.StatusCode, body, err)
	}
}
