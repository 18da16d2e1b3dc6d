# Flipbook: `make demo` writes demo.mp4 from generated sample frames; `make test` runs the tests.
# Both install the Debian packages they need first when any is missing.

SWIFT ?= swift
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
# Build and run-time libraries (libimagequant-dev: GIF palettes, GPL-3.0-or-later; libwebp-dev also brings libwebpmux,
# the animated WebP encoder); ffmpeg/ffprobe (the demo's frame generator and the tests' judge), GNU time
# (peak memory in the tests), MediaInfo and ExifTool (independent MP4 readers that judge box-level claims), and
# Pillow (python3-pil: the reference decoder for WebP and TIFF in the tests), PyYAML (python3-yaml: the check of
# the Kubernetes Jobs in docs/kubernetes) and GNU parallel (the one-machine recipe of docs/segments.md, run).
PACKAGES := libx264-dev libx265-dev libsvtav1enc-dev libspng-dev libturbojpeg0-dev libwebp-dev libtiff-dev libheif-dev libopenexr-dev libopencolorio-dev libdeflate-dev libgif-dev \
	libavcodec-dev libavformat-dev libswresample-dev libvpx-dev libaom-dev libopus-dev liblcms2-dev libimagequant-dev \
	libfreetype-dev libharfbuzz-dev fonts-dejavu-core libraw-dev \
	python3-pil ffmpeg pkg-config time mediainfo libimage-exiftool-perl python3-yaml parallel
# The tests' makers of TIFF, HEIC and AVIF files (libtiff's tiffcp and tiffset, libheif's heif-enc) and Debian's Python
# with venv for pillow-heif (from PyPI), the tests' reference HEIC/AVIF decoder with its own libheif and codecs.
# icc-profiles-free and colord-data: real ICC profiles (sRGB, Adobe RGB (1998), ProPhoto, Rec. 709, grey…) for the
# colour-management tests; argyll: colprof, which builds a real SWOP press profile from icc-profiles-free's TR 005
# characterization data.
# attr: setfattr and getfattr, the judges of the extended attributes a replaced movie keeps.
# mkvtoolnix: mkvinfo and mkvmerge -J, the judges of every Matroska/WebM element.
# imagemagick: a maker of animated GIFs and APNGs for the animated-input tests.
# mandoc (lints and renders the generated man page), zsh and fish (check and run the generated completions).
# sox: sound files made as studios' scripts make them.
# GStreamer (gst-launch-1.0 with its base, good and libav plugins): a second player that places every decoded
# sample and picture at its own time, the judge of sound-and-picture sync beside ffmpeg.
# mediaconch: Matroska's and FFV1's conformance checker, the judge of every FFV1 stream the tests write.
# blender-data: Blender 3.4's OpenColorIO config (its Filmic views and their LUT files), read as Blender ships it.
# tesseract-ocr: OCR, the judge of burnt-in text read back from ffmpeg's decode of the movie.
# libraw-bin: LibRaw's dcraw_emu, the reference development of camera raw files; python3-dev builds pidng (a DNG
# writer from PyPI, in the tests' venv), which writes DNGs from a known sensor mosaic.
TEST_PACKAGES := imagemagick libtiff-tools libheif-examples python3-venv icc-profiles-free colord-data argyll attr mkvtoolnix sox mandoc \
	zsh fish gstreamer1.0-tools gstreamer1.0-plugins-base gstreamer1.0-plugins-good gstreamer1.0-libav mediaconch \
	blender-data tesseract-ocr tesseract-ocr-eng libraw-bin python3-dev
HEIF_VENV := .build/heif-venv
# bench/make-corpora.sh and bench/compare.sh (make bench-deps).
BENCH_PACKAGES := python3 python3-pil python3-numpy x264 ffmpeg time bc
# make test-browser: Debian's Chromium and its driver, and Debian's Python with venv (Selenium comes from PyPI).
BROWSER_PACKAGES := chromium chromium-driver python3 python3-venv
BROWSER_VENV := .build/browser-venv
# make test-players: the players nobody here wrote (GStreamer with its libav, good and bad plugins, mpv, VLC)
# and MediaConch, Matroska's conformance checker.
PLAYERS_PACKAGES := gstreamer1.0-tools gstreamer1.0-plugins-base gstreamer1.0-plugins-good gstreamer1.0-plugins-bad \
	gstreamer1.0-libav mpv vlc-bin vlc-plugin-base mediaconch ffmpeg python3
