package roomcode

import (
	"encoding/json"
	"os"
	"testing"
)

// TestNormalizeTable checks Normalize on the table that e2e's
// TestRoomCodesAgree checks the browser's normalizeCode on.
func TestNormalizeTable(t *testing.T) {
	b, err := os.ReadFile("testdata/codes.json")
	if err != nil {
		t.Fatal(err)
	}
	var rows []struct{ In, Want string }
	if err := json.Unmarshal(b, &rows); err != nil {
		t.Fatal(err)
	}
	if len(rows) < 10 {
		t.Fatalf("only %d rows", len(rows))
	}
	for _, r := range rows {
		if got := Normalize(r.In); got != r.Want {
			t.Errorf("Normalize(%q) = %q, want %q", r.In, got, r.Want)
		}
	}
}
