<?php
/**
 * Generates cases.json, the oracle table for RenderContent (app/wordpress/autop.go):
 * a JSON list of {"input": ..., "output": ...} where output is what
 * WordPress 6.1 gives for trim(wpautop(wptexturize(input))), i.e. the_content
 * when only those two filters run.
 *
 * WordPress' code is not part of this repository: this script requires
 * wp-includes/formatting.php from Debian's wordpress package (6.1) at
 * generation time. To regenerate:
 *
 *   mkdir -p /tmp/wp && cd /tmp/wp && apt-get download wordpress && dpkg -x wordpress*.deb x
 *   cd /work/main   # the repository root
 *   php app/wordpress/testdata/generate.php > app/wordpress/testdata/cases.json
 *
 * A different WordPress tree can be given as the first argument (the
 * directory that holds wp-includes/).
 *
 * No shortcode is registered ($shortcode_tags is empty): the service does not
 * run shortcodes, so "[caption]" and the like are plain text to wptexturize.
 * Every input is valid UTF-8 so that the table is plain JSON; the random part
 * uses a fixed seed so the table is reproducible.
 */

$wp = $argv[1] ?? '/tmp/wp/x/usr/share/wordpress';
$formatting = rtrim($wp, '/') . '/wp-includes/formatting.php';
if (!is_file($formatting)) {
    fwrite(STDERR, "missing $formatting (see the header of this script)\n");
    exit(1);
}

// The few WordPress functions formatting.php needs for these two filters.
function apply_filters($hook_name, $value, ...$args) { return $value; }
function _x($text, $context, $domain = 'default') { return $text; }
function __($text, $domain = 'default') { return $text; }
$shortcode_tags = array();

require $formatting;

$cases = array();
function add(string $input): void {
    global $cases;
    $cases[] = $input;
}

// ---------------------------------------------------------------------------
// Hand-written cases.

