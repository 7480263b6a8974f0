<?php
/**
 * Generates cases.json, the oracle table for the event cost (app/cost.go): for
 * each cost a client may send (a string, or a list of strings), what The
 * Events Calendar's REST API answers in `cost` and `cost_details`.
 *
 * None of the plugin's code is in this repository: this script requires, at
 * generation time, tribe-common's src/Tribe/Cost_Utils.php (Tribe__Cost_Utils)
 * and the-events-calendar's src/Tribe/Cost_Utils.php (Tribe__Events__Cost_Utils),
 * and WordPress' wp-includes/formatting.php (sanitize_title, esc_html) from
 * Debian's wordpress package (6.1). To regenerate:
 *
 *   mkdir -p /tmp/wp && cd /tmp/wp && apt-get download wordpress && dpkg -x wordpress*.deb .
 *   php app/testdata/cost/generate.php COMMON_COST_UTILS TEC_COST_UTILS \
 *       /tmp/wp/usr/share/wordpress > app/testdata/cost/cases.json
 *
 * What runs, as the plugin's REST event endpoints and Post_Repository do it:
 *  - on write, `_EventCurrencySymbol` = parse_currency_symbol(cost) and
 *    `_EventCurrencyPosition` = parse_currency_position(cost), kept only when
 *    not false (the endpoint's array_filter); the cost is kept as sent, one
 *    meta row per element of a list;
 *  - on read, `cost` = get_formatted_event_cost(event, true) (tribe_get_cost),
 *    `cost_details.values` = the event's costs (get_event_costs) each as a
 *    number string when, with WordPress' en_US locale ('.' decimal point, ','
 *    thousands separator) it is numeric, else its key, sorted SORT_NUMERIC
 *    (the loop of Post_Repository::get_cost_values, written here from its
 *    behaviour).
 * WordPress and plugin functions these need are stubs below, each giving what
 * a default install gives: apply_filters runs only WordPress' default
 * sanitize_title filter (sanitize_title_with_dashes), options are their
 * defaults (defaultCurrencySymbol '$', reverseCurrencyPosition false), and
 * tribe_format_currency puts the symbol (default '$') before the number, or
 * after it when asked to reverse.
 * Not modelled: the endpoint's array_filter also drops a cost of "0" (the
 * service keeps it, see docs/contract.md), and FILTER_SANITIZE_STRING on
 * string meta (no input below has quotes or tags).
 */

error_reporting(E_ALL & ~E_DEPRECATED & ~E_WARNING);
define('ABSPATH', '/');

[$_, $common, $tec, $wp] = $argv + [null, null, null, '/tmp/wp/usr/share/wordpress'];
foreach ([$common, $tec, $wp . '/wp-includes/formatting.php'] as $f) {
    if (!$f || !is_file($f)) {
        fwrite(STDERR, "usage: generate.php COMMON_COST_UTILS TEC_COST_UTILS [WORDPRESS_DIR]\nmissing: $f\n");
        exit(1);
    }
}

function apply_filters($hook, $value, ...$args) {
    if ($hook === 'sanitize_title') {
        return sanitize_title_with_dashes($value, $args[0] ?? '', $args[1] ?? 'save');
    }
    return $value;
}
function get_locale() { return 'en_US'; }
function mbstring_binary_safe_encoding($reset = false) {}
function reset_mbstring_encoding() {}
function get_option($name, $default = false) { return $name === 'blog_charset' ? 'UTF-8' : $default; }
function _x($text, $context, $domain = 'default') { return $text; }
function __($text, $domain = 'default') { return $text; }
function esc_html__($text, $domain = 'default') { return esc_html($text); }
function tribe_get_option($name, $default = null) { return $default; }
function tribe_is_truthy($v) { return in_array(strtolower((string) $v), ['1', 'yes', 'true', 'on'], true); }
function tribe_is_event($id) { return true; }

class WP_Post { public $ID; function __construct($id) { $this->ID = $id; } }
class Tribe__Main { static function post_id_helper($p) { return is_object($p) ? $p->ID : $p; } }

$META = [];
function get_post($p) { return is_object($p) ? $p : new WP_Post($p); }
function tribe_get_event_meta($id, $key, $single) { global $META; $rows = $META[$key] ?? []; return $single ? ($rows[0] ?? '') : $rows; }
function get_post_meta($id, $key, $single) { return tribe_get_event_meta($id, $key, $single); }

function tribe_format_currency($cost, $post_id = null, $currency_symbol = null, $reverse_position = null) {
    if (empty($currency_symbol)) {
        $currency_symbol = tribe_get_option('defaultCurrencySymbol', '$');
    }
    if (!$reverse_position || !$post_id) {
        $reverse_position = tribe_get_option('reverseCurrencyPosition', false);
    }
    return $reverse_position ? $cost . $currency_symbol : $currency_symbol . $cost;
}

