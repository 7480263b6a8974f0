package app

import (
	"bytes"
	"encoding/json"
)

// OrderedObject writes n members as one JSON object, in their order, each
// as member(i) gives it: PHP's arrays keep the order their keys were added
// in, where a Go map's keys come out sorted. As everywhere in an answer,
// HTML characters are not escaped.
func OrderedObject(n int, member func(i int) (key string, value any)) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	buf.WriteByte('{')
	for i := range n {
		if i > 0 {
			buf.WriteByte(',')
		}
		key, value := member(i)
		if err := enc.Encode(key); err != nil {
			return nil, err
		}
		buf.Truncate(buf.Len() - 1) // Encode ends each value with a newline
		buf.WriteByte(':')
		if err := enc.Encode(value); err != nil {
			return nil, err
		}
		buf.Truncate(buf.Len() - 1)
	}
	buf.WriteByte('}')
	return buf.Bytes(), nil
}
