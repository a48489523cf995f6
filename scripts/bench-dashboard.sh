#!/usr/bin/env bash
# The dashboard at the domain's scale (issue 25; docs/performance.md, "Dashboard at scale"):
# a throw-away PostgreSQL cluster, bin/assay-server on it, pkg/datagen's Large data (10,000
# assessments, about a million requirement results, 100,000 evidence, 300,000 claims; real
# standards when STANDARDS_DATA is set), then 32 clients on GET /api/v1/dashboard for an
# administrator and for the participant who sees a tenth, and the first (uncached) answer of
# each; then the same two callers on GET /api/v1/search with a mix of queries (common words, a
# prefix, an identifier, an exact title, a German word). make bench-dashboard runs it; ARGS
# passes datagen flags (e.g. -assessments 2000).
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=${BIN:-$PWD/bin}
WORK=$(mktemp -d)
chmod 755 "$WORK" # the cluster runs as the postgres user when we are root
PIDS=()
cleanup() { for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null || true; done; wait 2>/dev/null || true; rm -rf "$WORK"; }
trap cleanup EXIT

go build -o "$WORK/testcluster" ./cmd/internal/testcluster
go build -o "$WORK/datagen" ./cmd/internal/datagen
go build -o "$WORK/loadgen" ./cmd/internal/loadgen
"$WORK/testcluster" -dir "$WORK/pg" -dsn-file "$WORK/dsn" 2>"$WORK/cluster.log" &
PIDS+=($!)
for _ in $(seq 1 120); do [ -s "$WORK/dsn" ] && break; sleep 0.5; done
[ -s "$WORK/dsn" ] || { echo "the test cluster did not start"; cat "$WORK/cluster.log"; exit 1; }
ADMIN_DSN=$(cat "$WORK/dsn")
DSN=${ADMIN_DSN/dbname=postgres/dbname=bench}
psql "$ADMIN_DSN" -qc "CREATE DATABASE bench"
PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
URL="http://127.0.0.1:$PORT"
SERVER_PID=
start_server() {
  # shellcheck disable=SC2086
  env ${SERVER_ENV:-} DATABASE_PROVIDER=postgres DATABASE_URL="$DSN" PORT=$PORT LOG_LEVEL=warn RATE_LIMIT_PER_MINUTE=100000000 "$BIN/assay-server" >>"$WORK/server.log" 2>&1 &
  SERVER_PID=$!
  PIDS+=("$SERVER_PID")
  for _ in $(seq 1 120); do curl -sf "$URL/api/health" >/dev/null && return 0; sleep 0.5; done
  echo "the server did not start"; cat "$WORK/server.log"; exit 1
}
start_server
curl -sf -c "$WORK/cookie" -o /dev/null -H 'Content-Type: application/json' -X POST "$URL/api/v1/setup" \
  -d '{"username":"bench-admin","password":"bench admin passphrase 1","email":"bench-admin@example.com","displayName":"Bench Admin"}'
STANDARDS=()
[ -n "${STANDARDS_DATA:-}" ] && STANDARDS=(-standards "$STANDARDS_DATA")
echo "datagen:"
# shellcheck disable=SC2086
"$WORK/datagen" -dsn "$DSN" "${STANDARDS[@]}" ${ARGS:-}
token() { # user id → a new API key's token, made by the administrator
  curl -sf -b "$WORK/cookie" -H "Origin: $URL" -H 'Content-Type: application/json' -X POST "$URL/api/v1/users/$1/api-keys" -d '{"name":"bench"}' |
    python3 -c 'import json,sys; print(json.load(sys.stdin)["token"])'
}
ADMIN_TOKEN=$(token "$(psql "$DSN" -tAc "SELECT id FROM users WHERE username = 'bench-admin'")")
PARTICIPANT_TOKEN=$(token "$(psql "$DSN" -tAc "SELECT id FROM users WHERE username = 'gen-participant'")")

# A fresh process for the measurements: no password hash (argon2id, 64 MiB) in its memory,
# every request authenticated by API key.
kill "$SERVER_PID"; wait "$SERVER_PID" 2>/dev/null || true
start_server
rss() { awk '/^VmRSS/ {print $2}' "/proc/$SERVER_PID/status"; }
curl -sf -o /dev/null -H "Authorization: Bearer $ADMIN_TOKEN" "$URL/api/v1/evidence?limit=1"
before=$(rss)
peak=$before
curl -sf -H "Authorization: Bearer $ADMIN_TOKEN" -o "$WORK/evidence.csv" "$URL/api/v1/evidence.csv" &
CSV_PID=$!
start=$(date +%s.%N)
while kill -0 "$CSV_PID" 2>/dev/null; do now=$(rss); [ "$now" -gt "$peak" ] && peak=$now; sleep 0.02; done
wait "$CSV_PID"
took=$(python3 -c "import time; print(f'{time.time() - $start:.1f}')")
rows=$(($(wc -l <"$WORK/evidence.csv") - 1))
echo "evidence.csv: $rows rows, $(stat -c %s "$WORK/evidence.csv") bytes in ${took}s; server RSS ${before} KiB before, peak ${peak} KiB: growth $(((peak - before) / 1024)) MiB (bound 32 MiB)"
[ $(((peak - before) / 1024)) -lt 32 ] || { echo "RSS growth over 32 MiB"; exit 1; }

for who in admin participant; do
  tok=ADMIN_TOKEN; [ "$who" = participant ] && tok=PARTICIPANT_TOKEN
  first=$(curl -sf -o /dev/null -w '%{time_total}' -H "Authorization: Bearer ${!tok}" "$URL/api/v1/dashboard")
  echo "dashboard-$who: first (uncached) answer ${first}s"
  echo -n "dashboard-$who, 32 clients, 15 s: "
  "$WORK/loadgen" -url "$URL/api/v1/dashboard" -token "${!tok}" -c 32 -d 15s
done

# Global search (docs/performance.md, "Search at scale"): the first answer of each query, then
# 32 clients sending them in turn. Two common words (a twelfth of the evidence and claims
# match), a word being typed (prefix), an identifier (trigrams), an exact title, a German word.
SEARCHES=("q=password%20storage" "q=verify%20sess" "q=1.2.3" "q=Logging%20review%2000040" "q=Passw%C3%B6rter" "q=backup")
search_round() { # $1: label
  for who in admin participant; do
    tok=ADMIN_TOKEN; [ "$who" = participant ] && tok=PARTICIPANT_TOKEN
    urls=()
    for s in "${SEARCHES[@]}"; do
      urls+=(-url "$URL/api/v1/search?$s")
      echo "search-$who ($1) $s: first answer $(curl -sf -o /dev/null -w '%{time_total}' -H "Authorization: Bearer ${!tok}" "$URL/api/v1/search?$s")s"
    done
    echo -n "search-$who ($1), ${#SEARCHES[@]} queries in turn, 32 clients, 15 s: "
    "$WORK/loadgen" "${urls[@]}" -token "${!tok}" -c 32 -d 15s
  done
}
search_round "answers kept for 10 s"
# The same with every answer computed (SEARCH_CACHE_SECONDS=0): what a search costs.
kill "$SERVER_PID"; wait "$SERVER_PID" 2>/dev/null || true
SERVER_ENV=SEARCH_CACHE_SECONDS=0 start_server
search_round "computed every time"
