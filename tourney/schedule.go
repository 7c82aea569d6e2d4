package tourney

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Cadence is how often a scheduled tournament recurs.
type Cadence string

// The cadences: an hourly nine-hole stroke play, a daily eighteen-hole
// stroke play and a weekly nine-hole knockout.
const (
	Hourly Cadence = "hourly"
	Daily  Cadence = "daily"
	Weekly Cadence = "weekly"
)

// DefaultSchedule is the server's schedule unless configured otherwise.
const DefaultSchedule = "hourly,daily@20:00,weekly@sun-19:00"

// Cadence durations: how long after its start a scheduled stroke-play
// tournament closes.
const (
	hourlyOpen = 50 * time.Minute
	dailyOpen  = 3 * time.Hour
)

// Recurrence is one cadence of a schedule with its start time in UTC:
// Minute is minutes after the hour (hourly) or after midnight (daily,
// weekly); Day is the weekday of a weekly one.
type Recurrence struct {
	Cadence Cadence
	Minute  int
	Day     time.Weekday
}

// Schedule is the tournaments a server creates ahead of their start, one
// recurrence each.
type Schedule []Recurrence

var weekdays = map[string]time.Weekday{
	"sun": time.Sunday, "mon": time.Monday, "tue": time.Tuesday, "wed": time.Wednesday,
	"thu": time.Thursday, "fri": time.Friday, "sat": time.Saturday,
}

// ParseSchedule reads a schedule: "off" (or empty) for none, else a
// comma-separated list of "hourly" or "hourly@:MM", "daily" or
// "daily@HH:MM", "weekly" or "weekly@DAY-HH:MM" (DAY sun to sat), times
// in UTC. Missing times are :00, 00:00 and sun-00:00. Each cadence appears
// at most once. Errors wrap ErrInvalid.
func ParseSchedule(in string) (Schedule, error) {
	in = strings.TrimSpace(strings.ToLower(in))
	if in == "" || in == "off" {
		return nil, nil
	}
	bad := func(item, why string) error {
		return fmt.Errorf("%w: schedule %q: %s", ErrInvalid, item, why)
	}
	var out Schedule
	seen := map[Cadence]bool{}
	for item := range strings.SplitSeq(in, ",") {
		item = strings.TrimSpace(item)
		name, at, hasAt := strings.Cut(item, "@")
		r := Recurrence{Cadence: Cadence(name)}
		if seen[r.Cadence] {
			return nil, bad(item, "each cadence at most once")
		}
		seen[r.Cadence] = true
		switch r.Cadence {
		case Hourly:
			if hasAt {
				mm, ok := strings.CutPrefix(at, ":")
				m, err := strconv.Atoi(mm)
				if !ok || err != nil || len(mm) != 2 || m < 0 || m > 59 {
					return nil, bad(item, "want hourly@:MM (00 to 59)")
				}
				r.Minute = m
			}
		case Daily:
			if hasAt {
				m, ok := clock(at)
				if !ok {
					return nil, bad(item, "want daily@HH:MM (UTC)")
				}
				r.Minute = m
			}
		case Weekly:
			if hasAt {
				day, hm, _ := strings.Cut(at, "-")
				d, okDay := weekdays[day]
				m, ok := clock(hm)
				if !okDay || !ok {
					return nil, bad(item, "want weekly@DAY-HH:MM (DAY sun to sat, UTC)")
				}
				r.Day, r.Minute = d, m
			}
		default:
			return nil, bad(item, "the cadences are hourly, daily and weekly (or off)")
		}
		out = append(out, r)
	}
	return out, nil
}

// clock reads HH:MM as minutes after midnight.
func clock(s string) (int, bool) {
	hh, mm, ok := strings.Cut(s, ":")
	h, err1 := strconv.Atoi(hh)
	m, err2 := strconv.Atoi(mm)
	if !ok || err1 != nil || err2 != nil || len(hh) != 2 || len(mm) != 2 || h < 0 || h > 23 || m < 0 || m > 59 {
		return 0, false
	}
	return h*60 + m, true
}

