<?php
/**
 * Generates kses.json, the oracle table for Kses (app/wordpress/kses.go):
 *
 *   {"allowed": {"post": {tag: [attribute, ...]}, "plain": {...}, "entities": [...]},
 *    "cases": [{"input": ..., "post": ..., "plain": ...}, ...]}
 *
 * where post is what WordPress 6.1's wp_filter_post_kses keeps of input
 * (wp_kses with $allowedposttags, the filter on post title, content and
 * excerpt for a writer without unfiltered_html) and plain what
 * wp_filter_kses keeps (wp_kses with $allowedtags, the filter on term
 * descriptions and other text fields), each with wp_allowed_protocols().
 *
 * The pre_kses filter runs as in core, minus one part:
 *   - wp_pre_kses_less_than (a "<" that starts no tag becomes "&lt;") runs;
 *   - wp_pre_kses_block_attributes does not: it re-serialises block
 *     delimiters' JSON attributes, which the service never renders (no block
 *     type is registered; see generate.php), so the delimiters are kept as
 *     the comments kses makes of them.
 * Style attributes go through safecss_filter_attr with its default list.
 * An <object> is never kept with attributes here: its data attribute must be
 * a same-site PDF (wp_upload_dir), which this script has no site for, so no
 * case gives one.
 *
 * WordPress' code is not part of this repository: this script requires
 * wp-includes/ from Debian's wordpress package (6.1) and php-cli at
 * generation time. To regenerate:
 *
 *   apt-get install -y php-cli
 *   mkdir -p /tmp/wp && cd /tmp/wp && apt-get download wordpress && dpkg -x wordpress*.deb x
 *   cd /work/main   # the repository root
 *   php app/wordpress/testdata/generate_kses.php > app/wordpress/testdata/kses.json
 *
 * A different WordPress tree can be given as the first argument. Every input
 * is valid UTF-8 so that the table is plain JSON; the random part uses a
 * fixed seed so the table is reproducible.
 */

$wp = rtrim($argv[1] ?? '/tmp/wp/x/usr/share/wordpress', '/') . '/wp-includes';
if (!is_file("$wp/kses.php")) {
    fwrite(STDERR, "missing $wp/kses.php (see the header of this script)\n");
    exit(1);
}

function apply_filters($hook_name, $value, ...$args) {
    switch ($hook_name) {
        case 'pre_kses':
            return wp_pre_kses_less_than($value);
    }
    return $value;
}
function get_option($option, $default = false) { return array('blog_charset' => 'UTF-8')[$option] ?? $default; }
function wp_load_alloptions() { return array('blog_charset' => 'UTF-8'); }
function is_admin() { return false; }
function did_action($hook_name) { return 1; }
function wp_allowed_protocols() {
    return array('http', 'https', 'ftp', 'ftps', 'mailto', 'news', 'irc', 'irc6', 'ircs', 'gopher', 'nntp', 'feed',
        'telnet', 'mms', 'rtsp', 'sms', 'svn', 'tel', 'fax', 'xmpp', 'webcal', 'urn');
}

require "$wp/formatting.php";
require "$wp/kses.php";

// The filters as WordPress runs them on save: on slashed data.
function post_kses(string $in): string { return wp_unslash(wp_filter_post_kses(wp_slash($in))); }
function plain_kses(string $in): string { return wp_unslash(wp_filter_kses(wp_slash($in))); }
function current_filter() { return 'content_save_pre'; }

$cases = array();
function add(string $input): void {
    global $cases;
    $cases[] = $input;
}

// ---------------------------------------------------------------------------
// Hand-written cases.

