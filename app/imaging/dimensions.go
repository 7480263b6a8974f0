package imaging

import "math"

// Resize says which part of the source a size is cut from and how big it
// becomes, like the array image_resize_dimensions() hands to
// imagecopyresampled().
type Resize struct {
	SrcX, SrcY, SrcW, SrcH int // region of the (upright) original
	Width, Height          int // size of the generated file
}

// ResizeDimensions is WordPress' image_resize_dimensions() with the center
// crop: ok is false when WordPress makes no file for this size, either because
// the original is smaller than the box on every bounded side or because the
// result would be within a pixel of the original on both sides.
//
// The float operations are kept in WordPress' order (and PHP's round()) so
// the integers agree exactly, including on .5 boundaries.
func ResizeDimensions(origW, origH, destW, destH int, crop bool) (r Resize, ok bool) {
	if origW <= 0 || origH <= 0 || (destW <= 0 && destH <= 0) {
		return r, false
	}
	switch {
	case destH <= 0:
		if origW < destW {
			return r, false
		}
	case destW <= 0:
		if origH < destH {
			return r, false
		}
	case origW < destW && origH < destH:
		return r, false
	}

	if crop {
		// Only sides larger than the box are cut: a 600x100 into 150x150
		// gives 150x100, not an upscaled square.
		aspect := float64(origW) / float64(origH)
		newW, newH := min(max(destW, 0), origW), min(max(destH, 0), origH)
		if newW == 0 {
			newW = int(phpRound(float64(newH) * aspect))
		}
		if newH == 0 {
			newH = int(phpRound(float64(newW) / aspect))
		}
		ratio := max(float64(newW)/float64(origW), float64(newH)/float64(origH))
		cropW := phpRound(float64(newW) / ratio)
		cropH := phpRound(float64(newH) / ratio)
		r = Resize{
			SrcX: int(math.Floor((float64(origW) - cropW) / 2)),
			SrcY: int(math.Floor((float64(origH) - cropH) / 2)),
			SrcW: int(cropW), SrcH: int(cropH),
			Width: newW, Height: newH,
		}
	} else {
		w, h := ConstrainDimensions(origW, origH, destW, destH)
		r = Resize{SrcW: origW, SrcH: origH, Width: w, Height: h}
	}

	// WordPress treats a 1px difference as rounding noise, not a new size.
	if abs(r.Width-origW) <= 1 && abs(r.Height-origH) <= 1 {
		return Resize{}, false
	}
	return r, true
}

// ConstrainDimensions is WordPress' wp_constrain_dimensions(): the largest
// size of w x h fitting in maxW x maxH (0 = unbounded), never enlarged.
func ConstrainDimensions(w, h, maxW, maxH int) (int, int) {
	if maxW <= 0 && maxH <= 0 {
		return w, h
	}
	wRatio, hRatio := 1.0, 1.0
	didW := maxW > 0 && w > 0 && w > maxW
	didH := maxH > 0 && h > 0 && h > maxH
	if didW {
		wRatio = float64(maxW) / float64(w)
	}
	if didH {
		hRatio = float64(maxH) / float64(h)
	}
	smaller, larger := min(wRatio, hRatio), max(wRatio, hRatio)

	// The larger ratio gives a snugger fit when it still fits. An unbounded
	// side (0) never "fits", so such boxes always take the smaller ratio.
	ratio := larger
	if int(phpRound(float64(w)*larger)) > maxW || int(phpRound(float64(h)*larger)) > maxH {
		ratio = smaller
	}
	nw := max(1, int(phpRound(float64(w)*ratio)))
	nh := max(1, int(phpRound(float64(h)*ratio)))

	// A side one pixel short of the box it was scaled to is bumped up, so
	// that constraining a result again gives the same result.
	if didW && nw == maxW-1 {
		nw = maxW
	}
	if didH && nh == maxH-1 {
		nh = maxH
	}
	return nw, nh
}

// phpRound is PHP 5.3–8.3's round($v): the value is first rounded to 15
// significant digits, then half away from zero. That pre-rounding turns
// 4.499999999999999 (what 21*(300/1400) gives) into 5, where math.Round says 4.
func phpRound(v float64) float64 {
	if v == 0 || math.IsNaN(v) || math.IsInf(v, 0) {
		return v
	}
	if p := 14 - intLog10(math.Abs(v)); p > 0 && p < 15 {
		f := math.Pow10(p)
		v = halfUp(v*f) / f
	} else if math.Abs(v) >= 1e15 {
		return v
	}
	return halfUp(v)
}

// halfUp is php_round_helper's PHP_ROUND_HALF_UP, floor(v+0.5) included.
func halfUp(v float64) float64 {
	if v >= 0 {
		return math.Floor(v + 0.5)
	}
	return math.Ceil(v - 0.5)
}

// intLog10 is floor(log10(v)) for v > 0, by comparison with exact powers
// of ten so no libm rounding is involved.
func intLog10(v float64) int {
	n := 0
	for n < 308 && v >= math.Pow10(n+1) {
		n++
	}
	for n > -323 && v < math.Pow10(n) {
		n--
	}
	return n
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
