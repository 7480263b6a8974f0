package wordpress

import (
	"encoding/json"
	"fmt"
	"os"
	"sort"
	"strings"
	"testing"
)

type ksesTable struct {
	Allowed struct {
		Post     map[string][]string `json:"post"`
		Plain    map[string][]string `json:"plain"`
		Entities []string            `json:"entities"`
	} `json:"allowed"`
	Cases []struct {
		Input string `json:"input"`
		Post  string `json:"post"`
		Plain string `json:"plain"`
	} `json:"cases"`
}

func readKsesTable(t *testing.T) ksesTable {
	t.Helper()
	data, err := os.ReadFile("testdata/kses.json")
	if err != nil {
		t.Fatal(err)
	}
	var table ksesTable
	if err := json.Unmarshal(data, &table); err != nil {
		t.Fatal(err)
	}
	if len(table.Cases) < 1000 {
		t.Fatalf("only %d cases in testdata/kses.json", len(table.Cases))
	}
	return table
}

// TestKsesMatchesWordPress checks Kses against the table
// testdata/generate_kses.php made with WordPress 6.1's own
// wp_filter_post_kses and wp_filter_kses.
func TestKsesMatchesWordPress(t *testing.T) {
	t.Parallel()
	table := readKsesTable(t)
	failed := 0
	for i, c := range table.Cases {
		for _, f := range []struct {
			name string
			list KsesList
			want string
		}{{"post", KsesPostList, c.Post}, {"plain", KsesPlainList, c.Plain}} {
			if got := Kses(c.Input, f.list); got != f.want {
				failed++
				if failed <= 25 {
					t.Errorf("case %d, %s list: Kses(%q)\n want %q\n  got %q", i, f.name, c.Input, f.want, got)
				}
			}
		}
	}
	if failed > 0 {
		t.Errorf("%d of %d results differ from WordPress", failed, 2*len(table.Cases))
	}
}

// TestKsesListsMatchWordPress checks the allow-lists and entity names
// against the ones WordPress reports.
func TestKsesListsMatchWordPress(t *testing.T) {
	t.Parallel()
	table := readKsesTable(t)
	for _, l := range []struct {
		name string
		list KsesList
		want map[string][]string
	}{{"post", KsesPostList, table.Allowed.Post}, {"plain", KsesPlainList, table.Allowed.Plain}} {
		got := map[string][]string{}
		for tag, attrs := range l.list.Tags() {
			names := []string{}
			for a := range attrs {
				names = append(names, a)
			}
			sort.Strings(names)
			got[tag] = names
		}
		gotJSON, _ := json.Marshal(got)
		wantJSON, _ := json.Marshal(l.want)
		if string(gotJSON) != string(wantJSON) {
			t.Errorf("%s list:\n want %s\n  got %s", l.name, wantJSON, gotJSON)
		}
	}
	if len(table.Allowed.Entities) != len(allowedEntityNames) {
		t.Errorf("%d entity names, WordPress has %d", len(allowedEntityNames), len(table.Allowed.Entities))
	}
	for _, name := range table.Allowed.Entities {
		if !allowedEntityNames[name] {
			t.Errorf("entity name %q missing", name)
		}
	}
}

// TestKsesCostIsLinear filters 64 KiB documents of nested, unclosed and
// malformed tags, comments and entities, and counts the bytes examined:
// at most a fixed multiple of the input's length, the same for a document
// twice as long.
func TestKsesCostIsLinear(t *testing.T) {
	t.Parallel()
	docs := map[string]struct{ open, unit, close string }{
		"nested tags":          {"", "<div><p><b>", ""},
		"unclosed tags":        {"", "<a href=\"x", ""},
		"less-thans":           {"", "<", ""},
		"comment openers":      {"", "<!--", ""},
		"comment on a line":    {"", "<!--a>", ""},
		"comments and lines":   {"", "<!--a>\n", ""},
		"comment closers":      {"", "-->", ""},
		"attributes":           {"", "<a title=x title=y ", ""},
		"one tag's attributes": {"<a ", "title=x href='y' z=\"", ">"},
		"quotes":               {"", "<a \"'=", ""},
		"entities":             {"", "&#x3a;&amp&#0", ""},
		"urls":                 {"", "<a href=\"feed:feed:javascript:&#58;\">", ""},
		"nested comments":      {"", "<!<!--<!---->--", ""},
		"style urls":           {"<p style=\"background:", "", "\">"}, // url(1)url(2)...: distinct ones
		"style functions":      {"<p style=\"width:", "calc(var(min(", "\">"},
	}
	for name, d := range docs {
		var perByte [2]float64
		for i, size := range []int{32 << 10, 64 << 10} {
			doc := d.open + strings.Repeat(d.unit, size/max(len(d.unit), 1)) + d.close
			if d.unit == "" {
				var b strings.Builder
				for n := 1; b.Len() < size; n++ {
					fmt.Fprintf(&b, "url(%d)", n)
				}
				doc = d.open + b.String() + d.close
			}
			for _, l := range []KsesList{KsesPostList, KsesPlainList} {
				k := kses{list: l}
				k.filter(doc, 0)
				perByte[i] += float64(k.work) / float64(len(doc))
			}
		}
		if perByte[1] > 40 || perByte[1] > perByte[0]*1.2+1 {
			t.Errorf("%s: %.1f bytes examined per byte at 32 KiB, %.1f at 64 KiB", name, perByte[0], perByte[1])
		}
	}
}
