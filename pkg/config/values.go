package config

import (
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"net/netip"
	"net/url"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/spf13/viper"
)

// unbounded is the upper bound of integers that have only a lower one.
const unbounded = math.MaxInt

// boolAccepted describes the boolean spellings in problems.
const boolAccepted = "must be one of true, false, 1, 0, yes, no, on, off"

// boolSpellings are the accepted boolean values, compared in lower case.
var boolSpellings = map[string]bool{
	"true": true, "1": true, "yes": true, "on": true,
	"false": false, "0": false, "no": false, "off": false,
}

// loader reads raw values from a viper instance that holds the defaults and the variables
// of one environment, converts them, and collects problems instead of stopping at the first.
type loader struct {
	v *viper.Viper
	// source records "env" or "file" for variables that were given a value.
	source map[string]string
	// effective holds the canonical spelling of converted values, for Settings.
	effective map[string]string
	problems  []Problem
}

// newLoader feeds the known variables of environ into a fresh viper instance on top of the
// defaults. When a variable occurs twice the later entry wins, as with exec.Cmd's Env, and an
// empty value counts as unset.
func newLoader(environ []string) *loader {
	l := &loader{v: viper.New(), source: map[string]string{}, effective: map[string]string{}}
	for _, vr := range variables {
		l.v.SetDefault(vr.name, vr.def)
	}
	given := map[string]string{}
	for _, kv := range environ {
		name, value, ok := strings.Cut(kv, "=")
		vr, known := lookupVariable(name)
		if !ok || !known {
			continue
		}
		if !vr.verbatim {
			value = strings.TrimSpace(value)
		}
		given[name] = value
	}
	for name, value := range given {
		if value != "" {
			l.v.Set(name, value)
			l.source[name] = sourceEnv
		}
	}
	return l
}

// raw returns the value of name as text: the environment's, a file's, or the default.
func (l *loader) raw(name string) string { return l.v.GetString(name) }

// refuse records a problem with the current value of name, redacted for a secret.
func (l *loader) refuse(name, accepted string) {
	value := l.raw(name)
	if vr, _ := lookupVariable(name); vr.secret && value != "" {
		value = redacted
	}
	l.problems = append(l.problems, Problem{Variable: name, Value: value, Accepted: accepted})
}

// failed reports whether a problem has been recorded for name, so that rules combining
// several variables do not add noise about a value already refused.
func (l *loader) failed(name string) bool {
	return slices.ContainsFunc(l.problems, func(p Problem) bool { return p.Variable == name })
}

// boolean reads name as a boolean in any of the accepted spellings.
func (l *loader) boolean(name string) bool {
	b, ok := boolSpellings[strings.ToLower(l.raw(name))]
	if !ok {
		l.refuse(name, boolAccepted)
		return false
	}
	l.effective[name] = strconv.FormatBool(b)
	return b
}

// integer reads name as a decimal integer within [lo, hi]; note, when not empty, is added
// to the problem in parentheses, for example the unit.
func (l *loader) integer(name string, lo, hi int, note string) int {
	n, err := strconv.ParseInt(l.raw(name), 10, 64)
	if err != nil || n < int64(lo) || n > int64(hi) {
		accepted := fmt.Sprintf("must be an integer between %d and %d", lo, hi)
		if hi == unbounded {
			accepted = fmt.Sprintf("must be an integer of at least %d", lo)
		}
		if note != "" {
			accepted += " (" + note + ")"
		}
		l.refuse(name, accepted)
		return 0
	}
	l.effective[name] = strconv.FormatInt(n, 10)
	return int(n)
}

// span reads name as an integer count of unit within [lo, hi] and returns the duration.
func (l *loader) span(name string, lo, hi int, unit time.Duration, unitName string) time.Duration {
	return time.Duration(l.integer(name, lo, hi, unitName)) * unit
}

// enum reads name as one of allowed, case-insensitively, and returns it in lower case.
func (l *loader) enum(name string, allowed ...string) string {
	s := strings.ToLower(l.raw(name))
	if !slices.Contains(allowed, s) {
		l.refuse(name, "must be one of "+strings.Join(allowed, ", "))
		return ""
	}
	l.effective[name] = s
	return s
}

// msDuration reads name in the format of ParseMS and requires a positive duration.
func (l *loader) msDuration(name string) time.Duration {
	d, err := ParseMS(l.raw(name))
	if err != nil || d <= 0 {
		l.refuse(name, "must be a positive duration such as 500ms, 30s, 15m, 24h or 7d (a bare number means milliseconds)")
		return 0
	}
	return d
}

