// Package accounts implements players' identities: usernames checked by the
// PRECIS rules (unique case-insensitively), passwords hashed with argon2id,
// per-family Glicko-2 ratings with their history, and the archive of rated
// rooms.
//
// The package is pure: it declares the Store it needs (implemented by
// accounts/inmem for one process and accounts/postgres for keeps, both
// checked by the contract suite in accounts/accountstest) and the Service
// that uses it; it opens no connections and starts no goroutines.
package accounts
