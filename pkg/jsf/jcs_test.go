package jsf

import (
	"errors"
	"math"
	"strings"
	"testing"
)

// TestNumberSerialisation uses the IEEE-754 table of RFC 8785 Appendix B, plus the
// boundaries of ECMAScript's decimal/exponent switch.
func TestNumberSerialisation(t *testing.T) {
	t.Parallel()
	tests := []struct {
		bits uint64
		want string
	}{
		{0x0000000000000000, "0"},
		{0x8000000000000000, "0"},
		{0x0000000000000001, "5e-324"},
		{0x8000000000000001, "-5e-324"},
		{0x7fefffffffffffff, "1.7976931348623157e+308"},
		{0xffefffffffffffff, "-1.7976931348623157e+308"},
		{0x4340000000000000, "9007199254740992"},
		{0xc340000000000000, "-9007199254740992"},
		{0x4430000000000000, "295147905179352830000"},
		{0x44b52d02c7e14af5, "9.999999999999997e+22"},
		{0x44b52d02c7e14af6, "1e+23"},
		{0x44b52d02c7e14af7, "1.0000000000000001e+23"},
		{0x444b1ae4d6e2ef4e, "999999999999999700000"},
		{0x444b1ae4d6e2ef4f, "999999999999999900000"},
		{0x444b1ae4d6e2ef50, "1e+21"},
		{0x3eb0c6f7a0b5ed8c, "9.999999999999997e-7"},
		{0x3eb0c6f7a0b5ed8d, "0.000001"},
		{0x41b3de4355555553, "333333333.3333332"},
		{0x41b3de4355555554, "333333333.33333325"},
		{0x41b3de4355555555, "333333333.3333333"},
		{0x41b3de4355555556, "333333333.3333334"},
		{0x41b3de4355555557, "333333333.33333343"},
		{0xbecbf647612f3696, "-0.0000033333333333333333"},
		{0x43143ff3c1cb0959, "1424953923781206.2"},
		{math.Float64bits(1.2345678901234568e20), "123456789012345680000"},
		{math.Float64bits(1e-7), "1e-7"},
		{math.Float64bits(123e-20), "1.23e-18"},
		{math.Float64bits(0.5), "0.5"},
		{math.Float64bits(-1.5), "-1.5"},
		{math.Float64bits(100), "100"},
	}
	for _, tt := range tests {
		got, err := appendNumber(nil, math.Float64frombits(tt.bits))
		if err != nil || string(got) != tt.want {
			t.Errorf("%016x: got %q, %v; want %q", tt.bits, got, err, tt.want)
		}
	}
	for _, bits := range []uint64{0x7fffffffffffffff, 0x7ff0000000000000, 0xfff0000000000000} {
		if _, err := appendNumber(nil, math.Float64frombits(bits)); !errors.Is(err, ErrUnsupportedValue) {
			t.Errorf("%016x: got %v, want ErrUnsupportedValue", bits, err)
		}
	}
}

