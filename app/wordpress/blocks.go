package wordpress

import "strings"

// doBlocks is WordPress' do_blocks for a site where no block type is
// registered: parse_blocks (WP_Block_Parser, ported step for step below,
// its accidents with unclosed and stray delimiters included) and then
// render_block of each block, which for a block without a render callback
// is its inner HTML and its inner blocks' renderings in order, without the
// <!-- wp:... --> delimiters. A block that needs a render callback (a
// dynamic block such as <!-- wp:latest-posts /-->) so renders as its inner
// HTML: nothing for a void one. Block supports' render_block filters (layout
// classes, duotone) add nothing, as for an unregistered block.
//
// The parser keeps one frame per open block, and rendering walks the tree
// it makes: both are linear in the text, and the depth is bounded by the
// text's length (one opener is at least 13 bytes). One difference: WordPress
// renders each block left open at the end of the text with all the text
// after its opener, so n unclosed openers render the rest n times (64 KiB of
// them, hundreds of megabytes). When the rendering would be more than
// maxBlockGrowth bytes longer than the text, the text is rendered with its
// delimiters removed instead (stripBlockDelimiters), each part of it once.
func doBlocks(doc string) string {
	p := blockParser{doc: doc, termAt: -1}
	for p.proceed() {
	}
	size := 0
	for _, b := range p.output {
		size += b.size()
	}
	if size > len(doc)+maxBlockGrowth {
		return stripBlockDelimiters(doc)
	}
	var out strings.Builder
	out.Grow(size)
	for _, b := range p.output {
		b.render(&out)
	}
	return out.String()
}

// maxBlockGrowth bounds how much longer than its text a rendering of blocks
// may be (doBlocks): well-formed blocks only lose their delimiters, and
// unclosed ones in the texts editors save are few.
const maxBlockGrowth = 16 << 10

// stripBlockDelimiters is the text without the delimiters the parser finds,
// stray closers and later ones included.
func stripBlockDelimiters(doc string) string {
	p := blockParser{doc: doc, termAt: -1}
	var out strings.Builder
	for {
		kind, start, length := p.nextToken()
		if kind == noMoreTokens {
			out.WriteString(doc[p.offset:])
			return out.String()
		}
		out.WriteString(doc[p.offset:start])
		p.offset = start + length
	}
}

// hasBlocks is has_blocks($text): whether the text holds "<!-- wp:". When it
// does, do_blocks takes wpautop off the_content for this text.
func hasBlocks(text string) bool { return strings.Contains(text, "<!-- wp:") }

// parsedBlock is WP_Block_Parser_Block as render_block uses it: its inner
// content, where a chunk with block set stands for the next inner block
// (PHP's null in innerContent).
type parsedBlock struct {
	inner   []*parsedBlock
	content []blockChunk
}

type blockChunk struct {
	html  string
	block bool
}

// size is the length of the block's rendering.
func (b *parsedBlock) size() int {
	n := 0
	for _, c := range b.content {
		n += len(c.html)
	}
	for _, in := range b.inner {
		n += in.size()
	}
	return n
}

func (b *parsedBlock) render(out *strings.Builder) {
	i := 0
	for _, c := range b.content {
		if !c.block {
			out.WriteString(c.html)
			continue
		}
		b.inner[i].render(out)
		i++
	}
}

// addHTML appends html unless PHP calls it empty ("" and "0"), as the
// parser's `if ( ! empty( $html ) )` does.
func (b *parsedBlock) addHTML(html string) {
	if html != "" && html != "0" {
		b.content = append(b.content, blockChunk{html: html})
	}
}

func freeform(html string) *parsedBlock {
	return &parsedBlock{content: []blockChunk{{html: html}}}
}

// blockFrame is WP_Block_Parser_Frame; leadingHTMLAt is -1 for PHP's null.
type blockFrame struct {
	block                     *parsedBlock
	tokenStart, tokenLen      int
	prevOffset, leadingHTMLAt int
}

type blockToken int

const (
	noMoreTokens blockToken = iota
	voidBlock
	blockOpener
	blockCloser
)

type blockParser struct {
	doc    string
	offset int
	output []*parsedBlock
	stack  []*blockFrame
	// termFrom and termAt cache the attributes' end search (nextTerminator):
	// no terminator lies in [termFrom, termAt), -1 for none to the end.
	termFrom, termAt int
	termKnown        bool
}

// proceed is WP_Block_Parser::proceed.
func (p *blockParser) proceed() bool {
	kind, start, length := p.nextToken()
	depth := len(p.stack)
	leading := -1
	if kind != noMoreTokens && start > p.offset {
		leading = p.offset
	}
	switch kind {
	case noMoreTokens:
		if depth == 0 {
			p.addFreeform()
			return false
		}
		for len(p.stack) > 0 {
			p.addBlockFromStack(-1)
		}
		return false
	case voidBlock:
		if depth == 0 {
			if leading >= 0 {
				p.output = append(p.output, freeform(p.doc[leading:start]))
			}
			p.output = append(p.output, &parsedBlock{})
			p.offset = start + length
			return true
		}
		p.addInnerBlock(&parsedBlock{}, start, length, -1)
		p.offset = start + length
		return true
	case blockOpener:
		p.stack = append(p.stack, &blockFrame{block: &parsedBlock{}, tokenStart: start, tokenLen: length, prevOffset: start + length, leadingHTMLAt: leading})
		p.offset = start + length
		return true
	default: // blockCloser
		if depth == 0 {
			p.addFreeform()
			return false
		}
		if depth == 1 {
			p.addBlockFromStack(start)
			p.offset = start + length
			return true
		}
		top := p.stack[depth-1]
		p.stack = p.stack[:depth-1]
		top.block.content = append(top.block.content, blockChunk{html: p.doc[top.prevOffset:start]})
		top.prevOffset = start + length
		p.addInnerBlock(top.block, top.tokenStart, top.tokenLen, start+length)
		p.offset = start + length
		return true
	}
}

