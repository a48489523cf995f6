package jsf

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// ErrUnsupportedValue is returned when a tree handed to a Marshal function holds something
// JSON cannot express: a Go type other than those Parse produces, NaN or ±Inf, a string
// that is not valid UTF-8, or nesting deeper than MaxDepth.
var ErrUnsupportedValue = errors.New("jsf: value cannot be written as JSON")

// Canonicalize parses data strictly (see Parse) and returns its RFC 8785 canonical form:
// no whitespace, object members sorted by the UTF-16 code units of their names, strings
// and numbers written the way ECMAScript's JSON.stringify writes them.
func Canonicalize(data []byte) ([]byte, error) {
	v, err := Parse(data)
	if err != nil {
		return nil, err
	}
	return MarshalCanonical(v)
}

// MarshalCanonical writes a tree in its RFC 8785 canonical form. These are the bytes JSF
// signs.
func MarshalCanonical(v any) ([]byte, error) {
	w := writer{canonical: true}
	if err := w.value(v, 0); err != nil {
		return nil, err
	}
	return w.buf, nil
}

// Marshal writes a tree compactly with object members in their stored order. Strings and
// numbers are written as in the canonical form, so the output re-parses to the same tree.
func Marshal(v any) ([]byte, error) {
	return MarshalIndent(v, "")
}

// MarshalIndent is Marshal with each array element and object member on its own line,
// indented by one copy of indent per level. An empty indent gives the compact form.
func MarshalIndent(v any, indent string) ([]byte, error) {
	w := writer{indent: indent}
	if err := w.value(v, 0); err != nil {
		return nil, err
	}
	return w.buf, nil
}

type writer struct {
	buf       []byte
	canonical bool
	indent    string
}

func (w *writer) newline(depth int) {
	if w.indent == "" {
		return
	}
	w.buf = append(w.buf, '\n')
	for range depth {
		w.buf = append(w.buf, w.indent...)
	}
}

func (w *writer) value(v any, depth int) error {
	if depth > MaxDepth {
		return fmt.Errorf("%w: nesting deeper than %d", ErrUnsupportedValue, MaxDepth)
	}
	switch v := v.(type) {
	case nil:
		w.buf = append(w.buf, "null"...)
	case bool:
		w.buf = strconv.AppendBool(w.buf, v)
	case float64:
		var err error
		if w.buf, err = appendNumber(w.buf, v); err != nil {
			return err
		}
	case string:
		return w.string(v)
	case []any:
		return w.array(v, depth)
	case *Object:
		return w.object(v, depth)
	default:
		return fmt.Errorf("%w: Go type %T", ErrUnsupportedValue, v)
	}
	return nil
}

func (w *writer) array(arr []any, depth int) error {
	w.buf = append(w.buf, '[')
	for i, e := range arr {
		if i > 0 {
			w.buf = append(w.buf, ',')
		}
		w.newline(depth + 1)
		if err := w.value(e, depth+1); err != nil {
			return err
		}
	}
	if len(arr) > 0 {
		w.newline(depth)
	}
	w.buf = append(w.buf, ']')
	return nil
}

func (w *writer) object(obj *Object, depth int) error {
	members := obj.members
	if w.canonical {
		members = slices.Clone(members)
		slices.SortFunc(members, func(a, b Member) int { return compareUTF16(a.Name, b.Name) })
	}
	w.buf = append(w.buf, '{')
	for i, m := range members {
		if i > 0 {
			w.buf = append(w.buf, ',')
		}
		w.newline(depth + 1)
		if err := w.string(m.Name); err != nil {
			return err
		}
		w.buf = append(w.buf, ':')
		if w.indent != "" {
			w.buf = append(w.buf, ' ')
		}
		if err := w.value(m.Value, depth+1); err != nil {
			return err
		}
	}
	if len(members) > 0 {
		w.newline(depth)
	}
	w.buf = append(w.buf, '}')
	return nil
}

