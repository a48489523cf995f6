package attest_test

import (
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/assay-dev/assay/pkg/attest"
	"github.com/assay-dev/assay/pkg/jsf"
)

// leaf is one scalar of a document: where it is and a way to change it.
type leaf struct {
	pointer string
	set     func(any)
	value   any
}

// leaves lists every scalar of a parsed document with a setter.
func leaves(v any, pointer string, set func(any), out *[]leaf) {
	switch v := v.(type) {
	case *jsf.Object:
		for name, child := range v.All() {
			leaves(child, pointer+"/"+strings.ReplaceAll(strings.ReplaceAll(name, "~", "~0"), "/", "~1"), func(x any) { v.Set(name, x) }, out)
		}
	case []any:
		for i, child := range v {
			leaves(child, pointer+"/"+strconv.Itoa(i), func(x any) { v[i] = x }, out)
		}
	default:
		*out = append(*out, leaf{pointer: pointer, set: set, value: v})
	}
}

// changed is another value of the same kind.
func changed(v any) any {
	switch v := v.(type) {
	case string:
		if v == "" {
			return "x"
		}
		return v[:len(v)-1] + string(rune(v[len(v)-1])^1)
	case bool:
		return !v
	case nil:
		return false
	default: // a number
		f, _ := strconv.ParseFloat(jsfNumber(v), 64)
		return f + 1
	}
}

func jsfNumber(v any) string {
	b, _ := jsf.Marshal(v)
	return string(b)
}

// TestEveryLeafIsCovered: changing any single leaf of a sealed document makes
// verification fail; a leaf inside an attestation, claim or evidence object breaks that
// object's own signature, so the report names it; a leaf of a signatory's signer breaks
// that signatory.
func TestEveryLeafIsCovered(t *testing.T) {
	t.Parallel()
	platform := platformSigner(t)
	doc := sealed(t, platform, platform, userSigner(t))
	trust := attest.Options{PlatformKeys: []jsf.JWK{platform.PublicKey()}}
	root, err := jsf.Parse(doc)
	require.NoError(t, err)
	var all []leaf
	leaves(root, "", nil, &all)
	require.Greater(t, len(all), 100)
	for i := range all {
		fresh, err := jsf.Parse(doc)
		require.NoError(t, err)
		var ls []leaf
		leaves(fresh, "", nil, &ls)
		l := ls[i]
		l.set(changed(l.value))
		mutated, err := jsf.MarshalIndent(fresh, "  ")
		require.NoError(t, err)
		r := attest.Verify(mutated, trust)
		require.False(t, r.OK, "changing %s went unnoticed", l.pointer)
		owner := ownerOf(l.pointer)
		if owner == "" {
			continue
		}
		broken := false
		for _, c := range r.Checks {
			if c.Pointer == owner && c.Status == attest.StatusInvalid {
				broken = true
			}
		}
		require.True(t, broken || len(r.Problems) > 0, "changing %s did not break the signature of %s: %+v", l.pointer, owner, r.Checks)
	}
}

// ownerOf is the pointer of the innermost signed object a leaf belongs to, besides the
// seal: an attestation, claim or evidence object, or declarations (the signatories).
func ownerOf(p string) string {
	parts := strings.Split(p, "/")
	if len(parts) >= 4 && parts[1] == "declarations" {
		switch parts[2] {
		case "attestations", "claims", "evidence":
			return strings.Join(parts[:4], "/")
		}
	}
	if len(parts) >= 3 && parts[1] == "declarations" {
		return "/declarations"
	}
	return ""
}

func TestRemovedSignerAndSwappedKey(t *testing.T) {
	t.Parallel()
	platform := platformSigner(t)
	doc := sealed(t, platform, platform, userSigner(t))
	trust := attest.Options{PlatformKeys: []jsf.JWK{platform.PublicKey()}}

	root, err := jsf.ParseObject(doc)
	require.NoError(t, err)
	decl, err := jsf.LookupObject(root, "/declarations")
	require.NoError(t, err)
	decl.Delete("signature")
	removed, err := jsf.MarshalIndent(root, "  ")
	require.NoError(t, err)
	r := attest.Verify(removed, trust)
	require.False(t, r.OK)
	require.Equal(t, attest.StatusInvalid, r.Checks[0].Status, "the seal covers the signers")
	require.NotEmpty(t, r.Problems, "the signing record names a signer that is gone")

	// Re-sealing with another key after swapping the seal: the document verifies as
	// intact but the key is not the platform's.
	root, err = jsf.ParseObject(doc)
	require.NoError(t, err)
	root.Delete("signature")
	resealed, err := jsf.MarshalIndent(root, "  ")
	require.NoError(t, err)
	forged, err := attest.Seal(resealed, platformSigner(t))
	require.NoError(t, err)
	r = attest.Verify(forged, trust)
	require.False(t, r.OK)
	for _, c := range r.Checks {
		if c.Pointer == "" {
			require.Equal(t, attest.StatusUntrusted, c.Status)
		}
		if c.Signer == "signatory" {
			require.Equal(t, attest.StatusUntrusted, c.Status, "an untrusted seal vouches for no signatory")
		}
	}
}
