package templates

// The leaderboard's strings for entrants who have entered but finished
// no hole (docs/protocol.md, a leaderboard row's notStarted), merged into
// the catalogues.
func init() {
	en["tour.notStarted"] = "not started"
	es["tour.notStarted"] = "sin empezar"
}
