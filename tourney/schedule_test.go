package tourney_test

import (
	"errors"
	"testing"
	"time"

	"golfsolitaire/tourney"
)

func TestParseSchedule(t *testing.T) {
	t.Parallel()
	good := []struct{ in, want string }{
		{"", "off"},
		{"off", "off"},
		{"hourly", "hourly@:00"},
		{"hourly@:30, daily@18:05", "hourly@:30,daily@18:05"},
		{"weekly@SAT-19:00,hourly", "weekly@sat-19:00,hourly@:00"},
		{tourney.DefaultSchedule, "hourly@:00,daily@20:00,weekly@sun-19:00"},
	}
	for _, c := range good {
		sc, err := tourney.ParseSchedule(c.in)
		if err != nil {
			t.Errorf("%q: %v", c.in, err)
			continue
		}
		if got := sc.String(); got != c.want {
			t.Errorf("%q: got %q, want %q", c.in, got, c.want)
		}
		again, err := tourney.ParseSchedule(sc.String())
		if err != nil || again.String() != c.want {
			t.Errorf("%q: does not read back: %v %v", c.in, again, err)
		}
	}
	for _, in := range []string{"yearly", "hourly,hourly", "hourly@30", "hourly@:60", "daily@24:00", "daily@7:00",
		"weekly@fri", "weekly@xyz-10:00", "daily@", "hourly,"} {
		if _, err := tourney.ParseSchedule(in); !errors.Is(err, tourney.ErrInvalid) {
			t.Errorf("%q: got %v, want an invalid schedule", in, err)
		}
	}
}

func TestScheduleUpcoming(t *testing.T) {
	t.Parallel()
	sc, err := tourney.ParseSchedule("hourly@:15,daily@20:00,weekly@sun-19:00")
	if err != nil {
		t.Fatal(err)
	}
	at := func(s string) time.Time {
		tm, err := time.Parse(time.RFC3339, s)
		if err != nil {
			t.Fatal(err)
		}
		return tm
	}
	cases := []struct {
		now  string
		want []string
	}{
		// Friday.
		{"2026-12-04T17:50:00Z", []string{"hourly/2026-12-04T18:15Z", "hourly/2026-12-04T19:15Z", "daily/2026-12-04T20:00Z", "weekly/2026-12-06T19:00Z"}},
		// A start is never "upcoming" at its own time.
		{"2026-12-04T18:15:00Z", []string{"hourly/2026-12-04T19:15Z", "hourly/2026-12-04T20:15Z", "daily/2026-12-04T20:00Z", "weekly/2026-12-06T19:00Z"}},
		{"2026-12-31T23:20:00Z", []string{"hourly/2027-01-01T00:15Z", "hourly/2027-01-01T01:15Z", "daily/2027-01-01T20:00Z", "weekly/2027-01-03T19:00Z"}},
		// Sunday after the weekly start: next week's.
		{"2026-12-06T19:00:01Z", []string{"hourly/2026-12-06T19:15Z", "hourly/2026-12-06T20:15Z", "daily/2026-12-06T20:00Z", "weekly/2026-12-13T19:00Z"}},
	}
	for _, c := range cases {
		now := at(c.now)
		got := sc.Upcoming(now)
		if len(got) != len(c.want) {
			t.Fatalf("%s: %d slots, want %d", c.now, len(got), len(c.want))
		}
		for i, s := range got {
			if s.Key() != c.want[i] {
				t.Errorf("%s: slot %d is %s, want %s", c.now, i, s.Key(), c.want[i])
			}
			set := s.Settings()
			if err := set.Validate(); err != nil {
				t.Errorf("%s: %v", s.Key(), err)
			}
			if !set.Starts.After(now) || set.Schedule != s.Cadence {
				t.Errorf("%s: settings %+v", s.Key(), set)
			}
		}
	}
}

func TestSlotSettings(t *testing.T) {
	t.Parallel()
	starts := time.Date(2026, 12, 6, 19, 0, 0, 0, time.UTC)
	cases := []struct {
		cadence tourney.Cadence
		holes   int
		format  tourney.Format
		closes  time.Duration
	}{
		{tourney.Hourly, 9, tourney.Stroke, 50 * time.Minute},
		{tourney.Daily, 18, tourney.Stroke, 3 * time.Hour},
		{tourney.Weekly, 9, tourney.Knockout, 0},
	}
	for _, c := range cases {
		s := tourney.Slot{Recurrence: tourney.Recurrence{Cadence: c.cadence}, Starts: starts}.Settings()
		var closes time.Duration
		if !s.Closes.IsZero() {
			closes = s.Closes.Sub(starts)
		}
		if s.Holes != c.holes || s.Format != c.format || closes != c.closes || s.Invite || s.Limit != 0 {
			t.Errorf("%s: %+v", c.cadence, s)
		}
	}
	bad := tourney.DefaultSettings()
	bad.Schedule = "monthly"
	if err := bad.Validate(); !errors.Is(err, tourney.ErrInvalid) {
		t.Errorf("schedule monthly: %v", err)
	}
	bad.Schedule = tourney.Hourly
	if err := bad.Validate(); !errors.Is(err, tourney.ErrInvalid) {
		t.Errorf("scheduled without a start: %v", err)
	}
}
