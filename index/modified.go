package index

import (
	"github.com/blevesearch/bleve/v2/mapping"
	"github.com/blevesearch/bleve/v2/search/query"

	"calendar/app"
)

// fieldModified is a post's last modification, Unix seconds, for
// modified_after and the order a syncing client pages in.
const fieldModified = "modified"

func mapModified(doc *mapping.DocumentMapping, numeric *mapping.FieldMapping) {
	doc.AddFieldMappingsAt(fieldModified, numeric)
}

func addModified(d postDoc, p *app.Post) {
	d[fieldModified] = float64(p.Modified.Unix())
}

// modifiedQuery is nil when the query does not filter on modification.
func modifiedQuery(q app.PostQuery) query.Query {
	return timeRange(fieldModified, q.ModifiedAfter, nil)
}

// modifiedOrder: oldest change first, then ID, so a client pages forward.
var modifiedOrder = []string{fieldModified, fieldID}
