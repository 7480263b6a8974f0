package imaging

import (
	"image"
	"sync"

	"golang.org/x/image/draw"
)

// upright returns img as it should be displayed for EXIF orientation o
// (2–8). JPEG's YCbCr planes are turned directly, which keeps the fast
// scaling and encoding paths and avoids a 4-byte-per-pixel copy.
func upright(img image.Image, o, cores int) image.Image {
	switch m := img.(type) {
	case *image.YCbCr:
		if t := turnYCbCr(m, o); t != nil {
			return t
		}
	case *image.Gray:
		if m.Rect.Min == (image.Point{}) {
			pix, w, h := turn(m.Pix, m.Stride, m.Rect.Dx(), m.Rect.Dy(), 1, o)
			return &image.Gray{Pix: pix, Stride: w, Rect: image.Rect(0, 0, w, h)}
		}
	case *image.NRGBA:
		// Kept unpremultiplied: the PNG written from it is then lossless.
		if m.Rect.Min == (image.Point{}) {
			pix, w, h := turn(m.Pix, m.Stride, m.Rect.Dx(), m.Rect.Dy(), 4, o)
			return &image.NRGBA{Pix: pix, Stride: 4 * w, Rect: image.Rect(0, 0, w, h)}
		}
	}
	m := toRGBA(img, cores)
	pix, w, h := turn(m.Pix, m.Stride, m.Rect.Dx(), m.Rect.Dy(), 4, o)
	return &image.RGBA{Pix: pix, Stride: 4 * w, Rect: image.Rect(0, 0, w, h)}
}

func toRGBA(img image.Image, cores int) *image.RGBA {
	if m, ok := img.(*image.RGBA); ok && m.Rect.Min == (image.Point{}) {
		return m
	}
	b := img.Bounds()
	m := image.NewRGBA(image.Rect(0, 0, b.Dx(), b.Dy()))
	// Halves of a large image convert on two cores; rows are independent.
	mid := b.Dy() / 2
	if b.Dx()*b.Dy() < 1<<20 || cores < 2 {
		mid = 0
	}
	var wg sync.WaitGroup
	wg.Go(func() {
		draw.Draw(m, image.Rect(0, 0, b.Dx(), mid), img, b.Min, draw.Src)
	})
	draw.Draw(m, image.Rect(0, mid, b.Dx(), b.Dy()), img, b.Min.Add(image.Pt(0, mid)), draw.Src)
	wg.Wait()
	return m
}

// turnYCbCr handles the subsamplings whose transpose Go can represent, on
// even sides only: with an odd side a chroma sample covers one luma pixel at
// the edge, and mirroring would shift every chroma sample by half a pixel.
func turnYCbCr(m *image.YCbCr, o int) *image.YCbCr {
	w, h := m.Rect.Dx(), m.Rect.Dy()
	cw, ch := w, h
	ratio := m.SubsampleRatio
	switch ratio {
	case image.YCbCrSubsampleRatio444:
	case image.YCbCrSubsampleRatio420:
		cw, ch = w/2, h/2
	case image.YCbCrSubsampleRatio422:
		cw = w / 2
	case image.YCbCrSubsampleRatio440:
		ch = h / 2
	default:
		return nil
	}
	if m.Rect.Min != (image.Point{}) || w%2 != 0 || h%2 != 0 {
		return nil
	}
	if o >= 5 {
		switch ratio {
		case image.YCbCrSubsampleRatio422:
			ratio = image.YCbCrSubsampleRatio440
		case image.YCbCrSubsampleRatio440:
			ratio = image.YCbCrSubsampleRatio422
		}
	}
	y, ow, oh := turn(m.Y, m.YStride, w, h, 1, o)
	cb, ocw, _ := turn(m.Cb, m.CStride, cw, ch, 1, o)
	cr, _, _ := turn(m.Cr, m.CStride, cw, ch, 1, o)
	return &image.YCbCr{Y: y, Cb: cb, Cr: cr, YStride: ow, CStride: ocw,
		SubsampleRatio: ratio, Rect: image.Rect(0, 0, ow, oh)}
}

// turn copies a w x h plane of bpp-byte pixels into a new, tightly packed
// plane turned for EXIF orientation o, and returns its width and height.
func turn(pix []byte, stride, w, h, bpp, o int) ([]byte, int, int) {
	ow, oh := w, h
	if o >= 5 {
		ow, oh = h, w
	}
	// The source of upright pixel (x, y) is at base + x*dx + y*dy.
	last, bottom := (w-1)*bpp, (h-1)*stride
	base, dx, dy := 0, bpp, stride
	switch o {
	case 2: // mirrored left-right
		base, dx, dy = last, -bpp, stride
	case 3: // upside down
		base, dx, dy = bottom+last, -bpp, -stride
	case 4: // mirrored top-bottom
		base, dx, dy = bottom, bpp, -stride
	case 5: // transposed
		base, dx, dy = 0, stride, bpp
	case 6: // needs 90° clockwise
		base, dx, dy = bottom, -stride, bpp
	case 7: // transverse
		base, dx, dy = bottom+last, -stride, -bpp
	case 8: // needs 90° counter-clockwise
		base, dx, dy = last, stride, -bpp
	}
	out := make([]byte, ow*oh*bpp)
	// Rows are done in bands of 16 so the column-wise reads of a transpose
	// stay within cache lines that were just loaded.
	const band = 16
	for y0 := 0; y0 < oh; y0 += band {
		for x0 := 0; x0 < ow; x0 += band {
			for y := y0; y < min(y0+band, oh); y++ {
				s := base + x0*dx + y*dy
				d := (y*ow + x0) * bpp
				for x := x0; x < min(x0+band, ow); x++ {
					if bpp == 1 {
						out[d] = pix[s]
					} else {
						copy(out[d:d+bpp], pix[s:s+bpp])
					}
					s += dx
					d += bpp
				}
			}
		}
	}
	return out, ow, oh
}