// msDurationOrZero reads name as msDuration, also accepting "0" for off.
func (l *loader) msDurationOrZero(name string) time.Duration {
	if strings.TrimSpace(l.raw(name)) == "0" {
		return 0
	}
	return l.msDuration(name)
}

// hexKey reads name, when set, as a 256-bit key written as 64 hexadecimal characters.
func (l *loader) hexKey(name string) []byte {
	s := l.raw(name)
	if s == "" {
		return nil
	}
	key, err := hex.DecodeString(s)
	if err != nil || len(key) != 32 {
		l.refuse(name, "must be exactly 64 hexadecimal characters (a 256-bit key, for example from `openssl rand -hex 32`)")
		return nil
	}
	return key
}

// absoluteURL reads name, when set, as an absolute http or https URL and trims trailing
// slashes, so that paths can be appended to it.
func (l *loader) absoluteURL(name string) string {
	s := l.raw(name)
	if s == "" {
		return ""
	}
	u, err := url.Parse(s)
	if err != nil || !httpURL(u) || u.RawQuery != "" || u.ForceQuery || u.Fragment != "" {
		l.refuse(name, "must be an absolute http:// or https:// URL without credentials, query or fragment, such as https://assay.example.com")
		return ""
	}
	s = strings.TrimRight(s, "/")
	l.effective[name] = s
	return s
}

// origins reads name as a comma-separated list of origins, each scheme://host[:port].
// Browsers send the Origin header in exactly that form, so a path could never match and is
// refused; a lone trailing slash is dropped and scheme and host are lower-cased.
func (l *loader) origins(name string) []string {
	var out []string
	for _, part := range strings.Split(l.raw(name), ",") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		if strings.Contains(part, "*") {
			l.refuse(name, "must not contain *: the API is called with credentials, so list each allowed origin")
			return nil
		}
		u, err := url.Parse(part)
		if err != nil || !httpURL(u) || (u.Path != "" && u.Path != "/") || u.RawQuery != "" || u.ForceQuery || u.Fragment != "" {
			l.refuse(name, "must be a comma-separated list of origins, each http://host[:port] or https://host[:port] without a path")
			return nil
		}
		out = append(out, strings.ToLower(u.Scheme+"://"+u.Host))
	}
	if len(out) == 0 {
		l.refuse(name, "must list at least one origin")
		return nil
	}
	l.effective[name] = strings.Join(out, ",")
	return out
}

// httpURL reports whether u is an absolute http or https URL with a host, a valid port if
// any, and no user information, which would put a credential in a variable that is not
// treated as a secret.
func httpURL(u *url.URL) bool {
	if (u.Scheme != "http" && u.Scheme != "https") || u.Opaque != "" || u.Hostname() == "" || u.User != nil {
		return false
	}
	if p := u.Port(); p != "" {
		n, err := strconv.Atoi(p)
		return err == nil && n >= 1 && n <= 65535
	}
	return !strings.HasSuffix(u.Host, ":")
}

// readSecretFile replaces the value of name with the content of the file named by fileVar,
// when fileVar is set, so that credentials can come from Docker or Kubernetes secrets.
// Trailing whitespace, usually the newline an editor adds, is removed. An unreadable or
// empty file is a problem whatever the storage provider, because it shows a deployment
// that does not do what its operator intended.
func (l *loader) readSecretFile(name, fileVar string) {
	path := l.raw(fileVar)
	if path == "" {
		return
	}
	data, err := os.ReadFile(path)
	if err != nil {
		var pathErr *fs.PathError
		if errors.As(err, &pathErr) {
			err = pathErr.Err
		}
		l.refuse(fileVar, "must name a readable file: "+err.Error())
		return
	}
	value := strings.TrimRightFunc(string(data), unicode.IsSpace)
	if value == "" {
		l.refuse(fileVar, "must name a file that is not empty")
		return
	}
	l.v.Set(name, value)
	l.source[name] = sourceFile
}

// networks parses a comma-separated list of CIDR prefixes or single addresses.
func (l *loader) networks(name string) []netip.Prefix {
	var out []netip.Prefix
	for _, item := range strings.Split(l.raw(name), ",") {
		item = strings.TrimSpace(item)
		if item == "" {
			continue
		}
		if p, err := netip.ParsePrefix(item); err == nil {
			out = append(out, p.Masked())
			continue
		}
		if a, err := netip.ParseAddr(item); err == nil {
			out = append(out, netip.PrefixFrom(a.Unmap(), a.Unmap().BitLen()))
			continue
		}
		l.refuse(name, "must be a comma-separated list of IP addresses or CIDR prefixes, such as 127.0.0.1,10.20.0.0/16")
		return nil
	}
	return out
}
