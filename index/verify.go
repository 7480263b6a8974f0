package index

import (
	"context"
	"fmt"
	"strings"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/search/query"

	"calendar/app/calendar"
)

// VerifyPost checks that the index holds exactly what it should for a stored
// post: one entry under its ID whose every indexed field equals the value
// derived from the post. Operators and crash tests use it to compare the index
// with the store.
func (i *Index) VerifyPost(ctx context.Context, p *calendar.Post) error {
	must := []query.Query{bleve.NewDocIDQuery([]string{docID(p.ID)})}
	for field, value := range newPostDoc(p, i.languages) {
		switch v := value.(type) {
		case string:
			if isWordField(field) { // analysed text: every word present, as the field's analyzer reads it
				analyzer := i.bleve.Mapping().AnalyzerNameForPath(field)
				if isPartsField(field) { // every word is a part of itself: the parts follow from the words
					analyzer = foldedAnalyzer
				}
				if len(i.analyzer(analyzer).Analyze([]byte(v))) == 0 {
					continue // no word ("—", "!!!"): the field holds nothing, and a match of nothing finds nothing
				}
				m := bleve.NewMatchQuery(v)
				m.SetField(field)
				m.Analyzer = analyzer
				m.SetOperator(query.MatchQueryOperatorAnd)
				must = append(must, m)
				continue
			}
			must = append(must, term(field, v))
		case float64:
			must = append(must, numberIs(field, v))
		case []string:
			for _, item := range v {
				must = append(must, term(field, item))
			}
		case map[string]any: // a position: within a metre of it
			g := bleve.NewGeoDistanceQuery(v["lon"].(float64), v["lat"].(float64), "1m")
			g.SetField(field)
			must = append(must, g)
		default:
			return fmt.Errorf("post %d: field %s has an unexpected type %T", p.ID, field, value)
		}
	}
	res, err := i.bleve.SearchInContext(ctx, bleve.NewSearchRequestOptions(bleve.NewConjunctionQuery(must...), 1, 0, false))
	if err != nil {
		return err
	}
	if res.Total != 1 {
		return fmt.Errorf("post %d (%s %q, %s): the index entry is missing or differs from the store", p.ID, p.Type, p.Title, p.Status)
	}
	return nil
}

// CountPosts is how many post entries the index holds.
func (i *Index) CountPosts(ctx context.Context) (int, error) {
	res, err := i.bleve.SearchInContext(ctx, bleve.NewSearchRequestOptions(term(fieldKind, kindPost), 0, 0, false))
	if err != nil {
		return 0, err
	}
	return int(res.Total), nil
}

func isWordField(field string) bool {
	return field == fieldWords || field == fieldFoldedTitle || field == fieldNameWords || isPartsField(field) || strings.HasPrefix(field, stemsField(""))
}

func isPartsField(field string) bool {
	return field == fieldWordParts || strings.HasPrefix(field, partsPrefix)
}
