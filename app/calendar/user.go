package calendar

import (
	"strings"
	"time"
)

// User is a person who may sign in with an application password.
type User struct {
	ID      int64     `bson:"_id"`
	Seq     int64     `bson:"seq"`
	Login   string    `bson:"login"`
	Role    Role      `bson:"role"`
	Created time.Time `bson:"created"`
	// PasswordHash is the SHA-256 of the application password. The passwords are
	// generated with 143 bits of entropy, so a fast hash is enough and lets every
	// request authenticate without a slow key-derivation step.
	PasswordHash string `bson:"password_hash"`
}

func (u *User) DocID() int64      { return u.ID }
func (u *User) SetDocID(id int64) { u.ID = id }
func (u *User) SetSeq(seq int64)  { u.Seq = seq }
func (u *User) DocSeq() int64     { return u.Seq }

// UniqueKeys: logins are unique without regard to case, and so are password hashes
// (a Bearer credential is the password alone).
func (u *User) UniqueKeys() map[string]string {
	return map[string]string{"login": strings.ToLower(u.Login), "password": u.PasswordHash}
}

// Can reports whether the user holds a capability; a nil user is anonymous.
func (u *User) Can(c Capability) bool {
	return u != nil && u.Role.Has(c)
}
