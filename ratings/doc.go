// Package ratings implements Glicko-2 (Mark Glickman, "Example of the
// Glicko-2 system", 2022 revision) for players of the same game family.
//
// A rated round is one rating period: every player's rating is updated
// once, from results against the other players' ratings as they were
// before the round. Match play between two players is one result each;
// stroke play among n players counts as n-1 pairwise results per player
// (a lower total beats a higher one, equal totals are a draw).
//
// The package is pure: no I/O, no goroutines, no clock.
package ratings
