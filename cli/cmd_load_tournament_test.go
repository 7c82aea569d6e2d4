package cli

import (
	"encoding/json"
	"testing"
)

// TestLoadTournament runs load --tournament with a few entrants to the
// end: every hole's result posted, every entrant finished, the leaderboard
// pushed.
func TestLoadTournament(t *testing.T) {
	childProcess(t)
	t.Parallel()
	r := runCmd(t, "", "load", "--serve", "memory", "--tournament", "6", "--watchers", "2", "--duration", "30s", "--json")
	if r.code != 0 {
		t.Fatalf("exit %d: %s\n%s", r.code, r.err, r.stderr)
	}
	var rep tournamentReport
	if err := json.Unmarshal([]byte(r.stdout), &rep); err != nil {
		t.Fatalf("report: %v\n%s", err, r.stdout)
	}
	res := rep.Tournament
	if res == nil || res.Finished != 6 || res.Results != 6*9 || res.Errors != 0 || res.Moves == 0 || res.Pushes == 0 || res.Leaderboard.N == 0 {
		t.Fatalf("tournament run: %+v", res)
	}
}
