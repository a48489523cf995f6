//go:build tools

// Package tools pins versitygw, the S3-compatible server the storage tests run against
// (pkg/blob/blobtest starts it); scripts/test.sh builds it from this module.
package tools

import _ "github.com/versity/versitygw/cmd/versitygw"
