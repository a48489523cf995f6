package jsf

import (
	"bytes"
	"errors"
	"fmt"
	"strconv"
	"unicode/utf8"
)

// MaxDepth bounds the nesting of arrays and objects Parse accepts, so that a hostile
// document cannot exhaust the stack of the recursive parser or serialiser.
const MaxDepth = 1000

// The reasons Parse refuses a document; a *SyntaxError wraps one of them, so match them
// with errors.Is.
var (
	// ErrSyntax is anything RFC 8259 does not allow that has no reason of its own
	// below: a leading zero, a trailing comma, a raw control character, a byte order
	// mark...
	ErrSyntax = errors.New("invalid JSON")
	// ErrDuplicateKey is two members of one object with the same name (compared after
	// unescaping), which JCS cannot order and verifiers would resolve differently.
	ErrDuplicateKey = errors.New("duplicate object key")
	// ErrInvalidUTF8 is a string that is not valid UTF-8.
	ErrInvalidUTF8 = errors.New("invalid UTF-8")
	// ErrLoneSurrogate is a \uD800-\uDFFF escape that is not half of a pair.
	ErrLoneSurrogate = errors.New("lone surrogate escape")
	// ErrNumberRange is a number beyond the largest double (such as 1e400).
	ErrNumberRange = errors.New("number is not a finite IEEE-754 double")
	// ErrTrailingData is anything but whitespace after the value.
	ErrTrailingData = errors.New("data after the JSON value")
	// ErrTooDeep is nesting of arrays and objects deeper than MaxDepth.
	ErrTooDeep = errors.New("nesting deeper than MaxDepth")
)

// SyntaxError says where and why Parse refused a document.
type SyntaxError struct {
	Offset int    // byte offset in the input
	Err    error  // one of the reasons above
	Detail string // what was found, for people
}

// Error implements error.
func (e *SyntaxError) Error() string {
	if e.Detail == "" {
		return fmt.Sprintf("jsf: offset %d: %v", e.Offset, e.Err)
	}
	return fmt.Sprintf("jsf: offset %d: %v: %s", e.Offset, e.Err, e.Detail)
}

// Unwrap lets errors.Is match the reason.
func (e *SyntaxError) Unwrap() error { return e.Err }

// Parse reads one JSON value (RFC 8259) strictly into the tree described in the package
// documentation. Unlike encoding/json it refuses duplicate keys, invalid UTF-8, lone
// surrogate escapes, numbers outside the double range, a byte order mark and trailing
// data: each of these lets two parties disagree about what was signed.
func Parse(data []byte) (any, error) {
	p := &parser{data: data}
	p.skipSpace()
	v, err := p.value(0)
	if err != nil {
		return nil, err
	}
	p.skipSpace()
	if p.pos != len(p.data) {
		return nil, p.fail(ErrTrailingData, "")
	}
	return v, nil
}

// ParseObject is Parse for a document whose top level must be an object.
func ParseObject(data []byte) (*Object, error) {
	v, err := Parse(data)
	if err != nil {
		return nil, err
	}
	obj, ok := v.(*Object)
	if !ok {
		return nil, fmt.Errorf("jsf: document is a %s, not an object", typeName(v))
	}
	return obj, nil
}

type parser struct {
	data []byte
	pos  int
}

func (p *parser) fail(err error, detail string) error {
	return &SyntaxError{Offset: p.pos, Err: err, Detail: detail}
}

func (p *parser) skipSpace() {
	for p.pos < len(p.data) {
		switch p.data[p.pos] {
		case ' ', '\t', '\n', '\r':
			p.pos++
		default:
			return
		}
	}
}

func (p *parser) value(depth int) (any, error) {
	if p.pos >= len(p.data) {
		return nil, p.fail(ErrSyntax, "unexpected end of input")
	}
	switch c := p.data[p.pos]; {
	case c == '{':
		return p.object(depth + 1)
	case c == '[':
		return p.array(depth + 1)
	case c == '"':
		return p.string()
	case c == '-' || (c >= '0' && c <= '9'):
		return p.number()
	case p.literal("true"):
		return true, nil
	case p.literal("false"):
		return false, nil
	case p.literal("null"):
		return nil, nil
	case c >= utf8.RuneSelf:
		return nil, p.fail(ErrSyntax, fmt.Sprintf("unexpected byte 0x%02x", c))
	default:
		return nil, p.fail(ErrSyntax, fmt.Sprintf("unexpected character %q", rune(c)))
	}
}

func (p *parser) literal(word string) bool {
	if !bytes.HasPrefix(p.data[p.pos:], []byte(word)) {
		return false
	}
	p.pos += len(word)
	return true
}

