package postgres

// The store is one small service type per aggregate, each implementing one assess service
// interface and holding the DB (pool, clock, keyring, job client and the transaction kit of
// tx.go) as a named field, built by its constructor. The kit's own services are the audit
// log and encryption; the others live in the area packages (identity, catalogue, work,
// delivery), and package services composes them all.

// AuditService implements assess.AuditService.
type AuditService struct{ db *DB }

// NewAuditService returns the service on db.
func NewAuditService(db *DB) *AuditService { return &AuditService{db} }

// EncryptionService implements assess.EncryptionService.
type EncryptionService struct{ db *DB }

// NewEncryptionService returns the service on db.
func NewEncryptionService(db *DB) *EncryptionService { return &EncryptionService{db} }
