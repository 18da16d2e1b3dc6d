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
# The tool's wall, members: a `package` initialiser, property or method of a public type is as hidden from the
# library's users as a package type, yet the tool, in the same package, could call it. The exact check is to
# build the tool against the library with every `package` turned `internal` and read the errors; that rebuilds
# the library (minutes), so this grep stands in for it: every member declared `package` in Sources/Flipbook,
# less the names some public declaration also has (the grep cannot tell the two apart), is looked for in the
# tool as `.name`; a top-level one as `name`; a package initialiser as `Type(label:` by its first label (one
# whose first parameter has no label cannot be told from a public one and is not looked for). Members of a
# `package extension` (none today) would escape it. The tool's own enum cases are read too, as names of its own
# (its `--stdin images` case is not the library's package `images`).
package_members=$(find "$sources/Flipbook" "$sources/flipbook" -name '*.swift' -exec awk '
    function enclosing(depth,   best, key) {
        best = -1
        for (key in types) if (key + 0 < depth && key + 0 > best) best = key + 0
        return best < 0 ? "" : types[best]
    }
    {
        line = $0
        gsub(/"([^"\\]|\\.)*"/, "\"\"", line)
        sub(/\/\/.*/, "", line)
        match(line, /^[ \t]*/)
        depth = RLENGTH
        modifiers = "((@[A-Za-z_]+|public|open|package|internal|private|fileprivate|final|indirect|static|class|mutating|nonmutating|override|lazy|nonisolated|convenience|required)[ \t]+)*"
        if (match(line, "^[ \t]*" modifiers "(struct|enum|class|extension|actor|protocol)[ \t]+[A-Za-z_][A-Za-z0-9_.]*")) {
            count = split(substr(line, RSTART, RLENGTH), words, /[ \t]+/)
            name = words[count]
            sub(/.*\./, "", name)
            for (key in types) if (key + 0 >= depth) delete types[key]
            types[depth] = name
        }
        if (match(line, "(^|[ \t])(package|public|open)[ \t]+" modifiers "(func|var|let|case)[ \t]+[A-Za-z_][A-Za-z0-9_]*")) {
            count = split(substr(line, RSTART, RLENGTH), words, /[ \t]+/)
            access = line ~ /(^|[ \t])package[ \t]/ && line !~ /(^|[ \t])(public|open)[ \t]/ ? "package" : "public"
            print access, (depth == 0 ? "toplevel" : "member"), words[count]
        } else if (match(line, /^[ \t]*case[ \t]+[A-Za-z_]/) && line !~ /:[ \t]*$/) {
            # The cases of an enum, public when the enum is: names only, without payloads or raw values.
            cases = substr(line, RSTART + RLENGTH - 1)
            gsub(/\([^)]*\)/, "", cases)
            gsub(/=[^,]*/, "", cases)
            count = split(cases, words, /[ \t]*,[ \t]*/)
            for (k = 1; k <= count; k++) if (words[k] ~ /^[A-Za-z_][A-Za-z0-9_]*[ \t]*$/) {
                sub(/[ \t]+$/, "", words[k])
                print "public", "member", words[k]
            }
        }
        if (match(line, "(^|[ \t])(package|public|open)[ \t]+" modifiers "init[?!]?[ \t]*\\([ \t]*[A-Za-z_][A-Za-z0-9_]*[ \t]*[A-Za-z_:]")) {
            init = substr(line, RSTART, RLENGTH)
            access = init ~ /package[ \t]/ && init !~ /(public|open)[ \t]/ ? "package" : "public"
            sub(/.*\([ \t]*/, "", init)
            sub(/[ \t:].*/, "", init)
            if (init != "_") print access, "init", enclosing(depth) "(" init
        }
    }' {} + | sort -u)
hidden=$(LC_ALL=C comm -23 <(awk '$1 == "package" { print $2, $3 }' <<<"$package_members" | LC_ALL=C sort -u) \
    <(awk '$1 == "public" { print "member", $3; print "toplevel", $3; if ($2 == "init") print "init", $3 }' \
        <<<"$package_members" | LC_ALL=C sort -u))
member_pattern=$(awk '$1 == "member" { print "\\." $2 "\\b" } $1 == "toplevel" { print "\\b" $2 "\\b" }
    $1 == "init" { split($2, parts, "("); print "\\b" parts[1] "(\\.init)?\\(" parts[2] ":" }' <<<"$hidden" | paste -sd'|')
if [ -n "$member_pattern" ] && [ -d "$sources/flipbook" ]; then
    # Strings are searched too, for a member used inside an interpolation; whole-line comments are not.
    while IFS= read -r hit; do
        echo "boundary: $hit: the tool uses a package member of the library, which is not its public API" >&2
        status=1
    done < <(find "$sources/flipbook" -name '*.swift' -exec awk '{ line = $0; sub(/^[ \t]*\/\/.*/, "", line); print FILENAME ":" FNR ": " line }' {} + \
        | grep -E "^[^:]+:[0-9]+: .*($member_pattern)" || true)
fi
while IFS= read -r hit; do
    echo "boundary: $hit: the tool imports a module other than Flipbook and Foundation" >&2
    status=1
done < <(grep -rnE '^[[:space:]]*((@[A-Za-z_]+|internal|package|public)[[:space:]]+)*import[[:space:]]+(MediaModel|ISOBMFF|Matroska|C[A-Z][A-Za-z0-9]*)\b' \
    --include='*.swift' "$sources/flipbook" || true)
[ $status -eq 0 ] && echo "boundaries: C modules only in Interop, MediaModel, ISOBMFF and Matroska have no public API, no container imports another, the tool uses only public API"
exit $status
