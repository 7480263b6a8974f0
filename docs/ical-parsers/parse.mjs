// Reads each iCalendar file named on the command line with two independent
// parsers, ical.js and node-ical, and prints, per parser and file, each
// VEVENT's UID, start (UTC, ISO 8601), STATUS, CONFERENCE and whether it
// has a rule, in the file's order: controllers/feeds_parsed_test.go
// compares them with the event list.
//
// With --expand UNTIL first, it prints instead, per file, the occurrences
// ical.js expands (RRULE, RDATE, EXDATE, and the instances RECURRENCE-ID
// overrides, in the feed's own VTIMEZONEs) up to UNTIL: each one's UID,
// start (UTC, or the day of an all-day one) and STATUS, in order of start;
// controllers/imports_parsed_test.go compares them with what an import of
// the file made.
import { readFileSync } from 'node:fs';
import ICAL from 'ical.js';
import nodeical from 'node-ical';

const iso = (d) => d.toISOString().replace('.000Z', 'Z');
const startOf = (t) => (t.isDate ? t.toString() : iso(t.toJSDate()));

function expand(text, until) {
  const root = new ICAL.Component(ICAL.parse(text));
  for (const zone of root.getAllSubcomponents('vtimezone')) {
    ICAL.TimezoneService.register(zone);
  }
  const masters = new Map();
  const overrides = [];
  for (const v of root.getAllSubcomponents('vevent')) {
    if (v.hasProperty('recurrence-id')) overrides.push(v);
    else masters.set(v.getFirstPropertyValue('uid'), new ICAL.Event(v));
  }
  for (const o of overrides) {
    const master = masters.get(o.getFirstPropertyValue('uid'));
    if (master) master.relateException(o);
  }
  const end = ICAL.Time.fromJSDate(new Date(until), true);
  const out = [];
  for (const [uid, ev] of masters) {
    if (!ev.isRecurring()) {
      out.push({ uid, start: startOf(ev.startDate), status: ev.component.getFirstPropertyValue('status') || '' });
      continue;
    }
    const it = ev.iterator();
    for (let next = it.next(), n = 0; next && n < 1000 && next.compare(end) <= 0; next = it.next(), n++) {
      const d = ev.getOccurrenceDetails(next);
      out.push({ uid, start: startOf(d.startDate), status: d.item.component.getFirstPropertyValue('status') || '' });
    }
  }
  return out.sort((a, b) => (a.start < b.start ? -1 : a.start > b.start ? 1 : 0));
}

if (process.argv[2] === '--expand') {
  const until = process.argv[3];
  const expanded = { 'ical.js': {} };
  for (const file of process.argv.slice(4)) {
    expanded['ical.js'][file] = expand(readFileSync(file, 'utf8'), until);
  }
  process.stdout.write(JSON.stringify(expanded));
  process.exit(0);
}

const out = { 'ical.js': {}, 'node-ical': {} };
for (const file of process.argv.slice(2)) {
  const text = readFileSync(file, 'utf8');

  const root = new ICAL.Component(ICAL.parse(text));
  for (const zone of root.getAllSubcomponents('vtimezone')) {
    ICAL.TimezoneService.register(zone);
  }
  out['ical.js'][file] = root.getAllSubcomponents('vevent').map((v) => ({
    uid: v.getFirstPropertyValue('uid'),
    start: iso(v.getFirstPropertyValue('dtstart').toJSDate()),
    status: v.getFirstPropertyValue('status') || '',
    conference: v.getFirstPropertyValue('conference') || '',
    rule: v.hasProperty('rrule'),
  }));

  out['node-ical'][file] = Object.values(nodeical.sync.parseICS(text))
    .filter((c) => c.type === 'VEVENT')
    .map((v) => ({
      uid: v.uid,
      start: iso(v.start),
      status: v.status || '',
      conference: typeof v.conference === 'object' ? v.conference.val : (v.conference || ''),
      rule: Boolean(v.rrule),
    }));
}
process.stdout.write(JSON.stringify(out));
