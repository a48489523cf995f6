#!/usr/bin/env bash
# Reproduces pkg/cyclonedx/schema/: the official CycloneDX JSON schemas (bom 1.6 and 1.7 with
# the SPDX licence list, JSF 0.82 and the cryptography definitions they reference), taken
# from the npm package @cyclonedx/cyclonedx-library (Apache-2.0), which ships them for
# offline use under res/schema/ as *.SNAPSHOT.schema.json. The package renamed the files
# and the references between them; this script gives them back their published names
# (bom-1.6.schema.json, …), so that their $id and $ref agree with cyclonedx.org again.
# Everything else is byte for byte what the package ships.
set -euo pipefail
cd "$(dirname "$0")/.."
PKG=@cyclonedx/cyclonedx-library@10.3.0
DEST=pkg/cyclonedx/schema
TMP=$(mktemp -d /tmp/cyclonedx-schemas.XXXXXX)
trap 'rm -rf "$TMP"' EXIT

(cd "$TMP" && npm pack --silent "$PKG" >/dev/null && tar -xzf ./*.tgz)
mkdir -p "$DEST"
for f in bom-1.6 bom-1.7 spdx jsf-0.82 cryptography-defs; do
  sed 's/\.SNAPSHOT\.schema\.json/.schema.json/g' "$TMP/package/res/schema/$f.SNAPSHOT.schema.json" >"$DEST/$f.schema.json"
done
cp "$TMP/package/LICENSE" "$DEST/LICENSE"
cp "$TMP/package/NOTICE" "$DEST/NOTICE"
echo "CycloneDX schemas from $PKG written to $DEST"