$hand = array(
    // Empty, whitespace, trimming.
    '', ' ', "\n", "\n\n\n", " \t\r\n ", "\x0B", "\0", "\f", "  padded  ", "\n\nleading blank lines",
    "trailing blank lines\n\n\n", "\t tab lead", "x\x0B", "\x0Bx\x0B", "a\fb", "a\f\nb", "a \f \n b", "\0a\0",
    // Plain text and paragraphs.
    'Hello world', "Hello\nworld", "Hello\n\nworld", "Hello\n\n\n\nworld", "one\ntwo\nthree",
    "one\n\ntwo\n\nthree", "para one\n \nafter space line", "para\n\t\nafter tab line",
    "a  \nb", "a\t\nb", "a \n \n b", "line\n\n\n", "one\n\n \n\n two",
    // CR and CRLF.
    "Hello\r\nworld", "Hello\r\n\r\nworld", "Hello\rworld", "Hello\r\rworld", "a\r\n\r\n\r\nb", "a\n\r\nb",
    "a\r\n<br>\r\n<br>\r\nb", "<p>x</p>\r\n<p>y</p>", "<div\r\nclass=\"a\">x</div>",
    // Already wrapped.
    '<p>Already</p>', "<p>One</p>\n<p>Two</p>", "<p>One</p><p>Two</p>", "<p>One\nline</p>", "<p>One</p>\n\n<p>Two</p>",
    '<p class="intro">Styled</p>', "<p>\n</p>", '<p></p>', "<p> </p>text", "<P>upper</P>", "<p>unclosed",
    "text</p>", "</p>", "<p><p>double</p></p>",
    // <br> handling.
    'a<br>b', 'a<br/>b', 'a<br />b', "a<br>\nb", "a<br />\nb", 'a<br><br>b', "a<br />\n<br />\nb", 'a<br>  <br/>b',
    'a<br><br><br>b', "a <br />\n\nb", "x<br />  \ny", "<br />\n\n<br />x", "x\n<br>\ny", 'a<BR>b', "<br>",
    "<br />\nstart", "end<br />",
    // Block elements.
    "<h1>Title</h1>\nText", "<h2>Title</h2>Text", "Intro\n<h3>Title</h3>\nText", "<h4>A</h4><h5>B</h5><h6>C</h6>",
    "<ul>\n<li>One</li>\n<li>Two</li>\n</ul>", "<ul><li>One</li><li>Two</li></ul>", "<ol>\n<li>One\n<ul>\n<li>Nested</li>\n</ul>\n</li>\n</ol>",
    "<ul>\n<li>Line one\nline two</li>\n\n<li>After blank</li>\n</ul>", "<li>bare item</li>", "<p><li>in p</li></p>",
    "<div>Block</div>", "<div>\nBlock\n</div>", "<div>\n\nBlock\n\n</div>", "<div class=\"x\">a\nb</div>", "<div>one</div><div>two</div>",
    "<div><div>nested</div></div>", "text<div>div</div>text", "<address>1 Main St\nTown</address>", "<form action=\"/x\">Field</form>",
    "<table>\n<tr>\n<td>A</td>\n<td>B</td>\n</tr>\n</table>", "<table><thead><tr><th>H</th></tr></thead><tbody><tr><td>D</td></tr></tbody></table>",
    "<table>\n<caption>Cap</caption>\n<colgroup><col></colgroup>\n<tfoot><tr><td>F</td></tr></tfoot>\n</table>",
    "<blockquote>Quote</blockquote>", "<blockquote>\nQuote\n</blockquote>", "<blockquote>Line 1\n\nLine 2</blockquote>",
    "<blockquote cite=\"x\">Cited</blockquote>", "<BLOCKQUOTE>Upper</BLOCKQUOTE>", "Before\n<blockquote>In</blockquote>\nAfter",
    "<pre>code\n  indented\n\nblank above</pre>", "Text\n<pre>a\nb</pre>\nText", "<pre class=\"x\">a \"quoted\" -- text</pre>",
    "<pre>one</pre>\n\n<pre>two</pre>", "<pre>unclosed\nline", "</pre>stray close", "a</pre>b<pre>c</pre>d",
    "<pre wp-pre-tag-0></pre>", "<preview>not pre</preview>\ntext", "<pre>x</pre><pre>y</pre><pre>z</pre>",
    "<pre>\n<br>\n</pre>", "Text<pre>\n\n\n</pre>",
    "<hr>", "a<hr>b", "a\n<hr />\nb", "a<hr/>b", "<hr class=\"x\">after", "<hr  />x",
    "<section>\n<h2>S</h2>\n<p>P</p>\n</section>", "<article>Art</article>", "<aside>Side\nnote</aside>",
    "<header>Head</header><main>Main\ntext</main><footer>Foot</footer>", "<nav><a href=\"/\">Home</a></nav>",
    "<figure><img src=\"a.jpg\" alt=\"\"><figcaption>Caption</figcaption></figure>",
    "<figure>\n<img src=\"a.jpg\">\n<figcaption>\nCaption\n</figcaption>\n</figure>",
    "<dl>\n<dt>Term</dt>\n<dd>Def</dd>\n</dl>", "<dl><dt>T</dt><dd>D\nmore</dd></dl>",
    "<form>\n<fieldset>\n<legend>L</legend>\n<input name=\"a\">\n</fieldset>\n</form>",
    "<details>\n<summary>Sum</summary>\nHidden\n</details>", "<details><summary>S</summary>Body</details>",
    "<hgroup><h1>A</h1><h2>B</h2></hgroup>", "<menu><li>M</li></menu>", "<math><mi>x</mi></math>",
    "<map name=\"m\"><area shape=\"rect\"></map>", "<main>\n\nMain\n\n</main>",
    // Inline elements.
    "Some <em>emphasis</em> and <strong>strong</strong>.", "<a href=\"http://example.com/\">link</a>",
    "A <span class=\"x\">span</span>\nnext", "Use <code>code</code> here", "<img src=\"x.png\" alt=\"An 'image'\">",
    "H<sub>2</sub>O and x<sup>2</sup>", "<em>one\ntwo</em>", "<a\nhref=\"x\">multi-line tag</a>", "<span>a</span>\n\n<span>b</span>",
    "<b>bold</b> <i>italic</i> <u>u</u>", "<a href=\"x\">one</a><a href=\"y\">two</a>",
    // Script, style, svg, comments.
    "<script>var a = \"x\" + 'y';\nvar b = a -- 1;</script>", "<script type=\"text/javascript\">\nif (a < b && c) {}\n</script>",
    "<style>p { content: \"--\"; }\n.a{}</style>", "<style>\n\nbody{}\n\n</style>", "Text\n<script>\nx\n</script>\nText",
    "<svg width=\"10\">\n<path d=\"M0 0\"/>\n</svg>", "<svg><text>It's \"svg\"</text></svg>",
    "<!-- comment -->", "Text <!-- comment --> text", "<!-- multi\nline\ncomment -->", "a\n<!-- c -->\nb", "<!-- 'quote' -- \"dq\" -->",
    "<!--more-->", "Intro<!--more-->Rest", "Intro\n<!--more-->\nRest", "Intro\n\n<!--more-->\n\nRest", "<!--nextpage-->",
    "<!-- unclosed comment", "<!---->", "<!-->x", "<![CDATA[ a\nb ]]>", "x <![CDATA[ 'q' ]]> y", "<!DOCTYPE html>",
    // Option, select, object, media, iframe.
    "<select>\n<option>One</option>\n<option>Two</option>\n</select>", "<select name=\"s\">\n\n<option value=\"1\">A</option>\n\n</select>",
    "<object data=\"x\">\n<param name=\"a\" value=\"b\">\n<embed src=\"x\">\n</object>", "<object>\n\n<param name=\"a\">\n\n</object>",
    "<iframe src=\"https://example.com/\" width=\"100\"></iframe>", "<iframe\nsrc=\"x\">\n</iframe>", "<embed src=\"x\">\ntext",
    "<video controls>\n<source src=\"a.mp4\">\n<track src=\"t.vtt\">\n</video>", "<audio>\n<source src=\"a.mp3\">\n</audio>",
    "[video]\n<source src=\"a.mp4\">\n[/video]", "<video>\n</video>",
    // Attributes and quotes inside tags.
    "<a href=\"x\" title=\"It's 'quoted'\">It's</a>", "<a title='single' href=\"a?b=1&c=2\">q&a</a>", "<img alt=\"5'10&quot;\">",
    "<a href=\"?a=1&amp;b=2\">x</a>", "<span data-x=\"--\">--</span>", "<p title=\"a\nb\">x</p>",
    // Quotes and apostrophes.
    "\"foo\"", "'bar'", "it's", "'90s", "12\"", "5'", "'quoted \"nested\" text'", "\"nested 'single' text\"", "don't",
    "She said, \"Don't.\"", "'Twas the night", "'tis 'twas 'til 'bout 'nuff 'round 'cause 'em 'tain't 'twere 'twill",
    "rock 'n' roll", "The '80s and '90s", "in '99", "'99 was good", "'99'", "'99\"", "'99%", "'999", "'99.0", "'9",
    "'0.42'", "\"42\"", "\"3.5\" wide", "x '12' y", "5'10\"", "6' 2\"", "9\" nails", "He is 5'7\" tall.", "It's 5'6\".",
    "\"Hello,\" she said.", "'Hello,' she said.", "\"a\" \"b\" \"c\"", "'a' 'b' 'c'", "(\"paren\")", "['bracket']", "{\"brace\"}",
    "-\"dash\"", "&lt;\"lt\"&gt;", "&lt;'lt'&gt;", "word\"word", "\"unclosed", "closed\"", "'unclosed", "closed'",
    "``backticks''", "''only close", "\"\"", "''", "'\"'", "\"'\"", "\" spaced \"", "' spaced '", "\"quote at end\"\n",
    "\"first\" and \"second\" and \"third\"", "He said \"she said 'hi' to me\" today", "5'5' and 6'6'", "1'2'3'",
    "quote.' \"quote.\" 'quote'.", "The 'quoted 5' length'", "\"9\" is 'nine'", "\"a'b\"", "'a\"b'", "it's 'its' it's",
    "'tis", "'Tis", "''tis", "&nbsp;\"x\"&nbsp;", "\u{a0}\"x\"\u{a0}", "a\u{a0}'b'", "'&gt;", "'&lt;", "\"&gt;\"", "x'&lt;",
    "\"\n\"", "'\n", "\"x\"\n\n\"y\"", "a 'b\nc' d", "It's\n'quoted'\nlines",
    // Dashes, ellipses, symbols, times.
    "1--2", "a -- b", "a --- b", "a---b", "a - b", "- leading", "trailing -", "-- leading", "trailing --", "xn--80ak6aa92e.com",
    "axn--b", "----", "-----", "a ---- b", "a -\nb", "a\n-\nb", "\u{a0}--\u{a0}", "&nbsp;-&nbsp;", "--", "-", "---",
    "Wait...", "...", "....", ". . .", "a...b", "(c) (r) (tm) (C) (TM)", "Foo (tm)", "Foo(tm)", "Foo (tm) bar",
    "1x2", "10x20", "0x1F", "0x10", "0.5x2", "2x3x4", "1,000x2", "3.14x2.5", "x2", "2x", "1x2.", "2x3,4x5", "5x5a", "a5x5",
    "00x1", "0,5x2", "9x9x", "12 x 12", "1 x2", "6X6", "_1x2", "1x2_", "1.x2",
    // Entities and ampersands.
    "&amp;", "&nbsp;", "&#8217;", "&copy; 2024", "bare & ampersand", "AT&T", "&#x27;", "&#X27;", "&foo", "&foo;",
    "&verylongentity;", "&abcdefgh;", "&abcdefghi;", "&#;", "&#12a;", "&#xZZ;", "&&", "&amp;&amp", "Tom & Jerry's",
    "&frac14; &h1; &sup2;", "&#8217;quoted&#8217;", "&#8220;x&#8221;", "&#8216;x' y", "'x&#8217; y'", "&lt;p&gt;",
    // Shortcode-like text.
    "[caption id=\"attachment_1\" align=\"alignnone\"]<img src=\"x\"> A 'caption'[/caption]", "[foo bar=\"x\"]",
    "[foo]content[/foo]", "[[escaped]]", "[gallery ids=\"1,2\"]\n\n[embed]https://example.com/[/embed]",
    "Before [code]'x' -- y[/code] after", "[audio src=\"a.mp3\"]",
    // Texturize-exempt elements.
    "<code>'x' -- \"y\"...</code>", "<kbd>'x' -- y</kbd>", "<tt>'x' -- y</tt>", "<pre>'x' -- y...</pre>",
    "<code>a</code>'b' -- c", "<pre><code>\"x\"</code> \"y\"</pre> \"z\"", "<code><pre>'a'</pre></code>'b'",
    "<pre>sadsad</code>\"baba\"</pre>\"after\"", "<code class=\"php\">'x'</code>", "<CODE>'upper'</CODE>",
    "<code\n>'nl'</code>", "</code>'stray close'", "<code>'unclosed", "<script>'a'</script>'b'", "<style>'a'</style>'b'",
    "<code>a & b</code>", "<code>x<b>'y'</b>z</code>'w'", "<code/>'self'", "<tt >'space'</tt >'after'",
    // Stray < and >.
    "a < b", "a < b > c", "1 < 2 and \"3\" > 2", "a <b c", "x > y", "<", ">", "<>", "< p>x</ p>", "a<b>b</b>c",
    "if a<b && 'c'", "</", "<a", "text <a href=\"x\"",
    // Unicode.
    "Café crème brûlée", "naïve \"façade\"", "日本語のテキスト", "中文\n\n段落", "Emoji 🎉 party 'yes'", "Ünïcödé -- ‘curly’",
    "“already curly”", "Привет 'мир'", "עברית", "العربية \"quoted\"", "🎉\n🎊", "é'é", "ü\"ü\"",
    // Long lines.
    str_repeat('word ', 400), str_repeat("It's a \"long\" line -- with... stuff. ", 120), str_repeat('x', 5000),
    str_repeat("para\n\n", 100), str_repeat("<p>p</p>\n", 50), str_repeat("a\n", 200),
    // Found while writing the Go version.
    '0', "0\n\n0", "<object>\n<param a <embed b>\n</object>", "<video>\n<source a <track b>\n</video>",
    "<p><link rel=\"x\"></p>", "<p><param name=\"a\"></p>\ntext", "<p><picture></picture></p>", "x\n<menuitem>y",
    "<pre>a</pre></pre>b", "a\n</p>\n", "<br />\n \n<br />", "x<br />\t\n\ty", "<li>a\n<li>b", "<p><li class=\"x\">one\ntwo</p>",
    "<script\n>a\nb</script>", "<scripts>a\nb</scripts>", "<svg>a\n</svg>\n<svg>b\n", "<style>a\n</style></style>",
    "1.5x2 and 1.x2", "a 1,000.50x3, b", "'99'. '99\"! \"99\"", "5'10'' tall", "\"Look,\" 'he' said 5' \"then\" 6'.",
    "'a' 'b 1' 'c 2'.", "\"a 1\" b 2\" c\".", "'x 1' y 2' z'", "'x 1' y 2' z", "\"x 1\" \"y 2\"", "'1' '2' '3'",
);
foreach ($hand as $h) {
    add($h);
}

