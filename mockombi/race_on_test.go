//go:build race

package mockombi

// raceEnabled is true under the race detector, where the slowest checks
// are left to the plain run.
const raceEnabled = true
