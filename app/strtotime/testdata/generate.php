<?php
// Generates cases.json: what PHP's strtotime answers for each input, in three
// zones, relative to a fixed "now" just before a daylight-saving change.
// Run by hand when the inputs change: php generate.php > cases.json
// The Go tests read cases.json; they never run PHP. Each input should be
// listed once; a digit string alone is kept out (ParseDate reads it as a Unix
// timestamp, where PHP may read a time or a year).

$nows = [
    'UTC' => '2026-03-07 10:20:30',              // a Saturday
    'America/New_York' => '2026-03-07 10:20:30', // DST starts 2026-03-08 02:00
    'Europe/Rome' => '2026-03-28 22:15:45',      // DST starts 2026-03-29 02:00
];

$inputs = [
    // keywords
    'now', 'today', 'tomorrow', 'yesterday', 'midnight', 'noon', 'Tomorrow', 'TODAY',
    'NOW', 'Midnight', 'NOON', 'yesterday noon', 'tomorrow midnight', 'today today',
    // keyword + time (the plugin's clients send these)
    'tomorrow 9am', 'tomorrow 11am', 'tomorrow 1pm', 'tomorrow 4pm', 'tomorrow 00:00:00',
    'tomorrow 23:59:59', 'tomorrow noon', 'yesterday 14:30', 'today 6pm', 'tomorrow 2:30am',
    // a keyword after a time resets it to midnight
    '9am tomorrow', 'noon tomorrow', 'midnight noon', 'noon 9am',
    // back of / front of an hour: a quarter past, a quarter to
    'back of 7pm', 'front of 7pm', 'back of 19', 'front of 9am', 'back of 7 pm', 'back of 12am',
    'front of 12pm', 'front of 0', 'back of 24', 'Back of 7pm', 'BACK OF 7PM', 'tomorrow back of 9am',
    // weekdays
    'next wednesday 4pm', 'next wednesday 5pm', 'next wednesday', 'next saturday', 'next monday 9:30am',
    'wednesday', 'saturday', 'this friday', 'last monday', 'last saturday 8pm', 'previous sunday',
    'sunday 10am', 'next sunday 2am',
    'Monday', 'MON', 'sun', 'sat', 'fridays', 'next sat', 'this sat 9am', 'this saturday',
    'previous saturday', 'last sunday', 'monday 9am', '9am monday', 'monday ago', 'sunday ago',
    // reltext + week
    'this week', 'previous week', 'monday next week', 'sunday this week', 'sunday next week',
    'monday next week 9am', 'this week sunday', 'last week monday', 'friday this week 5pm',
    'monday this week', 'sunday last week', 'next weeks',
    // relative
    '+1 week', '+5 days', '+5 days 11am', '+5 days 23:59:59', '-2 days', '+1 day', '+2 weeks',
    '+1 month', '+1 year', '+3 hours', '+90 minutes', '+30 seconds', '2 days ago', '1 week ago',
    'next week', 'last week', 'next month', 'next year', '+1 week 2 days', '+1 day +2 hours',
    '+1 fortnight', '3 days', '+1 days 9am',
    '+1 week 2 days 10:00', '+1 week 2 days 4 hours 2 seconds', '+1 week -1 day', '+2days', '+1day',
    '2days', '+ 5 days', '--5 days', '+-5 days', '-2 days ago', '2 days ago ago', '3 months ago',
    '2 fortnights ago', '+2 forthnight', '+1500 msec', '-1 ms', '+1 ms ago', '+1 min', '+1 mins',
    '+1 sec', '+1 secs', '+13 months', '-40 days', '+25 hours', '1 year ago', '+1 month -1 month',
    '+3 days tomorrow', 'tomorrow +3 days', '2 mondays ago', '+2 monday', '4 Sundays',
    '+1234567890123 sec',
    // ordinal + unit
    'last year', 'previous month', 'this month', 'third day', 'first day', 'last day', 'twelfth month',
    'eleventh day', 'eight day', 'next hour', 'last minute', 'NEXT MONTH', 'Next Year',
    // weekday(s): business days
    '3 weekdays', '+1 weekday', '-3 weekdays', '0 weekdays', '10 weekdays', 'saturday +1 weekday',
    'friday +1 weekday', 'next weekday', 'last weekday', 'this weekday', '3 weekdays ago', 'weekday',
    '2026-03-06 +1 weekday',
    // first day of / last day of
    'first day of', 'last day of', 'first day of next month', 'last day of next month',
    'last day of next month 18:00', 'first day of last month', 'last day of previous month',
    'first day of this month', 'first day of next year', 'last day of last year', 'first day of january',
    'last day of feb', 'last day of february 2028', 'first day of january 2028', 'first day of 2028',
    'first day of jan 2028 9am', 'midnight first day of next month', 'first day of next month midnight',
    'FIRST DAY OF NEXT MONTH', 'Last Day Of Next Month', 'first day of +2 months', 'last day of -1 month',
    'last day of 2026-01-31 +1 month', '2026-01-31 last day of +1 month', '2028-01-10 last day of',
    // ordinal weekday of a month
    'first monday of january 2028', 'first monday of next month', 'last friday of next month',
    'second tuesday of next month', 'third friday of march 2026', 'fourth thursday of november 2026',
    'fifth friday of march 2026', 'twelfth monday of january 2028', 'last sunday of march',
    'next friday of march', 'previous friday of march', 'this monday of', 'last mon of next month',
    'first sun of jan 2027', 'First Monday Of January 2028', 'LAST FRIDAY OF NEXT MONTH',
    'first monday of next month 9am', 'last friday of next month noon', 'first monday of next year',
    'first mondays of next month', 'first monday of',
    // relative amounts on an absolute date
    '2028-01-10 +2 days', '2026-01-31 +1 month', '2026-01-31 +1 month -1 day', '2024-02-29 +1 year',
    'jan 31 +1 month', '2028-01-10 next monday', '2028-01-10 monday next week',
    'December 25 2026 +1 week', '+2 days 14:30 UTC', '2018-01-01 +0200 +1 day', 'tomorrow 9am +02:00',
    '@1700000000 +1 day', '2018-02-30 +1 month',
    // across daylight-saving changes (New York 2026-03-08, Rome 2026-03-29 and 2026-10-25)
    'tomorrow 02:30', '+4 hours', '+5 hours', '+16 hours', '+17 hours', '2026-03-08 02:30 +1 day',
    '2026-03-29 01:30 +1 hour', '2026-11-01 01:30 +1 hour', '2026-10-25 02:30', '2026-10-25 01:30 +1 hour',
    // absolute dates and times
    '2018-01-01 4pm', '2018-01-01', '2018-01-01 00:00:00', '2018-01-01 23:59:59', '2018-01-01 16:00',
    '2018-01-01T16:00:00', '2018-01-01T16:00:00Z', '2018-01-01T16:00:00+02:00', '2018-01-01T16:00:00-0530',
    '2018-01-01 16:00:00 +01:00', '2018-01-01T16:00:00.250Z', '2026-03-08 02:30:00', '2026-11-01 01:30:00',
    '2018/01/05', '01/05/2018', '1/5/18', '05-01-2018', '05.01.2018', 'January 5, 2018', '5 January 2018',
    'Jan 5 2018', 'jan 5', '5 jan', 'March 2019', '2021-02-30', '2018-1-5', 'December 25 2026 8pm',
    'jan', 'sept 5', 'jan 5th', 'jan 5 9:30am', 'jan 5 16:00', '5 IV 2018', '2026-123', '2026-W10-5',
    '10/Oct/2000:13:55:36 -0700', 'tomorrow t9', 'tomorrow 1600', '9am 2028',
    // times alone
    '4pm', '9am', '9:30am', '9:30 pm', '16:00', '16:00:00', '12am', '12pm', '0:00',
    // timestamps
    '@1700000000', '@0', '@1700000000.5', '@-1.5', '@0 UTC',
    // zones
    '2018-01-01 GMT+2', '2018-01-01 (UTC)', 'tomorrow utc', 'tomorrow z', '2018-01-01 UTC foo',
    // rejected
    '', 'before my birthday', 'not a strtotime parsable string', '2018-13-01', '25:00', '13pm',
    'foo 4pm', 'tomorrow foo', '2018-01-32', 'next', '+ days',
    'back of 25', 'jan 5 9am', 'thurs', 'first  day of', 'the first day of', 'first day of foo',
    'next month foo', 'second week', 'last', 'this', '9am 10am', 'jan feb', '5 x', '@1.',
    '@99999999999999999999', '2018-01-01 UTC UTC UTC', 'jan 5 16.00.00',
    // accepted by PHP, refused here (see refusal below)
    '+8000 years', '-2026 years', '@253402300800', '9999-12-31 +1 day', '0001-01-01 00:00:00 +14:00',
    '2018-01-01 +15:00', '2018-01-01 +99', '2018-01-01 EST', '2018-01-01 Europe/Rome', 'tomorrow a',
    '+1 weekx',
];

