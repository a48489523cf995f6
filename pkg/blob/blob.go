// Package blob holds the S3 storage provider of evidence files: an assess.BlobStore that
// streams uploads to a bucket as a multipart upload, holding one part in memory at a
// time. The database provider lives in pkg/postgres (the bytes go to blob_chunks rows);
// cmd/* constructs both and hands them to the store, which records per attachment which
// one holds its bytes.
package blob
