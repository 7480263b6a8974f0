<?php
// Generates cases.json: what PHP's strtotime answers for each input, in three
// zones, relative to a fixed "now" just before a daylight-saving change.
// Run by hand when the inputs change: php generate.php > cases.json
// The Go tests read cases.json; they never run PHP.

$nows = [
    'UTC' => '2026-03-07 10:20:30',              // a Saturday
    'America/New_York' => '2026-03-07 10:20:30', // DST starts 2026-03-08 02:00
    'Europe/Rome' => '2026-03-28 22:15:45',      // DST starts 2026-03-29 02:00
];

$inputs = [
    // keywords
    'now', 'today', 'tomorrow', 'yesterday', 'midnight', 'noon', 'Tomorrow', 'TODAY',
    // keyword + time (the plugin's clients send these)
    'tomorrow 9am', 'tomorrow 11am', 'tomorrow 1pm', 'tomorrow 4pm', 'tomorrow 00:00:00',
    'tomorrow 23:59:59', 'tomorrow noon', 'yesterday 14:30', 'today 6pm', 'tomorrow 2:30am',
    // weekdays
    'next wednesday 4pm', 'next wednesday 5pm', 'next wednesday', 'next saturday', 'next monday 9:30am',
    'wednesday', 'saturday', 'this friday', 'last monday', 'last saturday 8pm', 'previous sunday',
    'sunday 10am', 'next sunday 2am',
    // relative
    '+1 week', '+5 days', '+5 days 11am', '+5 days 23:59:59', '-2 days', '+1 day', '+2 weeks',
    '+1 month', '+1 year', '+3 hours', '+90 minutes', '+30 seconds', '2 days ago', '1 week ago',
    'next week', 'last week', 'next month', 'next year', '+1 week 2 days', '+1 day +2 hours',
    '+1 fortnight', '3 days', '+1 days 9am',
    // absolute dates and times
    '2018-01-01 4pm', '2018-01-01', '2018-01-01 00:00:00', '2018-01-01 23:59:59', '2018-01-01 16:00',
    '2018-01-01T16:00:00', '2018-01-01T16:00:00Z', '2018-01-01T16:00:00+02:00', '2018-01-01T16:00:00-0530',
    '2018-01-01 16:00:00 +01:00', '2018-01-01T16:00:00.250Z', '2026-03-08 02:30:00', '2026-11-01 01:30:00',
    '2018/01/05', '01/05/2018', '1/5/18', '05-01-2018', '05.01.2018', 'January 5, 2018', '5 January 2018',
    'Jan 5 2018', 'jan 5', '5 jan', 'March 2019', '2021-02-30', '2018-1-5', 'December 25 2026 8pm',
    // times alone
    '4pm', '9am', '9:30am', '9:30 pm', '16:00', '16:00:00', '12am', '12pm', '0:00',
    // timestamps
    '@1700000000', '@0',
    // rejected
    '', 'before my birthday', 'not a strtotime parsable string', '2018-13-01', '25:00', '13pm',
    'foo 4pm', 'tomorrow foo', '2018-01-32', 'next', '+ days',
];

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
        ];
    }
}
echo json_encode($cases, JSON_PRETTY_PRINT | JSON_UNESCAPED_SLASHES | JSON_UNESCAPED_UNICODE), "\n";
