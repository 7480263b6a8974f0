package imaging

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"slices"
	"testing"
)

// oracle is testdata/dimensions.json, written by testdata/generate.php from
// WordPress' own functions.
type oracle struct {
	WordPress string `json:"wordpress"`
	Specs     []struct {
		Name          string
		Width, Height int
		Crop          bool
	} `json:"specs"`
	Round [][2]float64 `json:"round"`
	Cases []struct {
		W, H  int
		Sizes []*[8]int // per spec; nil where WordPress makes no file
		Made  []string  // the sizes made, in the order of the metadata
	} `json:"cases"`
}

func loadOracle(t *testing.T) oracle {
	t.Helper()
	raw, err := os.ReadFile("testdata/dimensions.json")
	if err != nil {
		t.Fatal(err)
	}
	var o oracle
	if err := json.Unmarshal(raw, &o); err != nil {
		t.Fatal(err)
	}
	if len(o.Cases) < 300 || len(o.Specs) != len(WordPressSizes) {
		t.Fatalf("oracle too small: %d cases, %d specs", len(o.Cases), len(o.Specs))
	}
	return o
}

// specsOf are WordPressSizes in the order of the oracle's specs, which is
// the order WordPress registers them in.
func specsOf(t *testing.T, o oracle) []SizeSpec {
	t.Helper()
	specs := make([]SizeSpec, len(o.Specs))
	for i, s := range o.Specs {
		k := slices.IndexFunc(WordPressSizes, func(w SizeSpec) bool { return w.Name == s.Name })
		if k < 0 {
			t.Fatalf("WordPress registers %+v, WordPressSizes has no such size", s)
		}
		if w := WordPressSizes[k]; w.Width != s.Width || w.Height != s.Height || w.Crop != s.Crop {
			t.Fatalf("WordPressSizes has %+v, WordPress registers %+v", w, s)
		}
		specs[i] = WordPressSizes[k]
	}
	return specs
}

func TestResizeDimensionsMatchesWordPress(t *testing.T) {
	o := loadOracle(t)
	specs := specsOf(t, o)
	failures := 0
	for _, c := range o.Cases {
		for i, spec := range specs {
			got, ok := ResizeDimensions(c.W, c.H, spec.Width, spec.Height, spec.Crop)
			want := c.Sizes[i]
			var msg string
			switch {
			case want == nil && ok:
				msg = fmt.Sprintf("got %+v, WordPress makes no file", got)
			case want != nil && !ok:
				msg = fmt.Sprintf("got no file, WordPress makes %v", *want)
			case want != nil:
				g := [8]int{0, 0, got.SrcX, got.SrcY, got.Width, got.Height, got.SrcW, got.SrcH}
				if g != *want {
					msg = fmt.Sprintf("got %v, WordPress %v", g, *want)
				}
			}
			if msg != "" {
				failures++
				if failures <= 20 {
					t.Errorf("%dx%d %s: %s", c.W, c.H, spec.Name, msg)
				}
			}
		}
	}
	if failures > 0 {
		t.Errorf("%d of %d cases differ from WordPress %s", failures, len(o.Cases)*len(WordPressSizes), o.WordPress)
	}
}

// The sizes of an upload come in the order WordPress' _wp_make_subsizes
// leaves in the attachment's metadata (medium, large, thumbnail,
// medium_large, then 1536x1536 and 2048x2048), those it does not make left
// out.
func TestSizesAreMadeInTheOrderOfWordPressMetadata(t *testing.T) {
	o := loadOracle(t)
	failures := 0
	for _, c := range o.Cases {
		var made []string
		for _, j := range planSizes(c.W, c.H, WordPressSizes) {
			made = append(made, j.spec.Name)
		}
		if !slices.Equal(made, c.Made) {
			if failures++; failures <= 20 {
				t.Errorf("%dx%d: sizes %v, WordPress makes %v", c.W, c.H, made, c.Made)
			}
		}
	}
}

func TestPHPRoundPreRoundsLikePHP(t *testing.T) {
	o := loadOracle(t)
	differsFromMathRound := 0
	for _, r := range o.Round {
		if got := phpRound(r[0]); got != r[1] {
			t.Errorf("phpRound(%.17g) = %v, PHP says %v", r[0], got, r[1])
		}
		if math.Round(r[0]) != r[1] {
			differsFromMathRound++
		}
	}
	if differsFromMathRound == 0 {
		t.Error("no oracle value exercises PHP's pre-rounding")
	}
}

// The rules below surprise; each answer was checked against WordPress 6.1.
func TestWordPressDimensionQuirks(t *testing.T) {
	tests := []struct {
		name         string
		w, h, bw, bh int
		crop         bool
		want         *Resize
	}{
		{"a thumbnail of a narrow image is not square", 100, 200, 150, 150, true, &Resize{0, 25, 100, 150, 100, 150}},
		{"a thumbnail of a banner is a 1:1 center cut", 769, 1, 150, 150, true, &Resize{309, 0, 150, 1, 150, 1}},
		{"one pixel larger makes no size", 151, 151, 150, 150, true, nil},
		{"a side one short of the box is bumped, skewing", 769, 767, 300, 300, false, &Resize{0, 0, 769, 767, 300, 300}},
		{"PHP pre-rounds 7.4999999 to 8", 11, 440, 300, 300, false, &Resize{0, 0, 11, 440, 8, 300}},
		{"sides never round to zero", 5000, 1, 300, 300, false, &Resize{0, 0, 5000, 1, 300, 1}},
	}
	for _, tc := range tests {
		got, ok := ResizeDimensions(tc.w, tc.h, tc.bw, tc.bh, tc.crop)
		if ok != (tc.want != nil) || (ok && got != *tc.want) {
			t.Errorf("%s: %dx%d in %dx%d = %+v %v, want %+v", tc.name, tc.w, tc.h, tc.bw, tc.bh, got, ok, tc.want)
		}
	}
	// WordPress' own comment: 465x700 in 177x177 is 118x177, not 117x176.
	if w, h := ConstrainDimensions(465, 700, 177, 177); w != 118 || h != 177 {
		t.Errorf("465x700 in 177x177 = %dx%d, want 118x177", w, h)
	}
	if w, h := ConstrainDimensions(640, 480, 0, 0); w != 640 || h != 480 {
		t.Errorf("unbounded box changed size: %dx%d", w, h)
	}
}
