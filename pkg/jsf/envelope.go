package jsf

import (
	"errors"
	"fmt"
	"slices"
)

// DefaultProperty is the property that holds a signature unless told otherwise: JSF's
// default and the one CycloneDX uses.
const DefaultProperty = "signature"

// MaxSigners bounds the signers of one multiple signature or chain. Each signer is
// verified over the whole enclosing object (a chain link also over the links before it),
// so without a bound a hostile document could make verification quadratic in its size.
const MaxSigners = 100

// Errors about the shape of a signature object. They are wrapped with detail.
var (
	// ErrExcludes refuses JSF's "excludes", which leaves the named properties of the
	// signed object unsigned.
	ErrExcludes = errors.New(`jsf: "excludes" is not allowed in this profile (it leaves properties unsigned)`)
	// ErrMalformed is a signature object that does not follow JSF: a missing or
	// mistyped property, an unknown one, an empty "signers"...
	ErrMalformed = errors.New("jsf: malformed signature object")
	// ErrNoSignature is a document (or object) with no signature to verify.
	ErrNoSignature = errors.New("jsf: no signature found")
	// ErrAlreadySigned is an attempt to sign an object whose signature property is
	// taken, or to add a signer of another form to it.
	ErrAlreadySigned = errors.New("jsf: object already has a signature")
)

// Form tells how a signature property holds its signers.
type Form int

// The three JSF forms.
const (
	// FormSingle is one signer: {"algorithm": ..., "value": ...}.
	FormSingle Form = iota
	// FormMultiple is independent signers: {"signers": [...]}. Each signs the object as
	// if it were the only signer, so signers can be added or removed without touching
	// the others.
	FormMultiple
	// FormChain is a signature chain: {"chain": [...]}. Each signer also signs the
	// signers before it, values included, so the order is part of what is signed.
	FormChain
)

// String names the form: single, multiple or chain.
func (f Form) String() string {
	switch f {
	case FormSingle:
		return "single"
	case FormMultiple:
		return "multiple"
	case FormChain:
		return "chain"
	default:
		return fmt.Sprintf("Form(%d)", int(f))
	}
}

func (f Form) arrayName() string {
	if f == FormChain {
		return "chain"
	}
	return "signers"
}

// reservedProperties are the names JSF gives meaning to; an extension must not reuse them.
var reservedProperties = map[string]bool{"algorithm": true, "keyId": true, "publicKey": true, "certificatePath": true,
	"value": true, "extensions": true, "excludes": true, "signers": true, "chain": true}

// envelope is the value of a signature property, read but not yet verified.
type envelope struct {
	form       Form
	wrapper    *Object // the value of the signature property
	signers    []any   // FormMultiple and FormChain: the array; FormSingle: nil
	extensions map[string]bool
}

// looksLikeSignature decides whether Verify treats a property value as a JSF signature.
// "algorithm" alone suffices, so that a signature stripped of its value is reported as
// broken instead of being silently skipped.
func looksLikeSignature(v any) bool {
	obj, ok := v.(*Object)
	return ok && (obj.Has("algorithm") || obj.Has("signers") || obj.Has("chain"))
}

func readEnvelope(wrapper *Object) (envelope, error) {
	env := envelope{form: FormSingle, wrapper: wrapper}
	switch multi, chain := wrapper.Has("signers"), wrapper.Has("chain"); {
	case multi && chain:
		return env, fmt.Errorf(`%w: both "signers" and "chain"`, ErrMalformed)
	case multi:
		env.form = FormMultiple
	case chain:
		env.form = FormChain
	}
	if wrapper.Has("excludes") {
		return env, ErrExcludes
	}
	var err error
	if env.extensions, err = readExtensions(wrapper); err != nil {
		return env, err
	}
	if env.form == FormSingle {
		return env, nil
	}
	for name := range wrapper.All() {
		if name != env.form.arrayName() && name != "extensions" {
			return env, fmt.Errorf("%w: unexpected property %q beside %q", ErrMalformed, name, env.form.arrayName())
		}
	}
	v, _ := wrapper.Get(env.form.arrayName())
	arr, ok := v.([]any)
	if !ok || len(arr) == 0 {
		return env, fmt.Errorf("%w: %q must be a non-empty array", ErrMalformed, env.form.arrayName())
	}
	if len(arr) > MaxSigners {
		return env, fmt.Errorf("%w: %d signers, more than MaxSigners (%d)", ErrMalformed, len(arr), MaxSigners)
	}
	for i, s := range arr {
		if _, ok := s.(*Object); !ok {
			return env, fmt.Errorf("%w: %s[%d] is a %s, not an object", ErrMalformed, env.form.arrayName(), i, typeName(s))
		}
	}
	env.signers = arr
	return env, nil
}

