package wordpress

import (
	"encoding/json"
	"os"
	"testing"
)

// TestRenderContentMatchesWordPress checks RenderContent against the table
// testdata/generate.php made with WordPress 6.1's own the_content filters
// (do_blocks, wptexturize, wpautop, wp_filter_content_tags, capital_P_dangit).
func TestRenderContentMatchesWordPress(t *testing.T) {
	data, err := os.ReadFile("testdata/cases.json")
	if err != nil {
		t.Fatal(err)
	}
	var cases []struct {
		Input  string `json:"input"`
		Output string `json:"output"`
	}
	if err := json.Unmarshal(data, &cases); err != nil {
		t.Fatal(err)
	}
	if len(cases) < 300 {
		t.Fatalf("only %d cases in testdata/cases.json", len(cases))
	}
	failed := 0
	for i, c := range cases {
		if got := RenderContent(c.Input); got != c.Output {
			failed++
			if failed <= 20 {
				t.Errorf("case %d: RenderContent(%q)\n want %q\n  got %q", i, c.Input, c.Output, got)
			}
		}
	}
	if failed > 0 {
		t.Errorf("%d of %d cases differ from WordPress", failed, len(cases))
	}
}