$hand = array(
    // Plain text, entities.
    '', 'Hello world', "Two\n\nparagraphs", 'a & b', 'AT&T', '&amp;', '&amp;amp;', '&nbsp;', '&copy; 2024', '&foo;', '&foo',
    '&verylongentity;', '&abcdefgh;', '&abcdefgh12;', '&abcdefgh123;', '&a;', '&ab;', '&#39;', '&#039;', '&#0000039;', '&#;', '&#x27;',
    '&#X27;', '&#x0000027;', '&#xD800;', '&#55296;', '&#1114111;', '&#1114112;', '&#12345678;', '&#x110000;', '&#0;', '&#x0;',
    '&#9;', '&#8;', '&#x1F600;', '&#xFFFE;', '&#65533;', '&AMP;', '&Aacute;', '&aacute;', '&apos;', '&hellip;', '&#', '&#x', '&#xZ;',
    '&&&', 'a &lt; b', '&lt;script&gt;', "x\0y", "x\x01y\x08z\x0Bw\x0Cv\x1Fu", "tab\there\rcr", 'back\\slash', 'a\\"b', 'a\\0b',
    'quote " and \' apostrophe', 'Café crème 日本語 🎉',
    // Stray < and >.
    'a < b', 'a > b', '1 < 2 > 0', '<', '>', '<>', '< p>', 'a <b c', 'x <', "x <\n", "<a\n", 'a<b', 'a<<b', 'a <3 b', '<<a>>', '<<<', '>>>',
    '<3', '< 3', 'if a<b&&c>d', '<a<b>', '<p<p>>', '<!', '<!>', '<?php echo 1; ?>', '<?xml version="1.0"?>', '<%= x %>',
    // Allowed and disallowed tags.
    '<p>para</p>', '<P>upper</P>', '<p class="x">c</p>', '<p CLASS="x">c</p>', '<b>b</b><i>i</i><u>u</u><s>s</s>',
    '<strong>s</strong><em>e</em>', '<div id="a" class="b" title="c" lang="en" dir="ltr" role="note">d</div>',
    '<span data-x="1" data-foo-bar="2" data-="3" data-X="4" data--x="5" data-a_b="6" data-ä="7">s</span>',
    '<span aria-label="l" aria-hidden="true" aria-describedby="d" aria-live="polite">s</span>',
    '<h1>h</h1><h6>h</h6>', '<ul><li>a</li></ul>', '<ol start="3" reversed type="a"><li value="2">x</li></ol>',
    '<table border="1" cellpadding="2"><tr><td colspan="2" rowspan="1" headers="h">x</td></tr></table>',
    '<blockquote cite="http://example.com/">q</blockquote>', '<blockquote cite="javascript:alert(1)">q</blockquote>',
    '<pre>code</pre>', '<code>x</code>', '<abbr title="t">a</abbr>', '<acronym title="t">a</acronym>', '<cite>c</cite>',
    '<q cite="x">q</q>', '<del datetime="2020">d</del>', '<ins datetime="2020">i</ins>', '<strike>s</strike>',
    '<br>', '<br/>', '<br />', '<br/ >', '<br / >', '<BR>', '<hr>', '<hr/>', '<hr noshade>', '<hr size="2" width="50%">',
    '<img src="a.jpg" alt="A" width="10" height="20">', '<img src="a.jpg"/>', '<img src="a.jpg" />', '<img src=a.jpg>', '<img src=a.jpg/>',
    '<img src="a.jpg" srcset="a.jpg 1x, b.jpg 2x" sizes="100vw" loading="lazy" decoding="async">', '<img>',
    '<a href="http://example.com/">l</a>', '<a href="https://example.com/" target="_blank" rel="noopener">l</a>',
    '<a href="/relative">l</a>', '<a href="#frag">l</a>', '<a href="?q=1&b=2">l</a>', '<a href="mailto:x@example.com">m</a>',
    '<a href="tel:+123">t</a>', '<a href="ftp://x">f</a>', '<a href="urn:isbn:1">u</a>', '<a name="anchor">n</a>',
    '<a href="foo:bar">l</a>', '<a href="http:">l</a>', '<a href=":x">l</a>', '<a href="//example.com/">l</a>',
    '<a href="page/?x=a:b">l</a>', '<a href="a/b:c">l</a>', '<a href="a?b:c">l</a>', '<a href="a#b:c">l</a>',
    '<a href="feed:http://x">l</a>', '<a href="feed:feed:http://x">l</a>', '<a href="feed:feed:feed:http://x">l</a>',
    '<a href="feed:javascript:alert(1)">l</a>', '<a href="http:http:http:x">l</a>', '<a href="HTTP://X">l</a>',
    '<a href=" http://x ">l</a>', '<a href="ht tp://x">l</a>', '<a href="ht&#09;tp://x">l</a>',
    '<a title="t" title="u">dup</a>', '<a Title="t" title="u">dup case</a>', '<a href="x" href="javascript:y">dup</a>',
    '<a href=x title=y>unquoted</a>', "<a href='x' title='y'>single</a>", '<a href="x"title="y">no space</a>',
    '<a href = "x" >spaces</a>', "<a\nhref=\"x\"\n>newlines</a>", "<a\thref=\"x\">tab</a>", '<a href>valueless</a>',
    '<a download>dl</a>', '<a href="x" onclick="y" title="z">mixed</a>', '<a "x" href="y">junk</a>', '<a =x href="y">junk</a>',
    '<a href="x"y="z">x</a>', '<a href="a>b">gt in value</a>', '<a title="a<b">lt in value</a>', '<a title="x\'y">q</a>',
    "<a title='x\"y'>q</a>", '<a title="unterminated>x</a>', "<a title='unterminated>x</a>", '<a href="x" /></a>', '<a/href="x">',
    '<a 1="x">digit name</a>', '<a _x="1" title="t">underscore</a>', '<a x:y="1" xml:lang="en" lang="en">colon</a>',
    '<font color="red" face="x" size="2">f</font>', '<center>c</center>', '<big>b</big><small>s</small>',
    '<sub>s</sub><sup>s</sup>', '<figure><img src="a"><figcaption>c</figcaption></figure>',
    '<video src="a.mp4" controls autoplay poster="p.jpg"></video>', '<audio src="a.mp3" controls></audio>',
    '<section><article><aside><header><footer><nav><main>x</main></nav></footer></header></aside></article></section>',
    '<details open><summary>s</summary>d</details>', '<dl><dt>t</dt><dd>d</dd></dl>', '<label for="x">l</label>',
    '<button type="submit" name="b" value="v" disabled>b</button>', '<fieldset><legend>l</legend></fieldset>',
    '<map name="m"><area shape="rect" coords="1,2" href="http://x" alt="a"></map>', '<area href="javascript:x">',
    '<col span="2"><colgroup span="1">', '<caption>c</caption>', '<thead><tbody><tfoot><tr><th scope="col">h</th>',
    '<var>v</var><kbd>k</kbd><samp>s</samp><tt>t</tt><dfn>d</dfn><mark>m</mark><time datetime="2020">t</time>',
    '<bdo dir="rtl">b</bdo>', '<address>a</address>', '<track src="t.vtt" kind="subtitles">', '<source src="a" type="video/mp4">',
    '<object data="x.swf"></object>', '<embed src="x.swf">', '<form action="x"><input name="a"></form>', '<input type="text">',
    '<select><option>o</option></select>', '<textarea>t</textarea>', '<meta http-equiv="refresh" content="0;url=x">',
    '<link rel="stylesheet" href="x">', '<base href="http://evil/">', '<html><head><title>t</title></head><body>b</body></html>',
    '<template>t</template>', '<noscript>n</noscript>', '<marquee>m</marquee>', '<blink>b</blink>', '<xmp>x</xmp>',
    '<frame src="x">', '<frameset>', '<applet code="x">', '<isindex>', '<plaintext>', '<custom-element>c</custom-element>',
    '<my-tag attr="1">m</my-tag>', '<a-b>x</a-b>', '<h7>x</h7>', '<p2>x</p2>', '<1>x</1>', '<->x</->', '<_a>x</_a>',
    '</p>', '</P>', '</ p>', '< /p>', '</p class="x">', '</script>', '</a href="x">', '</>', '</ >', '</-->', '<//p>', '<p/>', '<p />',
    // The XSS classics.
    '<script>alert(1)</script>', '<SCRIPT>alert(1)</SCRIPT>', '<script src="http://evil/x.js"></script>', '<scr<script>ipt>alert(1)</script>',
    '<script>alert("<p>x</p>")</script>', "<script\n>alert(1)</script\n>", '<script/xss src="x"></script>', '<<script>script>alert(1)<</script>/script>',
    '<img src=x onerror=alert(1)>', '<img src="x" onerror="alert(1)">', '<img src=x onerror="alert(1)"/>', "<img src=x onerror='alert(1)'>",
    '<img src=x ONERROR=alert(1)>', '<img src=x onerror = alert(1)>', '<img src="x"onerror="alert(1)">', '<img/src="x"/onerror="alert(1)">',
    '<img src="x` `<script>alert(1)</script>"` `>', '<img """><script>alert(1)</script>">', '<img src="javascript:alert(1)">',
    '<img src=javascript:alert(1)>', '<img src="jav&#x09;ascript:alert(1)">', '<img src="jav	ascript:alert(1)">',
    '<img src="data:image/svg+xml;base64,PHN2Zz4=">', '<img src="vbscript:msgbox(1)">', '<img dynsrc="javascript:x" lowsrc="javascript:y">',
    '<a href="javascript:alert(1)">x</a>', '<a href="JAVASCRIPT:alert(1)">x</a>', '<a href="JaVaScRiPt:alert(1)">x</a>',
    '<a href=" javascript:alert(1)">x</a>', '<a href="java script:alert(1)">x</a>', "<a href=\"java\nscript:alert(1)\">x</a>",
    "<a href=\"java\tscript:alert(1)\">x</a>", "<a href=\"java\0script:alert(1)\">x</a>", '<a href="java\\0script:alert(1)">x</a>',
    '<a href="javascript&#58;alert(1)">x</a>', '<a href="javascript&#058;alert(1)">x</a>', '<a href="javascript&#0000058alert(1)">x</a>',
    '<a href="javascript&#x3a;alert(1)">x</a>', '<a href="javascript&#x3A;alert(1)">x</a>', '<a href="javascript&#X3A;alert(1)">x</a>',
    '<a href="javascript&colon;alert(1)">x</a>', '<a href="javascript&COLON;alert(1)">x</a>', '<a href="&#106;avascript:alert(1)">x</a>',
    '<a href="&#x6A;avascript:alert(1)">x</a>', '<a href="&#106&#97&#118&#97&#115&#99&#114&#105&#112&#116&#58alert(1)">x</a>',
    '<a href="&#0000106&#0000097&#0000118&#0000097&#0000115&#0000099&#0000114&#0000105&#0000112&#0000116&#0000058&#0000097">x</a>',
    '<a href="javascript:javascript:alert(1)">x</a>', '<a href="javascript::alert(1)">x</a>', '<a href="http:javascript:alert(1)">x</a>',
    '<a href="javascript:http://x">x</a>', '<a href="jav&#x0D;ascript:alert(1)">x</a>', '<a href="data:text/html,<script>alert(1)</script>">x</a>',
    '<a href="data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==">x</a>', '<a href="vbscript:msgbox(1)">x</a>',
    '<a href="livescript:x">x</a>', '<a href="mocha:x">x</a>', '<a href=javascript:alert(1)>x</a>', "<a href='javascript:alert(1)'>x</a>",
    '<a href="javascript:alert(1)', '<a href="javascript:alert(1)>x</a>', '<a href=javascript:alert(1)', '<a href="javascript:',
    '<a href="/x/?javascript:y">x</a>', '<a href="x/javascript:y">x</a>', '<a href="\\javascript:y">x</a>',
    '<svg onload=alert(1)>', '<svg><script>alert(1)</script></svg>', '<svg/onload=alert(1)>', '<math><mtext>x</mtext></math>',
    '<iframe src="javascript:alert(1)"></iframe>', '<iframe src="http://evil/"></iframe>', '<iframe srcdoc="<script>alert(1)</script>">',
    '<style>body{background:url(javascript:alert(1))}</style>', '<style>@import "x";</style>',
    '<p style="color:red">s</p>', '<p style="background:url(javascript:alert(1))">s</p>', '<div style="x:expression(alert(1))">d</div>',
    '<p style="">e</p>', '<p style>v</p>', '<body onload=alert(1)>', '<div onmouseover="alert(1)">d</div>', '<p onclick=alert(1)>p</p>',
    '<a href="x" onfocus="alert(1)" autofocus>a</a>', '<details open ontoggle=alert(1)>', '<video><source onerror="alert(1)"></video>',
    '<input onfocus=alert(1) autofocus>', '<object data="javascript:alert(1)">', '<embed src="javascript:alert(1)">',
    '<form action="javascript:alert(1)"><button>x</button></form>', '<button formaction="javascript:alert(1)">x</button>',
    '<isindex type=image src=1 onerror=alert(1)>', '<table background="javascript:alert(1)">', '<td background="javascript:x">t</td>',
    '<div xmlns="javascript:x">d</div>', '<q cite="javascript:x">q</q>', '<del cite="javascript:x">d</del>', '<video poster="javascript:x">',
    '<a href="x" style="color:red" class="c">styled</a>', '<meta charset="x"><a>', '<!--<script>alert(1)</script>-->',
    '<!-- --><script>alert(1)</script><!-- -->', '<a href="&quot;javascript:alert(1)&quot;">x</a>', '<a title="&quot;><script>">x</a>',
    "<a href=\"x\" title='\"onclick=\"alert(1)'>x</a>", '<a title=x onclick=y>z</a>', '<a title="x"onclick="y">z</a>',
    '<img src="x" alt="y"onerror="z">', '<a href="http://x" rel="x" rev="y" target="t" hreflang="en" type="t" download>l</a>',
    // Styles (safecss_filter_attr).
    '<p style="color:red">s</p>', '<p style="color: red; background-color: #fff">s</p>', '<p style="COLOR:red">s</p>',
    '<p style="color:red;;font-weight:bold;">s</p>', '<p style="color:red; ;x">s</p>', '<p style=" ; color:red">s</p>',
    '<p style="position:fixed;color:red">s</p>', '<p style="nocolon">s</p>', '<p style="color">s</p>', '<p style="0">s</p>',
    '<p style="color:red\\9">s</p>', '<p style="width:expression(alert(1))">s</p>', '<p style="color:red&amp;">s</p>',
    '<p style="color:red}">s</p>', '<p style="color:/*x*/red">s</p>', '<p style="width:calc(100% - 10px)">s</p>',
    '<p style="width:calc(100% - var(--x))">s</p>', '<p style="width:min(10px,calc(2em + 1px))">s</p>', '<p style="width:calc(1px">s</p>',
    '<p style="width:xcalc(1px)">s</p>', '<p style="width:clamp(1px, 2vw, 3px);height:minmax(1px,2px)">s</p>', '<p style="width:max(1px, (2px))">s</p>',
    '<p style="background:url(http://x/a.png)">s</p>', "<p style=\"background-image:url('http://x/a.png')\">s</p>",
    '<p style="background:url(javascript:alert(1))">s</p>', '<p style="background:url()">s</p>', '<p style="background:url( )">s</p>',
    "<p style=\"background:url('a.png\")\">s</p>", '<p style="background:url(a.png) url(b.png)">s</p>', '<p style="background:url(0)">s</p>',
    '<p style="cursor:url(a.cur),auto">s</p>', '<p style="color:url(a.png)">s</p>', '<p style="background:url(a.png) no-repeat; color: blue">s</p>',
    '<p style="background:linear-gradient(red, blue)">s</p>', '<p style="background:linear-gradient(rgba(0,0,0,0.5) 0%, rgb(1,2,3) 100%)">s</p>',
    '<p style="background-image:repeating-radial-gradient(red,blue)">s</p>', '<p style="background:linear-gradient(calc(1px), red)">s</p>',
    '<p style="background:conic-gradient(red, blue) url(x.png)">s</p>', '<p style="color:linear-gradient(red,blue)">s</p>',
    '<p style="--my-color:red">s</p>', '<p style="--x:url(a.png)">s</p>', '<p style="--x:url(javascript:x)">s</p>',
    '<p style="--x:linear-gradient(red,blue)">s</p>', '<p style="--:red">s</p>', '<p style="--a_b:red">s</p>', '<p style="--a=b:red">s</p>',
    "<p style=\"color:red\nfont-weight:bold\">s</p>", "<p style=\"color:\tred\">s</p>", '<p style="color:red" style="width:1px">s</p>',
    '<p style=color:red>s</p>', "<p style='color:red'>s</p>", '<p style="e">s</p>', '<p style="t">s</p>', '<span style="text-align:center; font-size: 12px; line-height:1.5; margin: 0 auto">s</span>',
    '<p style="font-family:\'Open Sans\', sans-serif">s</p>', '<p style="font-family:&quot;Open Sans&quot;">s</p>', '<p style="color:red\\0">s</p>',
    '<p style="width:1px;height:(2px)">s</p>', '<p style="display:none">s</p>', '<p style="float:left;clear:both">s</p>',
    // Comments.
    '<!-- c -->', '<!---->', '<!-- -- -->', '<!-- a--b -->', '<!-- a---b -->', '<!-- a- -->', '<!-- a -- >', '<!--x-->',
    '<!-- <p>x</p> -->', '<!-- <script>x</script> -->', "<!-- multi\nline -->", "<!-- multi\nline", '<!-- unclosed', "<!-- unclosed\n",
    "<!-- unclosed\nsecond line", '<!--more-->', '<!--nextpage-->', 'a<!-- c -->b', '<!-- a --><!-- b -->', '<!-- a <!-- b --> c -->',
    '<!-- > -->', "<!-- a > b\n -->", '<!-->', '<!--->', '<!-- -->-->', '<!--<!---->-->', '<!<!---->', '<!-- &amp; &foo; -->',
    '<!-- wp:paragraph -->', "<!-- wp:paragraph -->\n<p>x</p>\n<!-- /wp:paragraph -->", '<!-- wp:image {"id":1,"url":"javascript:x"} /-->',
    '<!-- wp:p {"a":"<script>"} -->x<!-- /wp:p -->', '<![CDATA[x]]>', '<!DOCTYPE html>', '<!doctype html>', '<!-x->',
    // Slashes (wp_kses_stripslashes, wp_filter_* unslash round trip).
    '<a title=\\"x\\">s</a>', '<a href=\\"javascript:x\\">s</a>', '\\"quoted\\"', '<p class="a\\"b">x</p>', "<a title=\"x\\'y\">q</a>",
    // Unicode in tags and attributes.
    '<p title="é日本">é</p>', '<a href="http://例え.jp/">jp</a>', '<é>x</é>', '<p é="x">x</p>',
    // Required and checked attributes.
    '<ol start="x">a</ol>', '<img width="abc" height="-1">', '<td colspan="x">t</td>', '<abbr>no title</abbr>',
    // Long and repeated.
    str_repeat('<p>', 200), str_repeat('</p>', 200), str_repeat('<a href="', 50), str_repeat('<!--', 50), str_repeat('-->', 50),
    str_repeat('<', 500), str_repeat('<a ', 100), str_repeat('&amp;', 100), str_repeat('<b><i>', 100) . 'x',
    str_repeat('<a href="x" title="y">z</a>', 50), str_repeat('<div class="a" ', 40) . '>',
);
foreach ($hand as $h) {
    add($h);
}

