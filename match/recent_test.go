package match

import "testing"

// TestRecent: the cache keeps what the current version and the one
// before used; an entry of the version before that is used again moves
// to the current one; one used in neither is gone.
func TestRecent(t *testing.T) {
	t.Parallel()
	var c recent[string, int]
	if _, ok := c.get("a"); ok {
		t.Fatal("an empty cache has a")
	}
	c.at(1)
	c.put("a", 1)
	c.put("b", 2)
	c.at(1) // the same version: nothing moves
	c.at(2)
	if v, ok := c.get("a"); !ok || v != 1 { // used again at 2
		t.Fatalf("a at version 2: %d, %v", v, ok)
	}
	c.put("c", 3)
	c.at(3)
	for _, tc := range []struct {
		key  string
		want bool
	}{{"a", true}, {"c", true}, {"b", false}} {
		if _, ok := c.get(tc.key); ok != tc.want {
			t.Errorf("%s at version 3: kept %v, want %v", tc.key, ok, tc.want)
		}
	}
	c.at(5)
	c.at(6)
	if n := c.len(); n != 0 {
		t.Errorf("after two versions unused the cache holds %d", n)
	}
	// Turned by hand (the Analyzer's memo, when full); peek moves nothing.
	c.put("d", 4)
	c.turn()
	if v, ok := c.peek("d"); !ok || v != 4 || len(c.cur) != 0 {
		t.Errorf("peek of d after a turn: %d, %v, the newer generation %v", v, ok, c.cur)
	}
	c.turn()
	if _, ok := c.peek("d"); ok {
		t.Error("d kept through two turns unused")
	}
}
