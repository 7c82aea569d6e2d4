package accounts

import (
	"context"
	"encoding/json"
	"errors"
	"time"

	"golfsolitaire/ratings"
)

// ID identifies an account.
type ID int64

// Account is a player's identity.
type Account struct {
	ID ID `json:"-"`
	// Name is the username as the player typed it (case preserved).
	Name string `json:"name"`
	// Key is the case-mapped name (ParseName), unique among accounts.
	Key string `json:"-"`
	// Skeleton is the name's confusable skeleton (Skeleton), unique
	// among accounts; empty for accounts created before it was kept.
	Skeleton string `json:"-"`
	// PasswordHash is an argon2id PHC string.
	PasswordHash string    `json:"-"`
	Created      time.Time `json:"created"`
	// CasualRounds is how many casual rounds the account has finished
	// seated (AddCasualRound): new accounts play rated games after a few.
	CasualRounds int `json:"-"`
	// NameNote is why the name would be refused today, for an account
	// created before the name rules (NoteReserved, or NoteLookAlike and
	// the older account's name); empty for every other. Such an account
	// logs in and plays casual rooms, and plays rated games once renamed
	// (Store.Rename).
	NameNote string `json:"-"`
}

// The kinds of sightings (Store.Seen): the address an account's requests
// came from, and the browser's long-lived device cookie. Values are
// opaque to the store (the server keeps hashes).
const (
	SeenAddress = "address"
	SeenDevice  = "device"
)

// Link is another account seen with one of an account's addresses or
// devices (Store.Links).
type Link struct {
	Account ID     `json:"-"`
	Name    string `json:"name"`
	// Kind is SeenAddress or SeenDevice.
	Kind string `json:"kind"`
	// At is the latest time both accounts were seen with it: the earlier
	// of their last sightings, the latest over the shared values.
	At time.Time `json:"at"`
}

// FamilyRating is an account's current rating in one game family.
type FamilyRating struct {
	Family ratings.Family `json:"family"`
	ratings.Rating
	// Games is the number of rated rounds played in the family.
	Games   int       `json:"games"`
	Updated time.Time `json:"updated"`
}

// HistoryEntry is an account's rating in one family after one rated round.
type HistoryEntry struct {
	Family ratings.Family `json:"family"`
	ratings.Rating
	GameID string    `json:"gameId"`
	At     time.Time `json:"at"`
}

// Game is the archive of one finished rated room, kept for good.
type Game struct {
	// ID is the room's code (unique among archived games).
	ID     string         `json:"id"`
	Family ratings.Family `json:"family"`
	// Format is "stroke" or "match".
	Format string `json:"format"`
	// Settings, Holes (every hole's records and scores) and Standings are
	// the room's own JSON, kept as it was.
	Settings   json.RawMessage `json:"settings"`
	Commitment string          `json:"commitment"`
	Seed       string          `json:"seed"`
	Holes      json.RawMessage `json:"holes"`
	Standings  json.RawMessage `json:"standings"`
	Players    []GamePlayer    `json:"players"`
	Finished   time.Time       `json:"finished"`
}

// GamePlayer is one seat of an archived game.
type GamePlayer struct {
	// Account is 0 once the account has been deleted.
	Account ID     `json:"-"`
	Name    string `json:"name"`
	// Place is 1 for first; equal places are ties.
	Place  int            `json:"place"`
	Before ratings.Rating `json:"before"`
	After  ratings.Rating `json:"after"`
	// The player's round: total strokes, strokes to par, holes finished
	// and holes cleared (a hole's strokes at or below 0).
	Total  int `json:"total"`
	ToPar  int `json:"toPar"`
	Holes  int `json:"holes"`
	Clears int `json:"clears"`
}

// FamilyStats is an account's record in one game family, over every
// archived rated round.
type FamilyStats struct {
	Family ratings.Family `json:"family"`
	// Games is the rounds played; Won those it placed first in alone.
	Games int `json:"games"`
	Won   int `json:"won"`
	// Holes finished and cleared, over all rounds.
	Holes  int `json:"holes"`
	Clears int `json:"clears"`
	// SumToPar is the sum of the rounds' strokes to par (the average is
	// SumToPar/Games).
	SumToPar int `json:"sumToPar"`
	// Best is the round with the fewest strokes to par (the earliest of
	// equals).
	BestToPar int    `json:"bestToPar"`
	BestGame  string `json:"bestGame"`
}

// Won reports whether a seat of a game placed first alone.
func Won(players []GamePlayer, seat int) bool {
	if players[seat].Place != 1 {
		return false
	}
	for i, p := range players {
		if i != seat && p.Place == 1 {
			return false
		}
	}
	return true
}

// Errors the stores return.
var (
	ErrNotFound  = errors.New("accounts: not found")
	ErrNameTaken = errors.New("accounts: that name is taken")
	ErrDuplicate = errors.New("accounts: game already archived")
)

