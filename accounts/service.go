package accounts

import (
	"context"
	"errors"
	"fmt"
	"io"
)

// ErrLogin is the one error for a failed login: wrong password and unknown
// name look the same.
var ErrLogin = errors.New("accounts: wrong name or password")

// Service signs players up and in. It holds no state besides its
// dependencies.
type Service struct {
	Store  Store
	Params Params
	// Rand supplies salts (crypto/rand.Reader in production).
	Rand io.Reader
	// dummy is a hash of nothing, verified against when a name is
	// unknown so a failed login takes as long either way.
	dummy string
}

// NewService returns a service; params is RFC9106 unless the caller (a
// test) asks for cheaper costs.
func NewService(st Store, params Params, rand io.Reader) (*Service, error) {
	s := &Service{Store: st, Params: params, Rand: rand}
	d, err := params.Hash("not a password", rand)
	if err != nil {
		return nil, err
	}
	s.dummy = d
	return s, nil
}

// Signup checks the name (CheckNew) and password and creates the
// account. A name too like an existing account's is ErrBadName too (the
// store's ErrNameConfusable, said in words).
func (s *Service) Signup(ctx context.Context, name, password string) (Account, error) {
	display, key, skeleton, err := CheckNew(name)
	if err != nil {
		return Account{}, err
	}
	pw, err := NormalizePassword(password)
	if err != nil {
		return Account{}, err
	}
	if _, err := s.Store.ByKey(ctx, key); err == nil {
		return Account{}, fmt.Errorf("%w: %q", ErrNameTaken, display)
	} else if !errors.Is(err, ErrNotFound) {
		return Account{}, err
	}
	hash, err := s.Params.Hash(pw, s.Rand)
	if err != nil {
		return Account{}, err
	}
	a, err := s.Store.Create(ctx, Account{Name: display, Key: key, Skeleton: skeleton, PasswordHash: hash})
	if errors.Is(err, ErrNameConfusable) {
		return Account{}, fmt.Errorf("%w: %q looks too much like the name of an existing account; choose another name (%w)", ErrBadName, display, ErrNameConfusable)
	}
	return a, err
}

// ErrNoRename refuses a new name to an account whose name the rules
// accept: only names kept from before them (Account.NameNote) change.
var ErrNoRename = errors.New("accounts: this account's name needs no change")

// Rename gives an account whose name carries a note (a name kept from
// before the name rules) a new one, checked like a sign-up's.
func (s *Service) Rename(ctx context.Context, id ID, name string) (Account, error) {
	a, err := s.Store.ByID(ctx, id)
	if err != nil {
		return Account{}, err
	}
	if a.NameNote == "" {
		return Account{}, fmt.Errorf("%w: %q follows the name rules; names are kept for good", ErrNoRename, a.Name)
	}
	display, key, skeleton, err := CheckNew(name)
	if err != nil {
		return Account{}, err
	}
	a, err = s.Store.Rename(ctx, id, Account{Name: display, Key: key, Skeleton: skeleton})
	if errors.Is(err, ErrNameConfusable) {
		return Account{}, fmt.Errorf("%w: %q looks too much like the name of an existing account; choose another name (%w)", ErrBadName, display, ErrNameConfusable)
	}
	return a, err
}

// Login returns the account when the password matches, and ErrLogin
// otherwise, after the same argon2id work whether or not the name exists.
func (s *Service) Login(ctx context.Context, name, password string) (Account, error) {
	_, key, nameErr := ParseName(name)
	pw, pwErr := NormalizePassword(password)
	if pwErr != nil {
		pw = password
	}
	a, err := Account{}, ErrNotFound
	if nameErr == nil {
		a, err = s.Store.ByKey(ctx, key)
	}
	switch {
	case err == nil:
		ok, verr := Verify(pw, a.PasswordHash)
		if verr != nil {
			return Account{}, verr
		}
		if ok && pwErr == nil {
			return a, nil
		}
		return Account{}, ErrLogin
	case errors.Is(err, ErrNotFound):
		_, _ = Verify(pw, s.dummy)
		return Account{}, ErrLogin
	default:
		return Account{}, err
	}
}

// Key returns the case-mapped key of a name, or ErrBadName.
func Key(name string) (string, error) {
	_, key, err := ParseName(name)
	return key, err
}