// ---------------------------------------------------------------------------
// Every tag of either list with every attribute of the post list, and a few
// it holds for no tag: the allow-lists as the filters see them.

$tags = array_unique(array_merge(array_keys($allowedposttags), array_keys($allowedtags),
    array('script', 'style', 'iframe', 'svg', 'form', 'input', 'body', 'object', 'embed', 'frame', 'meta', 'link', 'math')));
sort($tags);
$attributes = array();
foreach ($allowedposttags as $t => $as) {
    foreach ((array) $as as $a => $v) {
        if ($a !== 'data-*') {
            $attributes[$a] = true;
        }
    }
}
$attributes = array_merge(array_keys($attributes), array('onclick', 'onerror', 'onload', 'formaction', 'srcdoc', 'data-x', 'xlink:href'));
sort($attributes);
foreach ($tags as $t) {
    $parts = array();
    foreach ($attributes as $a) {
        $parts[] = $a . '="v"';
    }
    add("<$t " . implode(' ', $parts) . ">x</$t>");
    add("<$t href=\"javascript:x\" src=\"vbscript:y\" cite=\"data:z\" title=\"javascript:t\">x</$t>");
    add(strtoupper("<$t title=\"t\">") . "x" . strtoupper("</$t>"));
}

// ---------------------------------------------------------------------------
// Random documents from a token pool (fixed seed).

