package config

import (
	"os"
	"strings"
	"testing"
)

// TestEveryVariableIsDocumented keeps docs/configuration.md complete: a variable the
// service reads but the operator reference does not mention is a variable nobody sets.
func TestEveryVariableIsDocumented(t *testing.T) {
	raw, err := os.ReadFile("../../docs/configuration.md")
	if err != nil {
		t.Fatal(err)
	}
	doc := string(raw)
	for _, v := range variables {
		if !strings.Contains(doc, "`"+v.name+"`") {
			t.Errorf("%s is not documented in docs/configuration.md", v.name)
		}
	}
}
