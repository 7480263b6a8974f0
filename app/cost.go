package app

import (
	"cmp"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"calendar/app/wordpress"
)

// An event's cost as the plugin reads it (tribe-common's cost utilities and
// its REST event): the numbers of a cost are found by one pattern (an
// optional separator, digits, an optional separator, digits), each keyed by
// its digits without separators (text without any number by its slug), and
// min, max, symbol and values all follow from those keys. The oracle table is
// app/testdata/cost/, made by generate.php beside it with the plugin's own
// code. Where the plugin, on PHP 8, throws (a cost with text and no number
// keyed as digits, "Free"), the answer is the one it gave on PHP 7; see
// docs/contract.md.

// costPart is one number of a cost: an optional "," or ".", digits, an
// optional "," or ".", digits (group 2: the trailing digits, whose length
// sets the decimals of every key of the cost).
var costPart = regexp.MustCompile(`[,.]?(\d+)[,.]?(\d*)`)

// costKey is a key of PHP's array: an integer, or a string.
type costKey struct {
	isInt bool
	n     int64
	s     string
}

func (k costKey) String() string {
	if k.isInt {
		return strconv.FormatInt(k.n, 10)
	}
	return k.s
}

// phpKey is the key PHP makes of a string: a canonical decimal integer that
// fits is an integer.
func phpKey(s string) costKey {
	if n, err := strconv.ParseInt(s, 10, 64); err == nil && strconv.FormatInt(n, 10) == s {
		return costKey{isInt: true, n: n}
	}
	return costKey{s: s}
}

// number reports a key's number when PHP takes it as one (keys made here
// are integers, digit strings or slugs).
func (k costKey) number() (float64, bool) {
	if k.isInt {
		return float64(k.n), true
	}
	return phpNumber(k.s)
}

// compareKeys is PHP 8's comparison of two keys (ksort, min, max): numbers
// numerically, a number and a non-numeric string as strings, strings that
// are both numeric numerically, else byte by byte.
func compareKeys(a, b costKey) int {
	if a.isInt && b.isInt {
		return cmpInt(a.n, b.n)
	}
	x, xok := a.number()
	y, yok := b.number()
	if xok && yok {
		if x != y {
			if x < y {
				return -1
			}
			return 1
		}
		if a.isInt || b.isInt || x < 1e15 {
			return 0
		}
	}
	return strings.Compare(a.String(), b.String())
}

