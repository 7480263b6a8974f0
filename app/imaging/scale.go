package imaging

import (
	"fmt"
	"image"
	"math"

	"golang.org/x/image/draw"
)

// scale resamples the region sr of src into the whole of dst with
// x/image/draw's Catmull-Rom kernel and arithmetic, so that its pixels are
// draw.CatmullRom.Scale's (with draw.Src) to the bit. draw filters every
// source row horizontally before filtering any column, into a dst-width x
// src-height buffer of 32-byte pixels (200 MB for 2048 wide from a
// 3000-high photo); scale makes the destination row by row and keeps only
// the filtered source rows the rows still to make need.
//
// src is an *image.RGBA, *image.NRGBA or *image.Gray (makeSizes converts
// the rest), and sr lies within its bounds.
func scale(dst *image.RGBA, src image.Image, sr image.Rectangle) {
	dw, dh := dst.Rect.Dx(), dst.Rect.Dy()
	if dw <= 0 || dh <= 0 || sr.Empty() {
		return
	}
	filter := rowFilter(src, sr)
	across, down := newWeights(dw, sr.Dx()), newWeights(dh, sr.Dy())
	rows := down.window()
	kept := make([][4]float64, rows*dw)
	next := 0 // the next source row to filter
	for dy, s := range down.spans {
		taps := down.taps[s.first:s.last]
		for ; next <= taps[len(taps)-1].at; next++ {
			filter(kept[(next%rows)*dw:][:dw], next, across)
		}
		d := dst.PixOffset(dst.Rect.Min.X, dst.Rect.Min.Y+dy)
		for dx := range dw {
			var pr, pg, pb, pa float64
			for _, t := range taps {
				p := &kept[(t.at%rows)*dw+dx]
				pr += float64(p[0] * t.weight)
				pg += float64(p[1] * t.weight)
				pb += float64(p[2] * t.weight)
				pa += float64(p[3] * t.weight)
			}
			pr, pg, pb = min(pr, pa), min(pg, pa), min(pb, pa)
			dst.Pix[d+0] = uint8(to16(pr*s.scale) >> 8)
			dst.Pix[d+1] = uint8(to16(pg*s.scale) >> 8)
			dst.Pix[d+2] = uint8(to16(pb*s.scale) >> 8)
			dst.Pix[d+3] = uint8(to16(pa*s.scale) >> 8)
			d += 4
		}
	}
}

// rowFilter filters source row y (from sr's top) across into out, one
// premultiplied 16-bit pixel per destination column, as draw's scaleX does
// for each kind of image.
func rowFilter(src image.Image, sr image.Rectangle) func(out [][4]float64, y int, w weights) {
	switch src := src.(type) {
	case *image.RGBA:
		return func(out [][4]float64, y int, w weights) {
			row := src.PixOffset(sr.Min.X, sr.Min.Y+y)
			for x, s := range w.spans {
				var pr, pg, pb, pa float64
				for _, t := range w.taps[s.first:s.last] {
					p := src.Pix[row+t.at*4:][:4]
					pr += float64(float64(uint32(p[0])*0x101) * t.weight)
					pg += float64(float64(uint32(p[1])*0x101) * t.weight)
					pb += float64(float64(uint32(p[2])*0x101) * t.weight)
					pa += float64(float64(uint32(p[3])*0x101) * t.weight)
				}
				out[x] = [4]float64{pr * s.scaleFFFF, pg * s.scaleFFFF, pb * s.scaleFFFF, pa * s.scaleFFFF}
			}
		}
	case *image.NRGBA:
		return func(out [][4]float64, y int, w weights) {
			row := src.PixOffset(sr.Min.X, sr.Min.Y+y)
			for x, s := range w.spans {
				var pr, pg, pb, pa float64
				for _, t := range w.taps[s.first:s.last] {
					p := src.Pix[row+t.at*4:][:4]
					a := uint32(p[3]) * 0x101
					pr += float64(float64(uint32(p[0])*a/0xff) * t.weight)
					pg += float64(float64(uint32(p[1])*a/0xff) * t.weight)
					pb += float64(float64(uint32(p[2])*a/0xff) * t.weight)
					pa += float64(float64(a) * t.weight)
				}
				out[x] = [4]float64{pr * s.scaleFFFF, pg * s.scaleFFFF, pb * s.scaleFFFF, pa * s.scaleFFFF}
			}
		}
	case *image.Gray:
		return func(out [][4]float64, y int, w weights) {
			row := src.PixOffset(sr.Min.X, sr.Min.Y+y)
			for x, s := range w.spans {
				var v float64
				for _, t := range w.taps[s.first:s.last] {
					v += float64(float64(uint32(src.Pix[row+t.at])*0x101) * t.weight)
				}
				v *= s.scaleFFFF
				out[x] = [4]float64{v, v, v, 1}
			}
		}
	}
	panic(fmt.Sprintf("imaging: scale from %T", src)) // makeSizes converts every other kind
}

