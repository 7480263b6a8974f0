// Reads each iCalendar file named on the command line with two independent
// parsers, ical.js and node-ical, and prints, per parser and file, each
// VEVENT's UID, start (UTC, ISO 8601), STATUS, CONFERENCE and whether it
// has a rule, in the file's order: controllers/feeds_parsed_test.go
// compares them with the event list.
import { readFileSync } from 'node:fs';
import ICAL from 'ical.js';
import nodeical from 'node-ical';

const iso = (d) => d.toISOString().replace('.000Z', 'Z');
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
