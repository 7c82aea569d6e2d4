package web

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"net/http"
	"sort"
	"strconv"

	"github.com/a-h/templ"

	"golfsolitaire/accounts"
	"golfsolitaire/golf"
	"golfsolitaire/ratings"
	"golfsolitaire/templates"
)

// Players is what the profile page reads of the account store (an
// accounts.Store is one).
type Players interface {
	ByKey(ctx context.Context, key string) (accounts.Account, error)
	Ratings(ctx context.Context, id accounts.ID) ([]accounts.FamilyRating, error)
	History(ctx context.Context, id accounts.ID, family ratings.Family) ([]accounts.HistoryEntry, error)
	Games(ctx context.Context, id accounts.ID, limit int) ([]accounts.Game, error)
	Game(ctx context.Context, gameID string) (accounts.Game, error)
	Leaderboard(ctx context.Context, family ratings.Family, limit int) ([]accounts.Leader, error)
	Stats(ctx context.Context, id accounts.ID) ([]accounts.FamilyStats, error)
}

// recentGames is how many games the profile lists.
const recentGames = 10

// accountPages adds GET /signup, GET /login and GET /@/{name}.
func (h *handler) accountPages(m *http.ServeMux) {
	m.HandleFunc("GET /signup", h.page(func(p templates.Page, r *http.Request) (templ.Component, int) {
		return templates.AccountForm(p, true), http.StatusOK
	}, "acct.signupTitle"))
	m.HandleFunc("GET /login", h.page(func(p templates.Page, r *http.Request) (templ.Component, int) {
		return templates.AccountForm(p, false), http.StatusOK
	}, "acct.loginTitle"))
	m.HandleFunc("GET /@/{name}", h.page(func(p templates.Page, r *http.Request) (templ.Component, int) {
		pr, err := h.profile(r.Context(), r.PathValue("name"))
		if errors.Is(err, accounts.ErrNotFound) || errors.Is(err, accounts.ErrBadName) {
			return templates.NotFound(p), http.StatusNotFound
		}
		if err != nil {
			h.opts.Logger.Error("profile", "err", err)
			return templates.NotFound(p), http.StatusServiceUnavailable
		}
		return templates.ProfilePage(p, pr), http.StatusOK
	}, "acct.ratings"))
	m.HandleFunc("GET /ratings/{game}", h.page(func(p templates.Page, r *http.Request) (templ.Component, int) {
		game, err := golf.ParseGame(r.PathValue("game"))
		if err != nil || h.opts.Players == nil {
			return templates.NotFound(p), http.StatusNotFound
		}
		ls, err := h.opts.Players.Leaderboard(r.Context(), ratings.Family(game), 100)
		if err != nil {
			h.opts.Logger.Error("leaderboard", "err", err)
			return templates.NotFound(p), http.StatusServiceUnavailable
		}
		var leaders []templates.Leader
		for _, l := range ls {
			leaders = append(leaders, templates.Leader{Name: l.Name, Display: l.String(), Games: l.Games})
		}
		var games []string
		for _, g := range golf.Games {
			games = append(games, string(g))
		}
		return templates.RatingsPage(p, string(game), games, leaders), http.StatusOK
	}, "acct.ratings"))
	m.HandleFunc("GET /g/{id}", h.page(func(p templates.Page, r *http.Request) (templ.Component, int) {
		if h.opts.Players == nil {
			return templates.NotFound(p), http.StatusNotFound
		}
		g, err := h.opts.Players.Game(r.Context(), r.PathValue("id"))
		if errors.Is(err, accounts.ErrNotFound) {
			return templates.NotFound(p), http.StatusNotFound
		}
		if err != nil {
			h.opts.Logger.Error("archive", "err", err)
			return templates.NotFound(p), http.StatusServiceUnavailable
		}
		return templates.ArchivePage(p, archiveView(g)), http.StatusOK
	}, "arch.fairness"))
}

