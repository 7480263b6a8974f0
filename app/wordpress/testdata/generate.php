<?php
/**
 * Generates cases.json, the oracle table for RenderContent (app/wordpress/content.go):
 * a JSON list of {"input": ..., "output": ...} where output is what
 * WordPress 6.1's the_content gives for input with its default filters in
 * their order (wp-includes/default-filters.php), trimmed:
 *
 *    9 do_blocks, which takes wpautop off when has_blocks(input)
 *   10 wptexturize, wpautop, shortcode_unautop, wp_filter_content_tags
 *   11 capital_P_dangit
 *
 * and not the ones that do nothing or are off here: prepend_attachment (attachment pages),
 * wp_replace_insecure_home_url (sites migrated from http), do_shortcode and the embeds
 * (no shortcode is registered), convert_smilies (use_smilies off).
 *
 * WordPress' code is not part of this repository: this script requires
 * wp-includes/ from Debian's wordpress package (6.1) at generation time. To regenerate:
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
 * No block type is registered either: every block renders as its inner HTML
 * (a dynamic block such as latest-posts, which needs a render callback, as
 * nothing), and the block supports' render_block filters add nothing. The
 * request is outside the main loop, as a REST request is, so every image with
 * dimensions is lazy-loaded; no attachment is known, so a wp-image-N image
 * gets no width, height or srcset from the media library.
 * Every input is valid UTF-8 so that the table is plain JSON; the random part
 * uses a fixed seed so the table is reproducible.
 */

$wp = rtrim($argv[1] ?? '/tmp/wp/x/usr/share/wordpress', '/') . '/wp-includes';
if (!is_file("$wp/formatting.php")) {
    fwrite(STDERR, "missing $wp/formatting.php (see the header of this script)\n");
    exit(1);
}

// The few WordPress functions these filters need, as a site outside the loop
// (a REST request) with no shortcode, block type or attachment has them.
function apply_filters($hook_name, $value, ...$args) { return $value; }
function _x($text, $context, $domain = 'default') { return $text; }
function __($text, $domain = 'default') { return $text; }
function current_filter() { return 'the_content'; }
function has_filter($hook_name, $callback = false) { return false; } // do_blocks' wpautop removal: see the_content()
function doing_filter($hook_name = null) { return true; }
function get_option($option, $default = false) { return array('blog_charset' => 'UTF-8')[$option] ?? $default; }
function wp_parse_args($args, $defaults = array()) { return array_merge($defaults, (array) $args); }
function is_admin() { return false; }
function in_the_loop() { return false; }
function is_main_query() { return false; }
function absint($n) { return abs((int) $n); }
function wp_get_attachment_metadata($attachment_id = 0, $unfiltered = false) { return false; }
function _prime_post_caches($ids, $update_term_cache = true, $update_meta_cache = true) {}
function add_shortcode($tag, $callback) {}
$shortcode_tags = array();

foreach (array('formatting.php', 'class-wp-block-parser.php', 'class-wp-block-type-registry.php', 'class-wp-block-list.php', 'class-wp-block.php', 'blocks.php', 'media.php') as $file) {
    require "$wp/$file";
}

// the_content's filters in WordPress' order; do_blocks removes wpautop for
// this text when it has blocks (and _restore_wpautop_hook puts it back after).
function the_content(string $input): string {
    $content = do_blocks($input);
    $content = wptexturize($content);
    if (!has_blocks($input)) {
        $content = wpautop($content);
    }
    $content = shortcode_unautop($content);
    $content = wp_filter_content_tags($content);
    $content = capital_P_dangit($content);
    return trim($content);
}

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
// Block-editor content (do_blocks; wpautop skipped), as the editor saves it.

