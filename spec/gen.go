package spec

//go:generate go run ./internal/genpublished -dir published