# make test-slurm: Debian's Slurm (slurmctld, slurmd, the client commands) and MUNGE, its authentication.
SLURM_PACKAGES := slurm-wlm munge
DEMO_FRAMES := demo-frames
# make install and make deb: Debian's patchelf (the binary's RUNPATH to its private Swift runtime) and
# dpkg-dev (dpkg-shlibdeps, the package's Depends); make test-package also debootstrap (a Debian 12 root
# without the Swift toolchain) and mandoc (the man page's lint).
PACKAGE_PACKAGES := patchelf dpkg-dev
TEST_PACKAGE_PACKAGES := debootstrap mandoc
PREFIX ?= /usr/local
DESTDIR ?=

.PHONY: install uninstall deb test-package example all deps test-deps bench-deps browser-deps players-deps fuzz-deps build release demo test test-long test-quick test-browser test-players test-large test-slurm docs test-asan test-tsan fuzz test-valgrind test-determinism test-sanitizers format lint clean

all: build

# Installs the Debian packages named in $(1) that are missing (as root, or through sudo).
define install-missing
	@missing=""; for p in $(1); do \
		dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "install ok installed" || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
		echo "Installing:$$missing"; \
		$(SUDO) apt-get update -qq && \
		DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq -o DPkg::Lock::Timeout=300 --no-install-recommends $$missing; \
	fi
endef

deps:
	$(call install-missing,$(PACKAGES))

# What bench/make-corpora.sh and bench/compare.sh need: Debian's Python with Pillow and NumPy
# (to draw the corpora), ffmpeg and x264 (the references), GNU time and bc (the measurements).
bench-deps: deps
	$(call install-missing,$(BENCH_PACKAGES))

build: deps
	$(SWIFT) build

release: deps
	$(SWIFT) build -c release

$(DEMO_FRAMES)/.done: | deps
	rm -rf $(DEMO_FRAMES) && mkdir -p $(DEMO_FRAMES)
	ffmpeg -v error -f lavfi -i testsrc2=size=1280x720:rate=30 -frames:v 150 $(DEMO_FRAMES)/frame%d.png
	touch $@

demo: release $(DEMO_FRAMES)/.done
	$$($(SWIFT) build -c release --show-bin-path)/flipbook $(DEMO_FRAMES) -o demo.mp4 --overwrite
	@echo "Play it: ffplay demo.mp4 (or open demo.mp4 in any video player)"

# The tests' venv under .build/ (made with Debian's /usr/bin/python3): pillow-heif, pinned to the release that
# still reads and writes AVIF as well as HEIC, OpenEXR's own Python binding, which writes the OpenEXR
# files the tests read as renderers write them, and OpenColorIO's (2.2, whose built-in ACES config the
# tests write out as a .ocio file and whose processors judge the views Flipbook's OpenColorIO 2.1 makes),
# and OpenImageIO's (its wheel carries oiiotool: a second reader of OpenEXR and a second writer of DPX).
test-deps: deps
	$(call install-missing,$(TEST_PACKAGES))
	@$(HEIF_VENV)/bin/python -c 'import pillow_heif, OpenEXR, PyOpenColorIO, OpenImageIO, pidng' 2>/dev/null || { \
		rm -rf $(HEIF_VENV) && /usr/bin/python3 -m venv $(HEIF_VENV) && \
		$(HEIF_VENV)/bin/pip install -q --disable-pip-version-check 'pillow-heif==0.15.0' 'OpenEXR==3.3.14' \
			'opencolorio==2.2.1' 'openimageio==3.2.2.0' 'pidng==4.0.9'; }

# The suites of Tests/long-suites.txt (each judges one promise in depth with many or large movies) are left
# to `make test-long`; CI runs both.
LONG_SUITES := $(shell awk '!/^\#/ && NF {print $$1}' Tests/long-suites.txt)
test: test-deps
	bash scripts/check-boundaries.sh
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build $(foreach suite,$(LONG_SUITES),--skip '^$(subst .,\.,$(suite))/')
	$(MAKE) --no-print-directory docs