func TestCanonicalize(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, in, want string
	}{
		{
			// RFC 8785 §3.2.2 (serialisation of primitives).
			name: "rfc8785 primitives",
			in: `{
  "numbers": [333333333.33333329, 1E30, 4.50, 2e-3, 0.000000000000000000000000001],
  "string": "\u20ac$\u000F\u000aA'\u0042\u0022\u005c\\\"\/",
  "literals": [null, true, false]
}`,
			want: `{"literals":[null,true,false],"numbers":[333333333.3333333,1e+30,4.5,0.002,1e-27],"string":"€$\u000f\nA'B\"\\\\\"/"}`,
		},
		{
			// RFC 8785 §3.2.3 (sorting of object properties).
			name: "rfc8785 sorting",
			in: `{
  "\u20ac": "Euro Sign",
  "\r": "Carriage Return",
  "\ufb33": "Hebrew Letter Dalet With Dagesh",
  "1": "One",
  "\ud83d\ude00": "Emoji: Grinning Face",
  "\u0080": "Control",
  "\u00f6": "Latin Small Letter O With Diaeresis"
}`,
			want: "{\"\\r\":\"Carriage Return\",\"1\":\"One\",\"\u0080\":\"Control\",\"ö\":\"Latin Small Letter O With Diaeresis\",\"€\":\"Euro Sign\",\"\U0001f600\":\"Emoji: Grinning Face\",\"\ufb33\":\"Hebrew Letter Dalet With Dagesh\"}",
		},
		{
			// In UTF-8 (and code point) order U+FB33 sorts before U+1F600; in UTF-16
			// the surrogate pair D83D DE00 sorts first.
			name: "non-BMP key before U+FB33",
			in:   `{"\ufb33":1,"\ud83d\ude00":2}`,
			want: "{\"\U0001f600\":2,\"\ufb33\":1}",
		},
		{name: "nested objects sorted", in: `{"b":{"z":1,"a":[{"y":1,"x":2}]},"a":null}`, want: `{"a":null,"b":{"a":[{"x":2,"y":1}],"z":1}}`},
		{name: "1e21", in: `[1e21, 1e20, 1E-7, 0.000001]`, want: `[1e+21,100000000000000000000,1e-7,0.000001]`},
		{name: "negative zero", in: `[-0, -0.0, -0e10]`, want: `[0,0,0]`},
		{name: "underflow rounds to zero", in: `1e-400`, want: `0`},
		{name: "large integer", in: `123456789012345678901`, want: `123456789012345680000`},
		{name: "controls and slash", in: `"\u0001\u001f\u007f/\b\f\t"`, want: "\"\\u0001\\u001f\u007f/\\b\\f\\t\""},
		{name: "empty containers", in: ` { "a" : [ ] , "b" : { } } `, want: `{"a":[],"b":{}}`},
		{name: "literals", in: `[true,false,null]`, want: `[true,false,null]`},
	}
	for _, tt := range tests {
		got, err := Canonicalize([]byte(tt.in))
		if err != nil {
			t.Errorf("%s: %v", tt.name, err)
			continue
		}
		if string(got) != tt.want {
			t.Errorf("%s:\n got %s\nwant %s", tt.name, got, tt.want)
		}
	}
}

func TestParseRefuses(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		in   string
		want error
	}{
		{"duplicate key", `{"a":1,"a":2}`, ErrDuplicateKey},
		{"duplicate key after unescaping", `{"a":1,"\u0061":2}`, ErrDuplicateKey},
		{"duplicate key in a large object", `{"k0":0,"k1":1,"k2":2,"k3":3,"k4":4,"k5":5,"k6":6,"k7":7,"k8":8,"k9":9,"k10":0,"k11":1,"k12":2,"k13":3,"k14":4,"k15":5,"k16":6,"k17":7,"k3":3}`, ErrDuplicateKey},
		{"invalid UTF-8", "\"a\xffb\"", ErrInvalidUTF8},
		{"UTF-8 encoded surrogate", "\"\xed\xa0\x80\"", ErrInvalidUTF8},
		{"truncated UTF-8", "\"\xe2\x82\"", ErrInvalidUTF8},
		{"lone high surrogate", `"\ud800"`, ErrLoneSurrogate},
		{"high surrogate then letter", `"\ud800abcdef"`, ErrLoneSurrogate},
		{"high surrogate then high surrogate", `"\ud800\ud800"`, ErrLoneSurrogate},
		{"lone low surrogate", `"\udc00"`, ErrLoneSurrogate},
		{"overflow", `1e400`, ErrNumberRange},
		{"negative overflow", `-1.8e308`, ErrNumberRange},
		{"trailing data", `{} {}`, ErrTrailingData},
		{"trailing comma text", `1,`, ErrTrailingData},
		{"leading zero", `01`, ErrSyntax},
		{"negative leading zero", `-01`, ErrSyntax},
		{"plus sign", `+1`, ErrSyntax},
		{"bare fraction", `.5`, ErrSyntax},
		{"empty fraction", `1.`, ErrSyntax},
		{"empty exponent", `1e`, ErrSyntax},
		{"hex", `0x10`, ErrTrailingData},
		{"NaN", `NaN`, ErrSyntax},
		{"Infinity", `Infinity`, ErrSyntax},
		{"trailing comma", `[1,]`, ErrSyntax},
		{"object trailing comma", `{"a":1,}`, ErrSyntax},
		{"single quotes", `{'a':1}`, ErrSyntax},
		{"raw control character", "\"a\tb\"", ErrSyntax},
		{"bad escape", `"\x"`, ErrSyntax},
		{"short unicode escape", `"\u12"`, ErrSyntax},
		{"byte order mark", "\ufeff{}", ErrSyntax},
		{"empty", ``, ErrSyntax},
		{"unterminated", `{"a":"b`, ErrSyntax},
		{"too deep", strings.Repeat("[", MaxDepth+1) + strings.Repeat("]", MaxDepth+1), ErrTooDeep},
		{"too deep objects", strings.Repeat(`{"a":`, MaxDepth+1) + "1" + strings.Repeat("}", MaxDepth+1), ErrTooDeep},
	}
	for _, tt := range tests {
		_, err := Canonicalize([]byte(tt.in))
		if !errors.Is(err, tt.want) {
			t.Errorf("%s: got %v, want %v", tt.name, err, tt.want)
		}
		var se *SyntaxError
		if err != nil && !errors.As(err, &se) {
			t.Errorf("%s: %v is not a *SyntaxError", tt.name, err)
		}
	}
	deepest := strings.Repeat("[", MaxDepth) + strings.Repeat("]", MaxDepth)
	if _, err := Canonicalize([]byte(deepest)); err != nil {
		t.Errorf("nesting of exactly MaxDepth: %v", err)
	}
}