$pool = array(
    'word', ' ', ' ', "\n", "\t", '"', "'", '=', '/', '\\', '&', '&amp;', '&nbsp;', '&#58;', '&#x3a;', '&colon;', '&#106;', ':', '-', '--',
    '<', '>', '<p>', '</p>', '<a ', '<a href="', 'href=', 'title=', 'onclick=', 'onerror=', 'src=', 'style=', 'javascript:', 'JaVa',
    'script', '<script>', '</script>', '<img ', '<img src=x ', '<!--', '-->', '<!', '</', '<b>', '</b>', '<div class="x">', '</div>',
    '<svg ', '<iframe ', '<style>', 'http://x', 'mailto:', 'feed:', 'data:', '?', '#', 'é', '🎉', 'x', 'y', "\0", '<br/>', '/>',
    'data-x=', 'alert(1)', '<a href=', '<span ', 'lang=en', '<hr noshade ', '<3', 'a<b', '<h1>', '<p\n>', '<!-- c -->',
);
mt_srand(20261127);
for ($i = 0; $i < 1500; $i++) {
    $n = mt_rand(1, 24);
    $doc = '';
    for ($j = 0; $j < $n; $j++) {
        $doc .= $pool[mt_rand(0, count($pool) - 1)];
    }
    add($doc);
}

