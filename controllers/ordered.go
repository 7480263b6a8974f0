package controllers

import "calendar/app"

// object is a JSON object whose keys keep their order, for the answers whose
// key order clients see (the namespace index follows registration order).
type object []member

type member struct {
	Key   string
	Value any
}

func (o object) MarshalJSON() ([]byte, error) {
	return app.OrderedObject(len(o), func(i int) (string, any) { return o[i].Key, o[i].Value })
}
