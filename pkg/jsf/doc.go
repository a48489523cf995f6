// Package jsf implements the JSON Canonicalization Scheme (JCS, RFC 8785) and the JSON
// Signature Format (JSF 0.82, https://cyberphone.github.io/doc/security/jsf.html), so that
// CycloneDX attestation documents can carry plain JSF signatures that any JSF verifier
// accepts.
//
// # Parsed documents
//
// Parse reads JSON strictly into a small tree: nil, bool, float64, string, []any and
// *Object. Object keeps its members in document order, so a signed document is written
// back in the order its author chose rather than re-sorted, while the bytes that are
// signed are always the JCS form (MarshalCanonical). Numbers are kept as float64 only:
// JSF requires I-JSON data, whose numbers are IEEE-754 doubles, and JCS signs the double
// rather than its spelling, so 1.50 and 1.5 are the same signed value and re-serialise as
// 1.5. The tree is the shared ground of the package: Lookup finds an object by JSON
// pointer, Object.Set inserts or replaces a property, and Marshal/MarshalCanonical write
// it out again.
//
// # Signatures
//
// A Signer wraps a crypto.Signer with a JSF algorithm and names its key by an embedded
// JWK (the default), a keyId, or an X.509 certificate path. SignObject adds a single
// signature to an object, AddSignerObject adds one signer to a multiple signature
// ("signers") and AppendChainObject one link to a signature chain ("chain"); Sign,
// AddSigner and AppendChain do the same on encoded documents at a JSON pointer.
//
// Verify walks a whole document, finds every JSF signature under the configured property
// name and reports one Result per signer. Whether a key is trusted is the caller's
// decision: a Result exposes the key (as a JWK) and its RFC 7638 thumbprint, nothing more.
//
// # Profile
//
// This package accepts a subset of JSF on purpose:
//   - Algorithms: ES256, ES384, ES512, RS256, RS384, RS512, PS256, PS384, PS512 and
//     Ed25519. HMAC (HS*) is refused because a shared secret proves nothing to a third
//     party; Ed448 is refused because the standard library has no Ed448. RSA keys must
//     have at least 2048 bits.
//   - "excludes" is refused: it leaves named properties unsigned, and an attestation must
//     not carry unsigned data that looks signed.
//   - "extensions" is supported as JSF defines it (the specification's vectors use it):
//     the listed extension properties are covered by the signature like any other
//     property of the signature object. Verify does not interpret them and a Signer
//     does not write them.
//   - A signature object carrying both "publicKey" and "certificatePath" is refused as
//     ambiguous, as is a "publicKey" carrying private-key members.
//   - A signature object may carry only JSF properties and the extensions it lists;
//     "signers" and "chain" hold at most MaxSigners signers.
package jsf
