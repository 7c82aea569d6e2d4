package templates

// The held mark's strings (docs/protocol.md "The held mark"), merged into
// the catalogues: a player whose rated results are held for fair-play
// review is marked so in the standings and leaderboards.
func init() {
	en["held.tag"] = "held for review"
	en["held.title"] = "Results held for fair-play review: the scores stand, the rating waits."
	es["held.tag"] = "en revisión"
	es["held.title"] = "Resultados retenidos para revisión de juego limpio: los golpes cuentan, la puntuación espera."
}
