//go:build !race

package fairplay_test

const raceEnabled = false
