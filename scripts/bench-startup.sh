#!/usr/bin/env bash
# Measures two P10.1 figures of assay-server against an external PostgreSQL (a throw-away
# local cluster): the time from exec to the first 200 from /api/health, over 7 starts, and
# the resident memory of an idle server. The last start then answers its first API request,
# which registers the API's operations (docs/performance.md, "Memory at start"): its time,
# a second request's, and the resident memory once idle again. Usage: make bench-startup
set -euo pipefail
cd "$(dirname "$0")/.."
make -s go-build
W=$(mktemp -d /tmp/assay-bench.XXXXXX); chmod 755 "$W"
go build -o "$W/testcluster" ./cmd/internal/testcluster
"$W/testcluster" -dir "$W/pg" -dsn-file "$W/dsn" & TC=$!
trap 'kill $TC 2>/dev/null; wait $TC 2>/dev/null; rm -rf "$W"' EXIT
for _ in $(seq 1 120); do [ -s "$W/dsn" ] && break; sleep 0.5; done
DSN=$(cat "$W/dsn")
DATABASE_PROVIDER=postgres DATABASE_URL="$DSN" bin/assay-ctl migrate >/dev/null
python3 - "$DSN" <<'PY'
import os, subprocess, sys, time, urllib.request
env = dict(os.environ, DATABASE_PROVIDER="postgres", DATABASE_URL=sys.argv[1], PORT="3097", LOG_LEVEL="warn")
def rss(pid):
    st = {l.split(':')[0]: int(l.split()[1]) for l in open(f"/proc/{pid}/status") if l.startswith(("VmRSS", "RssAnon", "RssFile"))}
    return "VmRSS %.1f MB (anonymous %.1f MB, the binary's pages %.1f MB)" % (st["VmRSS"] / 1024, st["RssAnon"] / 1024, st["RssFile"] / 1024)
def timed(url):
    t0 = time.monotonic()
    with urllib.request.urlopen(url, timeout=5) as r:
        r.read()
    return time.monotonic() - t0
times = []
for i in range(7):
    t0 = time.monotonic()
    p = subprocess.Popen(["bin/assay-server"], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    while True:
        try:
            if urllib.request.urlopen("http://127.0.0.1:3097/api/health", timeout=1).status == 200:
                break
        except Exception:
            time.sleep(0.002)
    times.append(time.monotonic() - t0)
    if i == 6:
        time.sleep(5)
        print("idle after 5 s: " + rss(p.pid))
        took = [timed("http://127.0.0.1:3097/api/v1/setup/status") for _ in range(2)]
        time.sleep(5)
        print("first API request %.1f ms, second %.1f ms; idle 5 s later: %s" % (took[0] * 1000, took[1] * 1000, rss(p.pid)))
    p.terminate(); p.wait()
times.sort()
print("exec to first healthy answer, 7 starts, sorted (s):", " ".join("%.3f" % t for t in times))
print("median %.3f s (target < 0.5 s); load average %s" % (times[3], open("/proc/loadavg").read().split()[0]))
PY
