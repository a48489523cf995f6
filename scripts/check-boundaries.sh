#!/usr/bin/env bash
# Proves the depguard rules of .golangci.yml (the dependency direction of STYLE.md, table in
# docs/architecture.md). In a scratch copy of the working tree it:
#   1. adds the packages that do not exist yet (pkg/blob, pkg/blob/blobtest, pkg/jsf,
#      pkg/cyclonedx, and pkg/secret/secrettest standing for any future, unlisted test helper)
#      when they are missing, and checks that the copy passes depguard (no false positive);
#   2. for each case below adds one file with a blank import, runs golangci-lint with only
#      depguard on that one package, and checks the verdict: a "deny" case must be refused by
#      depguard for that very import (a compile error does not count), an "allow" case must pass.
# A direct import that would close an import cycle is placed in a fresh sub-package of the
# same directory instead (the rules match files by path, so the same rule applies).
# Exits non-zero if any forbidden import is accepted or any allowed one refused.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
M=github.com/assay-dev/assay
LINT=${GOLANGCI_LINT:-$ROOT/bin/golangci-lint}
if [ ! -x "$LINT" ]; then make -s "$ROOT/bin/golangci-lint"; LINT=$ROOT/bin/golangci-lint; fi

# verdict  directory (package)       import (M/ = this module)   [test: probe is a _test.go file]
CASES=$(cat <<'EOF'
deny  pkg/httpapi                 M/pkg/postgres
deny  pkg/httpapi                 M/jobs
deny  pkg/httpapi                 M/pkg/notify
deny  pkg/httpapi                 M/jobs/workers
deny  pkg/httpapi                 M/pkg/secret
deny  pkg/httpapi                 M/pkg/blob
deny  pkg/httpapi                 M/pkg/config
deny  pkg/httpapi                 M/jobs/workers              test
deny  pkg/postgres                M/pkg/httpapi
deny  pkg/postgres                M/pkg/notify
deny  pkg/postgres                M/jobs/workers
deny  pkg/postgres                M/pkg/blob
deny  pkg/postgres                net/http
deny  pkg/postgres                M/pkg/app
deny  pkg/app                     M/pkg/postgres
deny  pkg/app                     M/pkg/blob
deny  pkg/app                     M/pkg/notify
deny  pkg/app                     M/pkg/secret
deny  pkg/app                     M/pkg/httpapi
deny  pkg/app                     M/jobs/workers
deny  pkg/app                     M/pkg/postgres/pgtest
deny  pkg/app                     M/pkg/config
deny  jobs/workers                M/pkg/app
allow pkg/app                     M/pkg/cyclonedx
allow pkg/app                     M/standards/starter
allow pkg/app                     M/standards/starter         test
deny  pkg/httpapi                 M/standards/starter
deny  standards/starter           M/pkg/assess
deny  standards/starter           M/pkg/cyclonedx
deny  standards/starter           M/pkg/postgres              test
allow standards/starter           M/pkg/cyclonedx/cdxtest     test
allow pkg/app                     M/pkg/postgres              test
allow pkg/app                     M/pkg/blob/blobtest         test
allow pkg/httpapi                 M/pkg/app
allow jobs/workers                M/pkg/app                   test
allow cmd/server                  M/pkg/app
allow cmd/server                  M/standards/starter
deny  pkg/postgres/embedpg        M/pkg/postgres
deny  jobs/workers                M/pkg/secret
deny  jobs/workers                M/pkg/postgres
deny  jobs/workers                M/pkg/httpapi
deny  jobs/workers                M/pkg/blob
deny  jobs                        M/pkg/postgres
deny  jobs                        M/pkg/notify
deny  pkg/notify                  M/pkg/secret
deny  pkg/notify                  M/pkg/postgres
deny  pkg/notify                  M/pkg/config
deny  pkg/notify                  M/pkg/postgres/pgtest       test
deny  pkg/secret                  M/pkg/postgres
deny  pkg/secret                  M/pkg/notify
deny  pkg/logging                 M/pkg/httpapi
deny  pkg/metrics                 M/pkg/postgres
deny  pkg/config                  M/pkg/logging
deny  pkg/blob                    M/pkg/postgres
deny  pkg/blob                    M/pkg/httpapi
deny  pkg/blob                    M/pkg/secret
deny  pkg/blob                    github.com/spf13/viper
deny  pkg/jsf                     M/pkg/postgres
deny  pkg/jsf                     M/pkg/httpapi
deny  pkg/cyclonedx               M/pkg/postgres
deny  pkg/cyclonedx               M/pkg/attest
deny  pkg/attest                  M/pkg/postgres
deny  pkg/attest                  M/pkg/httpapi
allow pkg/attest                  M/pkg/jsf
allow pkg/postgres                M/pkg/attest
allow pkg/httpapi                 M/pkg/attest
deny  pkg/report                  M/pkg/postgres
deny  pkg/report                  M/pkg/httpapi
deny  pkg/report                  M/pkg/attest
deny  pkg/report                  M/pkg/postgres              test
deny  pkg/postgres/work           M/pkg/report
allow pkg/report                  M/pkg/assess
allow pkg/httpapi                 M/pkg/report
deny  pkg/httpapi                 M/pkg/report/reporttest
allow pkg/report                  M/pkg/report/reporttest     test
deny  pkg/cyclonedx               M/jobs/workers
deny  pkg/assess                  github.com/jackc/pgx/v5
deny  pkg/assess                  M/pkg/secret
deny  migrations                  M/pkg/assess
deny  pkg/postgres                M/pkg/postgres/pgtest
deny  cmd/server                  M/pkg/postgres/pgtest
deny  cmd/internal/testcluster    M/pkg/postgres/pgtest
deny  pkg/notify                  M/pkg/notify/notifytest
deny  jobs/workers                M/pkg/notify/notifytest
deny  cmd/worker                  M/pkg/notify/notifytest
deny  pkg/httpapi                 M/pkg/blob/blobtest
deny  cmd/server                  M/pkg/blob/blobtest
deny  cmd/server                  M/pkg/secret/secrettest
deny  pkg/postgres/pgtest         M/pkg/httpapi
allow pkg/postgres                M/pkg/secret
allow pkg/postgres                M/jobs
allow jobs/workers                M/pkg/notify
allow pkg/httpapi                 M/pkg/jsf
allow pkg/httpapi                 M/pkg/postgres/pgtest       test
allow pkg/blob                    M/pkg/assess
allow pkg/blob                    M/pkg/blob/blobtest         test
allow pkg/jsf                     golang.org/x/crypto/argon2
allow cmd/server                  M/pkg/cyclonedx
deny  pkg/postgres/work           M/pkg/postgres/identity
deny  pkg/postgres/work           M/pkg/postgres/catalogue
deny  pkg/postgres/identity       M/pkg/postgres/delivery
deny  pkg/postgres/catalogue      M/pkg/postgres/work
deny  pkg/postgres/delivery       M/pkg/postgres/identity
deny  pkg/postgres/work           M/pkg/postgres/services
deny  pkg/postgres                M/pkg/postgres/work
deny  pkg/postgres/work           M/pkg/blob
deny  pkg/postgres/catalogue      net/http
deny  pkg/postgres/identity       M/pkg/httpapi
allow pkg/postgres/work           M/pkg/postgres
allow pkg/postgres/identity       M/pkg/secret
allow pkg/postgres/services       M/pkg/postgres/work
allow pkg/postgres/services       M/pkg/postgres/identity
allow pkg/postgres/work           M/pkg/postgres/identity     test
allow cmd/server                  M/pkg/postgres/services
EOF
)

