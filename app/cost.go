package app

import (
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"calendar/app/calendar"
	"calendar/app/wordpress"
)

// An event's cost as the plugin shows it (tribe-common's cost utilities, its
// REST event): the amounts found in the stored values, the lowest and the
// highest with the currency symbol ("Free" for zero, an en dash between),
// and cost_details.values as numbers a client can read (thousands
// separators dropped) or, for a cost with no amount, its slug ("free").
// Where the plugin's own parsing loses the amount ($1,250.00 reads "$.00",
// 10–20 € "$10 – $20", 10,50 € "1050") the cost is read as people write it;
// docs/contract.md lists those answers.

// costAmount is an amount as written: digits grouped by threes ("1,250",
// "1.234.567,89"), digits with a decimal part ("10,50"), or a decimal part
// alone (".99"). Other runs split: "1,1,1" is no thousand-something.
var costAmount = regexp.MustCompile(`\d{1,3}(?:[.,]\d{3})+(?:[.,]\d+)?|\d+(?:[.,]\d+)?|[.,]\d+`)

// amount is one amount of a cost.
type amount struct {
	text   string  // as written ("1.250,50")
	number string  // as a client reads a number ("1250.50")
	value  float64 // to order amounts
}

// readAmount reads an amount's separators as people write them: of two kinds
// of separator the last is the decimal one; one kind used once is decimal
// unless three digits follow it and a non-zero integer part comes before
// ("1,250" but "0,250" and "10,50"); one kind used several times groups
// thousands ("1.250.000").
func readAmount(text string) amount {
	decimal := -1
	lastDot, lastComma := strings.LastIndexByte(text, '.'), strings.LastIndexByte(text, ',')
	switch {
	case lastDot >= 0 && lastComma >= 0:
		decimal = max(lastDot, lastComma)
	case lastDot >= 0 || lastComma >= 0:
		sep := max(lastDot, lastComma)
		whole := text[:sep]
		grouping := strings.Count(text, text[sep:sep+1]) > 1 ||
			(len(text)-sep-1 == 3 && strings.TrimLeft(whole, "0") != "")
		if !grouping {
			decimal = sep
		}
	}
	var digits strings.Builder
	for i := 0; i < len(text); i++ {
		switch c := text[i]; {
		case i == decimal:
			digits.WriteByte('.')
		case c >= '0' && c <= '9':
			digits.WriteByte(c)
		}
	}
	number := digits.String()
	whole, fraction, hasFraction := strings.Cut(number, ".")
	whole = strings.TrimLeft(whole, "0")
	if whole == "" {
		whole = "0"
	}
	number = whole
	if hasFraction {
		number += "." + fraction
	}
	value, _ := strconv.ParseFloat(number, 64) // digits and one point: a number, however long (Inf orders last)
	return amount{text: text, number: number, value: value}
}

// currencyNames are symbols written in letters that are not three capitals
// (those are ISO 4217 codes: EUR, USD).
var currencyNames = map[string]bool{"kr": true, "zł": true, "Kč": true, "Fr": true, "Fr.": true, "Ft": true, "lei": true, "Rs": true, "Rs.": true}

// isCurrency tells a symbol from the other words around an amount.
func isCurrency(word string) bool {
	if currencyNames[word] {
		return true
	}
	if len(word) == 3 && strings.ToUpper(word) == word && strings.IndexFunc(word, func(r rune) bool { return r < 'A' || r > 'Z' }) < 0 {
		return true
	}
	return strings.IndexFunc(word, func(r rune) bool { return unicode.Is(unicode.Sc, r) }) >= 0
}

