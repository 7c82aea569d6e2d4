//go:build !race

package golf

const raceEnabled = false