// ---------------------------------------------------------------------------
// Texturize snippets in many contexts.

$snippets = array(
    "\"foo\"", "'bar'", "it's", "'90s", "12\"", "5'", "'quoted \"nested\" text'", "5'10\"", "don't 'quote' me",
    "a -- b", "a---b", "1--2", "wait...", "(tm) (c)", "2x3", "&amp; & &copy;", "'99", "\"42\"", "'tis", "x - y",
    "He said \"it's\".", "'Hello,' he said", "-- dash", "1x2 and 0x2",
);
$contexts = array(
    '%s', "<p>%s</p>", "<code>%s</code>", "<pre>%s</pre>", "<em>%s</em>", "<ul>\n<li>%s</li>\n</ul>", "Line one\n%s\nLine three",
    "%s\n\n%s", "<a href=\"x\" title=\"%s\">t</a>", "<blockquote>%s</blockquote>", "<script>%s</script>", "<!-- %s -->",
    "(%s)", "&nbsp;%s&nbsp;", "<strong>%s</strong> after", "<h2>%s</h2>\n%s", "%s\r\n%s",
);
foreach ($contexts as $c) {
    foreach ($snippets as $s) {
        add(str_replace('%s', $s, $c));
    }
}

// ---------------------------------------------------------------------------
// Block structure: every tag in a few layouts, with LF and CRLF line ends.