$blocks = array(
    "<!-- wp:paragraph -->\n<p>Doors open at 7. Bring a friend's \"plus one\" -- it's free...</p>\n<!-- /wp:paragraph -->",
    "<!-- wp:paragraph -->\n<p>One</p>\n<!-- /wp:paragraph -->\n\n<!-- wp:paragraph -->\n<p>Two\nlines</p>\n<!-- /wp:paragraph -->",
    "<!-- wp:paragraph {\"align\":\"center\",\"fontSize\":\"large\"} -->\n<p class=\"has-text-align-center has-large-font-size\">Centered</p>\n<!-- /wp:paragraph -->",
    "<!-- wp:heading -->\n<h2>Programme</h2>\n<!-- /wp:heading -->\n\n<!-- wp:heading {\"level\":3} -->\n<h3>Friday</h3>\n<!-- /wp:heading -->",
    "<!-- wp:list -->\n<ul><li>Coffee</li><li>Talks 'n' demos</li></ul>\n<!-- /wp:list -->",
    "<!-- wp:list {\"ordered\":true} -->\n<ol><!-- wp:list-item -->\n<li>First</li>\n<!-- /wp:list-item -->\n\n<!-- wp:list-item -->\n<li>Second</li>\n<!-- /wp:list-item --></ol>\n<!-- /wp:list -->",
    "<!-- wp:image {\"id\":12,\"sizeSlug\":\"large\",\"linkDestination\":\"none\"} -->\n<figure class=\"wp-block-image size-large\"><img src=\"https://example.com/wp-content/uploads/2024/05/poster.jpg\" alt=\"Poster\" class=\"wp-image-12\"/></figure>\n<!-- /wp:image -->",
    "<!-- wp:image {\"id\":12,\"width\":300,\"height\":200,\"sizeSlug\":\"full\"} -->\n<figure class=\"wp-block-image size-full is-resized\"><img src=\"https://example.com/poster.jpg\" alt=\"\" class=\"wp-image-12\" width=\"300\" height=\"200\"/><figcaption>The poster</figcaption></figure>\n<!-- /wp:image -->",
    "<!-- wp:image -->\n<figure class=\"wp-block-image\"><img src=\"a.jpg\" alt=\"\" width=\"10\" height=\"20\" loading=\"eager\"/></figure>\n<!-- /wp:image -->",
    "<!-- wp:image -->\n<figure class=\"wp-block-image\"><img src=\"a.jpg\" decoding=\"sync\" width=\"10\" height=\"20\"/></figure>\n<!-- /wp:image -->",
    "<!-- wp:columns -->\n<div class=\"wp-block-columns\"><!-- wp:column -->\n<div class=\"wp-block-column\"><!-- wp:paragraph -->\n<p>Left</p>\n<!-- /wp:paragraph --></div>\n<!-- /wp:column -->\n\n<!-- wp:column -->\n<div class=\"wp-block-column\"><!-- wp:heading {\"level\":4} -->\n<h4>Right</h4>\n<!-- /wp:heading -->\n\n<!-- wp:paragraph -->\n<p>Wordpress 'meetup'</p>\n<!-- /wp:paragraph --></div>\n<!-- /wp:column --></div>\n<!-- /wp:columns -->",
    "<!-- wp:group {\"layout\":{\"type\":\"constrained\"}} -->\n<div class=\"wp-block-group\"><!-- wp:paragraph -->\n<p>In a group</p>\n<!-- /wp:paragraph -->\n\n<!-- wp:separator -->\n<hr class=\"wp-block-separator has-alpha-channel-opacity\"/>\n<!-- /wp:separator --></div>\n<!-- /wp:group -->",
    "<!-- wp:latest-posts /-->",
    "<!-- wp:latest-posts {\"postsToShow\":3,\"displayPostDate\":true} /-->\n\n<!-- wp:paragraph -->\n<p>After</p>\n<!-- /wp:paragraph -->",
    "<!-- wp:block {\"ref\":42} /-->", "<!-- wp:shortcode -->\n[gallery ids=\"1,2\"]\n<!-- /wp:shortcode -->",
    "<!-- wp:quote -->\n<blockquote class=\"wp-block-quote\"><!-- wp:paragraph -->\n<p>\"Quoted\"</p>\n<!-- /wp:paragraph --><cite>Someone</cite></blockquote>\n<!-- /wp:quote -->",
    "<!-- wp:code -->\n<pre class=\"wp-block-code\"><code>'x' -- \"y\"</code></pre>\n<!-- /wp:code -->",
    "<!-- wp:html -->\n<div>Custom\n\nHTML</div>\n<!-- /wp:html -->",
    "<!-- wp:embed {\"url\":\"https://www.youtube.com/watch?v=x\",\"type\":\"video\"} -->\n<figure class=\"wp-block-embed\"><div class=\"wp-block-embed__wrapper\">\nhttps://www.youtube.com/watch?v=x\n</div></figure>\n<!-- /wp:embed -->",
    "<!-- wp:core/paragraph -->\n<p>Namespaced</p>\n<!-- /wp:core/paragraph -->", "<!-- wp:my-plugin/box {\"a\":\"}\"} -->\n<div>Plugin</div>\n<!-- /wp:my-plugin/box -->",
    // Blocks and classic HTML mixed.
    "Classic intro\n\nsecond paragraph\n\n<!-- wp:paragraph -->\n<p>Block</p>\n<!-- /wp:paragraph -->\n\nClassic outro",
    "<p>Classic</p>\n<!-- wp:separator -->\n<hr class=\"wp-block-separator\"/>\n<!-- /wp:separator -->\ntext\nafter",
    "<!-- wp:freeform -->\nClassic block\n\ntwo\n<!-- /wp:freeform -->",
    // The parser's edges: stray, unclosed, mismatched and malformed delimiters.
    "<!-- /wp:paragraph -->\n<p>stray closer first</p>", "<p>a</p>\n<!-- /wp:paragraph -->\n<!-- wp:paragraph -->\n<p>b</p>\n<!-- /wp:paragraph -->",
    "<!-- wp:paragraph -->\n<p>never closed</p>", "<!-- wp:group -->\n<div>outer <!-- wp:paragraph -->\n<p>inner unclosed</p></div>",
    "lead <!-- wp:group -->A<!-- wp:paragraph -->B<!-- wp:list -->C", "<!-- wp:a --><!-- wp:b -->x<!-- /wp:a -->y<!-- /wp:b -->z",
    "<!-- wp:a -->0<!-- /wp:a -->", "<!-- wp:a --><!-- wp:b /-->0<!-- /wp:a -->", "<!-- wp:a -->0<!-- wp:b /-->0<!-- /wp:a -->",
    "<!-- wp:a --><!-- wp:b -->0<!-- /wp:b --><!-- /wp:a -->", "0<!-- wp:a /-->0", "<!-- /wp:a /-->x", "<!-- /wp:a {\"x\":1} -->y",
    "<!--wp:paragraph-->\n<p>no spaces</p>\n<!--/wp:paragraph-->", "<!--\twp:p\n-->x<!--\n/wp:p\t-->", "<!--  wp:p  -->x<!-- /wp:p -->",
    "<!-- wp:Paragraph -->x<!-- /wp:Paragraph -->", "<!-- wp:9p -->x", "<!-- wp:p- -->x<!-- /wp:p- -->", "<!-- wp:ns/ -->x", "<!-- wp:a/b/c -->x",
    "<!-- wp:p {\"a\":1}-->x<!-- /wp:p -->", "<!-- wp:p {\"a\":1}--> text <!-- wp:q {\"b\":2} /--> after", "<!-- wp:p {\"a\":{\"b\":{}}} -->x<!-- /wp:p -->",
    "<!-- wp:p {} -->x<!-- /wp:p -->", "<!-- wp:p { -->x", "<!-- wp:p {\"a\":\"}} -->\"} -->x<!-- /wp:p -->", "<!-- wp:p {}} -->x<!-- /wp:p -->",
    "<!-- wp:p {\"a\":1} /-->", "<!-- wp:p {\"a\":1}  /  -->", "<!-- wp:p/-->", "<!-- wp:p /-->", "<!-- wp:p -- >x", "<!-- wp:p",
    "<!-- wp:", "<!-- wp:p -->", "<!-- /wp:p -->", "a <!-- wp:more --> b", "<!-- wp:more -->\n<!--more-->\n<!-- /wp:more -->",
    "<!-- not a block --> <!-- wp:p -->x<!-- /wp:p -->", "<!-- wp:p -->'quoted' \"text\"<!-- /wp:p -->\n\nno autop\nhere",
    "<!--  wp:p -->x", "\n\n<!-- wp:p -->\n<p>x</p>\n<!-- /wp:p -->\n\n",
    // Deep and wide nesting: the parser keeps one frame per open block.
    str_repeat('<!-- wp:group --><div>', 300) . 'deep' . str_repeat('</div><!-- /wp:group -->', 300),
    str_repeat('<!-- wp:group -->', 40) . 'unclosed', // each unclosed block renders the rest of the text: quadratic
    str_repeat("<!-- wp:paragraph -->\n<p>p</p>\n<!-- /wp:paragraph -->\n\n", 100),
    str_repeat('<!-- wp:p {"a":1', 200), str_repeat('<!-- wp:p {"a":"} ', 100) . '-->',

    // capital_P_dangit.
    "Wordpress", "I love Wordpress.", "(Wordpress)", "'Wordpress'", "\"Wordpress\"", "<em>Wordpress</em>", "myWordpress site",
    "wordpress and WORDPRESS", "Wordpress\n\nWordpress", "<a href=\"https://wordpress.org/\">Wordpress</a>", "<code>Wordpress</code> Wordpress",
    "<!-- wp:paragraph -->\n<p>Wordpress</p>\n<!-- /wp:paragraph -->", "&#8216;Wordpress", "&#8220;Wordpress", "x-Wordpress",

    // wp_filter_content_tags: images and iframes.
    "<img src=\"a.jpg\" width=\"10\" height=\"20\">", "<img src=\"a.jpg\" width=\"10\">", "<img src=\"a.jpg\" height=\"20\">",
    "<img src='a.jpg' width=\"10\" height=\"20\">", "<img src=\"a.jpg\" width=10 height=20>", "<img width=\"10\" height=\"20\" src=\"a.jpg\" />",
    "<img src=\"a.jpg\" width=\"10\" height=\"20\" loading=\"eager\">", "<img src=\"a.jpg\" width=\"10\" height=\"20\" decoding=\"sync\">",
    "<img  src=\"a.jpg\">", "<img\nsrc=\"a.jpg\" width=\"1\" height=\"1\">", "<img\tsrc=\"a.jpg\">", "<img >", "<img>", "<IMG src=\"a.jpg\">",
    "<img data-src=\"a.jpg\" alt=\"x\">", "<img alt=\"a\" src=\"b\">\n<img alt=\"a\" src=\"b\">", "<img src=\"a\" alt=\"1\"><img src=\"a\" alt=\"2\">",
    "<img src=\"a\" alt=\"<img \">", "<img src=\"a\" class=\"wp-image-7\" width=\"5\" height=\"5\">", "<img src=\"a\" srcset=\"a 1x\">",
    "<img src=\"a.jpg\"", "text <img src=\"a\"> and <img src=\"b\" width=\"1\" height=\"2\"> more", "<picture><source srcset=\"a.webp\"><img src=\"a.jpg\"></picture>",
    "<iframe src=\"https://example.com/\" width=\"560\" height=\"315\"></iframe>", "<iframe src=\"https://example.com/\"></iframe>",
    "<iframe src=\"x\" width=\"1\" height=\"1\" loading=\"eager\"></iframe>", "<iframe src=\"x\" width=\"1\" height=\"1\" data-secret=\"s\"></iframe>",
    "<iframe title=\"t\" src=\"x\" width=\"1\" height=\"1\"></iframe>", "<iframe src=\"x\" width=\"1\" height=\"1\">\n</iframe>\n\ntext",
    "<!-- wp:html -->\n<iframe src=\"x\" width=\"1\" height=\"1\"></iframe>\n<!-- /wp:html -->", "<imgx src=\"a\">", "<img/src=\"a\">",
);
foreach ($blocks as $b) {
    add($b);
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

// Random documents of block delimiters, HTML and text (fixed seed).

$blockPool = array(
    '<!-- wp:paragraph -->', '<!-- /wp:paragraph -->', '<!-- wp:group {"a":1} -->', '<!-- /wp:group -->', '<!-- wp:latest-posts /-->',
    '<!-- wp:x {"b":"}"} /-->', '<!-- wp:', '{', '}', ' }', '} -->', ' /-->', '-->', '<!--', "\n", "\n\n", ' ', '0', 'text', "'q'",
    '"dq"', 'Wordpress', ' Wordpress', '<p>', '</p>', '<div>', '</div>', '<img src="a" width="1" height="2">', '<img src="b">',
    '<iframe src="c" width="1" height="2"></iframe>', '<pre>', '</pre>', '<!-- wp:core/image -->', '<!-- /wp:core/image -->',
);
mt_srand(20240501);
for ($i = 0; $i < 300; $i++) {
    $n = mt_rand(1, 25);
    $doc = '';
    for ($j = 0; $j < $n; $j++) {
        $doc .= $blockPool[mt_rand(0, count($blockPool) - 1)];
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
    $out[] = array('input' => $in, 'output' => the_content($in));
}

$json = json_encode($out, JSON_PRETTY_PRINT | JSON_UNESCAPED_SLASHES | JSON_UNESCAPED_UNICODE | JSON_THROW_ON_ERROR);
echo $json, "\n";
fwrite(STDERR, count($out) . " cases\n");
