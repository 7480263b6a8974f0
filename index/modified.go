package index

import (
	"github.com/blevesearch/bleve/v2/mapping"
	"github.com/blevesearch/bleve/v2/search/query"

	"calendar/app"
)

// fieldModified is a post's last modification, Unix seconds, for
// modified_after; fieldModifiedKey (modification|ID) is the order a syncing
// client pages in, one sort key as for the other orders.
const (
	fieldModified    = "modified"
	fieldModifiedKey = "modified_key"
)

func mapModified(doc *mapping.DocumentMapping, numeric, sortableKeyword *mapping.FieldMapping) {
	doc.AddFieldMappingsAt(fieldModified, numeric)
	doc.AddFieldMappingsAt(fieldModifiedKey, sortableKeyword)
}

func addModified(d postDoc, p *app.Post) {
	d[fieldModified] = float64(p.Modified.Unix())
	d[fieldModifiedKey] = sortKey(p.Modified) + idKey(p.ID)
}

// modifiedQuery is nil when the query does not filter on modification.
func modifiedQuery(q app.PostQuery) query.Query {
	return timeRange(fieldModified, q.ModifiedAfter, nil)
}

// modifiedOrder: oldest change first, then ID, so a client pages forward.
var modifiedOrder = []string{fieldModifiedKey}
