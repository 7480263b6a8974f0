"""Reads each iCalendar file named on the command line with Debian's
python3-icalendar and prints, per file, each VEVENT's UID, start (UTC, ISO
8601), STATUS, CONFERENCE and whether it has a rule, in the file's order, as
parse.mjs does for the npm parsers."""
import datetime
import json
import sys

import icalendar

out = {}
for name in sys.argv[1:]:
    with open(name, "rb") as f:
        cal = icalendar.Calendar.from_ical(f.read())
    events = []
    for ev in cal.walk("VEVENT"):
        start = ev.decoded("DTSTART").astimezone(datetime.timezone.utc)
        events.append({
            "uid": str(ev.get("UID")),
            "start": start.strftime("%Y-%m-%dT%H:%M:%SZ"),
            "status": str(ev.get("STATUS", "")),
            "conference": str(ev.get("CONFERENCE", "")),
            "rule": "RRULE" in ev,
        })
    out[name] = events
json.dump({"python3-icalendar": out}, sys.stdout)
