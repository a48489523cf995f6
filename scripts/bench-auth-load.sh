#!/usr/bin/env bash
# Issue 4's load check: p99 of an authenticated GET /api/v1/auth/me unloaded and with 50
# concurrent sign-ins in flight, against a server on an external (local throw-away)
# PostgreSQL. NODE_ENV=test turns the per-IP sign-in limit off and the per-credential
# budget is raised, so the flood really reaches password hashing. Usage: make bench-auth
set -euo pipefail
cd "$(dirname "$0")/.."
make -s go-build
W=$(mktemp -d /tmp/assay-authload.XXXXXX); chmod 755 "$W"
go build -o "$W/testcluster" ./cmd/internal/testcluster
go build -o "$W/loadcheck" ./cmd/internal/loadcheck
"$W/testcluster" -dir "$W/pg" -dsn-file "$W/dsn" & TC=$!
trap 'kill $SRV 2>/dev/null; kill $TC 2>/dev/null; wait 2>/dev/null; rm -rf "$W"' EXIT
for _ in $(seq 1 120); do [ -s "$W/dsn" ] && break; sleep 0.5; done
PORT=3096 DATABASE_PROVIDER=postgres DATABASE_URL="$(cat "$W/dsn")" NODE_ENV=test RATE_LIMIT_PER_MINUTE=1000000 \
  LOG_LEVEL=error bin/assay-server >"$W/server.log" 2>&1 & SRV=$!
for _ in $(seq 1 60); do curl -sf http://127.0.0.1:3096/api/health >/dev/null && break; sleep 0.25; done
"$W/loadcheck" -url http://127.0.0.1:3096 -samples 400 -logins 50
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) cores"
