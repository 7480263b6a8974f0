package app

import (
	"strings"
	"testing"

	"calendar/app/calendar"
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
		if got := strings.Join(calendar.CapSearchWords(c.in), " "); got != c.want {
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
		role  calendar.Role
		posts map[post]bool
	}{
		{"", map[post]bool{{calendar.StatusPublish, me}: true, {calendar.StatusDraft, me}: false, {calendar.StatusPrivate, 1}: false, {calendar.StatusFuture, 1}: false}},
		{calendar.RoleSubscriber, map[post]bool{{calendar.StatusPublish, 1}: true, {calendar.StatusDraft, me}: false}},
		{calendar.RoleContributor, map[post]bool{{calendar.StatusDraft, me}: true, {calendar.StatusPrivate, me}: true, {calendar.StatusTrash, me}: false, {calendar.StatusDraft, 1}: false, {calendar.StatusPrivate, 1}: false}},
		{calendar.RoleAuthor, map[post]bool{{calendar.StatusFuture, me}: true, {calendar.StatusPending, 1}: false, {calendar.StatusFuture, 1}: false}},
		{calendar.RoleEditor, map[post]bool{{calendar.StatusPrivate, 1}: true, {calendar.StatusDraft, 1}: true, {calendar.StatusTrash, 1}: true}},
	}
	for _, c := range cases {
		var actor *calendar.User
		if c.role != "" {
			actor = &calendar.User{ID: me, Role: c.role}
		}
		for p, want := range c.posts {
			if got := calendar.CanRead(actor, &calendar.Post{Status: p.status, Author: p.author}); got != want {
				t.Errorf("%q reads %s of user %d: %v, want %v", c.role, p.status, p.author, got, want)
			}
		}
	}
}
