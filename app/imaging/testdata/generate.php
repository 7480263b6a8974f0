<?php
/*
 * Regenerates dimensions.json, the oracle for dimensions_test.go, by running
 * WordPress' own code: wp_get_registered_image_subsizes() for the sizes a
 * fresh site registers (its options at the defaults schema.php installs,
 * plus the sizes _wp_add_additional_image_sizes() adds), then for each
 * original image_resize_dimensions() per size and _wp_make_subsizes() for
 * the sizes made, in the order an attachment's metadata keeps them.
 * WordPress is not vendored; fetch the Debian package (6.1) and point at it:
 *
 *   mkdir -p /tmp/wp && cd /tmp/wp && apt-get download wordpress && dpkg -x wordpress*.deb x
 *   php app/imaging/testdata/generate.php /tmp/wp/x/usr/share/wordpress > app/imaging/testdata/dimensions.json
 *
 * The functions are lifted out of the WordPress sources with the tokenizer
 * and eval'd, with filters stubbed to return their value unchanged and an
 * image editor that does what WP_Image_Editor_GD::make_subsize() does but
 * for the pixels (the dimensions of image_resize_dimensions(), or its
 * error), so no WordPress bootstrap is needed.
 * Output is deterministic (fixed mt_rand seed).
 */

if ($argc < 2) {
	fwrite(STDERR, "usage: php generate.php /path/to/wordpress\n");
	exit(2);
}
$root = rtrim($argv[1], '/');

function apply_filters($hook, $value, ...$args) {
	return $value;
}

function lift(string $file, string $name): void {
	$tokens = token_get_all(file_get_contents($file));
	$n = count($tokens);
	for ($i = 0; $i < $n; $i++) {
		if (!is_array($tokens[$i]) || $tokens[$i][0] !== T_FUNCTION) {
			continue;
		}
		$j = $i + 1;
		while (is_array($tokens[$j]) && $tokens[$j][0] === T_WHITESPACE) {
			$j++;
		}
		if (!is_array($tokens[$j]) || $tokens[$j][1] !== $name) {
			continue;
		}
		$src = '';
		$depth = 0;
		$opened = false;
		for ($k = $i; $k < $n; $k++) {
			$t = $tokens[$k];
			$text = is_array($t) ? $t[1] : $t;
			$src .= $text;
			// T_CURLY_OPEN / T_DOLLAR_OPEN_CURLY_BRACES also end with a "}".
			if ($text === '{' || (is_array($t) && in_array($t[0], [T_CURLY_OPEN, T_DOLLAR_OPEN_CURLY_BRACES], true))) {
				$depth++;
				$opened = true;
			} elseif ($text === '}') {
				$depth--;
				if ($opened && $depth === 0) {
					eval($src);
					return;
				}
			}
		}
	}
	fwrite(STDERR, "function $name not found in $file\n");
	exit(1);
}

lift("$root/wp-includes/functions.php", 'wp_fuzzy_number_match');
lift("$root/wp-includes/functions.php", 'absint');
lift("$root/wp-includes/media.php", 'wp_constrain_dimensions');
lift("$root/wp-includes/media.php", 'image_resize_dimensions');
lift("$root/wp-includes/media.php", 'wp_get_additional_image_sizes');
lift("$root/wp-includes/media.php", 'add_image_size');
lift("$root/wp-includes/media.php", '_wp_add_additional_image_sizes');
lift("$root/wp-includes/media.php", 'get_intermediate_image_sizes');
lift("$root/wp-includes/media.php", 'wp_get_registered_image_subsizes');
lift("$root/wp-admin/includes/image.php", '_wp_make_subsizes');

// The options of a fresh site, as schema.php's populate_options() writes them.
$schema = file_get_contents("$root/wp-admin/includes/schema.php");
preg_match_all("/'((?:thumbnail|medium|medium_large|large)_(?:size_w|size_h|crop))'\s*=>\s*(\d+)/", $schema, $m, PREG_SET_ORDER);
$options = [];
foreach ($m as [, $name, $value]) {
	$options[$name] = (int) $value;
}
function get_option($name, $default = false) {
	global $options;
	return $options[$name] ?? $default;
}

class WP_Error {
	public function __construct(public string $code = '', public string $message = '') {}
}
function is_wp_error($thing) {
	return $thing instanceof WP_Error;
}
function __($text) {
	return $text;
}
function wp_update_attachment_metadata($id, $meta) {
	return true;
}

// The editor of the original being processed: make_subsize() as
// WP_Image_Editor_GD's (wp-includes/class-wp-image-editor-gd.php, make_subsize
// and _resize), which fails where image_resize_dimensions() says no file.
class OracleEditor {
	public function __construct(public int $width, public int $height) {}
	public function make_subsize($size) {
		$dims = image_resize_dimensions($this->width, $this->height, $size['width'] ?? null, $size['height'] ?? null, $size['crop'] ?? false);
		if (!$dims) {
			return new WP_Error('error_getting_dimensions', 'Could not calculate resized image dimensions');
		}
		return ['file' => "x-{$dims[4]}x{$dims[5]}.jpg", 'width' => $dims[4], 'height' => $dims[5], 'mime-type' => 'image/jpeg', 'filesize' => 1];
	}
}
$editor = null;
function wp_get_image_editor($file) {
	global $editor;
	return $editor;
}