func (p *blockParser) addFreeform() {
	if p.offset < len(p.doc) {
		p.output = append(p.output, freeform(p.doc[p.offset:]))
	}
}

func (p *blockParser) addInnerBlock(b *parsedBlock, tokenStart, tokenLen, lastOffset int) {
	parent := p.stack[len(p.stack)-1]
	parent.block.inner = append(parent.block.inner, b)
	parent.block.addHTML(p.doc[parent.prevOffset:tokenStart])
	parent.block.content = append(parent.block.content, blockChunk{block: true})
	if lastOffset > 0 {
		parent.prevOffset = lastOffset
	} else {
		parent.prevOffset = tokenStart + tokenLen
	}
}

// addBlockFromStack pops the top frame into the output; end -1 is PHP's null
// (the rest of the document).
func (p *blockParser) addBlockFromStack(end int) {
	top := p.stack[len(p.stack)-1]
	p.stack = p.stack[:len(p.stack)-1]
	if end >= 0 {
		top.block.addHTML(p.doc[top.prevOffset:end])
	} else {
		top.block.addHTML(p.doc[top.prevOffset:])
	}
	if top.leadingHTMLAt >= 0 {
		p.output = append(p.output, freeform(p.doc[top.leadingHTMLAt:top.tokenStart]))
	}
	p.output = append(p.output, top.block)
}

// nextToken is WP_Block_Parser::next_token: the first match from the offset
// of
//
//	<!--\s+(?P<closer>\/)?wp:(?P<namespace>[a-z][a-z0-9_-]*\/)?(?P<name>[a-z][a-z0-9_-]*)\s+
//	(?P<attrs>{(?:(?:[^}]+|}+(?=})|(?!}\s+\/?-->).)*+)?}\s+)?(?P<void>\/)?-->
//
// matched by hand: every part but the attributes is deterministic, and the
// attributes' possessive loop stops exactly at the first "}" followed by
// \s+ /? --> (a terminator), so they match when there is one and not at
// all otherwise. Names and attributes do not change the rendering here.
func (p *blockParser) nextToken() (blockToken, int, int) {
	from := p.offset
	for {
		k := strings.Index(p.doc[from:], "<!--")
		if k < 0 {
			return noMoreTokens, 0, 0
		}
		start := from + k
		if kind, end, ok := p.matchDelimiter(start); ok {
			return kind, start, end - start
		}
		from = start + 1
	}
}

func (p *blockParser) matchDelimiter(start int) (blockToken, int, bool) {
	s := p.doc
	i := start + 4
	j := wpSkipSpace(s, i)
	if j == i {
		return 0, 0, false
	}
	i = j
	closer := false
	if i < len(s) && s[i] == '/' {
		closer = true
		i++
	}
	if !strings.HasPrefix(s[i:], "wp:") {
		return 0, 0, false
	}
	i += 3
	j = blockIdent(s, i)
	if j == i {
		return 0, 0, false
	}
	i = j
	if i < len(s) && s[i] == '/' {
		j = blockIdent(s, i+1)
		if j == i+1 {
			return 0, 0, false
		}
		i = j
	}
	j = wpSkipSpace(s, i)
	if j == i {
		return 0, 0, false
	}
	i = j
	if i < len(s) && s[i] == '{' {
		q := p.nextTerminator(i + 1)
		if q < 0 {
			return 0, 0, false
		}
		i = wpSkipSpace(s, q+1)
	}
	void := false
	if i < len(s) && s[i] == '/' {
		void = true
		i++
	}
	if !strings.HasPrefix(s[i:], "-->") {
		return 0, 0, false
	}
	i += 3
	switch {
	case void:
		return voidBlock, i, true
	case closer:
		return blockCloser, i, true
	}
	return blockOpener, i, true
}

// nextTerminator is the first q >= from where "}" is followed by \s+ /? -->,
// or -1. Delimiters are looked for at growing offsets, so the answer is
// kept and reused while from stays at or before it: the searches are linear
// in the text together.
func (p *blockParser) nextTerminator(from int) int {
	if p.termKnown && from >= p.termFrom && (p.termAt < 0 || from <= p.termAt) {
		return p.termAt
	}
	s := p.doc
	q := from
	at := -1
	for {
		k := strings.IndexByte(s[q:], '}')
		if k < 0 {
			break
		}
		q += k
		j := wpSkipSpace(s, q+1)
		if j > q+1 {
			if j < len(s) && s[j] == '/' {
				j++
			}
			if strings.HasPrefix(s[j:], "-->") {
				at = q
				break
			}
		}
		q++
	}
	p.termFrom, p.termAt, p.termKnown = from, at, true
	return at
}

// blockIdent is the end of [a-z][a-z0-9_-]* at i (i itself when none).
func blockIdent(s string, i int) int {
	if i >= len(s) || s[i] < 'a' || s[i] > 'z' {
		return i
	}
	i++
	for i < len(s) && (s[i] >= 'a' && s[i] <= 'z' || s[i] >= '0' && s[i] <= '9' || s[i] == '_' || s[i] == '-') {
		i++
	}
	return i
}