// weights are what each destination column (or row) takes of which source
// columns (rows): draw's distrib.
type weights struct {
	spans []span
	taps  []tap
}

// span is one destination pixel's taps[first:last] and the inverse of
// their total weight (times 1/0xffff: scaleFFFF).
type span struct {
	first, last      int
	scale, scaleFFFF float64
}

type tap struct {
	at     int // the source column or row
	weight float64
}

// newWeights spreads sn source pixels over dn as draw's newDistrib does
// with Catmull-Rom: a shrinking kernel is widened to see every source pixel.
func newWeights(dn, sn int) weights {
	k := draw.CatmullRom
	ratio := float64(sn) / float64(dn)
	halfWidth, argScale := k.Support, 1.0
	if ratio > 1 {
		halfWidth *= ratio
		argScale = 1 / ratio
	}
	w := weights{spans: make([]span, dn), taps: make([]tap, 0, tapsBound(dn, sn))}
	for x := range w.spans {
		center := float64((float64(x)+0.5)*ratio) - 0.5
		lo := max(int(math.Floor(center-halfWidth)), 0)
		hi := max(min(int(math.Ceil(center+halfWidth)), sn), lo)
		total, first := 0.0, len(w.taps)
		for at := lo; at < hi; at++ {
			t := math.Abs((center - float64(at)) * argScale)
			if t >= k.Support {
				continue
			}
			if weight := k.At(t); weight != 0 {
				total += weight
				w.taps = append(w.taps, tap{at, weight})
			}
		}
		total = 1 / total
		w.spans[x] = span{first: first, last: len(w.taps), scale: total, scaleFFFF: total / 0xffff}
	}
	return w
}

// window is how many filtered source rows scale keeps: the most that one
// destination row reaches back from the furthest row filtered so far.
func (w weights) window() int {
	rows, furthest := 1, 0
	for _, s := range w.spans {
		taps := w.taps[s.first:s.last]
		furthest = max(furthest, taps[len(taps)-1].at)
		rows = max(rows, furthest-taps[0].at+1)
	}
	return rows
}

// tapsBound bounds the taps of newWeights(dn, sn): each destination pixel
// takes at most the source pixels within the kernel's half width on either
// side, 2*halfWidth+2 of them.
func tapsBound(dn, sn int) int {
	return dn * (int(2*halfWidth(dn, sn)) + 2)
}

func halfWidth(dn, sn int) float64 {
	return draw.CatmullRom.Support * max(1, float64(sn)/float64(dn))
}

// scaleBytes bounds what scale allocates to make dw x dh from sw x sh: the
// weights both ways and the filtered rows it keeps. Those are fewer than
// 2*halfWidth+2: a row's taps and the furthest row filtered so far (a tap of
// an earlier row, whose center was no further down) all lie within the
// kernel's half width of the row's center.
func scaleBytes(dw, dh, sw, sh int) int64 {
	const spanBytes, tapBytes, pixelBytes = 32, 16, 32
	weights := int64(dw+dh)*spanBytes + int64(tapsBound(dw, sw)+tapsBound(dh, sh))*tapBytes
	rows := int64(2*halfWidth(dh, sh)) + 2
	return weights + rows*int64(dw)*pixelBytes
}

// to16 is draw's ftou: a value in [0, 1] as 16 bits, rounded.
func to16(f float64) uint16 {
	i := int32(float64(0xffff*f) + 0.5)
	if i > 0xffff {
		return 0xffff
	}
	if i > 0 {
		return uint16(i)
	}
	return 0
}