// refusal says why ParseDate refuses what PHP accepts, by the service's own
// rules: 'zone' for a zone named other than UTC, GMT or Z (ParseDate knows
// offsets only), 'offset' for an offset beyond ±14:00, 'year' for an instant
// outside years 1 to 9999 in UTC, in the zone or in its own offset.
function refusal(string $in, $ts): string
{
    $p = date_parse($in);
    $type = $p['zone_type'] ?? 0;
    if ($type === 2 && !in_array(strtolower($p['tz_abbr']), ['utc', 'gmt', 'z'], true)) {
        return 'zone';
    }
    if ($type === 3 && $p['tz_id'] !== 'UTC') {
        return 'zone';
    }
    if ($type === 1 && abs($p['zone']) > 14 * 3600) {
        return 'offset';
    }
    if ($ts === false) {
        return '';
    }
    $years = [(int)gmdate('Y', $ts), (int)date('Y', $ts)];
    if ($type === 1) {
        $years[] = (int)gmdate('Y', $ts + $p['zone']);
    }
    foreach ($years as $y) {
        if ($y < 1 || $y > 9999) {
            return 'year';
        }
    }
    return '';
}

$cases = [];
foreach ($nows as $zone => $nowLocal) {
    date_default_timezone_set($zone);
    $now = (new DateTime($nowLocal))->getTimestamp();
    foreach ($inputs as $in) {
        $ts = strtotime($in, $now);
        $cases[] = [
            'zone' => $zone,
            'now' => $now,
            'input' => $in,
            'ok' => $ts !== false,
            'unix' => $ts === false ? 0 : $ts,
            'local' => $ts === false ? '' : date('Y-m-d H:i:s', $ts),
            'refused' => refusal($in, $ts),
        ];
    }
}
echo json_encode($cases, JSON_PRETTY_PRINT | JSON_UNESCAPED_SLASHES | JSON_UNESCAPED_UNICODE), "\n";
