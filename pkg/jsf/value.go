package jsf

import (
	"errors"
	"fmt"
	"iter"
	"strconv"
	"strings"
)

// Object is a JSON object that remembers the order of its members. The values held are the
// ones Parse produces: nil, bool, float64, string, []any and *Object.
//
// Names are unique: Parse refuses duplicates and Set replaces in place, because JCS (and
// so every signature) is undefined for an object with two members of the same name.
type Object struct {
	members []Member
}

// Member is one name/value pair of an Object.
type Member struct {
	Name  string
	Value any
}

// NewObject returns an object holding members in the given order. A later member replaces
// an earlier one of the same name, keeping the earlier position, as Set does.
func NewObject(members ...Member) *Object {
	o := &Object{members: make([]Member, 0, len(members))}
	for _, m := range members {
		o.Set(m.Name, m.Value)
	}
	return o
}

// Len returns the number of members.
func (o *Object) Len() int { return len(o.members) }

// All iterates over the members in order. Changing the object while iterating is not
// supported.
func (o *Object) All() iter.Seq2[string, any] {
	return func(yield func(string, any) bool) {
		for _, m := range o.members {
			if !yield(m.Name, m.Value) {
				return
			}
		}
	}
}

// Get returns the value of the member called name.
func (o *Object) Get(name string) (any, bool) {
	if i := o.index(name); i >= 0 {
		return o.members[i].Value, true
	}
	return nil, false
}

// Has reports whether the object has a member called name.
func (o *Object) Has(name string) bool { return o.index(name) >= 0 }

// Set replaces the value of the member called name where it stands, or appends a new
// member, so that re-signing an object does not reorder what a reader sees.
func (o *Object) Set(name string, value any) {
	if i := o.index(name); i >= 0 {
		o.members[i].Value = value
		return
	}
	o.members = append(o.members, Member{Name: name, Value: value})
}

// Delete removes the member called name and reports whether it was there.
func (o *Object) Delete(name string) bool {
	i := o.index(name)
	if i < 0 {
		return false
	}
	o.members = append(o.members[:i:i], o.members[i+1:]...)
	return true
}

// Clone returns a deep copy of the object.
func (o *Object) Clone() *Object {
	c := &Object{members: make([]Member, len(o.members))}
	for i, m := range o.members {
		c.members[i] = Member{Name: m.Name, Value: cloneValue(m.Value)}
	}
	return c
}

// shallow copies the member list only: verification rewrites one path of the tree (the
// signature property) and must leave the caller's tree untouched.
func (o *Object) shallow() *Object {
	return &Object{members: append([]Member(nil), o.members...)}
}

func (o *Object) index(name string) int {
	for i := range o.members {
		if o.members[i].Name == name {
			return i
		}
	}
	return -1
}

func cloneValue(v any) any {
	switch v := v.(type) {
	case *Object:
		return v.Clone()
	case []any:
		c := make([]any, len(v))
		for i, e := range v {
			c[i] = cloneValue(e)
		}
		return c
	default:
		return v
	}
}

// ErrPointer is returned when a JSON pointer is malformed or names nothing in the document.
var ErrPointer = errors.New("jsf: JSON pointer")

// Lookup returns the value that the RFC 6901 JSON pointer names inside root. The empty
// pointer names root itself.
func Lookup(root any, pointer string) (any, error) {
	if pointer == "" {
		return root, nil
	}
	if !strings.HasPrefix(pointer, "/") {
		return nil, fmt.Errorf("%w %q: must be empty or start with /", ErrPointer, pointer)
	}
	cur := root
	for _, raw := range strings.Split(pointer[1:], "/") {
		token, err := unescapePointerToken(raw)
		if err != nil {
			return nil, fmt.Errorf("%w %q: %w", ErrPointer, pointer, err)
		}
		switch c := cur.(type) {
		case *Object:
			v, ok := c.Get(token)
			if !ok {
				return nil, fmt.Errorf("%w %q: no member %q", ErrPointer, pointer, token)
			}
			cur = v
		case []any:
			i, err := arrayIndex(token, len(c))
			if err != nil {
				return nil, fmt.Errorf("%w %q: %w", ErrPointer, pointer, err)
			}
			cur = c[i]
		default:
			return nil, fmt.Errorf("%w %q: %q is below a value that is neither object nor array", ErrPointer, pointer, token)
		}
	}
	return cur, nil
}

// LookupObject is Lookup for a pointer that must name an object.
func LookupObject(root any, pointer string) (*Object, error) {
	v, err := Lookup(root, pointer)
	if err != nil {
		return nil, err
	}
	obj, ok := v.(*Object)
	if !ok {
		return nil, fmt.Errorf("%w %q: names a %s, not an object", ErrPointer, pointer, typeName(v))
	}
	return obj, nil
}

func unescapePointerToken(s string) (string, error) {
	if !strings.Contains(s, "~") {
		return s, nil
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '~' {
			b.WriteByte(s[i])
			continue
		}
		if i+1 == len(s) || (s[i+1] != '0' && s[i+1] != '1') {
			return "", errors.New("~ must be followed by 0 or 1")
		}
		if s[i+1] == '0' {
			b.WriteByte('~')
		} else {
			b.WriteByte('/')
		}
		i++
	}
	return b.String(), nil
}

// arrayIndex accepts only RFC 6901 indices: decimal, no sign, no leading zero. "-" (the
// position after the last element) names nothing that exists, so it is refused too.
func arrayIndex(token string, n int) (int, error) {
	if token == "" || (len(token) > 1 && token[0] == '0') || strings.TrimLeft(token, "0123456789") != "" {
		return 0, fmt.Errorf("%q is not an array index", token)
	}
	i, err := strconv.Atoi(token)
	if err != nil || i >= n {
		return 0, fmt.Errorf("index %s is out of range (length %d)", token, n)
	}
	return i, nil
}

// appendPointer extends an RFC 6901 pointer by one reference token.
func appendPointer(pointer, token string) string {
	token = strings.ReplaceAll(token, "~", "~0")
	token = strings.ReplaceAll(token, "/", "~1")
	return pointer + "/" + token
}

func typeName(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case bool:
		return "boolean"
	case float64:
		return "number"
	case string:
		return "string"
	case []any:
		return "array"
	case *Object:
		return "object"
	default:
		return fmt.Sprintf("unsupported Go type %T", v)
	}
}