_wp_add_additional_image_sizes();
$registered = wp_get_registered_image_subsizes();
$specs = [];
foreach ($registered as $name => $size) {
	$specs[] = [$name, $size['width'], $size['height'], $size['crop']];
}

$pairs = [];
$add = function (int $w, int $h) use (&$pairs) {
	$pairs["$w,$h"] = [$w, $h];
};

// Every pair of values around the size boundaries.
$edges = [1, 2, 3, 99, 149, 150, 151, 152, 299, 300, 301, 302, 767, 768, 769, 770, 1023, 1024, 1025, 1026,
	1535, 1536, 1537, 1538, 2047, 2048, 2049, 2050, 2560, 5000];
foreach ($edges as $w) {
	foreach ($edges as $h) {
		$add($w, $h);
	}
}

// Panoramas and slivers.
foreach ([1, 2, 7, 100, 149, 151, 300, 301] as $short) {
	foreach ([1500, 3333, 4999, 5000] as $long) {
		$add($long, $short);
		$add($short, $long);
	}
}

// Usual camera and screen sizes.
foreach ([[4000, 3000], [6000, 4000], [4032, 3024], [2500, 1800], [1920, 1080], [1280, 720], [800, 600], [640, 480], [1080, 1350], [3024, 4032]] as [$w, $h]) {
	$add($w, $h);
	$add($h, $w);
}

// Pairs where a scaled side lands within float error of .5, so PHP's
// pre-rounding round() and a plain half-up round disagree (e.g. 11x440 into
// 300x300 is 8x300 in WordPress, 7x300 with Go's math.Round). Taken evenly
// from a full scan of long sides up to 5000.
$tricky = [];
for ($long = 151; $long <= 5000; $long++) {
	foreach ([150, 300, 768, 1024, 1536, 2048] as $max) {
		$ratio = $max / $long;
		for ($short = 1; $short < $long; $short++) {
			$v = $short * $ratio;
			$f = $v - floor($v);
			if ($f > 0.4999999 && $f < 0.5 && round($v) != floor($v)) {
				$tricky[] = [$long, $short];
			}
		}
	}
}
$step = max(1, intdiv(count($tricky), 100));
for ($i = 0; $i < count($tricky); $i += $step) {
	[$long, $short] = $tricky[$i];
	$add($long, $short);
	$add($short, $long);
}

// Random sizes, seeded so the file is reproducible.
mt_srand(20240601);
for ($i = 0; $i < 150; $i++) {
	$add(mt_rand(1, 5000), mt_rand(1, 5000));
}

// round() itself on values that sit near .5 after float division.
$rounds = [];
foreach ([3, 7, 11, 13, 14, 21, 49, 99, 101, 1400, 1536, 3000] as $den) {
	foreach ([150, 300, 768, 1024, 1536, 2048] as $num) {
		for ($k = 1; $k <= 40; $k += 3) {
			$v = $k * ($num / $den);
			$rounds[] = [sprintf('%.17g', $v), round($v)];
		}
	}
}
foreach ([0.49999999999999994, 2.4999999999999996, 4.5, 150.49999999999997, 1.5, 0.5, 767.4999999999999] as $v) {
	$rounds[] = [sprintf('%.17g', $v), round($v)];
}

echo "{\n";
preg_match("/\\\$wp_version = '([^']+)'/", file_get_contents("$root/wp-includes/version.php"), $m);
echo '"wordpress": ' . json_encode($m[1] ?? 'unknown') . ",\n";
echo '"specs": ' . json_encode(array_map(fn($s) => ['name' => $s[0], 'width' => $s[1], 'height' => $s[2], 'crop' => $s[3]], $specs)) . ",\n";
echo "\"round\": [\n";
$lines = [];
foreach ($rounds as [$v, $r]) {
	$lines[] = '[' . $v . ',' . json_encode((int) $r) . ']';
}
echo implode(",\n", $lines) . "\n],\n";
echo "\"cases\": [\n";
$lines = [];
foreach ($pairs as [$w, $h]) {
	$out = [];
	foreach ($specs as [$name, $dw, $dh, $crop]) {
		$r = image_resize_dimensions($w, $h, $dw, $dh, $crop);
		$out[] = $r === false ? null : $r;
	}
	$editor = new OracleEditor($w, $h);
	$meta = _wp_make_subsizes($registered, "x.jpg", ['width' => $w, 'height' => $h, 'file' => 'x.jpg', 'filesize' => 1, 'sizes' => []], 1);
	$lines[] = json_encode(['w' => $w, 'h' => $h, 'sizes' => $out, 'made' => array_keys($meta['sizes'])]);
}
echo implode(",\n", $lines) . "\n]\n}\n";
