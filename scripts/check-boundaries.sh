#!/usr/bin/env bash
# Flipbook's walls, checked: C modules are imported only under Sources/Flipbook/Interop, and the
# ISOBMFF target declares nothing public (its API is `package`, for Flipbook's own targets).
#   scripts/check-boundaries.sh [SOURCES_DIR]     exit 1 naming every file that breaks a wall
set -euo pipefail
sources=${1:-"$(dirname "$0")/../Sources"}
c_modules=$(find "$sources" -name module.modulemap -exec sed -n 's/^ *module \([A-Za-z0-9_]*\).*/\1/p' {} + | sort -u)
c_modules="$c_modules CFlipbookPixels"
status=0
for module in $c_modules; do
    while IFS= read -r hit; do
        file=${hit%%:*}
        case "$file" in
            "$sources"/Flipbook/Interop/*) ;;
            "$sources/$module"/*) ;;
            *) echo "boundary: $hit: C module $module is imported outside Sources/Flipbook/Interop" >&2; status=1 ;;
        esac
    done < <(grep -rnE "^[[:space:]]*((internal|package|public|private|fileprivate|@_implementationOnly)[[:space:]]+)?import[[:space:]]+$module\b" \
        --include='*.swift' "$sources" || true)
done
while IFS= read -r hit; do
    echo "boundary: $hit: ISOBMFF declares something public; its API is package" >&2
    status=1
done < <(grep -rnE '(^|[^A-Za-z_.])(public[[:space:]]|open[[:space:]]+(class|func|var|let|subscript|init))' --include='*.swift' "$sources/ISOBMFF" | grep -vE '^[^:]+:[0-9]+:[[:space:]]*//' || true)
[ $status -eq 0 ] && echo "boundaries: C modules only in Interop, ISOBMFF has no public API"
exit $status