func TestMarshalKeepsOrder(t *testing.T) {
	t.Parallel()
	obj, err := ParseObject([]byte(`{"z":1,"a":{"y":[1,"x"],"b":true}}`))
	if err != nil {
		t.Fatal(err)
	}
	obj.Set("m", "new")
	obj.Set("z", 2.5)
	got, err := Marshal(obj)
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"z":2.5,"a":{"y":[1,"x"],"b":true},"m":"new"}`; string(got) != want {
		t.Errorf("Marshal: got %s, want %s", got, want)
	}
	pretty, err := MarshalIndent(obj, "  ")
	if err != nil {
		t.Fatal(err)
	}
	want := "{\n  \"z\": 2.5,\n  \"a\": {\n    \"y\": [\n      1,\n      \"x\"\n    ],\n    \"b\": true\n  },\n  \"m\": \"new\"\n}"
	if string(pretty) != want {
		t.Errorf("MarshalIndent:\n%s\nwant\n%s", pretty, want)
	}
	if !obj.Delete("a") || obj.Delete("a") || obj.Len() != 2 {
		t.Errorf("Delete did not remove exactly one member: %d left", obj.Len())
	}
}

func TestMarshalRefusesUnsupported(t *testing.T) {
	t.Parallel()
	for _, v := range []any{1, math.NaN(), math.Inf(-1), "\xff", []any{map[string]any{}}, NewObject(Member{"\xfe", nil})} {
		if _, err := MarshalCanonical(v); !errors.Is(err, ErrUnsupportedValue) {
			t.Errorf("%#v: got %v, want ErrUnsupportedValue", v, err)
		}
	}
}

func TestLookup(t *testing.T) {
	t.Parallel()
	root, err := Parse([]byte(`{"a/b":{"m~n":[10,{"c":"x"}]},"":{"":1}}`))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		pointer string
		want    any
		err     bool
	}{
		{pointer: "/a~1b/m~0n/0", want: 10.0},
		{pointer: "/a~1b/m~0n/1/c", want: "x"},
		{pointer: "//", want: 1.0},
		{pointer: "/a~1b/m~0n/01", err: true},
		{pointer: "/a~1b/m~0n/2", err: true},
		{pointer: "/a~1b/m~0n/-", err: true},
		{pointer: "/a~2b", err: true},
		{pointer: "/missing", err: true},
		{pointer: "a", err: true},
		{pointer: "/a~1b/m~0n/0/deeper", err: true},
	}
	for _, tt := range tests {
		got, err := Lookup(root, tt.pointer)
		if tt.err {
			if !errors.Is(err, ErrPointer) {
				t.Errorf("%q: got %v, %v; want ErrPointer", tt.pointer, got, err)
			}
			continue
		}
		if err != nil || got != tt.want {
			t.Errorf("%q: got %v, %v; want %v", tt.pointer, got, err, tt.want)
		}
	}
	if got := appendPointer("", "a/b~c"); got != "/a~1b~0c" {
		t.Errorf("appendPointer: got %q", got)
	}
}
