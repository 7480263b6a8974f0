package ical

import (
	"errors"
	"reflect"
	"testing"
)

func TestReadUnfoldsUnquotesAndUnescapesAsRFC5545Writes(t *testing.T) {
	text := "BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nSUMMARY:Jazz\\, blues\\; and \\\\ more\\nnext line\r\n" +
		"DESCRIPTION:folded acr\r\n oss lines\n\tand tabs\r\n" +
		"ORGANIZER;CN=\"Doe; Jane: chair\";ROLE=CHAIR:mailto:jane@example.org\r\n" +
		"CATEGORIES:Music,Jazz\\, live,Free\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
	cal, err := Read([]byte(text), DefaultLimits)
	if err != nil {
		t.Fatal(err)
	}
	ev := cal.Components[0]
	if got := ev.TextValue("SUMMARY"); got != "Jazz, blues; and \\ more\nnext line" {
		t.Errorf("SUMMARY %q", got)
	}
	if got := ev.Value("DESCRIPTION"); got != "folded across linesand tabs" {
		t.Errorf("DESCRIPTION %q", got)
	}
	if o := ev.Get("ORGANIZER"); o.Params["CN"] != "Doe; Jane: chair" || o.Params["ROLE"] != "CHAIR" || o.Value != "mailto:jane@example.org" {
		t.Errorf("ORGANIZER %+v", o)
	}
	if got := SplitText(ev.Value("CATEGORIES")); !reflect.DeepEqual(got, []string{"Music", "Jazz, live", "Free"}) {
		t.Errorf("CATEGORIES %q", got)
	}
}

func TestReadRefusesWhatIsNotACalendar(t *testing.T) {
	for name, text := range map[string]string{
		"no calendar":            "BEGIN:VEVENT\r\nEND:VEVENT\r\n",
		"an END of another":      "BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nEND:VTODO\r\nEND:VCALENDAR\r\n",
		"never closed":           "BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\n",
		"a property outside":     "SUMMARY:x\r\nBEGIN:VCALENDAR\r\nEND:VCALENDAR\r\n",
		"a line without a colon": "BEGIN:VCALENDAR\r\nSUMMARY\r\nEND:VCALENDAR\r\n",
		"an unclosed quote":      "BEGIN:VCALENDAR\r\nX;A=\"b:c\r\nEND:VCALENDAR\r\n",
	} {
		if _, err := Read([]byte(text), DefaultLimits); err == nil {
			t.Errorf("%s: read", name)
		}
	}
	many := "BEGIN:VCALENDAR\r\n"
	for range 11 {
		many += "X-P:1\r\n"
	}
	if _, err := Read([]byte(many+"END:VCALENDAR\r\n"), Limits{LineBytes: 100, Components: 10, Depth: 4, Properties: 10}); !errors.Is(err, ErrTooLarge) {
		t.Errorf("11 properties of 10: %v", err)
	}
}