// string follows RFC 8785 §3.2.2.2: the two-character escapes where JSON has them, \u00xx
// (lower-case hex) for the other control characters, everything else as literal UTF-8.
func (w *writer) string(s string) error {
	if !utf8.ValidString(s) {
		return fmt.Errorf("%w: string %q is not valid UTF-8", ErrUnsupportedValue, s)
	}
	const hex = "0123456789abcdef"
	w.buf = append(w.buf, '"')
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '"' || c == '\\':
			w.buf = append(w.buf, '\\', c)
		case c == '\b':
			w.buf = append(w.buf, '\\', 'b')
		case c == '\f':
			w.buf = append(w.buf, '\\', 'f')
		case c == '\n':
			w.buf = append(w.buf, '\\', 'n')
		case c == '\r':
			w.buf = append(w.buf, '\\', 'r')
		case c == '\t':
			w.buf = append(w.buf, '\\', 't')
		case c < 0x20:
			w.buf = append(w.buf, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
		default:
			w.buf = append(w.buf, c)
		}
	}
	w.buf = append(w.buf, '"')
	return nil
}

// compareUTF16 orders strings by their UTF-16 code units, as RFC 8785 §3.2.3 requires.
// That differs from byte (code point) order only when a character outside the Basic
// Multilingual Plane meets one in U+E000..U+FFFF: the surrogate pair of the former starts
// with a unit in D800..DBFF, which sorts before the latter.
func compareUTF16(a, b string) int {
	for a != "" && b != "" {
		ra, na := utf8.DecodeRuneInString(a)
		rb, nb := utf8.DecodeRuneInString(b)
		if ra != rb {
			ua, ub := firstUTF16Unit(ra), firstUTF16Unit(rb)
			if ua != ub {
				return int(ua) - int(ub)
			}
			// Both are surrogate pairs with the same high half: the low halves, and
			// so the code points, decide.
			return int(ra) - int(rb)
		}
		a, b = a[na:], b[nb:]
	}
	return len(a) - len(b)
}

func firstUTF16Unit(r rune) rune {
	if r >= 0x10000 {
		return 0xd800 + (r-0x10000)>>10
	}
	return r
}

// appendNumber writes f as ECMAScript's Number.prototype.toString does (ECMA-262
// Number::toString, which RFC 8785 §3.2.2.3 adopts). strconv gives the shortest digits
// that round-trip; only the placement of the decimal point and exponent differs from Go's
// own formats.
func appendNumber(dst []byte, f float64) ([]byte, error) {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return dst, fmt.Errorf("%w: %v", ErrUnsupportedValue, f)
	}
	if f == 0 { // also -0, which ECMAScript writes as "0"
		return append(dst, '0'), nil
	}
	if f < 0 {
		dst = append(dst, '-')
		f = -f
	}
	// "d.ddddde±xx": the digits s (k of them) and n, the position of the decimal point
	// relative to them, in ECMA-262's notation: f = s × 10^(n−k).
	e := strconv.AppendFloat(nil, f, 'e', -1, 64)
	mark := strings.IndexByte(string(e), 'e')
	digits := strings.Replace(string(e[:mark]), ".", "", 1)
	exp, _ := strconv.Atoi(string(e[mark+1:]))
	k, n := len(digits), exp+1
	switch {
	case k <= n && n <= 21: // integer: digits then n−k zeros
		dst = append(dst, digits...)
		dst = append(dst, strings.Repeat("0", n-k)...)
	case 0 < n && n <= 21: // decimal point inside the digits
		dst = append(dst, digits[:n]...)
		dst = append(dst, '.')
		dst = append(dst, digits[n:]...)
	case -6 < n && n <= 0: // small: 0.000ddd
		dst = append(dst, "0."...)
		dst = append(dst, strings.Repeat("0", -n)...)
		dst = append(dst, digits...)
	default: // exponent form, always signed
		dst = append(dst, digits[0])
		if k > 1 {
			dst = append(dst, '.')
			dst = append(dst, digits[1:]...)
		}
		dst = append(dst, 'e')
		if n-1 >= 0 {
			dst = append(dst, '+')
		}
		dst = strconv.AppendInt(dst, int64(n-1), 10)
	}
	return dst, nil
}
