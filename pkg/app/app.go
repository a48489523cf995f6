// Package app is the application layer: the flows that span two adapters, such as a file
// streamed to a storage provider and recorded by the store, or a document downloaded from
// outside and imported by the store. It sits between pkg/httpapi (and the workers) and the
// adapters, and reaches them only through interfaces — the assess.BlobStore providers, the
// assess.DocumentFetcher, and the narrow store interfaces declared here, beside their use —
// so that cmd/* wires the concrete adapters in (docs/architecture.md "Application layer").
//
// What a single adapter does alone stays there: a change of one transaction, however many
// tables it touches, is the store's (pkg/postgres), and so is the signing of attestation
// documents, which runs inside the store's transactions.
package app