# The long suites alone: quality against other encoders, rate control, memory, determinism, injected faults,
# long durations and the decoders' corpora (about five minutes on 2 cores once `make test` has built).
# LONG_SELECTION=unsanitized runs only those `make test-asan` does not run whole (scripts/long-suites.sh):
# CI judges the others in its ASan pass, with the same judges, rather than twice.
LONG_SELECTION ?= all
test-long: test-deps
	$(SWIFT) build --build-tests
	filters=$$(bash scripts/long-suites.sh $(LONG_SELECTION) | sed -e 's/[.]/\\./' -e 's|^|--filter ^|' -e 's|$$|/|') && \
		$(SWIFT) test --skip-build $$filters

# The inner loop: the library, MP4 and Matroska suites a change touches most often, under a minute warm;
# the long suites (Tests/long-suites.txt) and the tool end to end are left to `make test` and `make test-long`.
test-quick: test-deps
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build --filter '^(FlipbookTests|ISOBMFFTests|MatroskaTests)\.' \
		$(foreach suite,$(LONG_SUITES),--skip '^$(subst .,\.,$(suite))/')

# A real movie past 4 GiB (co64, a 64-bit mdat), judged by MediaInfo and ffprobe/ffmpeg: about 4.4 GiB
# written to the temporary folder (9.5 GB free needed, else the test is skipped and says why), one to
# three minutes on 2 cores. Not part of `make test`.
test-large: deps
	$(SWIFT) build --build-tests
	FLIPBOOK_LARGE_TESTS=1 $(SWIFT) test --skip-build --filter LargeMovieTests

# The Slurm workflow of docs/segments.md for real, on a one-node cluster started on this machine (as root,
# without systemd; the daemons are stopped when it ends, also on failure): a job array encodes four
# segments, a dependent job joins them, and the movie is judged with ffprobe; then a failed task holds
# the join back until it is resubmitted alone. About half a minute. Not part of `make test`.
test-slurm: deps
	$(call install-missing,$(SLURM_PACKAGES))
	$(SWIFT) build --product flipbook
	$(SUDO) bash Tests/Slurm/run-slurm-test.sh "$$($(SWIFT) build --show-bin-path)/flipbook"

# Chromium, chromedriver and Selenium (in a venv under .build/, made with Debian's /usr/bin/python3).
browser-deps: deps
	$(call install-missing,$(BROWSER_PACKAGES))
	@$(BROWSER_VENV)/bin/python -c 'import selenium' 2>/dev/null || { \
		rm -rf $(BROWSER_VENV) && /usr/bin/python3 -m venv $(BROWSER_VENV) && \
		$(BROWSER_VENV)/bin/pip install -q --disable-pip-version-check 'selenium>=4.20,<5'; }

# Headless Chromium as the player: movies made by the tool (the debug build `make test` made) are
# played and judged on duration, frames presented and the first and last frames' colours.
test-browser: browser-deps
	$(SWIFT) build --product flipbook
	$(BROWSER_VENV)/bin/python Tests/Browser/play_in_chromium.py --flipbook "$$($(SWIFT) build --show-bin-path)/flipbook"

# Every codec x container x sound the tool writes (fragmented and not, VP9 and ProRes alpha, GIF), played to
# the last frame by GStreamer (pictures counted), mpv and VLC (as the unprivileged user nobody: VLC refuses
# root) and, for Matroska and WebM, checked by MediaConch. A judge's own limit is excused only when ffmpeg's
# file of the same kind fails it the same way, or, where no reference can show it, at its exact outcome.
players-deps: deps
	$(call install-missing,$(PLAYERS_PACKAGES))

test-players: players-deps
	$(SWIFT) build --product flipbook
	/usr/bin/python3 Tests/Players/players_matrix.py --flipbook "$$($(SWIFT) build --show-bin-path)/flipbook"

