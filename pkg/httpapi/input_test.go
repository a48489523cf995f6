package httpapi

import (
	"strings"
	"testing"
	"time"

	"github.com/danielgtaylor/huma/v2"
	"github.com/stretchr/testify/require"

	"github.com/assay-dev/assay/pkg/assess"
)

func TestJSONProblemsNameTheField(t *testing.T) {
	for _, c := range []struct {
		name, body string
		want       []assess.Detail
	}{
		{"clean document", `{"a":"x","b":[1,"y",{"c":null}],"d":{"e":true}}`, nil},
		{"escaped backslash before u0000", `{"path":"C:\\u0000dir"}`, nil},
		{"escaped NUL in a value", `{"username":"ro\u0000ot"}`, []assess.Detail{{Field: "username", Code: codeNULCharacter}}},
		{"NUL deep in arrays and objects", `{"items":[{"name":"a"},{"name":"b"},{"name":"c\u0000"}]}`,
			[]assess.Detail{{Field: "items[2].name", Code: codeNULCharacter}}},
		{"NUL in an array of strings", `["a","\u0000"]`, []assess.Detail{{Field: "[1]", Code: codeNULCharacter}}},
		{"NUL in a key", `{"x":{"k\u0000":1}}`, []assess.Detail{{Field: "x.k\uFFFD", Code: codeNULCharacter}}},
		{"invalid UTF-8 in a value", "{\"a\":1,\"b\":\"\xff\"}", []assess.Detail{{Field: "b", Code: codeInvalidUTF8}}},
		{"invalid UTF-8 in a key", "{\"\xc3\":1}", []assess.Detail{{Field: "\uFFFD", Code: codeInvalidUTF8}}},
		{"a bare string", `"\u0000"`, []assess.Detail{{Field: "body", Code: codeNULCharacter}}},
		{"values after a nested object keep their path", `{"o":{"p":[1,2]},"q":"\u0000"}`, []assess.Detail{{Field: "q", Code: codeNULCharacter}}},
		{"every bad field is named", `{"a":"\u0000","b":"\u0000"}`,
			[]assess.Detail{{Field: "a", Code: codeNULCharacter}, {Field: "b", Code: codeNULCharacter}}},
		{"a syntax error ends the walk", `{"a":"\u0000",`, []assess.Detail{{Field: "a", Code: codeNULCharacter}}},
		{"a right-to-left override, escaped", `{"name":"report \u202egnp.exe"}`, []assess.Detail{{Field: "name", Code: codeBidiOverride}}},
		{"a left-to-right override, raw", "{\"rationale\":\"a \u202d b\"}", []assess.Detail{{Field: "rationale", Code: codeBidiOverride}}},
		{"right-to-left text, marks and isolates pass", "{\"name\":\"\u05e9\u05dc\u05d5\u05dd \u200f \u2067abc\u2069 \u202bx\u202c\"}", nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			require.Equal(t, c.want, withoutMessages(jsonProblems([]byte(c.body))))
		})
	}
}

func TestQueryProblemsNameTheParameter(t *testing.T) {
	for _, c := range []struct {
		name, query string
		want        []assess.Detail
	}{
		{"clean query", "q=caf%C3%A9&limit=5&empty=&flag", nil},
		{"a plus is a space", "q=a+b", nil},
		{"NUL in a value", "q=%00", []assess.Detail{{Field: "q", Code: codeNULCharacter}}},
		{"invalid UTF-8 in a value", "limit=1&action=%ff", []assess.Detail{{Field: "action", Code: codeInvalidUTF8}}},
		{"NUL in a name", "a%00b=1", []assess.Detail{{Field: "a\uFFFDb", Code: codeNULCharacter}}},
		{"a broken escape in a value", "q=%ZZ", []assess.Detail{{Field: "q", Code: codeInvalidEscape}}},
		{"a broken escape in a name", "%G1=x", []assess.Detail{{Field: "%G1", Code: codeInvalidEscape}}},
		{"a right-to-left override in a value", "q=%E2%80%AEabc", []assess.Detail{{Field: "q", Code: codeBidiOverride}}},
	} {
		t.Run(c.name, func(t *testing.T) {
			require.Equal(t, c.want, withoutMessages(queryProblems(c.query)))
		})
	}
}

func withoutMessages(details []assess.Detail) []assess.Detail {
	for i := range details {
		details[i].Message = ""
	}
	return details
}

// TestJSONProblemsCostLinearTime: a document nested as deep as encoding/json allows is
// walked in linear time (paths are built only for reported fields).
func TestJSONProblemsCostLinearTime(t *testing.T) {
	for deep, field := range map[string]string{
		strings.Repeat(`{"a":[`, 4000) + `"\u0000"` + strings.Repeat(`]}`, 4000): strings.Repeat(".a[0]", 4000)[1:],
		strings.Repeat(`{"a":`, 9000) + `"\u0000"` + strings.Repeat(`}`, 9000):   strings.Repeat(".a", 9000)[1:],
	} {
		start := time.Now()
		got := jsonProblems([]byte(deep))
		require.Less(t, time.Since(start), time.Second)
		require.Len(t, got, 1)
		require.Equal(t, field, got[0].Field)
	}
}

// TestHumanBytes: refusals name limits as people read them, not as byte counts.
func TestHumanBytes(t *testing.T) {
	t.Parallel()
	for n, want := range map[int64]string{
		900:            "900 bytes",
		512 << 10:      "512 KiB",
		50 << 20:       "50 MiB",
		53477376:       "51 MiB",
		3 << 29:        "1.5 GiB",
		(50 << 20) + 1: "50 MiB",
		(10 << 20) / 4: "2.5 MiB",
	} {
		if got := humanBytes(n); got != want {
			t.Errorf("humanBytes(%d) = %q, want %q", n, got, want)
		}
	}
}

// TestHumanDetailListsAnEnumsValues: a value outside an enum names the values it takes,
// quoted, without the empty one huma lists last for "not given" (it read `expected value to
// be one of "-createdAt, name, validUntil, "`).
func TestHumanDetailListsAnEnumsValues(t *testing.T) {
	for list, want := range map[string]string{
		`-createdAt, name, validUntil, `: `must be one of "-createdAt", "name" or "validUntil"`,
		`draft, published`:               `must be one of "draft" or "published"`,
		`yes`:                            `must be "yes"`,
	} {
		got := humanDetail(&huma.ErrorDetail{Location: "query.sort", Message: `expected value to be one of "` + list + `"`})
		require.Equal(t, assess.Detail{Field: "sort", Code: "invalid", Message: want}, got)
	}
}
