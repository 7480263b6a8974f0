package app

import (
	"strings"
	"testing"
)

func TestSearchWordsAreDeduplicatedBoundedAndCut(t *testing.T) {
	hundred := strings.Fields(strings.Repeat("a b c d e f g h i j ", 10))
	cases := []struct {
		in   []string
		want string
	}{
		{[]string{"jazz", "night"}, "jazz night"},
		{[]string{"jazz", "jazz", "JAZZ"}, "jazz JAZZ"},
		{[]string{"a", "jazz", "b"}, "jazz"},
		{[]string{"a", "b"}, "a"},
		{[]string{"7", "a"}, "7"},
		{hundred, "a"},
		{[]string{"", ""}, ""},
		{strings.Fields("one two three four five six seven eight nine ten eleven"), "one two three four five seven eight nine eleven"},
		{[]string{strings.Repeat("é", 40)}, strings.Repeat("é", 32)},
	}
	for _, c := range cases {
		if got := strings.Join(CapSearchWords(c.in), " "); got != c.want {
			t.Errorf("CapSearchWords(%.60q) = %q, want %q", c.in, got, c.want)
		}
	}
	if got := SearchFragments(strings.Repeat("x ", 99) + "y"); len(got) != 1 {
		t.Errorf("a hundred one-letter words search for %v", got)
	}
}

func TestTheReadRuleOfEachRole(t *testing.T) {
	type post struct {
		status string
		author int64
	}
	me := int64(7)
	cases := []struct {
		role  Role
		posts map[post]bool
	}{
		{"", map[post]bool{{StatusPublish, me}: true, {StatusDraft, me}: false, {StatusPrivate, 1}: false, {StatusFuture, 1}: false}},
		{RoleSubscriber, map[post]bool{{StatusPublish, 1}: true, {StatusDraft, me}: false}},
		{RoleContributor, map[post]bool{{StatusDraft, me}: true, {StatusPrivate, me}: true, {StatusTrash, me}: false, {StatusDraft, 1}: false, {StatusPrivate, 1}: false}},
		{RoleAuthor, map[post]bool{{StatusFuture, me}: true, {StatusPending, 1}: false, {StatusFuture, 1}: false}},
		{RoleEditor, map[post]bool{{StatusPrivate, 1}: true, {StatusDraft, 1}: true, {StatusTrash, 1}: true}},
	}
	for _, c := range cases {
		var actor *User
		if c.role != "" {
			actor = &User{ID: me, Role: c.role}
		}
		for p, want := range c.posts {
			if got := canRead(actor, &Post{Status: p.status, Author: p.author}); got != want {
				t.Errorf("%q reads %s of user %d: %v, want %v", c.role, p.status, p.author, got, want)
			}
		}
	}
}
