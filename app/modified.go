package app

import "time"

// modifiedAfterArg is the parameter of every post list that a syncing client
// pages forward with.
var modifiedAfterArg = Arg{Name: "modified_after", Type: TypeString,
	Description: "Only items modified after this instant (zone-less values are UTC); the list then runs from the oldest change, then by ID, and an event list has no default date window."}

// readModifiedAfter sets the modified_after filter and its order on q, and
// reports whether it was sent.
func readModifiedAfter(v Values, now time.Time, q *PostQuery, bad *InvalidParams) bool {
	raw, ok := v.String("modified_after")
	if !ok {
		return false
	}
	t, err := ParseDate(raw, now, time.UTC)
	if err != nil {
		bad.Add("modified_after", "modified_after is not a date.", nil)
		return true
	}
	q.ModifiedAfter = &Bound{T: t.UTC()}
	q.Order = OrderModified
	return true
}
