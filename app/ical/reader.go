package ical

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
)

// Component is a component read from iCalendar text (VCALENDAR, VEVENT,
// VTIMEZONE, STANDARD...): its properties in order and the components it
// holds.
type Component struct {
	Name       string
	Properties []Property
	Components []*Component
}

// Property is one content line: its name (upper case), its parameters (names
// upper case, values unquoted) and its value as written (Text unescapes one).
type Property struct {
	Name   string
	Params map[string]string
	Value  string
}

// Limits bound what Read reads: a line unfolded, the components in all,
// their nesting and the properties of one component. A text over any of them
// is refused as a whole, so reading it costs at most the text's own size.
type Limits struct {
	LineBytes  int
	Components int
	Depth      int
	Properties int
}

// DefaultLimits are generous for real calendars (Google's, Outlook's,
// Apple's, Nextcloud's) and small for a hostile one.
var DefaultLimits = Limits{LineBytes: 64 << 10, Components: 20000, Depth: 8, Properties: 500}

// ErrTooLarge: the text is over one of its limits.
var ErrTooLarge = errors.New("the calendar is over its limits")

// Read reads iCalendar text (RFC 5545: lines folded by CRLF or LF and a
// space or tab) and answers its first VCALENDAR.
func Read(data []byte, lim Limits) (*Component, error) {
	var stack []*Component
	var root *Component
	components := 0
	lineNo := 0
	for len(data) > 0 {
		line, rest, err := nextLine(data, lim.LineBytes)
		if err != nil {
			return nil, fmt.Errorf("line %d: %w", lineNo+1, err)
		}
		data = rest
		lineNo++
		if strings.TrimSpace(line) == "" {
			continue
		}
		p, err := parseLine(line)
		if err != nil {
			return nil, fmt.Errorf("line %d: %w", lineNo, err)
		}
		switch p.Name {
		case "BEGIN":
			name := strings.ToUpper(strings.TrimSpace(p.Value))
			if components++; components > lim.Components {
				return nil, fmt.Errorf("%w: more than %d components", ErrTooLarge, lim.Components)
			}
			if len(stack) >= lim.Depth {
				return nil, fmt.Errorf("%w: components nested more than %d deep", ErrTooLarge, lim.Depth)
			}
			c := &Component{Name: name}
			if len(stack) > 0 {
				parent := stack[len(stack)-1]
				parent.Components = append(parent.Components, c)
			} else if root == nil {
				root = c
			}
			stack = append(stack, c)
		case "END":
			name := strings.ToUpper(strings.TrimSpace(p.Value))
			if len(stack) == 0 || stack[len(stack)-1].Name != name {
				return nil, fmt.Errorf("line %d: END:%s closes no open component", lineNo, name)
			}
			stack = stack[:len(stack)-1]
			if len(stack) == 0 && root != nil && root.Name == "VCALENDAR" {
				return root, nil
			}
		default:
			if len(stack) == 0 {
				return nil, fmt.Errorf("line %d: a property outside any component", lineNo)
			}
			c := stack[len(stack)-1]
			if len(c.Properties) >= lim.Properties {
				return nil, fmt.Errorf("%w: a %s with more than %d properties", ErrTooLarge, c.Name, lim.Properties)
			}
			c.Properties = append(c.Properties, p)
		}
	}
	if root == nil || root.Name != "VCALENDAR" {
		return nil, errors.New("no VCALENDAR")
	}
	return nil, fmt.Errorf("the %s is not closed", stack[len(stack)-1].Name)
}

// nextLine cuts one logical line, unfolded, from data; a line longer than
// max is refused before more of it is read.
func nextLine(data []byte, max int) (string, []byte, error) {
	var b strings.Builder
	for {
		end := bytes.IndexByte(data, '\n')
		var phys []byte
		if end < 0 {
			phys, data = data, nil
		} else {
			phys, data = data[:end], data[end+1:]
		}
		phys = bytes.TrimSuffix(phys, []byte{'\r'})
		if b.Len()+len(phys) > max {
			return "", nil, fmt.Errorf("%w: a line longer than %d bytes", ErrTooLarge, max)
		}
		b.Write(phys)
		if len(data) == 0 || (data[0] != ' ' && data[0] != '\t') {
			return b.String(), data, nil
		}
		data = data[1:] // a fold: the next line goes on this one
	}
}

