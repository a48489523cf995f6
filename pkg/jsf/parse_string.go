package jsf

import (
	"fmt"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// string reads a JSON string. Object names go through here too, so duplicate detection
// compares names after unescaping, as I-JSON (RFC 7493), which JCS builds on, requires.
func (p *parser) string() (string, error) {
	p.pos++ // opening quote
	start := p.pos
	// Fast path: no escapes, so the value is a slice of the input.
	for p.pos < len(p.data) {
		c := p.data[p.pos]
		if c == '"' {
			s := string(p.data[start:p.pos])
			p.pos++
			return s, nil
		}
		if c == '\\' {
			break
		}
		if err := p.plainChar(c); err != nil {
			return "", err
		}
	}
	var b strings.Builder
	b.Write(p.data[start:p.pos])
	for p.pos < len(p.data) {
		c := p.data[p.pos]
		switch c {
		case '"':
			p.pos++
			return b.String(), nil
		case '\\':
			if err := p.escape(&b); err != nil {
				return "", err
			}
		default:
			at := p.pos
			if err := p.plainChar(c); err != nil {
				return "", err
			}
			b.Write(p.data[at:p.pos])
		}
	}
	return "", p.fail(ErrSyntax, "unterminated string")
}

// plainChar consumes one unescaped character of a string, which must be valid UTF-8 and
// not a control character.
func (p *parser) plainChar(c byte) error {
	if c < 0x20 {
		return p.fail(ErrSyntax, "control character in string")
	}
	if c < utf8.RuneSelf {
		p.pos++
		return nil
	}
	r, size := utf8.DecodeRune(p.data[p.pos:])
	if r == utf8.RuneError && size <= 1 {
		return p.fail(ErrInvalidUTF8, "")
	}
	p.pos += size
	return nil
}

// shortEscapes maps the letter after a backslash to the character it stands for.
var shortEscapes = map[byte]byte{'"': '"', '\\': '\\', '/': '/', 'b': '\b', 'f': '\f', 'n': '\n', 'r': '\r', 't': '\t'}

func (p *parser) escape(b *strings.Builder) error {
	if p.pos+1 >= len(p.data) {
		return p.fail(ErrSyntax, "unterminated escape")
	}
	c := p.data[p.pos+1]
	if short, ok := shortEscapes[c]; ok {
		b.WriteByte(short)
		p.pos += 2
		return nil
	}
	if c != 'u' {
		return p.fail(ErrSyntax, fmt.Sprintf("invalid escape \\%c", c))
	}
	r, err := p.hex4(p.pos + 2)
	if err != nil {
		return err
	}
	switch {
	case utf16.IsSurrogate(r) && r < 0xdc00: // high surrogate: a low one must follow
		if p.pos+12 > len(p.data) || p.data[p.pos+6] != '\\' || p.data[p.pos+7] != 'u' {
			return p.fail(ErrLoneSurrogate, fmt.Sprintf("\\u%04x is not followed by a low surrogate", r))
		}
		lo, err := p.hex4(p.pos + 8)
		if err != nil {
			return err
		}
		combined := utf16.DecodeRune(r, lo)
		if combined == utf8.RuneError {
			return p.fail(ErrLoneSurrogate, fmt.Sprintf("\\u%04x is not followed by a low surrogate", r))
		}
		b.WriteRune(combined)
		p.pos += 12
	case utf16.IsSurrogate(r):
		return p.fail(ErrLoneSurrogate, fmt.Sprintf("\\u%04x has no high surrogate before it", r))
	default:
		b.WriteRune(r)
		p.pos += 6
	}
	return nil
}

func (p *parser) hex4(at int) (rune, error) {
	if at+4 > len(p.data) {
		return 0, p.fail(ErrSyntax, "short \\u escape")
	}
	var r rune
	for _, c := range p.data[at : at+4] {
		var d byte
		switch {
		case c >= '0' && c <= '9':
			d = c - '0'
		case c >= 'a' && c <= 'f':
			d = c - 'a' + 10
		case c >= 'A' && c <= 'F':
			d = c - 'A' + 10
		default:
			return 0, p.fail(ErrSyntax, "invalid hex digit in \\u escape")
		}
		r = r<<4 | rune(d)
	}
	return r, nil
}
