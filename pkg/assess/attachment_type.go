package assess

import (
	"bytes"
	"mime"
	"path"
	"strings"
)

// The type of an attachment is decided from its first bytes, not from what the client
// declares (docs/assessments.md "Attachments and storage"). What a browser could run or
// render as active content — HTML, XHTML, SVG, JavaScript — and executables are refused
// with 415; everything else must land on the allow-list below. The resolved type is the
// one stored and served (always with nosniff, a sandbox CSP and as a download).

// SniffLength is how many leading bytes DetectAttachmentType looks at; the upload buffers
// this much before streaming the rest.
const SniffLength = 4096

// Content types an attachment may have.
const (
	TypePDF           = "application/pdf"
	TypePNG           = "image/png"
	TypeJPEG          = "image/jpeg"
	TypeGIF           = "image/gif"
	TypeWebP          = "image/webp"
	TypeJSON          = "application/json"
	TypeXML           = "application/xml"
	TypeText          = "text/plain"
	TypeCSV           = "text/csv"
	TypeMarkdown      = "text/markdown"
	TypeZip           = "application/zip"
	TypeGzip          = "application/gzip"
	TypeBzip2         = "application/x-bzip2"
	TypeCycloneDXJSON = "application/vnd.cyclonedx+json"
	TypeCycloneDXXML  = "application/vnd.cyclonedx+xml"
	TypeDocx          = "application/vnd.openxmlformats-officedocument.wordprocessingml.document"
	TypeXlsx          = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
	TypePptx          = "application/vnd.openxmlformats-officedocument.presentationml.presentation"
	TypeMSWord        = "application/msword"
	TypeMSExcel       = "application/vnd.ms-excel"
	TypeMSPowerPoint  = "application/vnd.ms-powerpoint"
	TypeOctetStream   = "application/octet-stream"
)

// Refused types, as named in the 415 answer.
const (
	typeHTML       = "text/html"
	typeSVG        = "image/svg+xml"
	typeJavaScript = "text/javascript"
	typeExecutable = "application/x-executable"
)

// blockedDeclared are client-declared types refused whatever the bytes say.
var blockedDeclared = map[string]string{
	"text/html": typeHTML, "application/xhtml+xml": typeHTML, "image/svg+xml": typeSVG,
	"application/javascript": typeJavaScript, "application/ecmascript": typeJavaScript,
	"text/javascript": typeJavaScript, "text/ecmascript": typeJavaScript, "application/x-javascript": typeJavaScript,
}

// blockedExtensions are file names that announce active content a text sniff cannot tell
// from plain text (a script is just text).
var blockedExtensions = map[string]string{
	".html": typeHTML, ".htm": typeHTML, ".xhtml": typeHTML, ".shtml": typeHTML, ".svg": typeSVG, ".svgz": typeSVG,
	".js": typeJavaScript, ".mjs": typeJavaScript, ".cjs": typeJavaScript,
	".exe": typeExecutable, ".dll": typeExecutable, ".com": typeExecutable, ".scr": typeExecutable,
	".msi": typeExecutable, ".bat": typeExecutable, ".cmd": typeExecutable, ".ps1": typeExecutable,
	".vbs": typeExecutable, ".hta": typeExecutable, ".jar": typeExecutable,
}

// signatures are the binary formats recognised by their first bytes, in order.
var signatures = []struct {
	prefix string
	typ    string
}{
	{"%PDF-", TypePDF},
	{"\x89PNG\r\n\x1a\n", TypePNG},
	{"\xff\xd8\xff", TypeJPEG},
	{"GIF87a", TypeGIF},
	{"GIF89a", TypeGIF},
	{"\x1f\x8b", TypeGzip},
	{"BZh", TypeBzip2},
	{"PK\x03\x04", TypeZip},
	{"PK\x05\x06", TypeZip},
	{"PK\x07\x08", TypeZip},
	// Executables: ELF, Windows PE (MZ), Mach-O (both byte orders, 32/64 bit, universal;
	// the universal magic is also a Java class file, refused alike), WebAssembly.
	{"\x7fELF", typeExecutable},
	{"MZ", typeExecutable}, // when the head is binary (see sniff): "MZ" may start a text too
	{"\xfe\xed\xfa\xce", typeExecutable},
	{"\xfe\xed\xfa\xcf", typeExecutable},
	{"\xce\xfa\xed\xfe", typeExecutable},
	{"\xcf\xfa\xed\xfe", typeExecutable},
	{"\xca\xfe\xba\xbe", typeExecutable},
	{"\x00asm", typeExecutable},
}