// parseLine reads NAME;PARAM=value;PARAM="quoted":value.
func parseLine(line string) (Property, error) {
	p := Property{}
	i := strings.IndexAny(line, ";:")
	if i <= 0 {
		return p, fmt.Errorf("%q is not a content line", truncate(line, 40))
	}
	p.Name = strings.ToUpper(line[:i])
	rest := line[i:]
	for len(rest) > 0 && rest[0] == ';' {
		rest = rest[1:]
		eq := strings.IndexByte(rest, '=')
		if eq < 0 {
			return p, fmt.Errorf("%s: a parameter without a value", p.Name)
		}
		name := strings.ToUpper(rest[:eq])
		rest = rest[eq+1:]
		var value string
		if strings.HasPrefix(rest, `"`) {
			end := strings.IndexByte(rest[1:], '"')
			if end < 0 {
				return p, fmt.Errorf("%s: an unclosed quote", p.Name)
			}
			value, rest = rest[1:end+1], rest[end+2:]
		} else {
			end := strings.IndexAny(rest, ";:")
			if end < 0 {
				return p, fmt.Errorf("%s: no value", p.Name)
			}
			value, rest = rest[:end], rest[end:]
		}
		if p.Params == nil {
			p.Params = map[string]string{}
		}
		p.Params[name] = value
	}
	if !strings.HasPrefix(rest, ":") {
		return p, fmt.Errorf("%s: no value", p.Name)
	}
	p.Value = rest[1:]
	return p, nil
}

func truncate(s string, n int) string {
	if len(s) > n {
		return s[:n] + "…"
	}
	return s
}

// Get is the first property of that name (nil: none).
func (c *Component) Get(name string) *Property {
	for i := range c.Properties {
		if c.Properties[i].Name == name {
			return &c.Properties[i]
		}
	}
	return nil
}

// All are the properties of that name, in order.
func (c *Component) All(name string) []Property {
	var out []Property
	for _, p := range c.Properties {
		if p.Name == name {
			out = append(out, p)
		}
	}
	return out
}

// Value is the first property's value, "" when there is none.
func (c *Component) Value(name string) string {
	if p := c.Get(name); p != nil {
		return p.Value
	}
	return ""
}

// TextValue is the first property's value as TEXT, unescaped.
func (c *Component) TextValue(name string) string {
	if p := c.Get(name); p != nil {
		return Unescape(p.Value)
	}
	return ""
}

// Unescape reads a TEXT value: \n and \N a line break, \\ \; \, themselves.
func Unescape(v string) string {
	if !strings.Contains(v, `\`) {
		return v
	}
	var b strings.Builder
	for i := 0; i < len(v); i++ {
		if v[i] == '\\' && i+1 < len(v) {
			i++
			switch v[i] {
			case 'n', 'N':
				b.WriteByte('\n')
			default:
				b.WriteByte(v[i])
			}
			continue
		}
		b.WriteByte(v[i])
	}
	return b.String()
}

// SplitText splits a TEXT list (CATEGORIES) at its unescaped commas.
func SplitText(v string) []string {
	var out []string
	start := 0
	for i := 0; i < len(v); i++ {
		switch v[i] {
		case '\\':
			i++
		case ',':
			out = append(out, Unescape(v[start:i]))
			start = i + 1
		}
	}
	return append(out, Unescape(v[start:]))
}

// WindowsZone is the IANA zone of a Windows zone name, as CLDR maps it
// ("W. Europe Standard Time": "Europe/Berlin"); false when it is not one.
func WindowsZone(name string) (string, bool) {
	z, ok := windowsZones[name]
	return z, ok
}
