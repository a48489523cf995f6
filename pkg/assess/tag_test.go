package assess

import (
	"slices"
	"strings"
	"testing"
)

func TestNewTagValidate(t *testing.T) {
	tag := NewTag{Name: "  PCI scope ", Color: "#A1B2C3", Description: " cards "}
	if err := tag.Validate(); err != nil {
		t.Fatal(err)
	}
	if tag.Name != "PCI scope" || tag.Color != "#a1b2c3" || tag.Description != "cards" {
		t.Errorf("not normalised: %+v", tag)
	}
	for _, c := range []struct {
		name string
		tag  NewTag
		want []string
	}{
		{"blank name", NewTag{Name: " "}, []string{"name:required"}},
		{"long name", NewTag{Name: strings.Repeat("ß", 101)}, []string{"name:too_long"}},
		{"control character", NewTag{Name: "a\u0007b"}, []string{"name:invalid"}},
		{"colour without #", NewTag{Name: "x", Color: "a1b2c3"}, []string{"color:invalid"}},
		{"short colour", NewTag{Name: "x", Color: "#abc"}, []string{"color:invalid"}},
		{"colour name", NewTag{Name: "x", Color: "red"}, []string{"color:invalid"}},
		{"not hex", NewTag{Name: "x", Color: "#12345g"}, []string{"color:invalid"}},
		{"both", NewTag{Name: "", Color: "#1"}, []string{"name:required", "color:invalid"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := projectDetailFields(t, c.tag.Validate()); !slices.Equal(got, c.want) {
				t.Errorf("details %v, want %v", got, c.want)
			}
		})
	}
}

func TestDefaultTagColor(t *testing.T) {
	a := NewTag{Name: "Critical"}
	b := NewTag{Name: " critical "}
	if err := a.Validate(); err != nil {
		t.Fatal(err)
	}
	if err := b.Validate(); err != nil {
		t.Fatal(err)
	}
	if a.Color != b.Color || !slices.Contains(TagPalette, a.Color) {
		t.Errorf("default colours %q and %q: the same palette entry for the same name", a.Color, b.Color)
	}
	seen := map[string]bool{}
	for _, n := range []string{"a", "b", "c", "d", "e", "f", "g", "h"} {
		seen[DefaultTagColor(n)] = true
	}
	if len(seen) < 3 {
		t.Errorf("names spread over only %d colours", len(seen))
	}
	for _, c := range TagPalette {
		if !tagColorPattern.MatchString(c) || c != strings.ToLower(c) {
			t.Errorf("palette entry %q is not #rrggbb in lower case", c)
		}
	}
}

func TestTagUpdateValidate(t *testing.T) {
	name, color := " Renamed ", "#ABCDEF"
	u := TagUpdate{Version: 1, Name: &name, Color: &color}
	if err := u.Validate(); err != nil {
		t.Fatal(err)
	}
	if *u.Name != "Renamed" || *u.Color != "#abcdef" {
		t.Errorf("not normalised: %q %q", *u.Name, *u.Color)
	}
	blank, bad := "", "#zzzzzz"
	if got := projectDetailFields(t, (&TagUpdate{Name: &blank, Color: &bad}).Validate()); !slices.Equal(got, []string{"name:required", "color:invalid"}) {
		t.Errorf("details %v", got)
	}
}
