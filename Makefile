# The two commands of the README:
#   make run   – build everything and run the service with the embedded database on :3001
#   make test  – install what is missing, then every check: lint, Go tests on real
#                PostgreSQL, web unit tests, OpenAPI lint, browser journeys in Chromium
# The Dockerfile runs the same build steps (web-build, go-build).

GO            ?= go
VERSION       ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)
LDFLAGS       := -s -w -X github.com/assay-dev/assay/cmd/internal/boot.Version=$(VERSION)
GOLANGCI_LINT_VERSION := v2.15.0
BIN           := $(CURDIR)/bin

.PHONY: run build web-deps web-build starter-standards go-build test lint bench bench-startup bench-auth bench-deliveries bench-upload bench-attachments bench-attestations bench-reports bench-dashboard datagen clean

# Links in e-mails and chat messages point at APP_URL; for a local run that is this server.
run: build
	APP_URL="$${APP_URL:-http://localhost:$${PORT:-3001}}" $(BIN)/assay-server

build: web-build go-build

web-deps:
	cd web && npm ci --no-audit --no-fund

web-build: web-deps
	cd web && npm run build

# The starter standards (standards/starter/README.md) are built into assay-server when
# standards/starter/files/ has them: fetched here when missing and a source is reachable —
# GitHub, or SOURCE=<dir>, a local copy of the catalogue's standards/ folder (for example
# SOURCE=../shared/data/standards). Without them the build goes on: the server then imports
# the starter set from the standards feed. (The Dockerfile runs the script itself, strictly.)
starter-standards:
	@bash scripts/fetch-starter-standards.sh || echo "starter standards: not fetched; building without them (the setup wizard will import them from the standards feed)"

go-build: starter-standards
	CGO_ENABLED=0 $(GO) build -trimpath -ldflags "$(LDFLAGS)" -o $(BIN)/assay-server ./cmd/server
	CGO_ENABLED=0 $(GO) build -trimpath -ldflags "$(LDFLAGS)" -o $(BIN)/assay-worker ./cmd/worker
	CGO_ENABLED=0 $(GO) build -trimpath -ldflags "$(LDFLAGS)" -o $(BIN)/assay-ctl ./cmd/ctl

test:
	bash scripts/test.sh

# Request hot-path benchmark (PRODUCT P10.1, docs/performance.md): each operation of
# cmd/internal/bench/scenario.json against bin/assay-server on a throw-away PostgreSQL, then
# the hello-world and pgbench ceilings, three rounds of each (medians). OP=<name> (or
# OP=mixed) runs one operation; ARGS passes more flags, e.g. ARGS='-rounds 5 -users 5000'.
# On realistic data (pkg/datagen, issue 27): DATA rows in each of the biggest tables (default
# 1m; DATA= for the bench's own seed alone), then every read again on COMPARE_DATA (default 1k)
# with each read's p99 ratio; STANDARDS_DATA=<folder> starts the generated assessments on
# real standards. Results: tmp/bench-results.json.
DATA ?= 1m
COMPARE_DATA ?= 1k
bench: go-build
	$(GO) build -o $(BIN)/assay-bench ./cmd/internal/bench
	$(BIN)/assay-bench -server $(BIN)/assay-server -out $(CURDIR)/tmp/bench-results.json $(if $(OP),-op $(OP)) \
		$(if $(DATA),-data $(DATA) $(if $(COMPARE_DATA),-compare-data $(COMPARE_DATA))) $(ARGS)

# Start-up time to healthy and idle memory against an external PostgreSQL (PRODUCT P10.1).
bench-startup:
	bash scripts/bench-startup.sh

# p99 of an authenticated request with 50 concurrent sign-ins in flight (issue 4 load check).
bench-auth:
	bash scripts/bench-auth-load.sh

# Webhook deliveries per second from one worker process to a local receiver (issue 5).
bench-deliveries:
	$(GO) test ./jobs/workers -run '^$$' -bench BenchmarkWebhookDeliveries -benchtime 2000x -count 1

# Memory and throughput of the streaming upload path: bytes allocated per 50 MiB upload.
bench-upload:
	$(GO) test ./pkg/httpapi -run '^$$' -bench BenchmarkUpload50MiB -benchtime 5x -count 1

# Evidence attachments through the real server to each storage provider (database, S3 on
# versitygw built from tools/versitygw): peak resident-memory growth of a 50 MiB upload
# (must stay under 16 MiB) and a 51 MiB upload refused with 413 before its body is sent.
bench-attachments:
	$(GO) test ./cmd/server -run '^$$' -bench BenchmarkAttachmentUpload50MiB -benchtime 3x -count 1

# The dashboard on pkg/datagen's Large data (10,000 assessments, ~1,000,000 results, 100,000
# evidence, 300,000 claims) for an administrator and a participant who sees a tenth: the first
# (uncached) answer and 32 clients for 15 s each (scripts/bench-dashboard.sh). ARGS passes
# datagen flags; STANDARDS_DATA=<folder> starts the assessments on real standards.
bench-dashboard: go-build
	bash scripts/bench-dashboard.sh

# Data shaped like real use in the database at DSN (migrated by a server once): pkg/datagen,
# sizes as flags in ARGS (default: the Large size).
datagen:
	$(GO) run ./cmd/internal/datagen -dsn "$(DSN)" $(ARGS)

# An attestation of a 70-requirement assessment from draft to sealed document (create, slot,
# an electronic signature that freezes the statement, seal) on a throw-away database; then the
# import of the specification's example attestation (schema check, reading, signature verdict,
# one transaction of 12 records) and its dry run.
bench-attestations:
	$(GO) test ./pkg/postgres -run '^$$' -bench BenchmarkAttestationBuildAndSeal -benchtime 50x -count 3
	$(GO) test ./pkg/app -run '^$$' -bench BenchmarkAttestationImport -benchtime 100x -count 3

# The PDF report of a complete 1,000-requirement assessment through the real server, ten
# downloads a run: peak resident-memory growth of the process (must stay under 32 MiB),
# seconds per report, its pages and size (docs/performance.md).
bench-reports:
	$(GO) test ./cmd/server -run '^$$' -bench BenchmarkAssessmentReport1000 -benchtime 10x -count 3

lint: $(BIN)/golangci-lint
	$(BIN)/golangci-lint run ./...

$(BIN)/golangci-lint:
	GOBIN=$(BIN) $(GO) install github.com/golangci/golangci-lint/v2/cmd/golangci-lint@$(GOLANGCI_LINT_VERSION)

clean:
	rm -rf $(BIN) web/dist/assets web/dist/apidocs web/dist/index.html
