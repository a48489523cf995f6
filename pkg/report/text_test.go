package report

import (
	"slices"
	"testing"
)

func TestTextHelpers(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ identifier, title, want string }{
		{"L1", "Opportunistic", "Level L1: Opportunistic"},
		{"L1", "", "Level L1"},
		{"L1", "L1", "Level L1"},
		{"Level 1", "Level 1", "Level 1"},
		{"1", "Level 1", "Level 1"},
		{"level-2", "Standard", "level-2: Standard"},
	} {
		if got := levelLabel(c.identifier, c.title); got != c.want {
			t.Errorf("levelLabel(%q, %q) = %q, want %q", c.identifier, c.title, got, c.want)
		}
	}
	for _, c := range []struct {
		in   string
		n    int
		want string
	}{
		{"short words stay", 5, "short words stay"},
		{"abcdefgh ij", 3, "abc def gh ij"},
		{"Ελληνικά", 4, "Ελλη νικά"},
	} {
		if got := breakLong(c.in, c.n); got != c.want {
			t.Errorf("breakLong(%q, %d) = %q, want %q", c.in, c.n, got, c.want)
		}
	}
	got := paragraphs("First line\r\n\n  second\tline \x00 with NUL\n   \n")
	if want := []string{"First line", "second line with NUL"}; !slices.Equal(got, want) {
		t.Errorf("paragraphs = %q, want %q", got, want)
	}
}
