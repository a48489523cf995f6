#!/usr/bin/env bash
# The whole test suite, as `make test` and CI run it. It installs what a fresh machine
# lacks (Chromium and poppler-utils from Debian, npm packages, golangci-lint), then runs,
# in order: formatting and lint (with the dependency-boundary cases of
# scripts/check-boundaries.sh), the web build (typed client regenerated from the golden
# OpenAPI document, type check), ESLint, web unit tests, the OpenAPI linter, Go tests with
# -race on one shared PostgreSQL cluster, and the browser journeys against the real server.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
BIN=$ROOT/bin
mkdir -p "$BIN"
step() { printf '\n==> %s\n' "$*"; }

WORK=$(mktemp -d /tmp/assay-test.XXXXXX)
chmod 755 "$WORK"
PIDS=()
cleanup() {
  for pid in "${PIDS[@]:-}"; do [ -n "$pid" ] && kill "$pid" 2>/dev/null && { wait "$pid" 2>/dev/null || true; }; done
  rm -rf "$WORK"
}
trap cleanup EXIT

step "tools"
if ! command -v chromium >/dev/null 2>&1 && [ ! -x /usr/bin/chromium ]; then
  echo "installing Debian chromium"
  if [ "$(id -u)" = 0 ]; then SUDO=""; else SUDO="sudo"; fi
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq chromium >/dev/null
fi
if ! ls /usr/lib/postgresql/*/bin/postgres >/dev/null 2>&1 && ! command -v postgres >/dev/null 2>&1; then
  echo "installing Debian postgresql (server binaries for the test cluster)"
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null
fi
if ! command -v jq >/dev/null 2>&1 || ! command -v curl >/dev/null 2>&1; then
  # The CI recipe of docs/ci-evidence.md is run as written by a Go test (curl and jq).
  echo "installing Debian curl and jq"
  if [ "$(id -u)" = 0 ]; then SUDO=""; else SUDO="sudo"; fi
  $SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq curl jq >/dev/null
fi
if ! command -v pdftotext >/dev/null 2>&1 || ! command -v pdfinfo >/dev/null 2>&1; then
  # The PDF reports are read back with poppler's pdfinfo and pdftotext (pkg/report).
  echo "installing Debian poppler-utils"
  if [ "$(id -u)" = 0 ]; then SUDO=""; else SUDO="sudo"; fi
  $SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq poppler-utils >/dev/null
fi
make -s "$BIN/golangci-lint"
# mailpit is the SMTP server of the e-mail tests (pkg/notify/notifytest starts it); it is
# built from the pinned tools module because `go install` cannot fetch it here.
if [ ! -x "$BIN/mailpit" ]; then
  echo "building mailpit from tools/mailpit"
  (cd tools/mailpit && go build -o "$BIN/mailpit" github.com/axllent/mailpit)
fi
export MAILPIT_BIN="$BIN/mailpit"
# versitygw is the S3-compatible server of the storage tests (pkg/blob/blobtest starts it),
# built from the pinned tools module likewise.
if [ ! -x "$BIN/versitygw" ]; then
  echo "building versitygw from tools/versitygw"
  (cd tools/versitygw && go build -o "$BIN/versitygw" github.com/versity/versitygw/cmd/versitygw)
fi
export VERSITYGW_BIN="$BIN/versitygw"

step "gofmt, go vet, golangci-lint, dependency boundaries"
unformatted=$(gofmt -l $(git ls-files '*.go'))
if [ -n "$unformatted" ]; then echo "gofmt needed: $unformatted"; exit 1; fi
go vet ./...
"$BIN/golangci-lint" run ./...
bash scripts/check-boundaries.sh

step "web: install, build (regenerates the typed client), ESLint, unit tests, OpenAPI lint"
(cd web && npm ci --no-audit --no-fund --loglevel=error)
(cd web && npm run --silent build)
(cd web && npm run --silent lint)
if ! git diff --quiet -- web/src/api/schema.d.ts; then
  echo "web/src/api/schema.d.ts is out of date with the OpenAPI golden file: commit the regenerated file"
  git --no-pager diff --stat -- web/src/api/schema.d.ts
  exit 1
fi
(cd web && npm test)
(cd web && npm run --silent lint:openapi)

step "Go tests (race detector, one shared PostgreSQL cluster)"
go build -o "$WORK/testcluster" ./cmd/internal/testcluster
"$WORK/testcluster" -dir "$WORK/pg" -dsn-file "$WORK/dsn" &
PIDS+=($!)
for _ in $(seq 1 120); do [ -s "$WORK/dsn" ] && break; sleep 0.5; done
[ -s "$WORK/dsn" ] || { echo "test cluster did not start"; exit 1; }
TEST_DATABASE_URL=$(cat "$WORK/dsn") go test -race -count=1 -timeout 20m ./...

step "browser journeys (Chromium) against the real server"
make -s go-build
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
# Five servers, each with its own embedded database: one stays a fresh installation for
# the first-run journeys, one is set up by the session journeys, one (invite-only
# registration) by the administration journeys, one by the catalogue journeys and one by
# the assessment-work journeys; a sixth (bulk, below) runs on the test cluster. Separate
# servers keep each group within the sign-in limit of 10 attempts per IP per 15 minutes.
start_server() { # name port [VAR=value ...]
  local name=$1 port=$2; shift 2
  mkdir -p "$WORK/$name"
  env "$@" PORT="$port" PGLITE_DATA_DIR="$WORK/$name/pglite" LOG_LEVEL=warn "$BIN/assay-server" >"$WORK/$name.log" 2>&1 &
  PIDS+=($!)
}
wait_healthy() { # name port
  for _ in $(seq 1 120); do curl -sf "http://127.0.0.1:$2/api/health" >/dev/null && return 0; sleep 0.5; done
  echo "server $1 did not become healthy"; cat "$WORK/$1.log"; return 1
}
FRESH_PORT=$(free_port); SETUP_PORT=$(free_port); ADMIN_PORT=$(free_port); CATALOGUE_PORT=$(free_port); FEED_PORT=$(free_port)
WORK_PORT=$(free_port)
# The catalogue journeys read the standards feed from a loopback copy of the public catalogue
# (../shared/data/standards, beside the checkout as in CI), never from the internet.
STANDARDS_DATA=${STANDARDS_DATA:-$ROOT/../shared/data/standards}
python3 scripts/feed-server.py "$FEED_PORT" "$STANDARDS_DATA" &
PIDS+=($!)
start_server fresh "$FRESH_PORT" OUTBOUND_ALLOW_NETWORKS=127.0.0.1/32 RUN_WORKERS=true DELIVERY_RETRY_BASE_MS=1000
start_server setup "$SETUP_PORT" OUTBOUND_ALLOW_NETWORKS=127.0.0.1/32 RUN_WORKERS=true DELIVERY_RETRY_BASE_MS=1000
start_server admin "$ADMIN_PORT" OUTBOUND_ALLOW_NETWORKS=127.0.0.1/32 RUN_WORKERS=true DELIVERY_RETRY_BASE_MS=1000 REGISTRATION_MODE=invite_only
start_server catalogue "$CATALOGUE_PORT" OUTBOUND_ALLOW_NETWORKS=127.0.0.1/32 STANDARDS_FEED_URL="http://127.0.0.1:$FEED_PORT/feed.json"
# The work server holds signing keys for its users (the held-key journey), which it refuses
# to do without a master encryption key: a fresh one per run (docs/encryption.md).
WORK_MASTER_KEY=$(python3 -c 'import secrets; print(secrets.token_hex(32))')
start_server work "$WORK_PORT" OUTBOUND_ALLOW_NETWORKS=127.0.0.1/32 MASTER_ENCRYPTION_KEY="$WORK_MASTER_KEY"
# The bulk server, on its own database in the test cluster, holds 100,000 pieces of evidence
# (pkg/datagen, few of everything else) for the CSV export journey (web/e2e/exports.test.mjs),
# which reads the server's memory from /proc/$BULK_SERVER_PID. The measured process must not
# have hashed a password (argon2id: about 20 MiB, given back while the export runs, which would
# hide the export's own growth), so the administrator is set up here, the server restarted, and
# the browser takes the setup's session as a cookie (BULK_SESSION) rather than signing in.
BULK_PORT=$(free_port)
BULK_DSN=$(sed 's/dbname=postgres/dbname=bulk/' "$WORK/dsn")
psql "$(cat "$WORK/dsn")" -qc "CREATE DATABASE bulk"
start_server bulk "$BULK_PORT" DATABASE_PROVIDER=postgres DATABASE_URL="$BULK_DSN"
BULK_SERVER_PID=${PIDS[-1]}
wait_healthy fresh "$FRESH_PORT"; wait_healthy setup "$SETUP_PORT"; wait_healthy admin "$ADMIN_PORT"; wait_healthy catalogue "$CATALOGUE_PORT"
wait_healthy work "$WORK_PORT"; wait_healthy bulk "$BULK_PORT"
curl -sf -o /dev/null -c "$WORK/bulk.cookies" -H 'Content-Type: application/json' -X POST "http://127.0.0.1:$BULK_PORT/api/v1/setup" \
  -d '{"username":"bulk-admin","password":"bulk admin passphrase 1","email":"bulk-admin@example.com","displayName":"Bulk Admin"}'
BULK_SESSION=$(awk -F'\t' 'NF == 7 {print $6 "=" $7}' "$WORK/bulk.cookies")
go build -o "$WORK/datagen" ./cmd/internal/datagen
"$WORK/datagen" -dsn "$BULK_DSN" -users 10 -entities 5 -projects 2 -assessments 40 -results 2000 -evidence 100000 -claims 0 >"$WORK/bulk.json"
echo "bulk server data (pkg/datagen): $(jq -c . "$WORK/bulk.json")"
kill "$BULK_SERVER_PID"; wait "$BULK_SERVER_PID" 2>/dev/null || true
start_server bulk "$BULK_PORT" DATABASE_PROVIDER=postgres DATABASE_URL="$BULK_DSN"
BULK_SERVER_PID=${PIDS[-1]}
wait_healthy bulk "$BULK_PORT"
(cd web && BASE_URL="http://127.0.0.1:$FRESH_PORT" SETUP_BASE_URL="http://127.0.0.1:$SETUP_PORT" \
  ADMIN_BASE_URL="http://127.0.0.1:$ADMIN_PORT" CATALOGUE_BASE_URL="http://127.0.0.1:$CATALOGUE_PORT" \
  WORK_BASE_URL="http://127.0.0.1:$WORK_PORT" STANDARDS_DATA="$STANDARDS_DATA" \
  BULK_BASE_URL="http://127.0.0.1:$BULK_PORT" BULK_SESSION="$BULK_SESSION" BULK_SERVER_PID="$BULK_SERVER_PID" \
  npm run --silent e2e)

step "all checks passed"
