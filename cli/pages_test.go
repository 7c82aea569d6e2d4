package cli

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"

	"golfsolitaire/store/memstore"
)

// TestPagesAnswer404ForMissingRooms: the pages the binary serves ask the
// store, so /r/{code} and /t/{id} of nothing are 404 while a stored room's
// page is 200. Before, every well-formed code answered 200.
func TestPagesAnswer404ForMissingRooms(t *testing.T) {
	st := memstore.New(memstore.Options{})
	defer st.Close()
	if err := st.Create(context.Background(), "ABC-DEF-GHJ", []byte(`{}`), []byte(`{}`)); err != nil {
		t.Fatal(err)
	}
	h := pages(nil, nil, st)
	for path, want := range map[string]int{
		"/r/ABC-DEF-GHJ":     http.StatusOK,
		"/watch/abc-def-ghj": http.StatusOK,
		"/r/ZZZ-ZZZ-ZZZ":     http.StatusNotFound,
		"/t/T999999999":      http.StatusNotFound,
	} {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest("GET", path, nil))
		if rec.Code != want {
			t.Errorf("GET %s = %d, want %d", path, rec.Code, want)
		}
	}
}
