package calendar

// Guard is a named record that changes spanning many records take first,
// so that such changes take turns on one replica or several: its Lease is
// taken and given back by compare-and-swap writes of the guard itself, as a
// series' lease is of the series. A rule no single record's revision can
// hold (the site keeps an administrator who can sign in) is kept so.
type Guard struct {
	ID    int64  `bson:"_id"`
	Seq   int64  `bson:"seq"`
	Name  string `bson:"name"`
	Lease *Lease `bson:"lease,omitempty"`
}

func (g *Guard) DocID() int64      { return g.ID }
func (g *Guard) SetDocID(id int64) { g.ID = id }
func (g *Guard) SetSeq(seq int64)  { g.Seq = seq }
func (g *Guard) DocSeq() int64     { return g.Seq }

// UniqueKeys: one guard per name, found by it.
func (g *Guard) UniqueKeys() map[string][]string { return map[string][]string{"name": {g.Name}} }
