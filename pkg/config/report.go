package config

import (
	"fmt"
	"strings"
)

// Problem is one refused configuration value.
type Problem struct {
	// Variable names the environment variable at fault.
	Variable string
	// Value is the refused value as read, or "<redacted>" for a secret. It is empty when the
	// problem is a missing value.
	Value string
	// Accepted says what the variable accepts, or why the value cannot be used, in words an
	// operator can act on, such as "must be an integer between 1 and 65535".
	Accepted string
}

// String formats p as one line, VARIABLE="value": accepted.
func (p Problem) String() string {
	return fmt.Sprintf("%s=%q: %s", p.Variable, p.Value, p.Accepted)
}

// ValidationError is returned by Load and FromEnviron when the configuration cannot be used.
// It lists every problem found, so that an operator can fix them all in one pass.
type ValidationError struct {
	// Problems are in the order the variables are checked, group by group as in
	// docs/configuration.md; a rule that combines variables comes after its variables.
	Problems []Problem
}

// Error lists the problems, one per indented line, under "invalid configuration:".
func (e *ValidationError) Error() string {
	var b strings.Builder
	b.WriteString("invalid configuration:")
	for _, p := range e.Problems {
		b.WriteString("\n  ")
		b.WriteString(p.String())
	}
	return b.String()
}

// Setting is one variable of the effective configuration, for `assay-ctl config check` and
// start-up diagnostics.
type Setting struct {
	// Name is the environment variable.
	Name string
	// Value is the effective value in its canonical spelling ("yes" is shown as "true",
	// "embedded" as "pglite"). A secret shows "<redacted>" when it has a value and "" when
	// it has none.
	Value string
	// Source is "default", "env", or "file" for a value read from a *_FILE variable.
	Source string
	// Secret marks variables whose value is never shown.
	Secret bool
}

// Settings returns every variable the service reads with its effective value and where that
// value came from, in the order of docs/configuration.md. Secrets are redacted, so the result
// is safe to print and to log.
func (c *Config) Settings() []Setting {
	out := make([]Setting, len(c.settings))
	copy(out, c.settings)
	return out
}

// settingsReport builds the Settings of a successful load from the loader's record.
func (l *loader) settingsReport() []Setting {
	out := make([]Setting, 0, len(variables))
	for _, v := range variables {
		value, ok := l.effective[v.name]
		if !ok {
			value = l.raw(v.name)
		}
		if v.secret && value != "" {
			value = redacted
		}
		source := l.source[v.name]
		if source == "" {
			source = sourceDefault
		}
		out = append(out, Setting{Name: v.name, Value: value, Source: source, Secret: v.secret})
	}
	return out
}