func readExtensions(obj *Object) (map[string]bool, error) {
	v, ok := obj.Get("extensions")
	if !ok {
		return nil, nil
	}
	arr, ok := v.([]any)
	if !ok || len(arr) == 0 {
		return nil, fmt.Errorf(`%w: "extensions" must be a non-empty array of names`, ErrMalformed)
	}
	ext := make(map[string]bool, len(arr))
	for _, e := range arr {
		name, ok := e.(string)
		switch {
		case !ok || name == "":
			return nil, fmt.Errorf(`%w: "extensions" holds a %s, not a name`, ErrMalformed, typeName(e))
		case reservedProperties[name]:
			return nil, fmt.Errorf(`%w: extension %q is a JSF property name`, ErrMalformed, name)
		case ext[name]:
			return nil, fmt.Errorf(`%w: extension %q is listed twice`, ErrMalformed, name)
		}
		ext[name] = true
	}
	return ext, nil
}

// signerAt returns signer i (any i for FormSingle, which has one).
func (e envelope) signerAt(i int) *Object {
	if e.form == FormSingle {
		return e.wrapper
	}
	return e.signers[i].(*Object)
}

func (e envelope) count() int {
	if e.form == FormSingle {
		return 1
	}
	return len(e.signers)
}

// signerFields are the JSF properties of one signer, checked for type only.
type signerFields struct {
	algorithm string
	keyID     string
	publicKey *Object
	certPath  []string
	value     string
}

func readSigner(obj *Object, e envelope) (signerFields, error) {
	var f signerFields
	var hasAlg, hasValue bool
	for name, v := range obj.All() {
		var err error
		switch {
		case name == "algorithm":
			f.algorithm, err = stringProperty(name, v)
			hasAlg = true
		case name == "keyId":
			f.keyID, err = stringProperty(name, v)
		case name == "value":
			f.value, err = stringProperty(name, v)
			hasValue = true
		case name == "publicKey":
			var ok bool
			if f.publicKey, ok = v.(*Object); !ok {
				err = fmt.Errorf("%w: %q is a %s, not an object", ErrMalformed, name, typeName(v))
			}
		case name == "certificatePath":
			f.certPath, err = stringArray(name, v)
		case name == "excludes":
			err = ErrExcludes
		case name == "extensions" && e.form == FormSingle:
			// read with the envelope
		case e.extensions[name]:
			// an extension: signed like everything else, not interpreted
		default:
			err = fmt.Errorf("%w: unknown property %q (not a JSF property and not listed in \"extensions\")", ErrMalformed, name)
		}
		if err != nil {
			return f, err
		}
	}
	switch {
	case !hasAlg:
		return f, fmt.Errorf(`%w: "algorithm" is missing`, ErrMalformed)
	case !hasValue:
		return f, fmt.Errorf(`%w: "value" is missing`, ErrMalformed)
	case f.publicKey != nil && f.certPath != nil:
		return f, fmt.Errorf(`%w: both "publicKey" and "certificatePath" name the key`, ErrMalformed)
	}
	return f, nil
}

func stringProperty(name string, v any) (string, error) {
	s, ok := v.(string)
	if !ok {
		return "", fmt.Errorf("%w: %q is a %s, not a string", ErrMalformed, name, typeName(v))
	}
	return s, nil
}

func stringArray(name string, v any) ([]string, error) {
	arr, ok := v.([]any)
	if !ok || len(arr) == 0 {
		return nil, fmt.Errorf("%w: %q must be a non-empty array of strings", ErrMalformed, name)
	}
	out := make([]string, len(arr))
	for i, e := range arr {
		s, ok := e.(string)
		if !ok {
			return nil, fmt.Errorf("%w: %s[%d] is a %s, not a string", ErrMalformed, name, i, typeName(e))
		}
		out[i] = s
	}
	return out, nil
}

// signingInput returns the bytes signer i signs: the JCS form of obj in which the
// signature property holds the signer without its "value" (unsigned) and, per JSF:
//   - FormSingle: nothing else;
//   - FormMultiple: the wrapper with "signers" reduced to that one signer (the other
//     signers are removed);
//   - FormChain: the wrapper with "chain" holding the signers before i, values and all,
//     followed by this signer (the signers after it are removed).
//
// Signing and verifying both use it, so they cannot drift apart.
func signingInput(obj *Object, property string, e envelope, i int, unsigned *Object) ([]byte, error) {
	var sig any = unsigned
	if e.form != FormSingle {
		w := e.wrapper.shallow()
		var arr []any
		if e.form == FormChain {
			arr = slices.Clone(e.signers[:i])
		}
		w.Set(e.form.arrayName(), append(arr, unsigned))
		sig = w
	}
	o := obj.shallow()
	o.Set(property, sig)
	return MarshalCanonical(o)
}

// withoutValue is a signer as it was when signed.
func withoutValue(signer *Object) *Object {
	c := signer.shallow()
	c.Delete("value")
	return c
}
