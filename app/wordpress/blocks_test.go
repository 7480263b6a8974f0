package wordpress

import (
	"fmt"
	"runtime"
	"strings"
	"testing"

	"calendar/app/calendar"
)

// hostileBlocks are descriptions of the largest size made of what the block
// parser and the image filter do most work for.
func hostileBlocks() map[string]string {
	n := calendar.MaxDescriptionBytes
	fit := func(unit string) string { return strings.Repeat(unit, n/len(unit)) }
	var imgs, nested strings.Builder
	for i := 0; imgs.Len() < n-64; i++ {
		fmt.Fprintf(&imgs, `<img src="a" width="1" height="1" alt="%d">`, i)
	}
	for i := 0; nested.Len() < n-64; i++ { // "<img" inside a tag: WordPress' replacements one by one
		fmt.Fprintf(&nested, `<img src="a" alt="<img %d">`, i)
	}
	return map[string]string{
		"deep":           strings.Repeat("<!-- wp:group --><div>", n/44) + "deep" + strings.Repeat("</div><!-- /wp:group -->", n/44),
		"unclosed":       fit("<!-- wp:a -->"),
		"unclosed text":  fit("<!-- wp:a -->x"),
		"attrs":          fit(`<!-- wp:p {"a":1`),
		"attrs far":      fit(`<!-- wp:p {"a":"} `) + " -->",
		"closers":        fit("<!-- /wp:a -->"),
		"void":           fit("<!-- wp:a /-->"),
		"comments":       fit("<!-- wp:"),
		"braces":         fit("<!-- wp:a {}}}}}}}}} "),
		"distinct imgs":  imgs.String(),
		"nested imgs":    nested.String(),
		"unfinished img": fit("<img "),
	}
}

// TestBlocksBoundedOnHostileNesting: every block delimiter left open makes
// WordPress render the rest of the text once more (quadratic); here the
// rendering stays within the text and maxBlockGrowth, and no hostile text
// costs more than a linear amount of work, counted in bytes allocated (the
// quadratic rendering of 64 KiB allocates hundreds of megabytes; the time it
// takes would depend on the machine's load).
func TestBlocksBoundedOnHostileNesting(t *testing.T) {
	for name, in := range hostileBlocks() {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		blocks := doBlocks(in)
		out := RenderContent(in)
		runtime.ReadMemStats(&after)
		if len(blocks) > len(in)+maxBlockGrowth {
			t.Errorf("%s: do_blocks made %d bytes of %d", name, len(blocks), len(in))
		}
		if allocated := after.TotalAlloc - before.TotalAlloc; allocated > 256*uint64(len(in)) {
			t.Errorf("%s: allocated %d bytes for %d", name, allocated, len(in))
		}
		if strings.Contains(name, "deep") && !strings.Contains(out, "<div>deep</div>") {
			t.Errorf("%s: %.100q", name, out)
		}
	}
	// An unclosed block past the bound: its delimiters are removed, its
	// text kept once.
	if got, want := doBlocks(strings.Repeat("<!-- wp:a -->x", 5000)), strings.Repeat("x", 5000); got != want {
		t.Errorf("unclosed: %d bytes, want %q...", len(got), want[:10])
	}
}

func BenchmarkRenderContentHostile(b *testing.B) {
	for name, in := range hostileBlocks() {
		b.Run(name, func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				RenderContent(in)
			}
		})
	}
}