// archiveView reads what the page shows out of the archived room's JSON.
func archiveView(g accounts.Game) templates.Archive {
	a := templates.Archive{ID: g.ID, Game: string(g.Family), Format: g.Format, Finished: g.Finished, Commitment: g.Commitment, Seed: g.Seed}
	var standings struct {
		Rows []struct {
			Seat      int    `json:"seat"`
			Total     int    `json:"total"`
			ToParText string `json:"toParText"`
		} `json:"rows"`
		Match *struct {
			Result string `json:"result"`
		} `json:"match"`
	}
	_ = json.Unmarshal(g.Standings, &standings)
	if standings.Match != nil {
		a.Result = standings.Match.Result
	}
	var holes []struct {
		Number int   `json:"number"`
		Scores []int `json:"scores"`
	}
	_ = json.Unmarshal(g.Holes, &holes)
	for _, h := range holes {
		a.Holes = append(a.Holes, h.Number)
	}
	for i, pl := range g.Players {
		ap := templates.ArchivePlayer{Name: pl.Name, Place: pl.Place, Before: pl.Before.String(), After: pl.After.String()}
		d := int(math.Round(pl.After.Rating)) - int(math.Round(pl.Before.Rating))
		switch {
		case d > 0:
			ap.Change = fmt.Sprintf("+%d", d)
		case d < 0:
			ap.Change = fmt.Sprintf("−%d", -d)
		default:
			ap.Change = "±0"
		}
		for _, row := range standings.Rows {
			if row.Seat == i {
				ap.Total, ap.ToPar = row.Total, row.ToParText
			}
		}
		for _, h := range holes {
			sc := ""
			if i < len(h.Scores) {
				sc = fmt.Sprint(h.Scores[i])
			}
			ap.Scores = append(ap.Scores, sc)
		}
		a.Players = append(a.Players, ap)
	}
	sort.SliceStable(a.Players, func(i, j int) bool { return a.Players[i].Place < a.Players[j].Place })
	return a
}

func (h *handler) profile(ctx context.Context, name string) (templates.Profile, error) {
	if h.opts.Players == nil {
		return templates.Profile{}, accounts.ErrNotFound
	}
	key, err := accounts.Key(name)
	if err != nil {
		return templates.Profile{}, err
	}
	a, err := h.opts.Players.ByKey(ctx, key)
	if err != nil {
		return templates.Profile{}, err
	}
	pr := templates.Profile{Name: a.Name, Created: a.Created, NameNote: a.NameNote}
	rs, err := h.opts.Players.Ratings(ctx, a.ID)
	if err != nil {
		return templates.Profile{}, err
	}
	stats, err := h.opts.Players.Stats(ctx, a.ID)
	if err != nil {
		return templates.Profile{}, err
	}
	for _, fr := range rs {
		hist, err := h.opts.Players.History(ctx, a.ID, fr.Family)
		if err != nil {
			return templates.Profile{}, err
		}
		f := templates.ProfileFamily{Game: string(fr.Family), Display: fr.String(), Provisional: fr.Provisional(), Games: fr.Games}
		for _, st := range stats {
			if st.Family == fr.Family && st.Games > 0 {
				f.Won, f.Holes, f.Clears, f.BestGame = st.Won, st.Holes, st.Clears, st.BestGame
				f.BestToPar = toParText(float64(st.BestToPar), 0)
				f.AverageToPar = toParText(float64(st.SumToPar)/float64(st.Games), 1)
			}
		}
		// Every rating starts at 1500: the chart's first point.
		if len(hist) > 0 {
			f.History = append(f.History, ratings.DefaultRating)
		}
		for _, e := range hist {
			f.History = append(f.History, e.Rating.Rating)
		}
		pr.Families = append(pr.Families, f)
	}
	games, err := h.opts.Players.Games(ctx, a.ID, recentGames)
	if err != nil {
		return templates.Profile{}, err
	}
	for _, g := range games {
		pg := templates.ProfileGame{ID: g.ID, Game: string(g.Family), Finished: g.Finished}
		for _, pl := range g.Players {
			pg.Players = append(pg.Players, pl.Name)
			if pl.Account == a.ID {
				pg.Place = pl.Place
				pg.Before, pg.After = int(pl.Before.Rating+0.5), int(pl.After.Rating+0.5)
			}
		}
		pr.Recent = append(pr.Recent, pg)
	}
	return pr, nil
}

// toParText writes strokes to par as golf does: "E" for even, "+3", "−2"
// (a minus sign), with digits decimals.
func toParText(v float64, digits int) string {
	scale := math.Pow(10, float64(digits))
	v = math.Round(v*scale) / scale
	switch {
	case v == 0:
		return "E"
	case v > 0:
		return "+" + strconv.FormatFloat(v, 'f', digits, 64)
	default:
		return "−" + strconv.FormatFloat(-v, 'f', digits, 64)
	}
}
