//go:build race

package fairplay_test

const raceEnabled = true
