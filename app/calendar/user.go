package calendar

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strings"
	"time"
)

// User is a person who signs in with one of their application passwords.
type User struct {
	ID      int64     `bson:"_id"`
	Seq     int64     `bson:"seq"`
	Login   string    `bson:"login"`
	Role    Role      `bson:"role"`
	Created time.Time `bson:"created"`
	// Passwords are the user's application passwords, by their hashes.
	Passwords []ApplicationPassword `bson:"passwords,omitempty"`
	// PasswordHash is the one password of a user made before users had
	// several: it is their first application password (named
	// FirstPasswordName, as ApplicationPasswords shows it) until the user's
	// next write keeps it in Passwords.
	PasswordHash string `bson:"password_hash,omitempty"`
	// SeriesAllowance is what is left of the occurrences the account's
	// series writes may make in an hour (app/series_quota.go), kept here so
	// that every replica spends from one; nil: never spent, a full hour's.
	SeriesAllowance *Allowance `bson:"series_allowance,omitempty"`
}

// Allowance is what was left of an hourly allowance at an instant; it
// refills at the hour's rate from then.
type Allowance struct {
	Left float64   `bson:"left"`
	At   time.Time `bson:"at"`
}

// ApplicationPassword is one of a user's passwords, named after the
// application that uses it, as WordPress keeps them.
type ApplicationPassword struct {
	UUID  string `bson:"uuid"`
	AppID string `bson:"app_id,omitempty"`
	Name  string `bson:"name"`
	// Hash is the SHA-256 of the password. The passwords are generated with
	// 143 bits of entropy, so a fast hash is enough and lets every request
	// authenticate without a slow key-derivation step.
	Hash    string    `bson:"hash"`
	Created time.Time `bson:"created"`
	// LastUsed and LastIP: the last request it signed, recorded once a day
	// at most, as WordPress records them.
	LastUsed time.Time `bson:"last_used,omitempty"`
	LastIP   string    `bson:"last_ip,omitempty"`
}

// FirstPasswordName names the password a user had before users had several.
const FirstPasswordName = "First password"

// ApplicationPasswords are the user's passwords, the one a user made before
// users had several included.
func (u *User) ApplicationPasswords() []ApplicationPassword {
	if len(u.Passwords) > 0 || u.PasswordHash == "" {
		return u.Passwords
	}
	sum := sha256.Sum256([]byte("uuid:" + u.PasswordHash)) // a stable UUID for it, until it is kept
	h := hex.EncodeToString(sum[:16])
	uuid := fmt.Sprintf("%s-%s-4%s-8%s-%s", h[0:8], h[8:12], h[13:16], h[17:20], h[20:32])
	return []ApplicationPassword{{UUID: uuid, Name: FirstPasswordName, Hash: u.PasswordHash, Created: u.Created}}
}

func (u *User) DocID() int64      { return u.ID }
func (u *User) SetDocID(id int64) { u.ID = id }
func (u *User) SetSeq(seq int64)  { u.Seq = seq }
func (u *User) DocSeq() int64     { return u.Seq }

// UniqueKeys: logins are unique without regard to case, and so are password
// hashes (a Bearer credential is the password alone). A user without a
// password keeps a key of its own, since every field needs a value.
func (u *User) UniqueKeys() map[string][]string {
	var hashes []string
	for _, p := range u.ApplicationPasswords() {
		hashes = append(hashes, p.Hash)
	}
	if len(hashes) == 0 {
		hashes = []string{fmt.Sprintf("none:%d", u.ID)}
	}
	return map[string][]string{"login": {strings.ToLower(u.Login)}, "password": hashes}
}

// Can reports whether the user holds a capability; a nil user is anonymous.
func (u *User) Can(c Capability) bool {
	return u != nil && u.Role.Has(c)
}
