#!/usr/bin/env bash
# The tool as a user gets it, judged from outside (make test-package, as root):
#   1. make install's layout in a DESTDIR: the installed binary runs with only its own RUNPATH (no toolchain),
#      makes a movie ffprobe judges, and the uninstall leaves no file behind;
#   2. the .deb, installed with apt into a fresh Debian 12 root made by debootstrap (minbase: no Swift
#      toolchain), makes an H.264 MP4 and a VP9 WebM there, judged by ffprobe outside the root;
#   3. the man page is lint-clean under mandoc;
#   4. the example target (docs/from-avassetwriter.md) runs and its movie is judged.
# The root's tarball and apt's downloads are kept under .build/package-test, so a rerun skips debootstrap
# and the downloads.
#   scripts/package/test-package.sh RELEASE_BINARY [EXAMPLE_BINARY]
set -euo pipefail
binary=$(realpath "${1:?usage: test-package.sh RELEASE_BINARY [EXAMPLE_BINARY]}")
example=${2:-}
here=$(cd "$(dirname "$0")" && pwd)
cache=$(realpath -m "${PACKAGE_TEST_CACHE:-$here/../../.build/package-test}")
mirror=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
mkdir -p "$cache/apt-archives/partial"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0
started=$SECONDS
pass() { echo "PASS $* ($((SECONDS - started)) s)"; }
fail() { echo "FAIL $*" >&2; failures=$((failures + 1)); }

# judge MOVIE CODEC WIDTH HEIGHT FRAMES: ffprobe in strict mode reads every frame without a complaint.
judge() {
    local movie=$1 codec=$2 width=$3 height=$4 frames=$5 found errors
    found=$(ffprobe -v error -strict strict -err_detect +explode+careful -count_frames -select_streams v:0 \
        -show_entries stream=codec_name,width,height,nb_read_frames -of csv=p=0 "$movie" 2>"$work/ffprobe.err") || true
    errors=$(cat "$work/ffprobe.err")
    if [ "$found" = "$codec,$width,$height,$frames" ] && [ -z "$errors" ]; then
        return 0
    fi
    echo "  ffprobe of $movie: '$found' (expected '$codec,$width,$height,$frames') $errors" >&2
    return 1
}

frames() { # frames DIR COUNT: numbered PNGs of a moving test pattern, 320x240
    mkdir -p "$1"
    ffmpeg -v error -f lavfi -i testsrc2=size=320x240:rate=30 -frames:v "$2" "$1/frame%d.png"
}

# 1. make install into a DESTDIR, run from there.
dest="$work/dest"
DESTDIR="$dest" PREFIX=/usr/local bash "$here/install.sh" "$binary" >/dev/null
installed="$dest/usr/local/bin/flipbook"
if ldd "$installed" | grep -q "not found\|/opt/swift\|$(dirname "$(realpath "$(command -v "${SWIFT:-swift}")")")"; then
    fail "installed binary loads something outside its own lib/flipbook: $(ldd "$installed" | grep -i swift | head -3)"
else
    pass "installed binary finds every Swift library in lib/flipbook ($(ls "$dest/usr/local/lib/flipbook" | wc -l) of them)"
fi
frames "$work/frames" 12
if env -i PATH=/usr/bin:/bin "$installed" "$work/frames" -o "$work/installed.mp4" --quiet \
    && judge "$work/installed.mp4" h264 320 240 12; then
    pass "the installed binary makes a movie"
else
    fail "the installed binary's movie"
fi
for file in share/man/man1/flipbook.1.gz share/bash-completion/completions/flipbook \
    share/zsh/site-functions/_flipbook share/fish/vendor_completions.d/flipbook.fish; do
    [ -s "$dest/usr/local/$file" ] || fail "make install put no $file"
done
DESTDIR="$dest" PREFIX=/usr/local bash "$here/install.sh" --uninstall >/dev/null
left=$(find "$dest" -not -type d)
[ -z "$left" ] && pass "uninstall removes every file" || fail "uninstall left: $left"

# 2. The .deb in a fresh Debian 12 root.
# The same files as make deb, compressed faster: the test judges the contents, not the ratio.
deb=$(DEB_XZ_LEVEL=2 bash "$here/deb.sh" "$binary" "$work/deb")
pass "built $(basename "$deb"), $(du -k "$deb" | cut -f1) KiB"
depends=$(dpkg-deb -f "$deb" Depends)
for library in libx264 libx265 libsvtav1enc libavcodec libvpx libspng libfreetype6 libharfbuzz0b fonts-dejavu-core libc6; do
    [[ $depends == *"$library"* ]] || fail "Depends names no $library: $depends"
