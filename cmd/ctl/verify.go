package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/assay-dev/assay/pkg/attest"
	"github.com/assay-dev/assay/pkg/jsf"
)

// Size bounds of what verify and sign read into memory. A bundle is not read whole: the
// ZIP is read in place, its document under the same bound as a document, and each
// evidence file streamed into its hash.
const (
	maxDocumentBytes = 64 << 20
	maxKeyFileBytes  = 4 << 20
)

// verifyOptions are the inputs of `verify`.
type verifyOptions struct {
	file        string
	jwks        string   // the platform's key set
	keys        []string // JWK or JWKS files of keys to pin
	revocations string   // the platform's signed rescission list
	bundle      bool     // FILE is an evidence bundle (also detected by its magic bytes)
	json        bool
	date        string // judge expiry on this day (YYYY-MM-DD) instead of today
}

// Validate checks the options.
func (o verifyOptions) Validate() error {
	if o.file == "" {
		return usageErrorf("the document to verify is required")
	}
	if o.revocations != "" && o.jwks == "" {
		return usageErrorf("--revocations needs --jwks: the list is trusted only when a platform key signed it")
	}
	if o.date != "" {
		if _, err := time.Parse(time.DateOnly, o.date); err != nil {
			return usageErrorf("--date %q is not a date (YYYY-MM-DD)", o.date)
		}
	}
	return nil
}

func newVerifyCmd() *cobra.Command {
	opts := verifyOptions{}
	cmd := &cobra.Command{
		Use:   "verify FILE",
		Short: "Verify a sealed attestation document or evidence bundle, offline",
		Long: "Checks every signature of a sealed attestation (CycloneDX JSON) or of the document in an evidence " +
			"bundle (ZIP) and the files the document binds by hash. Needs no configuration and no database.\n\n" +
			"The platform's signatures are trusted with its key set (--jwks, a JWKS or one JWK); a signatory's with a key " +
			"pinned for signatories (--key), or when the trusted seal names it. Exit status: 0 when " +
			"every signature is valid and trusted, the signing profile is followed, the attestation is not rescinded " +
			"and every bundled file is intact; 1 when not; 2 when the input cannot be read.",
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.file = args[0]
			if err := opts.Validate(); err != nil {
				return err
			}
			return runVerify(cmd.Context(), opts, cmd.OutOrStdout())
		},
	}
	f := cmd.Flags()
	f.StringVar(&opts.jwks, "jwks", "", "the platform's public key set (a JWKS file, or one JWK)")
	f.StringArrayVar(&opts.keys, "key", nil, "a JWK or JWKS file of signatories' keys to trust (repeatable)")
	f.StringVar(&opts.revocations, "revocations", "", "the platform's signed rescission list")
	f.BoolVar(&opts.bundle, "bundle", false, "FILE is an evidence bundle (ZIP); detected anyway from its first bytes")
	f.BoolVar(&opts.json, "json", false, "print the report as JSON")
	f.StringVar(&opts.date, "date", "", "judge expiry on this day (YYYY-MM-DD) instead of today")
	return offline(cmd)
}

func runVerify(_ context.Context, opts verifyOptions, out io.Writer) error {
	vo, err := verifierOptions(opts)
	if err != nil {
		return err
	}
	report, err := verifyFile(opts.file, opts.bundle, vo)
	if err != nil {
		return err
	}
	if opts.json {
		enc := json.NewEncoder(out)
		enc.SetIndent("", "  ")
		err = enc.Encode(report)
	} else {
		err = writeReport(out, report)
	}
	if err != nil {
		return err
	}
	if !report.OK {
		return failedSilently()
	}
	return nil
}

// verifierOptions reads the trusted keys and the rescission list.
func verifierOptions(opts verifyOptions) (attest.Options, error) {
	var vo attest.Options
	if opts.date != "" {
		vo.Now, _ = time.Parse(time.DateOnly, opts.date)
	}
	if opts.jwks != "" {
		data, err := readBounded(opts.jwks, maxKeyFileBytes)
		if err != nil {
			return vo, usageError(err)
		}
		keys, err := attest.ParseKey(data)
		if err != nil {
			return vo, usageErrorf("--jwks %s: %w", opts.jwks, err)
		}
		vo.PlatformKeys = append(vo.PlatformKeys, keys...)
	}
	for _, path := range opts.keys {
		data, err := readBounded(path, maxKeyFileBytes)
		if err != nil {
			return vo, usageError(err)
		}
		keys, err := attest.ParseKey(data)
		if err != nil {
			return vo, usageErrorf("--key %s: %w", path, err)
		}
		vo.SignatoryKeys = append(vo.SignatoryKeys, keys...)
	}
	if opts.revocations != "" {
		data, err := readBounded(opts.revocations, maxDocumentBytes)
		if err != nil {
			return vo, usageError(err)
		}
		if vo.Rescissions, err = attest.ReadRescissions(data, vo.PlatformKeys); err != nil {
			return vo, usageErrorf("--revocations %s: %w", opts.revocations, err)
		}
	}
	return vo, nil
}

// zipMagic are the first bytes of a ZIP archive: a local file header, or the end record
// of an empty archive.
var zipMagic = [][]byte{[]byte("PK\x03\x04"), []byte("PK\x05\x06")}

