package main

import (
	"context"
	"crypto"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/rsa"
	"crypto/x509"
	"encoding/pem"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/assay-dev/assay/pkg/attest"
	"github.com/assay-dev/assay/pkg/jsf"
)

// signOptions are the inputs of `sign`.
type signOptions struct {
	file string // the frozen statement, as downloaded from the service
	key  string // PEM private key
	alg  string // JSF algorithm; "" chooses by key type
	out  string // where to write the signer; "" is the command's output
}

// Validate checks the options.
func (o signOptions) Validate() error {
	if o.file == "" {
		return usageErrorf("the frozen statement to sign is required")
	}
	if o.key == "" {
		return usageErrorf("--key is required: the signatory's private key (PKCS#8 PEM)")
	}
	if o.alg != "" && !slices.Contains(jsf.Algorithms(), o.alg) {
		return usageErrorf("--alg %q is not one of %s", o.alg, strings.Join(jsf.Algorithms(), ", "))
	}
	return nil
}

func newSignCmd() *cobra.Command {
	opts := signOptions{}
	cmd := &cobra.Command{
		Use:   "sign FILE --key KEY.pem",
		Short: "Sign a frozen attestation statement with a signatory's own key, offline",
		Long: "Writes the JSF signer object {algorithm, publicKey, value} that signs the statement's declarations as " +
			"its only signer: upload it to the service as digital.signer. FILE is the frozen statement downloaded " +
			"from the service; KEY.pem an unencrypted PKCS#8 private key (EC P-256/384/521, RSA of 2048 bits or more, " +
			"Ed25519; SEC 1 and PKCS#1 PEM are read too). The algorithm is ES256/ES384/ES512 by curve, PS256 for RSA " +
			"and Ed25519, unless --alg says otherwise. Needs no configuration and no database.",
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.file = args[0]
			if err := opts.Validate(); err != nil {
				return err
			}
			return runSign(cmd.Context(), opts, cmd.OutOrStdout())
		},
	}
	f := cmd.Flags()
	f.StringVar(&opts.key, "key", "", "the signatory's private key (PKCS#8 PEM, unencrypted)")
	f.StringVar(&opts.alg, "alg", "", "JSF algorithm: "+strings.Join(jsf.Algorithms(), ", ")+" (default: by key type)")
	f.StringVarP(&opts.out, "output", "o", "", "write the signer to this file instead of standard output")
	return offline(cmd)
}

func runSign(_ context.Context, opts signOptions, out io.Writer) error {
	frozen, err := readBounded(opts.file, maxDocumentBytes)
	if err != nil {
		return usageError(err)
	}
	key, err := readPrivateKey(opts.key)
	if err != nil {
		return usageErrorf("--key %s: %w", opts.key, err)
	}
	alg := opts.alg
	if alg == "" {
		if alg, err = defaultAlgorithm(key.Public()); err != nil {
			return usageErrorf("--key %s: %w", opts.key, err)
		}
	}
	s, err := jsf.NewSigner(key, alg)
	if err != nil {
		return usageErrorf("--key %s: %w", opts.key, err)
	}
	signer, err := attest.SignStatement(frozen, s)
	if err != nil {
		return usageErrorf("%s: %w", opts.file, err)
	}
	// The service's own acceptance check, so that a signer it would refuse is never written.
	if _, _, err := attest.AddDigitalSignature(frozen, signer, attest.Signatory{}); err != nil {
		return usageErrorf("%s: the signer would be refused: %w", opts.file, err)
	}
	data, err := jsf.MarshalIndent(signer, "  ")
	if err != nil {
		return err
	}
	data = append(data, '\n')
	if opts.out == "" {
		_, err = out.Write(data)
		return err
	}
	if err := os.WriteFile(opts.out, data, 0o644); err != nil {
		return err
	}
	_, err = fmt.Fprintf(out, "wrote the %s signer of key %s to %s\n", alg, s.Thumbprint(), opts.out)
	return err
}

// readPrivateKey reads the first private key of a PEM file: PKCS#8 ("PRIVATE KEY"), or
// SEC 1 ("EC PRIVATE KEY") and PKCS#1 ("RSA PRIVATE KEY") as OpenSSL writes by default.
func readPrivateKey(path string) (crypto.Signer, error) {
	rest, err := readBounded(path, maxKeyFileBytes)
	if err != nil {
		return nil, err
	}
	for {
		var block *pem.Block
		if block, rest = pem.Decode(rest); block == nil {
			return nil, errors.New("no private key found: expected a PEM file with -----BEGIN PRIVATE KEY-----")
		}
		if strings.Contains(block.Headers["Proc-Type"], "ENCRYPTED") || block.Type == "ENCRYPTED PRIVATE KEY" {
			return nil, errors.New("the private key is encrypted: export it unencrypted " +
				"(for example `openssl pkcs8 -topk8 -nocrypt -in KEY.pem -out plain.pem`) and keep that file safe")
		}
		var key any
		switch block.Type {
		case "PRIVATE KEY":
			key, err = x509.ParsePKCS8PrivateKey(block.Bytes)
		case "EC PRIVATE KEY":
			key, err = x509.ParseECPrivateKey(block.Bytes)
		case "RSA PRIVATE KEY":
			key, err = x509.ParsePKCS1PrivateKey(block.Bytes)
		case "PUBLIC KEY", "RSA PUBLIC KEY", "CERTIFICATE":
			return nil, fmt.Errorf("the file holds a %s, not a private key: signing needs the private key", strings.ToLower(block.Type))
		default:
			continue // EC PARAMETERS and the like
		}
		if err != nil {
			return nil, fmt.Errorf("the %s cannot be read: %w", strings.ToLower(block.Type), err)
		}
		signer, ok := key.(crypto.Signer)
		if !ok {
			return nil, fmt.Errorf("a %T cannot sign", key)
		}
		return signer, nil
	}
}

// defaultAlgorithm is the algorithm a key signs with unless --alg says otherwise.
func defaultAlgorithm(pub crypto.PublicKey) (string, error) {
	switch k := pub.(type) {
	case *ecdsa.PublicKey:
		if alg, ok := map[string]string{"P-256": "ES256", "P-384": "ES384", "P-521": "ES512"}[k.Curve.Params().Name]; ok {
			return alg, nil
		}
		return "", fmt.Errorf("the EC curve %s is not supported (P-256, P-384 or P-521)", k.Curve.Params().Name)
	case *rsa.PublicKey:
		return "PS256", nil
	case ed25519.PublicKey:
		return "Ed25519", nil
	default:
		return "", fmt.Errorf("a %T key is not supported (EC, RSA or Ed25519)", pub)
	}
}