var oleSignature = []byte("\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1")

// DetectAttachmentType decides the stored type of a file from its first bytes (up to
// SniffLength), its name and the type the client declared. A refused type is a 415
// unsupported_media_type error whose details (field "file", code "unsupported_type") name
// the detected type.
func DetectAttachmentType(head []byte, filename, declared string) (string, error) {
	if mt, _, err := mime.ParseMediaType(declared); err == nil {
		if t, blocked := blockedDeclared[strings.ToLower(mt)]; blocked {
			return "", unsupportedType(t)
		}
	}
	ext := strings.ToLower(path.Ext(filename))
	if t, blocked := blockedExtensions[ext]; blocked {
		return "", unsupportedType(t)
	}
	t := sniff(head, strings.ToLower(filename), ext)
	switch t {
	case typeHTML, typeSVG, typeJavaScript, typeExecutable:
		return "", unsupportedType(t)
	}
	return t, nil
}

func unsupportedType(t string) error {
	msg := "Files of type " + t + " cannot be attached (active content and executables are refused)."
	return &Error{Code: ECodeUnsupportedMedia, Message: msg,
		Details: []Detail{{Field: "file", Code: "unsupported_type", Message: t}}}
}

func sniff(head []byte, name, ext string) string {
	textual := looksTextual(head)
	for _, s := range signatures {
		if bytes.HasPrefix(head, []byte(s.prefix)) && (s.prefix != "MZ" || !textual) {
			if s.typ == TypeZip {
				return refineZip(ext)
			}
			return s.typ
		}
	}
	if len(head) >= 12 && string(head[:4]) == "RIFF" && string(head[8:12]) == "WEBP" {
		return TypeWebP
	}
	if bytes.HasPrefix(head, oleSignature) {
		return refineOLE(ext)
	}
	if !textual {
		return TypeOctetStream
	}
	return sniffText(head, name, ext)
}

func refineZip(ext string) string {
	switch ext {
	case ".docx":
		return TypeDocx
	case ".xlsx":
		return TypeXlsx
	case ".pptx":
		return TypePptx
	}
	return TypeZip
}

func refineOLE(ext string) string {
	switch ext {
	case ".doc":
		return TypeMSWord
	case ".xls":
		return TypeMSExcel
	case ".ppt":
		return TypeMSPowerPoint
	}
	return TypeOctetStream
}

// looksTextual: no NUL and fewer than 1/32 control characters other than tab, CR, LF
// (and form feed / escape, which text files carry now and then).
func looksTextual(head []byte) bool {
	controls := 0
	for _, b := range head {
		switch {
		case b == 0:
			return false
		case b < 0x20 && b != '\t' && b != '\n' && b != '\r' && b != '\f' && b != 0x1b:
			controls++
		}
	}
	return controls*32 < len(head) || len(head) == 0
}

// markupMarkers are what makes markup active content in a browser.
var markupMarkers = []struct {
	marker string
	typ    string
}{
	{"<!doctype html", typeHTML}, {"<html", typeHTML}, {"<head", typeHTML}, {"<body", typeHTML},
	{"<script", typeHTML}, {"<iframe", typeHTML}, {"http://www.w3.org/1999/xhtml", typeHTML},
	{"<svg", typeSVG}, {"http://www.w3.org/2000/svg", typeSVG},
}

func sniffText(head []byte, name, ext string) string {
	trimmed := bytes.TrimLeft(bytes.TrimPrefix(head, []byte("\xef\xbb\xbf")), " \t\r\n\f")
	lower := bytes.ToLower(trimmed)
	switch {
	case bytes.HasPrefix(trimmed, []byte("<")):
		for _, m := range markupMarkers {
			if bytes.Contains(lower, []byte(m.marker)) {
				return m.typ
			}
		}
		if strings.HasSuffix(name, ".cdx.xml") || (bytes.Contains(lower, []byte("<bom")) && bytes.Contains(lower, []byte("cyclonedx"))) {
			return TypeCycloneDXXML
		}
		return TypeXML
	case bytes.HasPrefix(trimmed, []byte("{")) || bytes.HasPrefix(trimmed, []byte("[")):
		if strings.HasSuffix(name, ".cdx.json") || (bytes.Contains(trimmed, []byte(`"bomFormat"`)) && bytes.Contains(trimmed, []byte(`"CycloneDX"`))) {
			return TypeCycloneDXJSON
		}
		return TypeJSON
	}
	switch ext {
	case ".csv":
		return TypeCSV
	case ".md", ".markdown":
		return TypeMarkdown
	}
	return TypeText
}
