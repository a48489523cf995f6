package report

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/assay-dev/assay/pkg/assess"
)

// maxWord is the longest run of characters without a space the layout keeps whole (a
// SHA-256 in hex):
// maroto breaks lines at spaces only, so a longer word (a URL, a hash) would run out of
// its column; it is broken with spaces.
const maxWord = 64

// oneLine is s on one line: control characters and runs of white space become one space.
func oneLine(s string) string {
	return breakLong(strings.Join(strings.FieldsFunc(s, func(r rune) bool { return unicode.IsSpace(r) || unicode.IsControl(r) }), " "), maxWord)
}

// paragraphs splits s at line breaks into non-empty paragraphs, each on one line.
func paragraphs(s string) []string {
	var out []string
	for _, p := range strings.Split(strings.ReplaceAll(s, "\r\n", "\n"), "\n") {
		if p = oneLine(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}

// breakLong puts a space into every run of more than n characters without one.
func breakLong(s string, n int) string {
	var b strings.Builder
	run := 0
	for _, r := range s {
		if r == ' ' {
			run = 0
		} else if run++; run > n {
			b.WriteByte(' ')
			run = 1
		}
		b.WriteRune(r)
	}
	return b.String()
}

// when formats a time in UTC to the minute; "" for none.
func when(t *time.Time) string {
	if t == nil || t.IsZero() {
		return ""
	}
	return t.UTC().Format("2006-01-02 15:04 UTC")
}

// percent formats a 0–100 score.
func percent(s *float64) string {
	if s == nil {
		return "—"
	}
	return fmt.Sprintf("%.2f %%", *s)
}

// fraction formats a 0–1 score or confidence.
func fraction(s *float64) string {
	if s == nil {
		return "—"
	}
	return fmt.Sprintf("%.2f", *s)
}

// resultLabels name the results as the report prints them.
var resultLabels = map[string]string{
	string(assess.ResultYes): "Yes", string(assess.ResultPartial): "Partial", string(assess.ResultNo): "No",
	string(assess.ResultNotApplicable): "Not applicable", "": "Unanswered",
}

// humanize turns a state such as in_progress into words.
func humanize(s string) string {
	s = strings.ReplaceAll(s, "_", " ")
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// levelLabel names a level by its identifier and title: "Level L1: Opportunistic", "Level 1"
// (not "Level Level 1" when the identifier says it already).
func levelLabel(identifier, title string) string {
	name := identifier
	if !strings.HasPrefix(strings.ToLower(name), "level") {
		name = "Level " + name
	}
	if title != "" && title != identifier && !strings.EqualFold(title, name) {
		name += ": " + title
	}
	return name
}

// orDash is s, or a dash for nothing.
func orDash(s string) string {
	if strings.TrimSpace(s) == "" {
		return "—"
	}
	return s
}

// ContentSHA256 is the SHA-256 (hex) of the JSON encoding of the data a report shows,
// leaving out when and for whom it was generated: the same content gives the same value,
// any change of a result, rationale, claim or piece of evidence another. An assessment's
// report prints it to identify its edition; it is not a signature.
func ContentSHA256(r assess.Report) string {
	r.GeneratedAt, r.GeneratedBy = time.Time{}, ""
	h := sha256.New()
	if err := json.NewEncoder(h).Encode(r); err != nil {
		return ""
	}
	return hex.EncodeToString(h.Sum(nil))
}

// drawable is a copy of r whose text the PDF library can draw: its font tables index the
// Basic Multilingual Plane only, and a character beyond it (an emoji, a rare CJK ideograph,
// a mathematical letter) made it panic. Each becomes U+FFFD, the replacement character,
// which DejaVu Sans draws. r itself is left as it is (its slices are not shared with the
// copy), so that ContentSHA256 is taken of the real text.
func drawable(r assess.Report) assess.Report {
	out := reflect.New(reflect.TypeFor[assess.Report]()).Elem()
	out.Set(cleanCopy(reflect.ValueOf(r)))
	return out.Interface().(assess.Report)
}

// cleanCopy copies v deeply (strings, structs, pointers, slices, arrays and maps), with
// every string's characters beyond the Basic Multilingual Plane replaced by U+FFFD.
func cleanCopy(v reflect.Value) reflect.Value {
	switch v.Kind() {
	case reflect.String:
		out := reflect.New(v.Type()).Elem()
		out.SetString(inPlane(v.String()))
		return out
	case reflect.Pointer:
		if v.IsNil() {
			return v
		}
		out := reflect.New(v.Type().Elem())
		out.Elem().Set(cleanCopy(v.Elem()))
		return out
	case reflect.Struct:
		out := reflect.New(v.Type()).Elem()
		out.Set(v) // unexported fields (time.Time's) as they are
		for i := range v.NumField() {
			if f := out.Field(i); f.CanSet() {
				f.Set(cleanCopy(v.Field(i)))
			}
		}
		return out
	case reflect.Slice:
		if v.IsNil() {
			return v
		}
		out := reflect.MakeSlice(v.Type(), v.Len(), v.Len())
		for i := range v.Len() {
			out.Index(i).Set(cleanCopy(v.Index(i)))
		}
		return out
	case reflect.Array:
		out := reflect.New(v.Type()).Elem()
		for i := range v.Len() {
			out.Index(i).Set(cleanCopy(v.Index(i)))
		}
		return out
	case reflect.Map:
		if v.IsNil() {
			return v
		}
		out := reflect.MakeMapWithSize(v.Type(), v.Len())
		for it := v.MapRange(); it.Next(); {
			out.SetMapIndex(cleanCopy(it.Key()), cleanCopy(it.Value()))
		}
		return out
	default:
		return v
	}
}

// inPlane replaces each character of s beyond U+FFFF (and each invalid byte) with U+FFFD.
func inPlane(s string) string {
	clean := true
	for _, r := range s {
		if r > 0xFFFF || r == utf8.RuneError {
			clean = false
			break
		}
	}
	if clean {
		return s
	}
	return strings.Map(func(r rune) rune {
		if r > 0xFFFF {
			return utf8.RuneError
		}
		return r
	}, strings.ToValidUTF8(s, string(utf8.RuneError)))
}