// RateFunc computes the players' ratings after a game from their ratings
// before it (in the order of Game.Players). Stores call it while they hold
// the players' ratings locked, so concurrent games never lose an update.
type RateFunc func(before []ratings.Rating) ([]ratings.Rating, error)

// Store keeps accounts, ratings, their history and the archive, in parts
// of at most eight methods each, which callers can take alone. The
// implementations are inmem (one process, nothing kept) and postgres,
// both run by the one contract suite (accountstest).
type Store interface {
	Identities
	Records
	Credentials
	Sightings
	Plays
}

// Identities keeps the accounts themselves.
type Identities interface {
	// Create adds an account (ErrNameTaken when its Key exists,
	// ErrNameConfusable when its non-empty Skeleton does) and returns it
	// with its ID and creation time.
	Create(ctx context.Context, a Account) (Account, error)
	// ByKey and ByID find an account (ErrNotFound).
	ByKey(ctx context.Context, key string) (Account, error)
	ByID(ctx context.Context, id ID) (Account, error)
	// Delete removes an account, its ratings and history (ErrNotFound);
	// archived games keep the name with no account.
	Delete(ctx context.Context, id ID) error
	// Rename gives an account a new name (Name, Key and Skeleton of a,
	// checked by CheckNew) and clears its NameNote: ErrNameTaken when
	// another account has the Key, ErrNameConfusable when another has
	// the Skeleton, ErrNotFound when the account does not exist. Archived
	// games keep the name they were played under.
	Rename(ctx context.Context, id ID, a Account) (Account, error)
}

// Records keeps the ratings, their history and the archive of rated games.
type Records interface {
	// Ratings returns an account's current rating in every family it has
	// played, by family name.
	Ratings(ctx context.Context, id ID) ([]FamilyRating, error)
	// RecordGame archives g and, atomically, moves every player's rating
	// in g.Family (a new player starts at ratings.New()) to what rate
	// returns, adding a history entry each. It returns g with Before and
	// After filled in. ErrDuplicate when g.ID is archived already,
	// ErrNotFound when a player's account does not exist.
	RecordGame(ctx context.Context, g Game, rate RateFunc) (Game, error)
	// History returns an account's ratings over time in one family,
	// oldest first.
	History(ctx context.Context, id ID, family ratings.Family) ([]HistoryEntry, error)
	// Games returns an account's most recent archived games, newest first.
	Games(ctx context.Context, id ID, limit int) ([]Game, error)
	// Game returns one archived game (ErrNotFound).
	Game(ctx context.Context, gameID string) (Game, error)
	// Stats returns an account's record per family (by family name) over
	// every archived game it played.
	Stats(ctx context.Context, id ID) ([]FamilyStats, error)
	// Leaderboard returns the best-rated accounts of a family, highest
	// rating first (then the earlier name key), at most limit of them.
	Leaderboard(ctx context.Context, family ratings.Family, limit int) ([]Leader, error)
}

// Credentials keeps the accounts' passkeys (WebAuthn credentials).
type Credentials interface {
	// AddPasskey registers a passkey (ErrPasskeyTaken when its ID is
	// registered to any account, ErrNotFound when the account does not
	// exist) and returns it with its creation time.
	AddPasskey(ctx context.Context, p Passkey) (Passkey, error)
	// Passkeys returns an account's passkeys, oldest first.
	Passkeys(ctx context.Context, id ID) ([]Passkey, error)
	// PasskeyByID finds a passkey by its credential ID (ErrNotFound).
	PasskeyByID(ctx context.Context, credential []byte) (Passkey, error)
	// UsePasskey stores a passkey's credential as it is after a login
	// (its signature counter moves) and the time of that login
	// (ErrNotFound).
	UsePasskey(ctx context.Context, credential []byte, data []byte, at time.Time) error
	// DeletePasskey removes one of an account's passkeys (ErrNotFound
	// when the account has no passkey by that ID). Deleting the account
	// removes them all.
	DeletePasskey(ctx context.Context, id ID, credential []byte) error
}

// Sightings keeps where accounts were seen (addresses and devices, for
// linked accounts) and the casual rounds counted toward rated play.
type Sightings interface {
	// Seen records that the account was seen with an address or a device
	// (kind SeenAddress or SeenDevice) at a time; a later sighting of the
	// same one moves its time (ErrNotFound when the account does not
	// exist).
	Seen(ctx context.Context, id ID, kind, value string, at time.Time) error
	// Links returns the other accounts that share an address or device
	// with the account, both seen with it at or after since: one Link per
	// account and kind, by account id then kind.
	Links(ctx context.Context, id ID, since time.Time) ([]Link, error)
	// AddCasualRound counts one finished casual round for each account
	// (ids that name no account are skipped).
	AddCasualRound(ctx context.Context, ids []ID) error
}

// Leader is one row of a family's rating leaderboard.
type Leader struct {
	Name string `json:"name"`
	FamilyRating
}