func cmpInt(a, b int64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// phpNumber is PHP 8's is_numeric and the number it reads: optional
// whitespace, a sign, digits with one optional ".", an optional exponent,
// trailing whitespace.
func phpNumber(s string) (float64, bool) {
	t := strings.TrimRight(strings.TrimLeft(s, " \t\n\r\v\f"), " \t\n\r\v\f")
	if t == "" || !phpNumeric.MatchString(t) {
		return 0, false
	}
	f, err := strconv.ParseFloat(t, 64)
	if err != nil && !math.IsInf(f, 0) {
		return 0, false
	}
	return f, true
}

var phpNumeric = regexp.MustCompile(`^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$`)

// costEntry is one number (or text) of a cost under its key.
type costEntry struct {
	key  costKey
	text string
}

// costEntries are keyed entries in PHP's array order: a key set again keeps
// its place and takes the new text.
type costEntries []costEntry

func (e *costEntries) set(k costKey, text string) {
	for i := range *e {
		if compareSame((*e)[i].key, k) {
			(*e)[i].text = text
			return
		}
	}
	*e = append(*e, costEntry{k, text})
}

func compareSame(a, b costKey) bool { return a.isInt == b.isInt && a.n == b.n && a.s == b.s }

// parseCostRange keys every number of the costs (the plugin's
// parse_cost_range): each cost's parts, or the cost whole when it has no
// number; a number's key is its digits with as many decimals as the longest
// trailing digits of all the costs; text's key is its slug.
func parseCostRange(costs []string, sorted bool) costEntries {
	var parts []string
	decimals := 0
	for _, c := range costs {
		found := costPart.FindAllStringSubmatch(c, -1)
		if found == nil {
			parts = append(parts, c)
			continue
		}
		for _, m := range found {
			parts = append(parts, m[0])
			decimals = max(decimals, len(m[2]))
		}
	}
	var out costEntries
	for _, p := range parts {
		numeric := strings.NewReplacer(",", ".").Replace(p)
		var key string
		if f, ok := phpNumber(numeric); ok {
			key = strings.ReplaceAll(strconv.FormatFloat(roundHalfUp(f, decimals), 'f', decimals, 64), ".", "")
		} else {
			key = wordpress.SanitizeTitle(numeric)
		}
		out.set(phpKey(key), p)
	}
	if sorted {
		slices.SortStableFunc(out, func(a, b costEntry) int { return compareKeys(a.key, b.key) })
	}
	return out
}

// roundHalfUp rounds as PHP's number_format does, halves away from zero.
func roundHalfUp(f float64, decimals int) float64 {
	if decimals > 15 || math.IsInf(f, 0) || math.Abs(f) >= 1e15 {
		return f
	}
	p := math.Pow(10, float64(decimals))
	return math.Round(f*p) / p
}

func (e costEntries) texts() []string {
	out := make([]string, len(e))
	for i, c := range e {
		out[i] = c.text
	}
	return out
}

// eventCosts are the keyed numbers of every stored cost value (the plugin's
// get_event_costs): each value parsed alone, a key seen before kept.
func eventCosts(values []string) costEntries {
	var out costEntries
	for _, v := range values {
		if v == "" {
			continue
		}
		for _, c := range parseCostRange([]string{v}, true) {
			if !slices.ContainsFunc(out, func(o costEntry) bool { return compareSame(o.key, c.key) }) {
				out = append(out, c)
			}
		}
	}
	return out
}

// costBound is the lowest or highest cost (the plugin's get_cost_by_func):
// the costs keyed again, one text alone as it is, else the numeric ones'
// first or last by key; none, or a bound that is "0" or empty, is "0".
func costBound(costs costEntries, highest bool) string {
	all := parseCostRange(costs.texts(), true)
	if len(all) == 1 {
		if _, ok := phpNumber(all[0].text); !ok {
			return all[0].text
		}
	}
	var best *costEntry
	for i := range all {
		if _, ok := phpNumber(all[i].text); !ok {
			continue
		}
		if best == nil {
			best = &all[i]
			continue
		}
		c := compareKeys(all[i].key, best.key)
		if (highest && c > 0) || (!highest && c < 0) {
			best = &all[i]
		}
	}
	if best == nil || best.text == "" || best.text == "0" {
		return "0"
	}
	return best.text
}

// CurrencyOf is what the plugin infers, when a cost is written, of its
// currency symbol (parse_currency_symbol) and position
// (parse_currency_position): a string is read as its comma-separated parts.
// Each part with a number gives the symbol as the part without that number,
// trimmed; they must all agree. The position is "prefix" if every part that
// holds the symbol starts with it, "postfix" if none does.
func CurrencyOf(cost []string) (symbol, position string) {
	parts := cost
	if len(cost) == 1 {
		if cost[0] == "" || cost[0] == "0" {
			return "", ""
		}
		parts = commaSplit.Split(cost[0], -1)
	}
	symbol, ok := currencySymbol(parts)
	if !ok || symbol == "" || symbol == "0" {
		return "", ""
	}
	for _, p := range parts {
		at := strings.Index(phpTrim(p), symbol)
		if at < 0 {
			continue
		}
		pos := "postfix"
		if at == 0 {
			pos = "prefix"
		}
		if position != "" && pos != position {
			return symbol, ""
		}
		position = pos
	}
	return symbol, position
}

var commaSplit = regexp.MustCompile(`\s*,\s*`)

func phpTrim(s string) string { return strings.Trim(s, " \t\n\r\x00\x0b") }

// currencySymbol: the i-th keyed number is taken out of the i-th part (the
// plugin counts entries, not parts: a part with two numbers shifts the rest).
func currencySymbol(parts []string) (string, bool) {
	costs := parseCostRange(parts, false)
	var first string
	seen := false
	for i, c := range costs {
		if _, ok := c.key.number(); !ok {
			continue
		}
		part := ""
		if i < len(parts) {
			part = parts[i]
		}
		s := phpTrim(strings.ReplaceAll(part, c.text, ""))
		if seen && s != first {
			return "", false
		}
		first, seen = s, true
	}
	return first, seen
}

// costText is the plugin's cost and cost_details.values, given the cost's
// symbol and position (CurrencyOf): the lowest and
// highest costs ("0" as "Free"; a number with the symbol at its position, "$"
// before it when none was inferred), joined by " – " unless equal; the values
// are every keyed cost as a number without thousands separators, or its key
// when it is not one, in numeric order.
func costText(cost []string, symbol, position string) (string, []string) {
	costs := eventCosts(cost)
	values := make([]string, 0, len(costs))
	for _, c := range costs {
		v := strings.ReplaceAll(c.text, ",", "")
		if _, ok := phpNumber(v); ok {
			values = append(values, v)
		} else {
			values = append(values, c.key.String())
		}
	}
	slices.SortStableFunc(values, func(a, b string) int {
		x, _ := phpNumber(a)
		y, _ := phpNumber(b)
		switch {
		case x < y:
			return -1
		case x > y:
			return 1
		}
		return 0
	})
	if len(costs) == 0 {
		return "", values
	}
	show := func(c string) string {
		if c == "0" {
			c = "Free"
		}
		if _, ok := phpNumber(strings.NewReplacer(",", "", ".", "").Replace(c)); ok {
			symbol := cmp.Or(symbol, "$")
			if position != "" && position != "prefix" {
				c += symbol
			} else {
				c = symbol + c
			}
		}
		return escHTML(c)
	}
	lo, hi := show(costBound(costs, false)), show(costBound(costs, true))
	if looseEqual(lo, hi) {
		return lo, values
	}
	return lo + " – " + hi, values
}

// looseEqual is PHP's == of two strings: numerically when both are numbers.
func looseEqual(a, b string) bool {
	x, xok := phpNumber(a)
	y, yok := phpNumber(b)
	if xok && yok {
		return x == y
	}
	return a == b
}

// escHTML is WordPress' esc_html on text that holds no entity yet.
var escHTML = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&quot;", "'", "&#039;").Replace
