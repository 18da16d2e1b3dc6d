#!/usr/bin/env bash
# Flipbook's walls, checked: C modules are imported only under Sources/Flipbook/Interop, the
# MediaModel, ISOBMFF and Matroska targets declare nothing public (their API is `package`, for
# Flipbook's own targets), no container target imports another (each builds on MediaModel alone), the
# media model imports no container, and the command-line tool (Sources/flipbook) builds only on the library's public API: it
# names no type declared under Interop/ and no `package` type of the library, and imports neither
# muxer target nor a C module.
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
for target in MediaModel ISOBMFF Matroska; do
    [ -d "$sources/$target" ] || continue
    while IFS= read -r hit; do
        echo "boundary: $hit: $target declares something public; its API is package" >&2
        status=1
    done < <(grep -rnE '(^|[^A-Za-z_.])(public[[:space:]]|open[[:space:]]+(class|func|var|let|subscript|init))' --include='*.swift' "$sources/$target" | grep -vE '^[^:]+:[0-9]+:[[:space:]]*//' || true)
done
# The containers' wall: each container knows the media model and itself, never another container.
for pair in "ISOBMFF:Matroska" "Matroska:ISOBMFF" "MediaModel:ISOBMFF" "MediaModel:Matroska"; do
    target=${pair%%:*} other=${pair##*:}
    [ -d "$sources/$target" ] || continue
    while IFS= read -r hit; do
        echo "boundary: $hit: $target imports $other; a container builds on MediaModel alone" >&2
        status=1
    done < <(grep -rnE "^[[:space:]]*((@[A-Za-z_]+|internal|package|public)[[:space:]]+)*import[[:space:]]+$other\b" \
        --include='*.swift' "$sources/$target" || true)
done
# The tool's wall: every type Interop/ declares, and every package type of the library.
internal_types=$( { grep -rhoE '^[[:space:]]*((public|package|internal|private|fileprivate)[[:space:]]+)?(final[[:space:]]+)?(struct|enum|class|protocol|actor|typealias)[[:space:]]+[A-Za-z_][A-Za-z0-9_]*' \
        --include='*.swift' "$sources/Flipbook/Interop" || true
    grep -rhoE '^[[:space:]]*package[[:space:]]+(final[[:space:]]+)?(struct|enum|class|protocol|actor|typealias)[[:space:]]+[A-Za-z_][A-Za-z0-9_]*' \
        --include='*.swift' "$sources/Flipbook" || true; } | awk '{print $NF}' | sort -u)
if [ -n "$internal_types" ] && [ -d "$sources/flipbook" ]; then
    pattern="\\b($(echo $internal_types | tr ' ' '|'))\\b"
    while IFS= read -r hit; do
        echo "boundary: $hit: the tool uses a type that is not the library's public API" >&2
        status=1
    done < <(find "$sources/flipbook" -name '*.swift' -exec awk '{ line = $0; gsub(/"([^"\\]|\\.)*"/, "\"\"", line); sub(/\/\/.*/, "", line); print FILENAME ":" FNR ": " line }' {} + \
        | grep -E "^[^:]+:[0-9]+: .*$pattern" || true)
fi
while IFS= read -r hit; do
    echo "boundary: $hit: the tool imports a module other than Flipbook and Foundation" >&2
    status=1
done < <(grep -rnE '^[[:space:]]*((@[A-Za-z_]+|internal|package|public)[[:space:]]+)*import[[:space:]]+(MediaModel|ISOBMFF|Matroska|C[A-Z][A-Za-z0-9]*)\b' \
    --include='*.swift' "$sources/flipbook" || true)
[ $status -eq 0 ] && echo "boundaries: C modules only in Interop, MediaModel, ISOBMFF and Matroska have no public API, no container imports another, the tool uses only public API"
exit $status
