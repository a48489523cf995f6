package config

import (
	"fmt"
	"math/big"
	"regexp"
	"strings"
	"time"
)

// msMaxLength is the longest input the JavaScript ms library tries to parse; longer strings
// are refused before the regular expression runs.
const msMaxLength = 100

// msPattern is the expression of vercel ms 2.1.3. The number may be negative and may have a
// fraction (".5", "1.5"), the unit is optional and may follow one or more spaces.
var msPattern = regexp.MustCompile(`(?i)^(-?(?:\d+)?\.?\d+) *(milliseconds?|msecs?|ms|seconds?|secs?|s|minutes?|mins?|m|hours?|hrs?|h|days?|d|weeks?|w|years?|yrs?|y)?$`)

// msUnits maps every unit name the pattern accepts, lower-cased, to its length in
// nanoseconds. A year is 365.25 days, as in ms.
var msUnits = map[string]int64{
	"milliseconds": int64(time.Millisecond), "millisecond": int64(time.Millisecond),
	"msecs": int64(time.Millisecond), "msec": int64(time.Millisecond), "ms": int64(time.Millisecond),
	"seconds": int64(time.Second), "second": int64(time.Second),
	"secs": int64(time.Second), "sec": int64(time.Second), "s": int64(time.Second),
	"minutes": int64(time.Minute), "minute": int64(time.Minute),
	"mins": int64(time.Minute), "min": int64(time.Minute), "m": int64(time.Minute),
	"hours": int64(time.Hour), "hour": int64(time.Hour),
	"hrs": int64(time.Hour), "hr": int64(time.Hour), "h": int64(time.Hour),
	"days": 24 * int64(time.Hour), "day": 24 * int64(time.Hour), "d": 24 * int64(time.Hour),
	"weeks": 7 * 24 * int64(time.Hour), "week": 7 * 24 * int64(time.Hour), "w": 7 * 24 * int64(time.Hour),
	"years": msYear, "year": msYear, "yrs": msYear, "yr": msYear, "y": msYear,
}

// msYear is 365.25 days in nanoseconds; it is a whole number, so the arithmetic stays exact.
const msYear = 36525 * 24 * int64(time.Hour) / 100

// ParseMS parses a duration written in the format of the JavaScript ms library (vercel ms
// 2.1.3), which the configuration variables of the original service use: a decimal number,
// optionally negative or fractional, optionally followed by spaces and a unit such as ms, s,
// m, h, d, w or y, or a long form like "minutes" or "hrs". A bare number means milliseconds and
// a year is 365.25 days. Unit names are case-insensitive. Examples: "24h", "7d", "1.5h",
// "2 days", "500". The result is rounded to the nanosecond; values outside the range of
// time.Duration are an error, as is anything ms would not parse.
func ParseMS(s string) (time.Duration, error) {
	if s == "" {
		return 0, fmt.Errorf("empty duration")
	}
	if len(s) > msMaxLength {
		return 0, fmt.Errorf("duration longer than %d characters", msMaxLength)
	}
	// ms matches without Unicode case folding, so only ASCII can match; refusing other input
	// keeps Go's (?i) from folding, for example, U+017F into "s".
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return 0, fmt.Errorf("invalid duration %q", s)
		}
	}
	m := msPattern.FindStringSubmatch(s)
	if m == nil {
		return 0, fmt.Errorf("invalid duration %q: want a number with an optional unit such as ms, s, m, h, d, w or y", s)
	}
	unit := int64(time.Millisecond)
	if m[2] != "" {
		unit = msUnits[strings.ToLower(m[2])]
	}
	n, ok := new(big.Rat).SetString(m[1])
	if !ok {
		return 0, fmt.Errorf("invalid duration %q", s)
	}
	ns, ok := roundToInt64(n.Mul(n, new(big.Rat).SetInt64(unit)))
	if !ok {
		return 0, fmt.Errorf("duration %q out of range", s)
	}
	return time.Duration(ns), nil
}

// roundToInt64 rounds r to the nearest integer, halves away from zero, and reports whether the
// result fits in an int64.
func roundToInt64(r *big.Rat) (int64, bool) {
	num := new(big.Int).Abs(r.Num())
	q, rem := new(big.Int).QuoRem(num, r.Denom(), new(big.Int))
	if rem.Lsh(rem, 1).Cmp(r.Denom()) >= 0 {
		q.Add(q, big.NewInt(1))
	}
	if r.Sign() < 0 {
		q.Neg(q)
	}
	if !q.IsInt64() {
		return 0, false
	}
	return q.Int64(), true
}
