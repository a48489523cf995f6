// Package reporttest reads the text of PDF reports the way a PDF reader does, for the
// tests of pkg/report and of the report endpoints.
package reporttest

import (
	"bytes"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/pdfcpu/pdfcpu/pkg/api"
	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu"
	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/model"
	"github.com/stretchr/testify/require"
)

// The interoperability check of the reports: pdfcpu, a PDF implementation of its own,
// validates each document strictly and parses it; the text of each page is then read the
// way a PDF reader does — the page's content stream as pdfcpu decodes it, each string
// shown with Tj mapped to Unicode through the ToUnicode CMap of the font selected with Tf.
// So a name is "in the PDF" only if a reader would find and copy it.

// configurationMu serialises pdfcpu's NewDefaultConfiguration: its first call writes the
// package's global configuration (and its file), which parallel tests raced on (-race).
var configurationMu sync.Mutex

// strictConfiguration is pdfcpu's default configuration with strict validation.
func strictConfiguration() *model.Configuration {
	configurationMu.Lock()
	defer configurationMu.Unlock()
	conf := model.NewDefaultConfiguration()
	conf.ValidationMode = model.ValidationStrict
	return conf
}

// Text validates data with pdfcpu and returns the text of each page, one line per string
// shown.
func Text(t testing.TB, data []byte) []string {
	t.Helper()
	conf := strictConfiguration()
	require.NoError(t, api.Validate(bytes.NewReader(data), conf), "pdfcpu validates the document strictly")
	ctx, err := api.ReadContext(bytes.NewReader(data), conf)
	require.NoError(t, err)
	require.NoError(t, ctx.EnsurePageCount())
	pages := make([]string, ctx.PageCount)
	for p := 1; p <= ctx.PageCount; p++ {
		content, err := pdfcpu.ExtractPageContent(ctx, p)
		require.NoError(t, err)
		var raw bytes.Buffer
		_, err = raw.ReadFrom(content)
		require.NoError(t, err)
		pages[p-1] = showText(t, raw.Bytes(), pageCMaps(t, ctx, p))
	}
	return pages
}

// pageCMaps reads the ToUnicode CMap of every font of page p, by resource name.
func pageCMaps(t testing.TB, ctx *model.Context, p int) map[string]map[int]rune {
	t.Helper()
	_, _, inh, err := ctx.PageDict(p, true)
	require.NoError(t, err)
	out := map[string]map[int]rune{}
	fonts, err := ctx.DereferenceDict(inh.Resources["Font"])
	require.NoError(t, err)
	for name, ref := range fonts {
		font, err := ctx.DereferenceDict(ref)
		require.NoError(t, err)
		sd, _, err := ctx.DereferenceStreamDict(font["ToUnicode"])
		require.NoError(t, err)
		require.NotNil(t, sd, "font %s has a ToUnicode CMap", name)
		require.NoError(t, sd.Decode())
		out[name] = parseCMap(t, sd.Content)
	}
	return out
}

var (
	bfRange = regexp.MustCompile(`<([0-9A-Fa-f]+)>\s*<([0-9A-Fa-f]+)>\s*<([0-9A-Fa-f]+)>`)
	bfChar  = regexp.MustCompile(`<([0-9A-Fa-f]+)>\s*<([0-9A-Fa-f]+)>`)
	section = regexp.MustCompile(`(?s)begin(bfrange|bfchar)(.*?)endbf`)
)

// parseCMap reads the bfrange and bfchar entries of a ToUnicode CMap (two-byte codes to
// BMP characters).
func parseCMap(t testing.TB, cmap []byte) map[int]rune {
	t.Helper()
	hex := func(s string) int {
		v, err := strconv.ParseUint(s, 16, 32)
		require.NoError(t, err)
		return int(v)
	}
	out := map[int]rune{}
	for _, sec := range section.FindAllSubmatch(cmap, -1) {
		if string(sec[1]) == "bfrange" {
			for _, m := range bfRange.FindAllSubmatch(sec[2], -1) {
				lo, hi, dst := hex(string(m[1])), hex(string(m[2])), hex(string(m[3]))
				for c := lo; c <= hi; c++ {
					out[c] = rune(dst + c - lo)
				}
			}
			continue
		}
		for _, m := range bfChar.FindAllSubmatch(sec[2], -1) {
			out[hex(string(m[1]))] = rune(hex(string(m[2])))
		}
	}
	return out
}

// showText returns the strings a content stream shows, one line per Tj, decoded with the
// CMap of the current font.
func showText(t testing.TB, content []byte, cmaps map[string]map[int]rune) string {
	t.Helper()
	var out strings.Builder
	var font map[int]rune
	var operands []string
	for i := 0; i < len(content); {
		c := content[i]
		switch {
		case c == '(':
			s, n := literal(content[i:])
			operands = append(operands, s)
			i += n
		case c == '/' || isRegular(c):
			j := i + 1
			for j < len(content) && isRegular(content[j]) {
				j++
			}
			tok := string(content[i:j])
			switch tok {
			case "Tf":
				if len(operands) >= 2 {
					font = cmaps[strings.TrimPrefix(operands[len(operands)-2], "/")]
				}
			case "Tj":
				if len(operands) > 0 && font != nil {
					out.WriteString(decode(operands[len(operands)-1], font))
					out.WriteByte('\n')
				}
			}
			if isOperator(tok) {
				operands = operands[:0]
			} else {
				operands = append(operands, tok)
			}
			i = j
		default:
			i++
		}
	}
	return out.String()
}

func isRegular(c byte) bool {
	return !strings.ContainsRune(" \t\r\n\f\x00()<>[]{}/%", rune(c))
}

func isOperator(tok string) bool {
	if tok == "" || tok[0] == '/' {
		return false
	}
	_, err := strconv.ParseFloat(tok, 64)
	return err != nil
}

// literal reads a PDF literal string at the start of b and returns its bytes and length.
func literal(b []byte) (string, int) {
	var out []byte
	depth := 0
	for i := 0; i < len(b); i++ {
		c := b[i]
		switch {
		case c == '\\' && i+1 < len(b):
			i++
			switch e := b[i]; e {
			case 'n':
				out = append(out, '\n')
			case 'r':
				out = append(out, '\r')
			case 't':
				out = append(out, '\t')
			case 'b':
				out = append(out, '\b')
			case 'f':
				out = append(out, '\f')
			case '\r', '\n':
			default:
				if e >= '0' && e <= '7' {
					v, n := 0, 0
					for n < 3 && i < len(b) && b[i] >= '0' && b[i] <= '7' {
						v, i, n = v*8+int(b[i]-'0'), i+1, n+1
					}
					i--
					out = append(out, byte(v))
				} else {
					out = append(out, e)
				}
			}
		case c == '(':
			if depth > 0 {
				out = append(out, c)
			}
			depth++
		case c == ')':
			depth--
			if depth == 0 {
				return string(out), i + 1
			}
			out = append(out, c)
		default:
			out = append(out, c)
		}
	}
	return string(out), len(b)
}

// decode maps a string's two-byte codes through a CMap.
func decode(s string, cmap map[int]rune) string {
	var b strings.Builder
	for i := 0; i+1 < len(s); i += 2 {
		if r, ok := cmap[int(s[i])<<8|int(s[i+1])]; ok {
			b.WriteRune(r)
		}
	}
	return b.String()
}