$tags = array(
    'p', 'div', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'blockquote', 'section', 'article', 'aside', 'header', 'footer', 'nav',
    'main', 'figure', 'figcaption', 'address', 'details', 'summary', 'form', 'fieldset', 'legend', 'dl', 'dt', 'dd', 'ul',
    'ol', 'li', 'table', 'tr', 'td', 'th', 'thead', 'tbody', 'pre', 'hgroup', 'menu', 'caption', 'span', 'em', 'strong',
    'a', 'code', 'sub', 'sup', 'select', 'option', 'iframe', 'object', 'svg', 'script', 'style', 'video', 'label', 'param',
);
$layouts = array(
    "before\n<%t>inner</%t>\nafter",
    "before<%t>inner</%t>after",
    "before\n\n<%t>\ninner 'q'\n</%t>\n\nafter",
    "<%t class=\"c\">line1\nline2\n\nline3</%t>",
    "<%t>a</%t>\n<%t>b</%t>",
);
foreach ($layouts as $l) {
    foreach ($tags as $t) {
        $in = str_replace('%t', $t, $l);
        add($in);
    }
}
foreach (array(0, 2, 3) as $li) {
    foreach ($tags as $t) {
        add(str_replace("\n", "\r\n", str_replace('%t', $t, $layouts[$li])));
    }
}

