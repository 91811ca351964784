// Package docs holds the tests of the project's documentation: every fenced
// block of README.md and docs/*.md says what it is, and every shell block
// either runs as written (make docs) or says what it needs that a test
// machine lacks.
package docs
