#!/usr/bin/env bash
# Puts the starter standards into standards/starter/files/, where go:embed builds them into
# assay-server (so that a first run imports them without the network). They are not in the
# repository (standards/starter/README.md says why); that folder is git-ignored except for its
# README.md, the manifest, which lists each document and its SHA-256.
#   - The documents, byte for byte as the CycloneDX project publishes them in its catalogue of
#     third-party standards (https://github.com/CycloneDX/official-3rd-party-standards, the
#     attachments of the public standards feed), each checked against the manifest's SHA-256.
#     SOURCE=<dir> copies them from a local copy of the catalogue's standards/ folder instead,
#     for a machine that cannot reach GitHub (for example SOURCE=../shared/data/standards).
#   - Their licence notices, in LICENSES/: Apache-2.0.txt, the catalogue's LICENSE, from the
#     same source; CC-BY-SA-4.0.txt, the licence of the OWASP standards, from the npm package
#     spdx-license-list when npm is installed, else from creativecommons.org. (The NIST SSDF
#     document carries the text of its terms itself.)
# Nothing is written unless every document matches: a failure leaves the folder as it was.
# When the documents are there already and match, it does nothing. Run by the Dockerfile
# before `go build` (a release image must have them: a failure fails the build) and by
# `make go-build` (which builds without them when this fails).
set -euo pipefail
CATALOGUE=https://raw.githubusercontent.com/CycloneDX/official-3rd-party-standards/main
CC_BY_SA_URL=https://creativecommons.org/licenses/by-sa/4.0/legalcode.txt
SPDX=spdx-license-list@6.12.0
SOURCE=${SOURCE:-$CATALOGUE/standards}
case "$SOURCE" in
  http://* | https://*) REMOTE=true ;;
  *) REMOTE=false; SOURCE=$(cd "$SOURCE" && pwd) ;;
esac
cd "$(dirname "$0")/.."
DEST=standards/starter/files

# "<sha-256>  <file>" for each row of the manifest table (| name | `item` | `file` | `sha` | …).
SUMS=$(sed -n 's/^| [^|]* | `[^`]*` | `\([^`]*\)` | `\([0-9a-f]\{64\}\)` | .*|$/\2  \1/p' "$DEST/README.md")
[ -n "$SUMS" ] || { echo "no documents listed in $DEST/README.md" >&2; exit 1; }
LICENCES="LICENSES/Apache-2.0.txt LICENSES/CC-BY-SA-4.0.txt"

# sha256sum, or shasum on macOS: the same "-c" format.
sha256() { if command -v sha256sum >/dev/null; then sha256sum "$@"; else shasum -a 256 "$@"; fi; }
complete() { # dir: every document matches and every licence text is there
  (cd "$1" && sha256 --status -c - <<<"$SUMS") 2>/dev/null || return 1
  for l in $LICENCES; do [ -s "$1/$l" ] || return 1; done
}
if complete "$DEST"; then
  echo "starter standards: present in $DEST"
  exit 0
fi

TMP=$(mktemp -d /tmp/starter-standards.XXXXXX)
trap 'rm -rf "$TMP"' EXIT
OUT=$TMP/out
get() { # url-or-path destination
  mkdir -p "$(dirname "$2")"
  case "$1" in
    http://* | https://*) curl -fsSL --connect-timeout 10 --max-time 120 --retry 2 -o "$2" "$1" ;;
    *) cp "$1" "$2" ;;
  esac
}

echo "starter standards: from $SOURCE"
while read -r _ f; do get "$SOURCE/$f" "$OUT/$f"; done <<<"$SUMS"
if ! (cd "$OUT" && sha256 --quiet -c - <<<"$SUMS"); then
  echo "starter standards: a document from $SOURCE differs from the manifest $DEST/README.md" >&2
  exit 1
fi
# The catalogue's LICENSE is at the root of its repository, beside standards/; a local copy
# of the folder may hold it inside (as ../shared/data/standards does).
if $REMOTE; then
  get "${SOURCE%/*}/LICENSE" "$OUT/LICENSES/Apache-2.0.txt"
elif [ -f "$SOURCE/LICENSE" ]; then
  get "$SOURCE/LICENSE" "$OUT/LICENSES/Apache-2.0.txt"
else
  get "$SOURCE/../LICENSE" "$OUT/LICENSES/Apache-2.0.txt"
fi
if ! { command -v npm >/dev/null && command -v node >/dev/null &&
  (cd "$TMP" && npm pack --silent "$SPDX" >/dev/null && tar -xzf ./spdx-license-list-*.tgz) &&
  node -e 'process.stdout.write(require(process.argv[1]).licenseText.trimEnd() + "\n")' \
    "$TMP/package/licenses/CC-BY-SA-4.0.json" >"$OUT/LICENSES/CC-BY-SA-4.0.txt"; }; then
  get "$CC_BY_SA_URL" "$OUT/LICENSES/CC-BY-SA-4.0.txt"
fi
complete "$OUT" || { echo "starter standards: a licence text is missing" >&2; exit 1; }

# Replace what was there (an older set, a partial copy), keeping the manifest.
find "$DEST" -mindepth 1 -maxdepth 1 ! -name README.md -exec rm -rf {} +
chmod -R u=rwX,go=rX "$OUT"
cp -R "$OUT"/. "$DEST"/
echo "starter standards: written to $DEST"