done
# The root is cached under .build by what it is made from: a change of suite, variant or mirror makes a new one.
root_key=$(printf '%s\n' bookworm minbase "$mirror" | sha256sum | cut -c1-16)
tarball="$cache/bookworm-minbase-$root_key.tar"
if [ ! -s "$tarball" ]; then
    debootstrap --variant=minbase bookworm "$work/bootstrap" "$mirror" >"$work/debootstrap.log" 2>&1 || {
        tail -20 "$work/debootstrap.log" >&2
        exit 1
    }
    tar -C "$work/bootstrap" -cf "$tarball.part" . && mv "$tarball.part" "$tarball"
    rm -rf "$work/bootstrap"
    pass "debootstrap made a Debian 12 minbase root (cached as $tarball)"
fi
root="$work/root"
mkdir -p "$root"
tar -C "$root" -xf "$tarball"
cat > "$root/etc/apt/sources.list" <<SOURCES
deb $mirror bookworm main
deb $mirror bookworm-updates main
deb ${DEBIAN_SECURITY_MIRROR:-http://deb.debian.org/debian-security} bookworm-security main
SOURCES
cp /etc/resolv.conf "$root/etc/resolv.conf"
cp "$deb" "$root/tmp/"
frames "$root/tmp/frames" 15
# In a mount namespace of its own, so the binds go when it ends, also on failure.
unshare -m bash -c '
    set -e
    root=$1 cache=$2 deb=$3
    mount --bind /proc "$root/proc"
    mount --bind /dev "$root/dev"
    mount --bind "$cache/apt-archives" "$root/var/cache/apt/archives"
    chroot "$root" env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin DEBIAN_FRONTEND=noninteractive \
        sh -c "apt-get update -qq && apt-get install -y -qq --no-install-recommends -o APT::Keep-Downloaded-Packages=true /tmp/$deb" \
        >"$root/tmp/apt.log" 2>&1 || { tail -30 "$root/tmp/apt.log" >&2; exit 1; }
    if chroot "$root" sh -c "command -v swift swiftc" >/dev/null; then echo "a Swift toolchain is in the root" >&2; exit 1; fi
    chroot "$root" env -i PATH=/usr/bin:/bin flipbook --version >"$root/tmp/version.txt"
    chroot "$root" env -i PATH=/usr/bin:/bin flipbook /tmp/frames -o /tmp/movie.mp4 --quiet
    chroot "$root" env -i PATH=/usr/bin:/bin flipbook /tmp/frames -o /tmp/movie.webm --quiet
    chroot "$root" env -i PATH=/usr/bin:/bin flipbook /tmp/frames -o /tmp/burnt.mp4 --burn-in "BR:{frame}" --slate 2 --quiet
' sh "$root" "$cache" "$(basename "$deb")" && pass "apt installed the .deb in the Debian 12 root and flipbook ran there" \
    || fail "installing or running the .deb in the Debian 12 root"
if [ -s "$root/tmp/version.txt" ]; then
    echo "  $(head -1 "$root/tmp/version.txt"); $(grep -c . "$root/tmp/version.txt") lines"
fi
find "$root" -name 'libswiftCore.so*' -not -path "$root/usr/lib/flipbook/*" | grep -q . \
    && fail "a Swift runtime outside /usr/lib/flipbook in the root"
judge "$root/tmp/movie.mp4" h264 320 240 15 && pass "the root's H.264 MP4 is judged sound" || fail "the root's MP4"
judge "$root/tmp/movie.webm" vp9 320 240 15 && pass "the root's VP9 WebM is judged sound" || fail "the root's WebM"
judge "$root/tmp/burnt.mp4" h264 320 240 17 && pass "the root's movie with a burn-in and a 2-frame slate (its font from Depends) is judged sound" \
    || fail "the root's movie with a burn-in and a slate"

# 3. The man page, as packaged.
dpkg-deb -x "$deb" "$work/unpacked"
lint=$(zcat "$work/unpacked/usr/share/man/man1/flipbook.1.gz" | mandoc -T lint -W warning 2>&1) \
    && [ -z "$lint" ] && pass "mandoc -T lint finds nothing in flipbook.1" || fail "mandoc -T lint: $lint"

# 4. The example target.
if [ -n "$example" ]; then
    if "$example" "$work/example.mp4" >/dev/null && judge "$work/example.mp4" h264 640 360 48; then
        pass "the example target's movie is judged sound"
    else
        fail "the example target's movie"
    fi
fi

echo "test-package: $failures failed, $((SECONDS - started)) s"
[ "$failures" = 0 ]
