package wordpress

import "strings"

// The allow-lists of WordPress 6.1's kses: $allowedposttags (with the
// global attributes every post tag takes) for post fields, $allowedtags for
// plain text fields, and the entity names kept as they are. The oracle test
// compares them with the lists WordPress itself reports.

// globalPostAttributes are the attributes every tag of the post list takes
// (data-* stands for any data attribute of the form data-x-y_z).
var globalPostAttributes = "aria-describedby aria-details aria-hidden aria-label aria-labelledby class data-* dir id lang role style title xml:lang"

// postTagAttributes are the post list's tags with the attributes each takes
// besides the global ones.
var postTagAttributes = map[string]string{
	"address": "", "a": "download href name rel rev target", "abbr": "", "acronym": "",
	"area": "alt coords href nohref shape target", "article": "align", "aside": "align",
	"audio": "autoplay controls loop muted preload src", "b": "", "bdo": "", "big": "", "blockquote": "cite", "br": "",
	"button": "disabled name type value", "caption": "align", "cite": "", "code": "",
	"col": "align char charoff span valign width", "colgroup": "align char charoff span valign width",
	"del": "datetime", "dd": "", "dfn": "", "details": "align open", "div": "align", "dl": "", "dt": "", "em": "",
	"fieldset": "", "figure": "align", "figcaption": "align", "font": "color face size", "footer": "align",
	"h1": "align", "h2": "align", "h3": "align", "h4": "align", "h5": "align", "h6": "align", "header": "align",
	"hgroup": "align", "hr": "align noshade size width", "i": "",
	"img": "align alt border height hspace loading longdesc src usemap vspace width", "ins": "cite datetime",
	"kbd": "", "label": "for", "legend": "align", "li": "align value", "main": "align", "map": "name", "mark": "",
	"menu": "type", "nav": "align", "object": "data type", "p": "align", "pre": "width", "q": "cite",
	"rb": "", "rp": "", "rt": "", "rtc": "", "ruby": "", "s": "", "samp": "", "span": "align", "section": "align",
	"small": "", "strike": "", "strong": "", "sub": "", "summary": "align", "sup": "",
	"table": "align bgcolor border cellpadding cellspacing rules summary width", "tbody": "align char charoff valign",
	"td":       "abbr align axis bgcolor char charoff colspan headers height nowrap rowspan scope valign width",
	"textarea": "cols disabled name readonly rows", "tfoot": "align char charoff valign",
	"th":    "abbr align axis bgcolor char charoff colspan headers height nowrap rowspan scope valign width",
	"thead": "align char charoff valign", "title": "", "tr": "align bgcolor char charoff valign",
	"track": "default kind label src srclang", "tt": "", "u": "", "ul": "type", "ol": "reversed start type", "var": "",
	"video": "autoplay controls height loop muted playsinline poster preload src width",
}

// plainTagAttributes is $allowedtags, with no global attributes.
var plainTagAttributes = map[string]string{
	"a": "href title", "abbr": "title", "acronym": "title", "b": "", "blockquote": "cite", "cite": "", "code": "",
	"del": "datetime", "em": "", "i": "", "q": "cite", "s": "", "strike": "", "strong": "",
}

// uriAttributes are the attributes whose values lose a protocol not allowed.
var uriAttributes = map[string]bool{"action": true, "archive": true, "background": true, "cite": true, "classid": true,
	"codebase": true, "data": true, "formaction": true, "href": true, "icon": true, "longdesc": true, "manifest": true,
	"poster": true, "profile": true, "src": true, "usemap": true, "xmlns": true}

// allowedProtocols is wp_allowed_protocols().
var allowedProtocols = map[string]bool{"http": true, "https": true, "ftp": true, "ftps": true, "mailto": true, "news": true,
	"irc": true, "irc6": true, "ircs": true, "gopher": true, "nntp": true, "feed": true, "telnet": true, "mms": true,
	"rtsp": true, "sms": true, "svn": true, "tel": true, "fax": true, "xmpp": true, "webcal": true, "urn": true}

// allowedEntityNames are the named entities kses keeps ($allowedentitynames).
var allowedEntityNames = toSet("nbsp iexcl cent pound curren yen brvbar sect uml copy ordf laquo not shy reg macr deg plusmn " +
	"acute micro para middot cedil ordm raquo iquest Agrave Aacute Acirc Atilde Auml Aring AElig Ccedil Egrave Eacute Ecirc " +
	"Euml Igrave Iacute Icirc Iuml ETH Ntilde Ograve Oacute Ocirc Otilde Ouml times Oslash Ugrave Uacute Ucirc Uuml Yacute " +
	"THORN szlig agrave aacute acirc atilde auml aring aelig ccedil egrave eacute ecirc euml igrave iacute icirc iuml eth " +
	"ntilde ograve oacute ocirc otilde ouml divide oslash ugrave uacute ucirc uuml yacute thorn yuml quot amp lt gt apos " +
	"OElig oelig Scaron scaron Yuml circ tilde ensp emsp thinsp zwnj zwj lrm rlm ndash mdash lsquo rsquo sbquo ldquo " +
	"rdquo bdquo dagger Dagger permil lsaquo rsaquo euro fnof Alpha Beta Gamma Delta Epsilon Zeta Eta Theta Iota Kappa " +
	"Lambda Mu Nu Xi Omicron Pi Rho Sigma Tau Upsilon Phi Chi Psi Omega alpha beta gamma delta epsilon zeta eta theta " +
	"iota kappa lambda mu nu xi omicron pi rho sigmaf sigma tau upsilon phi chi psi omega thetasym upsih piv bull hellip " +
	"prime Prime oline frasl weierp image real trade alefsym larr uarr rarr darr harr crarr lArr uArr rArr dArr hArr " +
	"forall part exist empty nabla isin notin ni prod sum minus lowast radic prop infin ang and or cap cup int sim cong " +
	"asymp ne equiv le ge sub sup nsub sube supe oplus otimes perp sdot lceil rceil lfloor rfloor lang rang loz spades " +
	"clubs hearts diams sup1 sup2 sup3 frac14 frac12 frac34 there4")

// KsesList is one of kses' allow-lists: each tag (lower case) with the
// attributes (lower case) it keeps.
type KsesList struct {
	tags map[string]map[string]bool
}

// KsesPostList is $allowedposttags (wp_filter_post_kses); KsesPlainList is
// $allowedtags (wp_filter_kses).
var (
	KsesPostList  = newKsesList(postTagAttributes, globalPostAttributes)
	KsesPlainList = newKsesList(plainTagAttributes, "")
)

func newKsesList(tags map[string]string, global string) KsesList {
	l := KsesList{tags: make(map[string]map[string]bool, len(tags))}
	for tag, attrs := range tags {
		l.tags[tag] = toSet(attrs + " " + global)
	}
	return l
}

// Tags lists the tags with their attributes, for the oracle test.
func (l KsesList) Tags() map[string]map[string]bool { return l.tags }

func toSet(words string) map[string]bool {
	set := map[string]bool{}
	for _, w := range strings.Fields(words) {
		set[w] = true
	}
	return set
}
