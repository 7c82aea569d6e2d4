package templates

// The TV's strings (/tv and /tv/@/{name}) and the home page's live
// panel's additions, merged into the catalogues.
func init() {
	for k, v := range tvEN {
		en[k] = v
	}
	for k, v := range tvES {
		es[k] = v
	}
}

var tvEN = map[string]string{
	"nav.tv":           "TV",
	"tv.title":         "Golf TV",
	"tv.following":     "Following {name}",
	"tv.looking":       "Looking for a game to watch…",
	"tv.none":          "No public game to watch right now. The next one shows here as soon as it starts.",
	"tv.notPlaying":    "{name} is not playing now. Their next public game shows here as soon as it starts.",
	"tv.watching":      "Watching live: boards are shown as far as every player has turned the stock.",
	"tv.waiting":       "The game has not started yet.",
	"tv.game":          "{players} · hole {hole} of {holes}",
	"tv.open":          "Open the room",
	"tv.over":          "Game over: {result}.",
	"tv.switching":     "Switching to {players}…",
	"tv.nextWait":      "Waiting for the next game…",
	"tv.gone":          "This game is no longer available.",
	"home.liveLeaders": "Today's daily challenge leaders",
	"home.liveTop":     "Top rated players",
	"home.liveNoTop":   "No rated players yet.",
	"home.liveLeader":  "{place}. {name} {toPar}",
	"home.liveTV":      "Watch on TV",
}

var tvES = map[string]string{
	"nav.tv":           "TV",
	"tv.title":         "Golf TV",
	"tv.following":     "Siguiendo a {name}",
	"tv.looking":       "Buscando una partida para mirar…",
	"tv.none":          "Ninguna partida pública para mirar ahora. La próxima aparece aquí en cuanto empiece.",
	"tv.notPlaying":    "{name} no está jugando ahora. Su próxima partida pública aparece aquí en cuanto empiece.",
	"tv.watching":      "En directo: los tableros se ven hasta donde todos los jugadores han dado la vuelta al mazo.",
	"tv.waiting":       "La partida aún no ha empezado.",
	"tv.game":          "{players} · hoyo {hole} de {holes}",
	"tv.open":          "Abrir la sala",
	"tv.over":          "Partida terminada: {result}.",
	"tv.switching":     "Cambiando a {players}…",
	"tv.nextWait":      "Esperando la próxima partida…",
	"tv.gone":          "Esta partida ya no está disponible.",
	"home.liveLeaders": "Líderes del desafío diario de hoy",
	"home.liveTop":     "Mejores jugadores por puntuación",
	"home.liveNoTop":   "Aún no hay jugadores puntuados.",
	"home.liveLeader":  "{place}. {name} {toPar}",
	"home.liveTV":      "Mirar en la TV",
}
