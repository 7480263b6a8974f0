package controllers

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"
)

// fieldTree is a parsed _fields list: each key maps to the keys kept inside
// it, or to nil when the whole value is kept.
type fieldTree map[string]fieldTree

// parseFields reads _fields as WordPress does (rest_filter_response_fields):
// names split on commas and spaces, dots reach into objects, and naming a
// parent keeps it whole whatever its children. No names: no filtering (nil).
func parseFields(lists []string) fieldTree {
	var tree fieldTree
	for _, list := range lists {
		for _, field := range strings.FieldsFunc(list, func(r rune) bool { return r == ',' || r == ' ' }) {
			if tree == nil {
				tree = fieldTree{}
			}
			tree.add(strings.Split(field, "."))
		}
	}
	return tree
}

func (t fieldTree) add(path []string) {
	node := t
	for i, key := range path {
		child, seen := node[key]
		switch {
		case seen && child == nil:
			return
		case i == len(path)-1:
			node[key] = nil
			return
		case !seen:
			child = fieldTree{}
			node[key] = child
		}
		node = child
	}
}

// withLinks is the tree as it applies to an answer's _links, which WordPress
// adds after _fields, whole, when _fields names them (or a field inside
// them), or names _embedded (or inside it) and the request has _embed.
func (t fieldTree) withLinks(embed bool) fieldTree {
	_, links := t["_links"]
	_, embedded := t["_embedded"]
	if !links && !(embed && embedded) {
		return t
	}
	out := make(fieldTree, len(t)+1)
	for k, v := range t {
		out[k] = v
	}
	out["_links"] = nil
	return out
}

// filterBody applies _fields to an answer: to each item of a JSON array, to
// each item of a list wrapper's list (its other keys stay, so paging still
// works), else to the top-level object. Key order is kept.
func filterBody(body []byte, fields fieldTree, listKey string) []byte {
	raw := bytes.TrimSpace(body)
	var out []byte
	switch {
	case len(raw) > 0 && raw[0] == '[':
		out = mapItems(raw, func(item []byte) []byte { return filterValue(item, fields) })
	case listKey != "":
		members, ok := objectMembers(raw)
		if !ok {
			return body
		}
		for i, m := range members {
			if m.key == listKey {
				members[i].value = mapItems(m.value, func(item []byte) []byte { return filterValue(item, fields) })
			}
		}
		out = writeObject(members)
	default:
		out = filterValue(raw, fields)
	}
	return append(out, '\n')
}

// filterValue keeps the keys of an object that the tree names, recursively;
// in a list, a tree names indexes, as PHP arrays do. Other values stay whole.
func filterValue(raw []byte, tree fieldTree) []byte {
	if members, ok := objectMembers(raw); ok {
		kept := members[:0]
		for _, m := range members {
			sub, named := tree[m.key]
			if !named {
				continue
			}
			if sub != nil {
				m.value = filterValue(m.value, sub)
			}
			kept = append(kept, m)
		}
		return writeObject(kept)
	}
	if items, ok := arrayItems(raw); ok {
		var kept [][]byte
		for i, item := range items {
			if sub, named := tree[strconv.Itoa(i)]; named {
				if sub != nil {
					item = filterValue(item, sub)
				}
				kept = append(kept, item)
			}
		}
		return writeArray(kept)
	}
	return raw
}

type rawMember struct {
	key   string
	value []byte
}

// objectMembers splits a JSON object into its members, in order; false when
// raw is not an object.
func objectMembers(raw []byte) ([]rawMember, bool) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return nil, false
	}
	var members []rawMember
	for dec.More() {
		tok, err := dec.Token()
		key, isKey := tok.(string)
		var value json.RawMessage
		if err != nil || !isKey || dec.Decode(&value) != nil {
			return nil, false
		}
		members = append(members, rawMember{key, value})
	}
	return members, true
}

func arrayItems(raw []byte) ([][]byte, bool) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('[') {
		return nil, false
	}
	var items [][]byte
	for dec.More() {
		var item json.RawMessage
		if dec.Decode(&item) != nil {
			return nil, false
		}
		items = append(items, item)
	}
	return items, true
}

func mapItems(raw []byte, f func([]byte) []byte) []byte {
	items, ok := arrayItems(raw)
	if !ok {
		return raw
	}
	for i, item := range items {
		items[i] = f(item)
	}
	return writeArray(items)
}

func writeObject(members []rawMember) []byte {
	var buf bytes.Buffer
	buf.WriteByte('{')
	for i, m := range members {
		if i > 0 {
			buf.WriteByte(',')
		}
		buf.Write(jsonString(m.key))
		buf.WriteByte(':')
		buf.Write(m.value)
	}
	buf.WriteByte('}')
	return buf.Bytes()
}

func writeArray(items [][]byte) []byte {
	return append(append([]byte{'['}, bytes.Join(items, []byte{','})...), ']')
}

// jsonString encodes s as our answers do, without HTML escaping.
func jsonString(s string) []byte {
	var buf bytes.Buffer
	_ = encodeJSON(&buf, s)
	return bytes.TrimRight(buf.Bytes(), "\n")
}