# The DocC archive of the Flipbook library's public API, with the toolchain's own tools: the symbol
# graph is extracted from the module the debug build already made (no second build), and DocC treats
# every warning (a broken ``symbol`` link, an undocumented parameter) as an error.
TOOLCHAIN_BIN := $(dir $(realpath $(shell command -v $(SWIFT))))
DOCC ?= $(TOOLCHAIN_BIN)docc
SYMBOLGRAPH_EXTRACT ?= $(TOOLCHAIN_BIN)swift-symbolgraph-extract
DOCS := .build/docs
docs: deps
	$(SWIFT) build --target Flipbook
	rm -rf $(DOCS) && mkdir -p $(DOCS)/symbol-graphs
	bin=$$($(SWIFT) build --show-bin-path); \
	$(SYMBOLGRAPH_EXTRACT) -module-name Flipbook -target $$(uname -m)-unknown-linux-gnu \
		-minimum-access-level public -skip-inherited-docs -output-dir $(DOCS)/symbol-graphs -I $$bin/Modules \
		$(foreach dir,$(wildcard Sources/C*),-I $(dir)) $(foreach dir,$(wildcard Sources/C*/include),-Xcc -I$(dir)) \
		$$(pkg-config --cflags-only-I harfbuzz | sed 's/-I/-Xcc -I/g') \
		$$(for map in $$bin/*.build/module.modulemap; do printf -- '-Xcc -fmodule-map-file=%s ' $$map; done)
	$(DOCC) convert Sources/Flipbook/Flipbook.docc --additional-symbol-graph-dir $(DOCS)/symbol-graphs \
		--output-path $(DOCS)/Flipbook.doccarchive --warnings-as-errors
	@echo "Documentation: $(DOCS)/Flipbook.doccarchive"

# Sanitizer runs of the test suite (separate build folders, so `make test` stays incremental). Swift code is
# checked by AddressSanitizer (Swift itself traps on overflow and out-of-range access), Flipbook's C kernels by
# AddressSanitizer and UndefinedBehaviorSanitizer, which stops at the first report. LSan is told about
# leaks in the test runner and libraries (fuzz/lsan-suppressions.txt, which says how x265's are matched on the
# fast unwinder's stacks); see README "Checks on every change".
ASAN_ENV := FLIPBOOK_SANITIZED=address \
	LSAN_OPTIONS=suppressions=$(CURDIR)/fuzz/lsan-suppressions.txt:print_suppressions=0 UBSAN_OPTIONS=print_stacktrace=1 SWIFT_BACKTRACE=enable=no
ASAN_FLAGS := --build-path .build/asan --sanitize=address -Xcc -fsanitize=undefined -Xcc -fno-sanitize-recover=undefined
# Every suite of Tests/sanitizer-suites.txt runs sanitized but those whose line says why not (a test target
# that links no C library, or a repeat of sanitized suites' C calls judged on something else).
ASAN_SKIPPED := $(shell awk '!/^\#/ && NF > 1 {print $$1}' Tests/sanitizer-suites.txt)
test-asan: test-deps
	$(SWIFT) build --build-tests $(ASAN_FLAGS)
	$(ASAN_ENV) $(SWIFT) test --skip-build $(ASAN_FLAGS) $(foreach suite,$(ASAN_SKIPPED),--skip '$(subst .,\.,$(suite))/')

# ThreadSanitizer over the writer and pipeline: the library's writer, fragment, sound, codec-writer and
# decode-ahead suites, and the tool end to end (its pipeline's threads in a process of its own).
TSAN_SUITES := MovieWriterTests MovieWriterSoundTests FragmentedMovieWriterTests WriterLifecycleTests \
	WriterLifecycleMisuseTests ImagesDecodedAheadTests FolderWatchTests TwoTrackMuxingTests AV1WriterTests \
	ProResWriterTests VP9AlphaTests ProgressTests EndToEndTests InterruptTests
test-tsan: test-deps
	$(SWIFT) build --build-tests --build-path .build/tsan --sanitize=thread
	FLIPBOOK_SANITIZED=thread SWIFT_BACKTRACE=enable=no $(SWIFT) test --skip-build --build-path .build/tsan \
		--sanitize=thread $(foreach suite,$(TSAN_SUITES),--filter '\.$(suite)/')

# libFuzzer targets for the image decoders (GIF, APNG and animated WebP frame by frame too, OpenEXR parts and layers, DPX and Cineon), the MP4 reader, the Matroska reader and the sound path, FUZZ_SECONDS each (default 60).
FUZZ_SECONDS ?= 60
# Targets fuzzed at once (each is one process on one core).
FUZZ_JOBS ?= 1
fuzz-deps: deps
	$(call install-missing,lld)

fuzz: fuzz-deps
	FUZZ_SECONDS=$(FUZZ_SECONDS) FUZZ_JOBS=$(FUZZ_JOBS) SWIFT=$(SWIFT) fuzz/run.sh

# valgrind memcheck over one short encode per codec and container, a join and a probe
# (scripts/valgrind-encodes.sh): the debug build, its DWARF 5 debug information stripped from a copy
# (valgrind 3.19 cannot read it; symbols stay), any error fails.
test-valgrind: deps
	$(call install-missing,valgrind)
	$(SWIFT) build --product flipbook
	objcopy --strip-debug "$$($(SWIFT) build --show-bin-path)/flipbook" .build/flipbook-for-valgrind
	bash scripts/valgrind-encodes.sh .build/flipbook-for-valgrind

# The same movie every time (scripts/determinism.sh): 32 runs of each codec with 1 and 3 decode workers and
# three MALLOC_PERTURB_ values, one file each; every kind of golden movie again with the heap filled.
DETERMINISM_RUNS ?= 32
test-determinism: deps
	$(SWIFT) build --product flipbook
	bash scripts/determinism.sh "$$($(SWIFT) build --show-bin-path)/flipbook" $(DETERMINISM_RUNS)

# Everything above, as CI runs it: about half an hour on 2 cores.
test-sanitizers: test-asan test-tsan fuzz test-valgrind test-determinism

# The release build of the tool installed under $(DESTDIR)$(PREFIX): bin/flipbook, the Swift runtime libraries
# it loads in lib/flipbook (its RUNPATH, $$ORIGIN/../lib/flipbook), the man page and the bash, zsh and fish
# completions, which the binary generates from its own option table (scripts/package/install.sh).
install: deps
	$(call install-missing,$(PACKAGE_PACKAGES))
	$(SWIFT) build -c release --product flipbook
	PREFIX=$(PREFIX) DESTDIR=$(DESTDIR) SWIFT=$(SWIFT) bash scripts/package/install.sh \
		"$$($(SWIFT) build -c release --show-bin-path)/flipbook"

uninstall:
	PREFIX=$(PREFIX) DESTDIR=$(DESTDIR) bash scripts/package/install.sh --uninstall

# A Debian package of the tool in .build/deb/ (scripts/package/deb.sh): what make install puts under /usr,
# Depends from dpkg-shlibdeps, the licences as its copyright file.
deb: deps
	$(call install-missing,$(PACKAGE_PACKAGES))
	$(SWIFT) build -c release --product flipbook
	SWIFT=$(SWIFT) bash scripts/package/deb.sh "$$($(SWIFT) build -c release --show-bin-path)/flipbook" .build/deb

# The docs/from-avassetwriter.md recipe, run: writes .build/example/recipe.mp4.
example: deps
	$(SWIFT) build --product FlipbookExample
	"$$($(SWIFT) build --show-bin-path)/FlipbookExample" .build/example/recipe.mp4

# The tool as a user gets it (scripts/package/test-package.sh): make install into a DESTDIR and the installed
# binary run; the .deb installed with apt into a fresh Debian 12 root made by debootstrap (no Swift toolchain
# in it; the root's tarball and apt's downloads are kept under .build/package-test, so a rerun is quick) and a
# movie made there, judged by ffprobe; the man page linted; the example target run and its movie judged.
# As root; about 2 minutes on 2 cores once the release build and the root are there, 3.5 with nothing cached.
test-package: deps
	$(call install-missing,$(PACKAGE_PACKAGES) $(TEST_PACKAGE_PACKAGES))
	$(SWIFT) build -c release --product flipbook
	$(SWIFT) build --product FlipbookExample
	$(SUDO) env SWIFT=$(SWIFT) bash scripts/package/test-package.sh "$$($(SWIFT) build -c release --show-bin-path)/flipbook" \
		"$$($(SWIFT) build --show-bin-path)/FlipbookExample"

format:
	$(SWIFT) format --in-place --recursive Package.swift Sources Tests

lint:
	$(SWIFT) format lint --recursive Package.swift Sources Tests

clean:
	rm -rf .build $(DEMO_FRAMES) demo.mp4
