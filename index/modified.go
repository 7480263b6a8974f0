package index

import (
	"github.com/blevesearch/bleve/v2/search/query"

	"calendar/app/calendar"
)

// modifiedQuery is nil when the query does not filter on modification.
func modifiedQuery(q calendar.PostQuery) query.Query {
	return timeRange(modifiedTime, q.ModifiedAfter, nil)
}

// modifiedOrder: oldest change first, then ID, so a client pages forward.
var modifiedOrder = []string{fieldModifiedKey}