func (p *parser) object(depth int) (*Object, error) {
	if depth > MaxDepth {
		return nil, p.fail(ErrTooDeep, "")
	}
	p.pos++ // {
	obj := &Object{}
	var seen map[string]struct{} // only for large objects, to keep parsing linear
	p.skipSpace()
	if p.pos < len(p.data) && p.data[p.pos] == '}' {
		p.pos++
		return obj, nil
	}
	for {
		if p.pos >= len(p.data) || p.data[p.pos] != '"' {
			return nil, p.fail(ErrSyntax, "expected a member name")
		}
		at := p.pos
		name, err := p.string()
		if err != nil {
			return nil, err
		}
		if seen == nil && len(obj.members) >= 16 {
			seen = make(map[string]struct{}, 2*len(obj.members))
			for _, m := range obj.members {
				seen[m.Name] = struct{}{}
			}
		}
		dup := false
		if seen != nil {
			_, dup = seen[name]
			seen[name] = struct{}{}
		} else {
			dup = obj.index(name) >= 0
		}
		if dup {
			p.pos = at
			return nil, p.fail(ErrDuplicateKey, strconv.Quote(name))
		}
		p.skipSpace()
		if p.pos >= len(p.data) || p.data[p.pos] != ':' {
			return nil, p.fail(ErrSyntax, "expected ':'")
		}
		p.pos++
		p.skipSpace()
		v, err := p.value(depth)
		if err != nil {
			return nil, err
		}
		obj.members = append(obj.members, Member{Name: name, Value: v})
		p.skipSpace()
		if p.pos < len(p.data) && p.data[p.pos] == ',' {
			p.pos++
			p.skipSpace()
			continue
		}
		if p.pos < len(p.data) && p.data[p.pos] == '}' {
			p.pos++
			return obj, nil
		}
		return nil, p.fail(ErrSyntax, "expected ',' or '}'")
	}
}

func (p *parser) array(depth int) ([]any, error) {
	if depth > MaxDepth {
		return nil, p.fail(ErrTooDeep, "")
	}
	p.pos++ // [
	arr := []any{}
	p.skipSpace()
	if p.pos < len(p.data) && p.data[p.pos] == ']' {
		p.pos++
		return arr, nil
	}
	for {
		v, err := p.value(depth)
		if err != nil {
			return nil, err
		}
		arr = append(arr, v)
		p.skipSpace()
		if p.pos < len(p.data) && p.data[p.pos] == ',' {
			p.pos++
			p.skipSpace()
			continue
		}
		if p.pos < len(p.data) && p.data[p.pos] == ']' {
			p.pos++
			return arr, nil
		}
		return nil, p.fail(ErrSyntax, "expected ',' or ']'")
	}
}

// number checks the RFC 8259 grammar itself, because strconv.ParseFloat also accepts
// forms JSON forbids (leading zeros, "+1", ".5", "0x1p3", "Inf", underscores).
func (p *parser) number() (float64, error) {
	start := p.pos
	digits := func() int {
		n := 0
		for p.pos < len(p.data) && p.data[p.pos] >= '0' && p.data[p.pos] <= '9' {
			p.pos++
			n++
		}
		return n
	}
	if p.data[p.pos] == '-' {
		p.pos++
	}
	intStart := p.pos
	if n := digits(); n == 0 {
		return 0, p.fail(ErrSyntax, "expected a digit")
	} else if n > 1 && p.data[intStart] == '0' {
		p.pos = intStart
		return 0, p.fail(ErrSyntax, "leading zero in number")
	}
	if p.pos < len(p.data) && p.data[p.pos] == '.' {
		p.pos++
		if digits() == 0 {
			return 0, p.fail(ErrSyntax, "expected a digit after '.'")
		}
	}
	if p.pos < len(p.data) && (p.data[p.pos] == 'e' || p.data[p.pos] == 'E') {
		p.pos++
		if p.pos < len(p.data) && (p.data[p.pos] == '+' || p.data[p.pos] == '-') {
			p.pos++
		}
		if digits() == 0 {
			return 0, p.fail(ErrSyntax, "expected a digit in the exponent")
		}
	}
	text := string(p.data[start:p.pos])
	f, err := strconv.ParseFloat(text, 64)
	if err != nil {
		// ParseFloat reports only overflow here (the grammar is already checked);
		// underflow rounds to zero as it does in ECMAScript, which JCS follows.
		p.pos = start
		return 0, p.fail(ErrNumberRange, text)
	}
	return f, nil
}