// verifyFile verifies a document, or a bundle when asked to or when the file is a ZIP.
func verifyFile(path string, bundle bool, vo attest.Options) (attest.Report, error) {
	f, err := os.Open(path)
	if err != nil {
		return attest.Report{}, usageError(err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return attest.Report{}, usageError(err)
	}
	if !st.Mode().IsRegular() {
		return attest.Report{}, usageErrorf("%s is not a regular file", path)
	}
	head := make([]byte, 4)
	n, _ := io.ReadFull(f, head)
	for _, m := range zipMagic {
		bundle = bundle || bytes.Equal(head[:n], m)
	}
	if bundle {
		report, err := attest.VerifyBundle(f, st.Size(), vo)
		if err != nil {
			return report, usageErrorf("%s: %w", path, err)
		}
		return report, nil
	}
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return attest.Report{}, usageError(err)
	}
	data, err := readAllBounded(f, path, maxDocumentBytes)
	if err != nil {
		return attest.Report{}, usageError(err)
	}
	if _, err := jsf.ParseObject(data); err != nil {
		return attest.Report{}, usageErrorf("%s is not a JSON attestation document: %w", path, err)
	}
	return attest.Verify(data, vo), nil
}

// readBounded reads a file of at most limit bytes.
func readBounded(path string, limit int64) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return readAllBounded(f, path, limit)
}

func readAllBounded(r io.Reader, name string, limit int64) ([]byte, error) {
	data, err := io.ReadAll(io.LimitReader(r, limit+1))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if int64(len(data)) > limit {
		return nil, fmt.Errorf("%s is larger than %d MiB", name, limit>>20)
	}
	return data, nil
}

// statusText is how a signature's verdict reads in the text report.
var statusText = map[attest.Status]string{
	attest.StatusValid:     "valid",
	attest.StatusInvalid:   "INVALID",
	attest.StatusUntrusted: "valid but untrusted",
}

// writeReport writes the report for people: the signatures, then what else decides the
// verdict, then the verdict.
func writeReport(out io.Writer, r attest.Report) error {
	tw := tabwriter.NewWriter(out, 0, 4, 2, ' ', 0)
	for _, c := range r.Checks {
		line := fmt.Sprintf("%s\t%s\t%s\tkey %s", statusText[c.Status], c.Object, c.Algorithm, orNone(c.Thumbprint))
		if c.Reason != "" {
			line += "\t(" + c.Reason + ")"
		}
		fmt.Fprintln(tw, line)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	for _, p := range r.Problems {
		fmt.Fprintln(out, "problem: "+p)
	}
	if rs := r.Rescinded; rs != nil {
		fmt.Fprintf(out, "RESCINDED on %s: %s\n", rs.RescindedAt.UTC().Format(time.DateOnly), rs.Reason)
	}
	if r.ValidUntil != "" {
		fmt.Fprintln(out, validity(r))
	}
	for _, f := range r.Files {
		fmt.Fprintln(out, fileLine(f))
	}
	_, err := fmt.Fprintln(out, verdict(r))
	return err
}

func orNone(s string) string {
	if s == "" {
		return "(none)"
	}
	return s
}

// validity says until when the attestation holds, or since when it no longer does (the
// day after its last valid day).
func validity(r attest.Report) string {
	if !r.Expired {
		return "valid until " + r.ValidUntil
	}
	last, err := time.Parse(time.DateOnly, r.ValidUntil)
	if err != nil {
		return "EXPIRED: valid until " + r.ValidUntil
	}
	return fmt.Sprintf("EXPIRED since %s (valid until %s)", last.AddDate(0, 0, 1).Format(time.DateOnly), r.ValidUntil)
}

func fileLine(f attest.FileCheck) string {
	switch {
	case f.OK:
		return "file " + f.Name + ": ok"
	case f.Actual == "" && f.Reason == "missing from the bundle":
		return "file " + f.Name + ": MISSING from the bundle"
	case f.Actual != "":
		return fmt.Sprintf("file %s: CHANGED (SHA-256 %s, the signed document gives %s)", f.Name, f.Actual, f.Expected)
	default:
		return fmt.Sprintf("file %s: UNREADABLE (%s)", f.Name, f.Reason)
	}
}

// verdict is the last line: OK, or what made the document fail.
func verdict(r attest.Report) string {
	if r.OK {
		msg := "verdict: VALID: every signature is valid and trusted"
		if r.Expired {
			msg += " (the attestation has expired)"
		}
		return msg
	}
	counts := map[attest.Status]int{}
	for _, c := range r.Checks {
		counts[c.Status]++
	}
	var why []string
	if n := counts[attest.StatusInvalid]; n > 0 {
		why = append(why, plural(n, "invalid signature"))
	}
	if n := counts[attest.StatusUntrusted]; n > 0 {
		why = append(why, plural(n, "untrusted signature"))
	}
	if len(r.Problems) > 0 {
		why = append(why, plural(len(r.Problems), "profile problem"))
	}
	if r.Rescinded != nil {
		why = append(why, "rescinded")
	}
	bad := 0
	for _, f := range r.Files {
		if !f.OK {
			bad++
		}
	}
	if bad > 0 {
		why = append(why, plural(bad, "file changed or missing", "files changed or missing"))
	}
	if len(why) == 0 {
		why = append(why, "not sealed")
	}
	return "verdict: NOT VALID: " + strings.Join(why, ", ")
}

// plural writes n with the singular form, or the plural (given, or singular + "s").
func plural(n int, singular string, pluralForm ...string) string {
	if n == 1 {
		return "1 " + singular
	}
	if len(pluralForm) > 0 {
		return fmt.Sprintf("%d %s", n, pluralForm[0])
	}
	return fmt.Sprintf("%d %ss", n, singular)
}