// ---------------------------------------------------------------------------
// Random documents from a token pool (fixed seed).

$pool = array(
    'word', 'Hello', 'it\'s', ' ', ' ', ' ', "\n", "\n", "\n\n", "\r\n", "\r", "\t", "'", "'", '"', '"', '-', '--', '---', '...',
    '9', '12', '0', 'x', '5x5', '(tm)', '&', '&amp;', '&nbsp;', "\u{a0}", 'é', '🎉', '.', ',', '!', '?', '(', ')', '[', ']',
    '<p>', '</p>', '<div>', '</div>', '<br>', '<br />', '<em>', '</em>', '<code>', '</code>', '<pre>', '</pre>', '<li>', '</li>',
    '<ul>', '</ul>', '<blockquote>', '</blockquote>', '<hr>', '<h2>', '</h2>', '<span>', '</span>', '<a href="x">', '</a>',
    '<script>', '</script>', '<style>', '</style>', '<!-- c -->', '<!--more-->', '<option>', '</option>', '<object>', '</object>',
    '<param>', '<figcaption>', '</figcaption>', '<source>', '<video>', '</video>', '<svg>', '</svg>', '<td>', '</td>',
    '<table>', '</table>', '<', '>', '&lt;', '&gt;', 'xn', '[foo]', "'99", '90s', 'tis', '<img src="a">', '<tt>', '</tt>',
    '<address>', '</address>', '<form>', '</form>', '<br/>', '<kbd>', '</kbd>', "<p\n>", "<a\ntitle='x'>", '<!-- a', '-->',
    '<![CDATA[', ']]>', '<!', '<li class="x">', '<select>', '</select>', '<embed>', '<track>', '<audio>', '</audio>',
);
mt_srand(20221101);
for ($i = 0; $i < 400; $i++) {
    $n = mt_rand(1, 30);
    $doc = '';
    for ($j = 0; $j < $n; $j++) {
        $doc .= $pool[mt_rand(0, count($pool) - 1)];
    }
    add($doc);
}

// ---------------------------------------------------------------------------

$seen = array();
$out = array();
foreach ($cases as $in) {
    if (isset($seen[$in])) {
        continue;
    }
    $seen[$in] = true;
    $out[] = array('input' => $in, 'output' => trim(wpautop(wptexturize($in))));
}

$json = json_encode($out, JSON_PRETTY_PRINT | JSON_UNESCAPED_SLASHES | JSON_UNESCAPED_UNICODE | JSON_THROW_ON_ERROR);
echo $json, "\n";
fwrite(STDERR, count($out) . " cases\n");
