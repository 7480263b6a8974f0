package imaging

import "encoding/binary"

const tagOrientation = 0x0112

// tiffOrientation reads the Orientation tag from IFD0 of an EXIF TIFF
// structure, answering 1 (as stored) for anything missing, odd or out of
// range. It reads at most one IFD, each entry once, never following links,
// so hostile input costs at most 65535 entry reads.
func tiffOrientation(b []byte) int {
	if len(b) < 8 {
		return 1
	}
	var bo binary.ByteOrder
	switch string(b[:4]) {
	case "II*\x00":
		bo = binary.LittleEndian
	case "MM\x00*":
		bo = binary.BigEndian
	default:
		return 1
	}
	off := uint64(bo.Uint32(b[4:]))
	if off < 8 || off+2 > uint64(len(b)) {
		return 1
	}
	n := int(bo.Uint16(b[off:]))
	for p := int(off) + 2; n > 0 && p+12 <= len(b); n, p = n-1, p+12 {
		if bo.Uint16(b[p:]) != tagOrientation {
			continue
		}
		var v uint32
		switch typ, count := bo.Uint16(b[p+2:]), bo.Uint32(b[p+4:]); {
		case count != 1:
			return 1
		case typ == 3: // SHORT, the type the standard mandates
			v = uint32(bo.Uint16(b[p+8:]))
		case typ == 4: // LONG, written by a few tools
			v = bo.Uint32(b[p+8:])
		default:
			return 1
		}
		if v < 1 || v > 8 {
			return 1
		}
		return int(v)
	}
	return 1
}