// symbolAround finds a value's currency: the word just before or just after
// its amounts ("$10 – $20", "10–20 €", "EUR 10"), the same for every amount
// that has one ("10€, 20$" has none), before when it is ever before. A lone
// word between two amounts goes with the one it touches ("10$, 20$").
func symbolAround(v string) (symbol, position string) {
	found := costAmount.FindAllStringIndex(v, -1)
	mismatch := false
	see := func(word, pos string) {
		word = strings.Trim(word, costPunctuation)
		if !isCurrency(word) {
			return
		}
		if symbol != "" && symbol != word {
			mismatch = true
		}
		if symbol == "" || pos == "prefix" {
			position = pos
		}
		symbol = word
	}
	for i := 0; i <= len(found); i++ {
		from, to := 0, len(v)
		if i > 0 {
			from = found[i-1][1]
		}
		if i < len(found) {
			to = found[i][0]
		}
		gap := v[from:to]
		words := strings.Fields(gap)
		switch {
		case len(words) == 0:
		case i == 0:
			see(words[len(words)-1], "prefix")
		case i == len(found):
			see(words[0], "postfix")
		case len(words) > 1:
			see(words[0], "postfix")
			see(words[len(words)-1], "prefix")
		case strings.HasPrefix(gap, words[0]) || !strings.HasSuffix(gap, words[0]):
			see(words[0], "postfix")
		default:
			see(words[0], "prefix")
		}
	}
	if mismatch || len(found) == 0 {
		return "", ""
	}
	return symbol, position
}

// costPunctuation is what lists and ranges put around a symbol ("$10-$20",
// "10$, 20$").
const costPunctuation = ",;:()/-–—"

// inferCurrency is the symbol the cost values agree on (values without one
// have no say); a cost that names none keeps the event's, so "25" sent to a
// 20 € event stays in euros.
func inferCurrency(values []string, keptSymbol, keptPosition string) (symbol, position string) {
	for _, v := range values {
		sym, pos := symbolAround(v)
		switch {
		case sym == "":
		case symbol == "":
			symbol, position = sym, pos
		case sym != symbol || pos != position:
			return "", ""
		}
	}
	if symbol == "" {
		hasAmount := slices.ContainsFunc(values, func(v string) bool { return costAmount.MatchString(v) })
		if hasAmount {
			return keptSymbol, keptPosition
		}
	}
	return symbol, position
}

// costText is the event's cost and cost_details.values.
func costText(p *calendar.Post) (string, []string) {
	var amounts []amount
	for _, v := range p.Cost {
		for _, text := range costAmount.FindAllString(v, -1) {
			amounts = append(amounts, readAmount(text))
		}
	}
	if len(amounts) == 0 {
		return strings.Join(p.Cost, ", "), textCostValues(p.Cost)
	}
	slices.SortStableFunc(amounts, func(a, b amount) int {
		switch {
		case a.value < b.value:
			return -1
		case a.value > b.value:
			return 1
		}
		return 0
	})
	// Values of the cost without an amount ("free" beside "20$") come first,
	// as the plugin's numeric sort puts a word, worth 0, before the amounts.
	values := []string{}
	for _, v := range p.Cost {
		if !costAmount.MatchString(v) {
			values = appendTextValue(values, v)
		}
	}
	for _, a := range amounts {
		if !slices.Contains(values, a.number) {
			values = append(values, a.number)
		}
	}
	show := func(a amount) string {
		switch {
		case a.value == 0:
			return "Free"
		case p.CostSymbol == "":
			return a.text
		case p.CostPosition == "prefix":
			return p.CostSymbol + a.text // as the plugin writes it: "CHF30", "20€"
		}
		return a.text + p.CostSymbol
	}
	lo, hi := amounts[0], amounts[len(amounts)-1]
	if lo.value == hi.value {
		return show(lo), values
	}
	return show(lo) + " – " + show(hi), values
}

// textCostValues are the values of a cost without amounts ("Free",
// "Donation"): each one's slug, as the plugin keys them.
func textCostValues(cost []string) []string {
	values := []string{}
	for _, v := range cost {
		values = appendTextValue(values, v)
	}
	return values
}

func appendTextValue(values []string, v string) []string {
	if !utf8.ValidString(v) || strings.TrimSpace(v) == "" {
		return values
	}
	if slug := wordpress.SanitizeTitle(v); slug != "" && !slices.Contains(values, slug) {
		values = append(values, slug)
	}
	return values
}
