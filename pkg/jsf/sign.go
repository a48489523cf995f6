package jsf

import (
	"fmt"
	"slices"
)

// Target says where in a document a signature goes.
type Target struct {
	// Pointer is the RFC 6901 JSON pointer of the object to sign; "" is the document.
	Pointer string
	// Property is the name of the signature property; "" means DefaultProperty.
	Property string
}

func propertyOrDefault(p string) string {
	if p == "" {
		return DefaultProperty
	}
	return p
}

// SignObject adds a single JSF signature to obj under property ("" means
// DefaultProperty): the signature object {algorithm, keyId?, publicKey?,
// certificatePath?, value} signs the JCS form of obj including that object minus "value".
// Signatures nested deeper in obj are covered like any other data. It refuses an object
// that already has the property, since replacing a signature is a decision for the
// caller (Delete it first).
func SignObject(obj *Object, property string, s *Signer) error {
	property = propertyOrDefault(property)
	if obj.Has(property) {
		return fmt.Errorf("%w: %q is already present", ErrAlreadySigned, property)
	}
	signature, err := s.signatureObject(obj, property, envelope{form: FormSingle}, 0)
	if err != nil {
		return err
	}
	obj.Set(property, signature)
	return nil
}

// AddSignerObject adds s to the multiple signature ({"signers": [...]}) under property,
// creating it when absent. The new signer signs obj as if it were the only signer, so
// the signers already present stay valid, and any signer can later be removed without
// breaking the others.
func AddSignerObject(obj *Object, property string, s *Signer) error {
	return appendSigner(obj, propertyOrDefault(property), s, FormMultiple)
}

// AppendChainObject adds s as the last link of the signature chain ({"chain": [...]})
// under property, creating it when absent. The new signer also signs every earlier
// signer, values included, so links can only be added at the end.
func AppendChainObject(obj *Object, property string, s *Signer) error {
	return appendSigner(obj, propertyOrDefault(property), s, FormChain)
}

func appendSigner(obj *Object, property string, s *Signer, form Form) error {
	env := envelope{form: form, wrapper: NewObject()}
	if v, ok := obj.Get(property); ok {
		w, ok := v.(*Object)
		if !ok {
			return fmt.Errorf("%w: %q is a %s, not a signature object", ErrMalformed, property, typeName(v))
		}
		var err error
		if env, err = readEnvelope(w); err != nil {
			return fmt.Errorf("jsf: cannot add a signer to %q: %w", property, err)
		}
		if env.form != form {
			return fmt.Errorf("%w: %q holds a %s signature; cannot add to it as %s", ErrAlreadySigned, property, env.form, form)
		}
	}
	signature, err := s.signatureObject(obj, property, env, len(env.signers))
	if err != nil {
		return err
	}
	env.wrapper.Set(form.arrayName(), append(slices.Clone(env.signers), signature))
	obj.Set(property, env.wrapper)
	return nil
}

// signatureObject is s's signature object, "value" included, for obj as signer i of the
// envelope e under property (see signingInput for what it covers).
func (s *Signer) signatureObject(obj *Object, property string, e envelope, i int) (*Object, error) {
	signature := s.unsignedObject()
	data, err := signingInput(obj, property, e, i, signature)
	if err != nil {
		return nil, err
	}
	value, err := s.signValue(data)
	if err != nil {
		return nil, err
	}
	signature.Set("value", value)
	return signature, nil
}

// Sign parses doc, adds a single signature (see SignObject) to the object at the target
// and returns the document with members in their original order, indented by two
// spaces. The formatting is irrelevant to the signature, which covers the JCS form.
func Sign(doc []byte, at Target, s *Signer) ([]byte, error) {
	return signDocument(doc, at, s, SignObject)
}

// AddSigner is AddSignerObject on an encoded document, formatted as Sign does.
func AddSigner(doc []byte, at Target, s *Signer) ([]byte, error) {
	return signDocument(doc, at, s, AddSignerObject)
}

// AppendChain is AppendChainObject on an encoded document, formatted as Sign does.
func AppendChain(doc []byte, at Target, s *Signer) ([]byte, error) {
	return signDocument(doc, at, s, AppendChainObject)
}

func signDocument(doc []byte, at Target, s *Signer, sign func(*Object, string, *Signer) error) ([]byte, error) {
	root, err := Parse(doc)
	if err != nil {
		return nil, err
	}
	obj, err := LookupObject(root, at.Pointer)
	if err != nil {
		return nil, err
	}
	if err := sign(obj, at.Property, s); err != nil {
		return nil, err
	}
	return MarshalIndent(root, "  ")
}
