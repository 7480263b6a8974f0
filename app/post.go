package app

import "time"

// Post types: the three kinds of record that share the posts collection.
const (
	PostTypeEvent     = "event"
	PostTypeVenue     = "venue"
	PostTypeOrganizer = "organizer"
)

// Post is the stored record of an event, a venue or an organizer.
type Post struct {
	ID       int64     `bson:"_id"`
	Seq      int64     `bson:"seq"`
	Type     string    `bson:"type"`
	Slug     string    `bson:"slug"`
	Status   string    `bson:"status"`
	Author   int64     `bson:"author"`
	Title    string    `bson:"title"`
	Content  string    `bson:"content,omitempty"`
	Excerpt  string    `bson:"excerpt,omitempty"`
	Date     time.Time `bson:"date"`
	Modified time.Time `bson:"modified"`
}

func (p *Post) DocID() int64      { return p.ID }
func (p *Post) SetDocID(id int64) { p.ID = id }
func (p *Post) SetSeq(seq int64)  { p.Seq = seq }

// UniqueKeys: a slug is unique per post type.
func (p *Post) UniqueKeys() map[string]string {
	return map[string]string{"type_slug": p.Type + "/" + p.Slug}
}

// Term is the stored record of an event category or an event tag.
type Term struct {
	ID          int64  `bson:"_id"`
	Seq         int64  `bson:"seq"`
	Taxonomy    string `bson:"taxonomy"`
	Name        string `bson:"name"`
	Slug        string `bson:"slug"`
	Description string `bson:"description,omitempty"`
	Parent      int64  `bson:"parent"`
}

func (t *Term) DocID() int64      { return t.ID }
func (t *Term) SetDocID(id int64) { t.ID = id }
func (t *Term) SetSeq(seq int64)  { t.Seq = seq }

// UniqueKeys: a slug is unique per taxonomy.
func (t *Term) UniqueKeys() map[string]string {
	return map[string]string{"taxonomy_slug": t.Taxonomy + "/" + t.Slug}
}
