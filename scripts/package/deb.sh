#!/usr/bin/env bash
# Builds the Debian package of the tool: scripts/package/deb.sh BINARY OUTPUT_DIR
# The package holds what `make install` puts under /usr (the Swift runtime libraries in /usr/lib/flipbook,
# which the binary's RUNPATH names), Depends computed by dpkg-shlibdeps from the binary and those libraries
# (and fonts-dejavu-core, the burn-ins' and slate's font, which the binary opens by path),
# and the licences as /usr/share/doc/flipbook/copyright. Prints the path of the .deb. DEB_XZ_LEVEL (default
# 6, dpkg's) trades size for time: 2 makes a 19 MB package in a third of the CPU time of 6's 16.7 MB.
set -euo pipefail
binary=${1:?usage: deb.sh BINARY OUTPUT_DIR}
out=${2:?usage: deb.sh BINARY OUTPUT_DIR}
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
stage="$work/flipbook"

DESTDIR="$stage" PREFIX=/usr ZSH_COMPLETION_DIR=/usr/share/zsh/vendor-completions \
    bash "$here/install.sh" "$binary" >/dev/null
version=$("$stage/usr/bin/flipbook" --version | sed -n '1s/^flipbook //p')
architecture=$(dpkg --print-architecture)
install -d "$stage/usr/share/doc/flipbook" "$stage/DEBIAN"
install -m 0644 "$here/copyright" "$stage/usr/share/doc/flipbook/copyright"

# dpkg-shlibdeps reads debian/control from the folder it runs in; the private libraries are found through
# -l and need no shlibs entry of their own (they ship in this package).
mkdir -p "$work/src/debian"
printf 'Source: flipbook\n\nPackage: flipbook\nArchitecture: any\n' > "$work/src/debian/control"
libraries=("$stage"/usr/lib/flipbook/*.so*)
depends=$(cd "$work/src" && dpkg-shlibdeps -O --ignore-missing-info -l"$stage/usr/lib/flipbook" \
    -e"$stage/usr/bin/flipbook" "${libraries[@]/#/-e}" 2>"$work/shlibdeps.err" | sed -n 's/^shlibs:Depends=//p') || {
    cat "$work/shlibdeps.err" >&2
    exit 1
}
# Its warnings about the private libraries (unversioned names, no shlibs entry, a link the toolchain made)
# are about the Swift runtime as built, not about this package; any other warning is shown.
private=$(printf '%s\n' "${libraries[@]##*/}" | sed 's/\./\\./g' | paste -sd'|')
grep -vE "($private)" "$work/shlibdeps.err" >&2 || true
size=$(du -sk --exclude=DEBIAN "$stage" | cut -f1)
cat > "$stage/DEBIAN/control" <<CONTROL
Package: flipbook
Version: $version-1
Architecture: $architecture
Maintainer: Flipbook maintainers <flipbook@users.noreply.github.com>
Installed-Size: $size
Depends: $depends, fonts-dejavu-core
Section: video
Priority: optional
Description: turn a sequence of still images into a movie
 flipbook writes H.264, HEVC, AV1, VP9 or ProRes movies in MP4, MOV, WebM or
 Matroska from PNG, JPEG, WebP, TIFF, HEIC and AVIF images or raw frames, with
 exact timing, colour tags, an optional soundtrack, and nothing half-written.
 It carries the Swift runtime it was built with in /usr/lib/flipbook.
CONTROL
mkdir -p "$out"
deb="$out/flipbook_${version}-1_${architecture}.deb"
dpkg-deb --root-owner-group -Zxz -z"${DEB_XZ_LEVEL:-6}" --build "$stage" "$deb" >/dev/null
echo "$deb"