SCRATCH=$(mktemp -d /tmp/assay-boundaries.XXXXXX)
trap 'rm -rf "$SCRATCH"' EXIT
# The working tree as git sees it (tracked and new, unignored files): no bin/, no node_modules.
git ls-files -z --cached --others --exclude-standard |
  while IFS= read -r -d '' f; do [ -e "$f" ] && printf '%s\0' "$f"; done |
  tar --null -T - -cf - | tar -xf - -C "$SCRATCH"
cd "$SCRATCH"

# Packages to come: created only if the repository does not have them yet.
stub() { # directory package-name
  [ -d "$1" ] && return 0
  mkdir -p "$1"
  printf '// Package %s is a stand-in created by check-boundaries.sh.\npackage %s\n' "$2" "$2" >"$1/$2.go"
}
stub pkg/blob blob
stub pkg/blob/blobtest blobtest
stub pkg/jsf jsf
stub pkg/cyclonedx cyclonedx
stub pkg/secret/secrettest secrettest

lint() { "$LINT" run --allow-parallel-runners --enable-only depguard "$@" 2>&1; }

failed=0
if out=$(lint ./...); then
  echo "PASS  unmodified copy passes depguard"
else
  echo "FAIL  unmodified copy is refused (false positive):"; echo "$out" | sed 's/^/      /'
  failed=1
fi

while read -r verdict dir imp kind; do
  [ -n "$verdict" ] || continue
  imp=${imp/#M\//$M/}
  pkgdir=$dir probe_dir=""
  # Does the imported package depend on the target? Then a direct import would be a cycle.
  deps=$(go list -deps "$imp" 2>/dev/null || true)
  if [ "$kind" != test ] && grep -qx "$M/$dir" <<<"$deps"; then
    probe_dir=$dir/zzboundaryprobe pkgdir=$probe_dir
    mkdir -p "$probe_dir"
    name=zzboundaryprobe
  else
    name=$(sed -n 's/^package \([A-Za-z0-9_]*\).*/\1/p' $(ls "$dir"/*.go | grep -v '_test\.go$' | head -1) | head -1)
  fi
  file=$pkgdir/zz_boundary_probe.go
  [ "$kind" = test ] && file=$pkgdir/zz_boundary_probe_test.go
  printf 'package %s\n\nimport _ "%s"\n' "$name" "$imp" >"$file"

  label="$(printf '%-5s %-40s -> %s' "$verdict" "$dir${kind:+ ($kind file)}" "${imp#"$M/"}")"
  [ -n "$probe_dir" ] && label="$label  [sub-package: direct import would cycle]"
  rc=0; out=$(lint "./$pkgdir") || rc=$?
  refused=false
  if [ "$rc" -ne 0 ] && grep -q "$(basename "$file"):.*import '$imp' is not allowed from list .*(depguard)" <<<"$out"; then
    refused=true
  fi
  if { [ "$verdict" = deny ] && $refused; } || { [ "$verdict" = allow ] && [ "$rc" -eq 0 ]; }; then
    echo "PASS  $label"
  else
    echo "FAIL  $label  (exit $rc)"; echo "$out" | sed 's/^/      /'
    failed=1
  fi
  rm -f "$file"
  [ -n "$probe_dir" ] && rm -rf "$probe_dir"
done <<<"$CASES"

if [ "$failed" -ne 0 ]; then echo "dependency boundaries: FAILED"; exit 1; fi
echo "dependency boundaries: all cases passed"
