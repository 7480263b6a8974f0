package index

import (
	"github.com/blevesearch/bleve/v2/mapping"
	"github.com/blevesearch/bleve/v2/search/query"

	"calendar/app"
)

// fieldModifiedKey (modification|ID) is the order a syncing client pages in,
// one sort key as for the other orders, and the exact end of modifiedTime.
const fieldModifiedKey = "modified_key"

func mapModified(doc *mapping.DocumentMapping, keyword, sortableKeyword *mapping.FieldMapping) {
	mapTime(doc, keyword, modifiedTime)
	doc.AddFieldMappingsAt(fieldModifiedKey, sortableKeyword)
}

func addModified(d postDoc, p *app.Post) {
	d[modifiedTime.buckets] = bucketsOf(p.Modified)
	d[fieldModifiedKey] = sortKey(p.Modified) + idKey(p.ID)
}

// modifiedQuery is nil when the query does not filter on modification.
func modifiedQuery(q app.PostQuery) query.Query {
	return timeRange(modifiedTime, q.ModifiedAfter, nil)
}

// modifiedOrder: oldest change first, then ID, so a client pages forward.
var modifiedOrder = []string{fieldModifiedKey}
