package config

import (
	"math"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

func TestParseMS(t *testing.T) {
	t.Parallel()

	const (
		day  = 24 * time.Hour
		week = 7 * day
		year = 8766 * time.Hour // 365.25 days
	)
	tests := []struct {
		in   string
		want time.Duration
	}{
		// Bare numbers are milliseconds.
		{"100", 100 * time.Millisecond},
		{"0", 0},
		{"1.5", 1500 * time.Microsecond},
		{".5", 500 * time.Microsecond},
		{"-100", -100 * time.Millisecond},
		{"-.5", -500 * time.Microsecond},
		{"007", 7 * time.Millisecond},

		{"1ms", time.Millisecond},
		{"1msec", time.Millisecond},
		{"2msecs", 2 * time.Millisecond},
		{"1millisecond", time.Millisecond},
		{"2milliseconds", 2 * time.Millisecond},

		{"1s", time.Second},
		{"1sec", time.Second},
		{"2secs", 2 * time.Second},
		{"1second", time.Second},
		{"2seconds", 2 * time.Second},

		{"1m", time.Minute},
		{"1min", time.Minute},
		{"2mins", 2 * time.Minute},
		{"1minute", time.Minute},
		{"2minutes", 2 * time.Minute},

		{"1h", time.Hour},
		{"1hr", time.Hour},
		{"2hrs", 2 * time.Hour},
		{"1hour", time.Hour},
		{"2hours", 2 * time.Hour},

		{"1d", day},
		{"1day", day},
		{"2days", 2 * day},

		{"1w", week},
		{"1week", week},
		{"2weeks", 2 * week},

		{"1y", year},
		{"1yr", year},
		{"2yrs", 2 * year},
		{"1year", year},
		{"2years", 2 * year},

		// Case, spaces, decimals and negatives.
		{"24H", 24 * time.Hour},
		{"1 Day", day},
		{"2 days", 2 * day},
		{"3   weeks", 3 * week},
		{"1.5h", 90 * time.Minute},
		{".5m", 30 * time.Second},
		{"-1h", -time.Hour},
		{"-1.5 hours", -90 * time.Minute},
		{"-.25d", -6 * time.Hour},
		{"0.5y", year / 2},
		{"1.0005ms", time.Millisecond + 500*time.Nanosecond},
		{"1.0000005ms", time.Millisecond + time.Nanosecond},
		{"0.0000004ms", 0},
		{"0.0000005ms", time.Nanosecond},
		{"292y", 292 * year},
	}
	for _, test := range tests {
		got, err := ParseMS(test.in)
		require.NoError(t, err, test.in)
		require.Equal(t, test.want, got, test.in)
	}
}

func TestParseMSRefuses(t *testing.T) {
	t.Parallel()

	for _, in := range []string{
		"",
		" ",
		"forever",
		"h",
		"1.",
		"1.5.5",
		"--1",
		"+1",
		" 1s",
		"1s ",
		"1 s s",
		"1hh",
		"1 mo",
		"1e3",
		"0x10",
		"1_000",
		"1\n",
		"1ſ", // folds to "s" under Unicode case folding, which ms does not do
		"１s",
		"293y",
		"-293y",
		"9223372036855ms",
		strings.Repeat("1", 101),
		strings.Repeat("0", 100) + "1",
	} {
		_, err := ParseMS(in)
		require.Error(t, err, "%q", in)
	}
}

// TestParseMSLengthLimit checks the 100-character limit of ms, which counts the unit and
// the spaces too.
func TestParseMSLengthLimit(t *testing.T) {
	t.Parallel()

	in := strings.Repeat("0", 98) + "1s"
	require.Len(t, in, 100)
	got, err := ParseMS(in)
	require.NoError(t, err)
	require.Equal(t, time.Second, got)

	_, err = ParseMS(strings.Repeat("0", 99) + "1s")
	require.Error(t, err)
}

func FuzzParseMS(f *testing.F) {
	for _, seed := range []string{"1", "-1", "1.5h", ".5s", "2 days", "1y", "-0", "24h", "forever", "1e3", strings.Repeat("9", 30) + "y"} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, in string) {
		got, err := ParseMS(in)
		if err != nil {
			return
		}
		if len(in) > msMaxLength {
			t.Fatalf("ParseMS(%q) accepted more than %d characters", in, msMaxLength)
		}
		if strings.HasPrefix(in, "-") && got > 0 || !strings.HasPrefix(in, "-") && got < 0 {
			t.Fatalf("ParseMS(%q) = %v: sign differs from the input", in, got)
		}
		// Compare with the floating-point arithmetic of ms itself.
		m := msPattern.FindStringSubmatch(in)
		n, perr := strconv.ParseFloat(m[1], 64)
		if perr != nil {
			t.Fatalf("ParseMS(%q) accepted a number ParseFloat refuses: %v", in, perr)
		}
		unit := float64(time.Millisecond)
		if m[2] != "" {
			unit = float64(msUnits[strings.ToLower(m[2])])
		}
		want := n * unit
		if diff := math.Abs(float64(got) - want); diff > 1 && diff > math.Abs(want)*1e-12 {
			t.Fatalf("ParseMS(%q) = %d ns, want about %g ns", in, int64(got), want)
		}
	})
}