// Random tags from attribute, value and style parts (fixed seed).

$tagPool = array('<p', '<a', '<img', '<span', '<div', '<abbr', '<q', '<b', '<A', '<iMg', '<blockquote', '<td', '<hr', '<br');
$attrPool = array(
    ' ', ' ', '  ', "\n", "\t", '/', ' /', '=', '"', "'", 'href', 'HREF', 'src', 'title', 'cite', 'style', 'class', 'onclick', 'data-x',
    'download', 'alt', 'width', 'x', '=', '="', "='", '=x', '="http://x/a.png"', '="javascript:alert(1)"', '=javascript:x', '="java&#09;script:x"',
    '="&#106;avascript:x"', '="javascript&#58x"', '="javascript&#x3A;x"', '="jAvAsCrIpT&colon;x"', '="feed:javascript:x"', '="feed:feed:feed:x"',
    '="mailto:a@b"', '="/x?a:b"', '="a/?b:c"', '="tel:1"', '="data:x"', '="urn:x"', '=" http:x"', '="\\0javascript:x"',
    '="color:red"', '="color:red;position:fixed"', "='background:url(http://x)'", '="background:url(javascript:x)"', '="width:calc(1px + 2px)"',
    '="--x:1"', '="color:expression(x)"', '="font-family:&quot;a&quot;"', '="margin:0 auto;;padding:0"', '="background:linear-gradient(red,blue)"',
    '>', '/>', '"x"', "'y'", 'é', '<', '&amp;', '&', '`',
);
mt_srand(20261128);
for ($i = 0; $i < 1500; $i++) {
    $doc = $tagPool[mt_rand(0, count($tagPool) - 1)];
    $n = mt_rand(1, 10);
    for ($j = 0; $j < $n; $j++) {
        $doc .= $attrPool[mt_rand(0, count($attrPool) - 1)];
    }
    add($doc . (mt_rand(0, 3) > 0 ? '>' : '') . 'text');
}

// ---------------------------------------------------------------------------

$seen = array();
$out = array();
foreach ($cases as $in) {
    if (isset($seen[$in])) {
        continue;
    }
    $seen[$in] = true;
    $out[] = array('input' => $in, 'post' => post_kses($in), 'plain' => plain_kses($in));
}

function names(array $list): array {
    $out = array();
    foreach ($list as $tag => $attrs) {
        $names = array_keys((array) $attrs);
        sort($names);
        $out[$tag] = $names;
    }
    ksort($out);
    return $out;
}

$doc = array(
    'allowed' => array('post' => names(wp_kses_allowed_html('post')), 'plain' => names(wp_kses_allowed_html('data')), 'entities' => $allowedentitynames),
    'cases' => $out,
);
echo json_encode($doc, JSON_PRETTY_PRINT | JSON_UNESCAPED_SLASHES | JSON_UNESCAPED_UNICODE | JSON_THROW_ON_ERROR), "\n";
fwrite(STDERR, count($out) . " cases\n");
