package templates

// The held mark's strings (docs/protocol.md "The held mark"), merged into
// the catalogues: a player held for fair-play review (or confirmed) is
// marked so in rated rooms' standings and on every tournament leaderboard.
func init() {
	en["held.tag"] = "held for review"
	en["held.title"] = "Held for fair-play review: the scores stand; rated results wait, and the player is left out of lists of leaders until a moderator decides."
	es["held.tag"] = "en revisión"
	es["held.title"] = "En revisión de juego limpio: los golpes cuentan; los resultados puntuables esperan y el jugador queda fuera de las listas de líderes hasta que decida un moderador."
}