require $wp . '/wp-includes/formatting.php';
require $common;
require $tec;

// PHP 7 read call_user_func_array('array_merge', $costs) positionally; PHP 8
// takes string keys as named arguments and throws when parse_cost_range is
// given the keyed costs get_event_costs returns (any cost with text, "Free").
// This subclass gives parse_cost_range its list without keys, as PHP 7 did;
// `php8_error` in a row says the plugin throws there on PHP 8 (a 500).
class Positional_Cost_Utils extends Tribe__Events__Cost_Utils {
    public function parse_cost_range($costs, $max_decimals = null, $sort = true) {
        return parent::parse_cost_range(is_array($costs) ? array_values($costs) : $costs, $max_decimals, $sort);
    }
}

function answer($cost) {
    global $META;
    $utils = new Positional_Cost_Utils();
    $symbol = $utils->parse_currency_symbol($cost);
    $position = $utils->parse_currency_position($cost);
    $META = ['_EventCost' => array_map('strval', (array) $cost)];
    if ($symbol !== false && $symbol !== '') { $META['_EventCurrencySymbol'] = [$symbol]; }
    if ($position !== false && $position !== '') { $META['_EventCurrencyPosition'] = [$position]; }

    $values = [];
    foreach ($utils->get_event_costs(1) as $key => $value) {
        $v = str_replace(',', '', str_replace('.', '.', '' . $value));
        $values[] = is_numeric($v) ? $v : (string) $key;
    }
    sort($values, SORT_NUMERIC);

    $php8_error = false;
    try {
        (new Tribe__Events__Cost_Utils())->get_formatted_event_cost(1, true);
    } catch (Error $e) {
        $php8_error = true;
    }

    return [
        'input' => $cost,
        'php8_error' => $php8_error,
        'cost' => (string) $utils->get_formatted_event_cost(1, true),
        'currency_symbol' => $META['_EventCurrencySymbol'][0] ?? '',
        'currency_position' => $META['_EventCurrencyPosition'][0] ?? '',
        'values' => array_map('strval', $values),
    ];
}

$inputs = [
    // The issue's.
    '10–20 €', '$1,250', 'Free', 'Donation', '0', '',
    // Ranges.
    '10-20', '10 - 20', '10–20', '10 – 20', '10 to 20', '$10 - $20', '$10-$20', '10€ - 20€', '€10 – €20',
    '10 to 20 €', 'from 5 to 15 $', '20-10', '10.50-20.75', '10,50 – 20,75 €',
    // Currency before and after.
    '20$', '$20', '$ 20', '20 $', '€20', '20€', '20 €', '£15', '15 £', '¥1000', '1000 ¥', 'CHF 30', '30 CHF',
    '30.00 CHF', 'USD 12', '12 USD', 'R$ 50', 'kr 100',
    // Thousands and decimal separators.
    '1.250,50 €', '$1,250.00', '1,250', '1.250', '1,5', '1.5', '$1,234,567.89', '1 250 €', '0.99', '.99', '5.',
    '12,345.6', '€ 1.234.567,89',
    // Several costs in one value.
    '10, 20, 30', '$10, $20, $30', '10$, 20$', '10€, 20$', 'Free, 10, 20', 'free, 20$, 30$', '5, Donation',
    // Free text.
    'free', 'FREE', 'Donation only', 'Pay what you want', 'Gratis', 'Entrée libre', 'TBA', 'N/A', 'Free entry',
    'Free for members, 10€ otherwise', '2 for 1',
    // Zero.
    '0.00', '$0', '0€', '0 - 10', 'Free - 10', '00',
    // Negative numbers.
    '-10', '-10 €', '$-5', '-5 - 5',
    // Unicode symbols.
    '₹500', '500 ₽', '₩10000', '10 zł', '฿100',
    // Absurd input.
    ',', '.', ',,,', '...', '.,.,', '-', '–', ' ', '  12  ', str_repeat('9', 40), str_repeat('1,', 200) . '1',
    str_repeat('a', 300), '1' . str_repeat(' ', 100) . '2', '10e5', '0x1A', '1e3 €', 'NaN', 'INF',
    // Lists, as the service accepts them.
    ['0$', '20$', '30$'], ['free', '20$', '30$'], ['20¥', '30$'], ['free', '20¥'], ['10', '20'], ['$1,250', '$2,000'],
    ['Free', 'Donation'], ['10–20 €'], ['', '5'], ['5', ''],
];

$out = [];
foreach ($inputs as $in) {
    $out[] = answer($in);
}
echo json_encode($out, JSON_PRETTY_PRINT | JSON_UNESCAPED_UNICODE | JSON_UNESCAPED_SLASHES), "\n";
