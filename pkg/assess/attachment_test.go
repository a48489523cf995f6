package assess

import (
	"errors"
	"strings"
	"testing"
)

func TestDetectAttachmentType(t *testing.T) {
	t.Parallel()
	ooxml := "PK\x03\x04\x14\x00\x06\x00"
	ole := "\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1\x00\x00"
	for _, c := range []struct {
		name, head, filename, declared string
		want                           string // "" when refused
		refused                        string // the detected type named in the 415
	}{
		{"pdf", "%PDF-1.7\n%\xe2\xe3", "a.pdf", "application/pdf", TypePDF, ""},
		{"pdf declared as text", "%PDF-1.4", "a.txt", "text/plain", TypePDF, ""},
		{"png", "\x89PNG\r\n\x1a\n\x00\x00", "a.png", "", TypePNG, ""},
		{"jpeg", "\xff\xd8\xff\xe0\x00\x10JFIF", "a.jpg", "", TypeJPEG, ""},
		{"gif", "GIF89a\x01\x00", "a.gif", "", TypeGIF, ""},
		{"webp", "RIFF\x10\x00\x00\x00WEBPVP8 ", "a.webp", "", TypeWebP, ""},
		{"gzip", "\x1f\x8b\x08\x00", "a.tgz", "", TypeGzip, ""},
		{"bzip2", "BZh91AY", "a.bz2", "", TypeBzip2, ""},
		{"zip", ooxml, "bundle.zip", "", TypeZip, ""},
		{"docx", ooxml, "Report.DOCX", "", TypeDocx, ""},
		{"xlsx", ooxml, "a.xlsx", "", TypeXlsx, ""},
		{"pptx", ooxml, "a.pptx", "", TypePptx, ""},
		{"doc", ole, "a.doc", "", TypeMSWord, ""},
		{"xls", ole, "a.xls", "", TypeMSExcel, ""},
		{"ppt", ole, "a.ppt", "", TypeMSPowerPoint, ""},
		{"ole other", ole, "a.msg", "", TypeOctetStream, ""},
		{"json", " \n{\"a\": 1}", "a.json", "", TypeJSON, ""},
		{"json array", "[1,2]", "a", "", TypeJSON, ""},
		{"cyclonedx json by content", `{"bomFormat": "CycloneDX", "specVersion": "1.6"}`, "sbom.json", "", TypeCycloneDXJSON, ""},
		{"cyclonedx json by name", `{"x": 1}`, "app.cdx.json", "", TypeCycloneDXJSON, ""},
		{"cyclonedx xml", `<?xml version="1.0"?><bom xmlns="http://cyclonedx.org/schema/bom/1.6">`, "sbom.xml", "", TypeCycloneDXXML, ""},
		{"xml", "\xef\xbb\xbf<?xml version=\"1.0\"?><report/>", "a.xml", "", TypeXML, ""},
		{"csv", "a,b\n1,2\n", "data.csv", "text/csv", TypeCSV, ""},
		{"markdown", "# Title\n", "README.md", "", TypeMarkdown, ""},
		{"text", "hello\tworld\r\n", "notes.txt", "", TypeText, ""},
		{"empty", "", "empty.txt", "", TypeText, ""},
		{"text starting with MZ", "MZ is a fine abbreviation\n", "a.txt", "", TypeText, ""},
		{"shell script is text", "#!/bin/sh\necho hi\n", "harden.sh", "", TypeText, ""},
		{"binary", "\x00\x01\x02\x03\x04", "a.bin", "", TypeOctetStream, ""},
		{"html", "<!DOCTYPE html><html>", "a.txt", "text/plain", "", "text/html"},
		{"html lower after space", "  \n<html><body>", "a", "", "", "text/html"},
		{"html fragment with script", "<div><script>alert(1)</script></div>", "a.xml", "", "", "text/html"},
		{"xhtml", `<?xml version="1.0"?><html xmlns="http://www.w3.org/1999/xhtml">`, "a.xml", "", "", "text/html"},
		{"svg", `<svg xmlns="http://www.w3.org/2000/svg"/>`, "a.xml", "", "", "image/svg+xml"},
		{"svg with prolog", "<?xml version=\"1.0\"?>\n<!-- x -->\n<SVG>", "a", "", "", "image/svg+xml"},
		{"declared html", "plain", "a.txt", "text/html; charset=utf-8", "", "text/html"},
		{"declared svg", "plain", "a.txt", "IMAGE/SVG+XML", "", "image/svg+xml"},
		{"declared javascript", "plain", "a.txt", "application/javascript", "", "text/javascript"},
		{"javascript by name", "console.log(1)", "app.mjs", "text/plain", "", "text/javascript"},
		{"html by name", "hello", "page.HTM", "", "", "text/html"},
		{"elf", "\x7fELF\x02\x01\x01", "tool", "", "", "application/x-executable"},
		{"pe", "MZ\x90\x00\x03\x00\x00\x00\x04\x00\x00\x00\xff\xff\x00\x00", "setup.bin", "", "", "application/x-executable"},
		{"mach-o", "\xcf\xfa\xed\xfe\x07\x00\x00\x01", "tool", "", "", "application/x-executable"},
		{"wasm", "\x00asm\x01\x00\x00\x00", "a.bin", "", "", "application/x-executable"},
		{"exe by name", "hello", "setup.exe", "", "", "application/x-executable"},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, err := DetectAttachmentType([]byte(c.head), c.filename, c.declared)
			if c.refused == "" {
				if err != nil || got != c.want {
					t.Fatalf("got %q, %v; want %q", got, err, c.want)
				}
				return
			}
			var e *Error
			if !errors.As(err, &e) || e.Code != ECodeUnsupportedMedia || len(e.Details) != 1 ||
				e.Details[0].Code != "unsupported_type" || e.Details[0].Message != c.refused {
				t.Fatalf("got %q, %#v; want 415 naming %s", got, err, c.refused)
			}
		})
	}
}

func TestCleanAttachmentFilename(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("é", 300)
	for _, c := range []struct{ in, want string }{
		{"report.pdf", "report.pdf"},
		{"../../etc/passwd", "passwd"},
		{`C:\Users\me\report.pdf`, "report.pdf"},
		{"a\r\nb\x00c\u202ed.txt", "a__b_c_d.txt"},
		{"  spaced  ", "spaced"},
		{"", "file"},
		{"..", "file"},
		{"bad\xffutf8.txt", "bad_utf8.txt"},
		{"Bericht \"Q3\" ü €.txt", "Bericht \"Q3\" ü €.txt"},
		{long + ".pdf", strings.Repeat("é", 251) + ".pdf"},
		{long, strings.Repeat("é", 255)},
	} {
		if got := CleanAttachmentFilename(c.in); got != c.want {
			t.Errorf("CleanAttachmentFilename(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}
