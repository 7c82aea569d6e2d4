// Package golf implements Golf Solitaire and its relatives (Black Hole, All in
// a Row, TriPeaks, Pyramid Golf, Double Golf): cards, layouts, the rules of
// play and scoring, deals derived from seeds, game records and the
// unclearable-deal check.
//
// The package is pure: it does no I/O, starts no goroutines and holds no
// mutable package state, so the server, the command line, the solver and the
// tests all share one source of truth for what a legal move is.
//
// Every game is modelled as one tableau of positions where each position
// records which other positions cover it. A card is free when no card that
// covers it is still on the tableau. Golf's columns, Black Hole's fans and
// the pyramids of TriPeaks share this one state machine; only the Layout
// differs.
package golf