// String writes the schedule as ParseSchedule reads it.
func (sc Schedule) String() string {
	if len(sc) == 0 {
		return "off"
	}
	var parts []string
	for _, r := range sc {
		switch r.Cadence {
		case Hourly:
			parts = append(parts, fmt.Sprintf("hourly@:%02d", r.Minute))
		case Daily:
			parts = append(parts, fmt.Sprintf("daily@%02d:%02d", r.Minute/60, r.Minute%60))
		case Weekly:
			parts = append(parts, fmt.Sprintf("weekly@%s-%02d:%02d", strings.ToLower(r.Day.String()[:3]), r.Minute/60, r.Minute%60))
		}
	}
	return strings.Join(parts, ",")
}

// Slot is one scheduled tournament: its recurrence and start.
type Slot struct {
	Recurrence
	Starts time.Time
}

// ahead is how many of a cadence's next slots exist at any time: the
// next two hourly ones (so the one after the next is open for entries an
// hour before it starts), the next daily and weekly one.
func (r Recurrence) ahead() int {
	if r.Cadence == Hourly {
		return 2
	}
	return 1
}

// next is the recurrence's first start strictly after now.
func (r Recurrence) next(now time.Time) time.Time {
	now = now.UTC()
	var t time.Time
	switch r.Cadence {
	case Hourly:
		t = now.Truncate(time.Hour).Add(time.Duration(r.Minute) * time.Minute)
		if !t.After(now) {
			t = t.Add(time.Hour)
		}
	case Daily:
		y, m, d := now.Date()
		t = time.Date(y, m, d, 0, r.Minute, 0, 0, time.UTC)
		if !t.After(now) {
			t = t.AddDate(0, 0, 1)
		}
	case Weekly:
		y, m, d := now.Date()
		days := (int(r.Day) - int(now.Weekday()) + 7) % 7
		t = time.Date(y, m, d+days, 0, r.Minute, 0, 0, time.UTC)
		if !t.After(now) {
			t = t.AddDate(0, 0, 7)
		}
	}
	return t
}

// step is the time between two slots of the recurrence.
func (r Recurrence) step(t time.Time) time.Time {
	switch r.Cadence {
	case Hourly:
		return t.Add(time.Hour)
	case Daily:
		return t.AddDate(0, 0, 1)
	}
	return t.AddDate(0, 0, 7)
}

// Upcoming returns the slots that should exist at now: for each
// recurrence its next start after now (the next two for hourly), soonest
// first within each recurrence.
func (sc Schedule) Upcoming(now time.Time) []Slot {
	var out []Slot
	for _, r := range sc {
		t := r.next(now)
		for range r.ahead() {
			out = append(out, Slot{Recurrence: r, Starts: t})
			t = r.step(t)
		}
	}
	return out
}

// Key names the slot uniquely and the same on every server: its cadence
// and start ("hourly/2026-12-04T18:00Z"), from which the server derives
// the tournament's id, so that however many servers create it, it is
// created once.
func (s Slot) Key() string {
	return string(s.Cadence) + "/" + s.Starts.UTC().Format("2006-01-02T15:04Z")
}

// Settings are the slot's tournament: strict Golf over shared deals,
// entries open from its creation to its start. Hourly: nine holes of
// stroke play, closing 50 minutes after the start; daily: eighteen holes
// of stroke play, closing three hours after the start; weekly: a
// knockout of nine-hole matches.
func (s Slot) Settings() Settings {
	set := DefaultSettings()
	set.Schedule, set.Starts = s.Cadence, s.Starts.UTC()
	at := s.Starts.UTC()
	switch s.Cadence {
	case Hourly:
		set.Name = "Hourly · " + at.Format("15:04") + " UTC"
		set.Closes = at.Add(hourlyOpen)
	case Daily:
		set.Name = "Daily 18 · " + at.Format("Jan 2")
		set.Holes, set.Closes = 18, at.Add(dailyOpen)
	case Weekly:
		set.Name = "Weekly knockout · " + at.Format("Jan 2")
		set.Format = Knockout
	}
	return set
}
