#!/usr/bin/env bash
# Flipbook against ffmpeg on the same frames, same x264 preset and CRF, runs alternating.
#
#   bench/compare.sh [--frames 240] [--size 1920x1080] [--corpus DIR] [--presets "ultrafast veryfast medium"]
#                    [--crf 23] [--runs 2] [--jpeg] [--memory] [--library]
#                    [--corpora "png-adaptive jpeg420 ..."] [--corpora-dir bench/.corpora] [--large-frames 60]
#                    [--summary] [--floor]
#
# Prints wall time, CPU time, peak RSS, output size and PSNR (decoded RGB against the source images)
# for each tool and the ratios: ffmpeg as typed (BT.601, untagged) and ffmpeg made to write Flipbook's
# colours (ffmpeg709: BT.709 tagged, the same 2x2 chroma means). --jpeg also runs a JPEG corpus at veryfast; --memory compares peak
# RSS for 240 and 3000 frames; --library compares in-memory frames against bare x264 on the same
# pictures as .y4m. Needs a release build (make release) and ffmpeg, x264 and GNU time.
#
# --corpora runs the corpora bench/make-corpora.sh makes the way real images are made (libpng-filtered,
# RGBA, 16-bit and 4K PNGs; 4:2:0, 4:2:2 and 24 MP camera JPEGs; all, or the ones named) instead of the
# ffmpeg-made corpus, against ffmpeg told to write Flipbook's colours (ffmpeg709), with --frames frames
# (--large-frames for jpeg24mp and png4k, which both tools shrink to 1080p with cover). Presets: the
# given --presets, or ultrafast, veryfast and medium for png-adaptive and veryfast for the others.
# --summary ends with a Markdown table of the rows for the README. --floor also times, in the same
# alternation, ffmpeg encoding the pictures it would hand x264 from a .y4m made beforehand (no decoding,
# no scaling): the encoder's own time, below which neither tool can go, and its ratio to ffmpeg's whole
# run, the best wall ratio any tool could reach on that corpus. Needs make bench-deps.
set -euo pipefail
cd "$(dirname "$0")/.."

frames=240 size=1920x1080 corpus="" presets="ultrafast veryfast medium" crf=23 runs=2
jpeg=0 memory=0 library=0 corpora="" corpora_dir=bench/.corpora large_frames=60 summary=0 presets_given=0 floor=0
all_corpora="png-adaptive png-pillow png-rgba png16 jpeg420 jpeg422 jpeg24mp png4k"
while [ $# -gt 0 ]; do
    case "$1" in
        --frames) frames=$2; shift 2 ;;
        --size) size=$2; shift 2 ;;
        --corpus) corpus=$2; shift 2 ;;
        --presets) presets=$2; presets_given=1; shift 2 ;;
        --crf) crf=$2; shift 2 ;;
        --runs) runs=$2; shift 2 ;;
        --jpeg) jpeg=1; shift ;;
        --memory) memory=1; shift ;;
        --library) library=1; shift ;;
        --corpora) corpora=$2; shift 2 ;;
        --corpora-dir) corpora_dir=$2; shift 2 ;;
        --large-frames) large_frames=$2; shift 2 ;;
        --summary) summary=1; shift ;;
        --floor) floor=1; shift ;;
        *) echo "unknown option $1" >&2; exit 2 ;;
    esac
done

if [ "$corpora" = all ]; then corpora=$all_corpora; fi
for tool in ffmpeg x264 /usr/bin/time bc; do
    command -v "$tool" > /dev/null || { echo "bench needs $tool (make bench-deps)" >&2; exit 1; }
done
swift build -c release --product flipbook > /dev/null
swift build -c release --product FlipbookBench > /dev/null
bin=$(swift build -c release --show-bin-path)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# A corpus like rendered frames: a moving test pattern with film-like grain, ~2.6 MB a 1080p PNG.
make_corpus() {  # DIR EXT
    mkdir -p "$1"
    if [ ! -e "$1/.done" ]; then
        ffmpeg -v error -f lavfi -i "testsrc2=size=$size:rate=25,noise=alls=8:allf=t" -frames:v "$frames" \
            -q:v 2 "$1/%04d.$2"
        touch "$1/.done"
    fi
}
# The ffmpeg-made corpus, unless only --corpora are run.
if [ -z "$corpora" ] || [ -n "$corpus" ] || [ $((jpeg + memory + library)) -gt 0 ]; then
    if [ -z "$corpus" ]; then
        corpus=bench/.corpus-$size-$frames
        make_corpus "$corpus" png
    fi
    ext=$(ls "$corpus" | grep -m1 -oiE '(png|jpe?g)$')
    echo "corpus: $corpus ($(ls "$corpus" | grep -ciE '\.(png|jpe?g)$') images, $(du -sh "$corpus" | cut -f1)); $(nproc) cores"
fi

measure() {  # LABEL COMMAND... -> prints "wall cpu rss"
    /usr/bin/time -f "%e %U %S %M" -o "$work/time" "$@" > /dev/null 2> "$work/err" || { cat "$work/err" >&2; exit 1; }
    awk '{ printf "%.2f %.2f %d\n", $1, $2 + $3, $4 / 1024 }' "$work/time"
}

psnr() {  # MOVIE PATTERN [FILTERS] -> average PSNR of decoded RGB against the source images (each file's own tags),
          # the sources first passed through FILTERS (an ffmpeg filter chain) when given. Movie and sources are
          # turned into RGB the same way, chroma interpolated at every pixel with exact rounding. For a 4:2:0
          # JPEG that is 52 dB from libjpeg's own decode (djpeg); swscale's defaults (no full_chroma_int, fast
          # rounding) are 46 dB from it, and a reference made that way favoured a movie that kept its chroma.
    local rgb="scale=flags=accurate_rnd+full_chroma_int"
    ffmpeg -nostats -i "$1" -framerate 25 -i "$2" -lavfi \
        "[0:v]$rgb,format=rgb24[a];[1:v]$rgb,${3:+$3,}format=rgb24[b];[a][b]psnr" \
        -f null - 2>&1 | grep -oE 'average:[0-9.inf]+' | tail -1 | cut -d: -f2
}

# ffmpeg twice: as people type it (BT.601 matrix, untagged: what the issue's figures use), and with
# Flipbook's output colours (BT.709, limited range, tagged, chroma from 2x2 means as swscale's "area"
# gives), so the encoder sees the same pictures and sizes and PSNR compare like for like.
same_colours=(-vf "scale=out_color_matrix=bt709:out_range=tv:flags=area,format=yuv420p"
    -color_primaries bt709 -color_trc bt709 -colorspace bt709 -color_range tv)

faster() {  # BEST-SO-FAR WALL -> whether WALL beats the first figure of BEST-SO-FAR (or there is none)
    [ -z "$1" ] || [ "$(echo "$2 < ${1%% *}" | bc)" = 1 ]
}

encode() {  # TOOL DIR EXT PRESET -> "wall cpu rss" of TOOL writing $work/TOOL.mp4
    local tool=$1 dir=$2 e=$3 preset=$4
    case $tool in
        ffmpeg) measure ffmpeg -y -framerate 25 -i "$dir/%04d.$e" -c:v libx264 -preset "$preset" -crf "$crf" \
            -pix_fmt yuv420p "$work/ffmpeg.mp4" ;;
        ffmpeg709) measure ffmpeg -y -framerate 25 -i "$dir/%04d.$e" "${same_colours[@]}" -c:v libx264 \
            -preset "$preset" -crf "$crf" "$work/ffmpeg709.mp4" ;;
        flipbook) measure "$bin/flipbook" "$dir" -o "$work/flipbook.mp4" --fps 25 --preset "$preset" --crf "$crf" \
            --overwrite -q ;;
    esac
}

compare() {  # CORPUS EXT PRESET REFERENCE-PATTERN
    local dir=$1 e=$2 preset=$3 reference=$4 tool w c m s p size psnr_db
    local -A best=() figures=()
    for run in $(seq "$runs"); do
        for tool in ffmpeg flipbook ffmpeg709; do
            read -r w c m < <(encode "$tool" "$dir" "$e" "$preset")
            if faster "${best[$tool]:-}" "$w"; then best[$tool]="$w $c $m"; fi
        done
    done
    for tool in ffmpeg ffmpeg709 flipbook; do
        read -r w c m <<< "${best[$tool]}"
        size=$(stat -c %s "$work/$tool.mp4"); psnr_db=$(psnr "$work/$tool.mp4" "$reference")
        printf "%-4s %-9s | %-9s %6.2f s wall %6.2f s cpu %5d MB %9d B %6.2f dB\n" "$e" "$preset" "$tool" "$w" "$c" "$m" \
            "$size" "$psnr_db"
        figures[$tool]="$w $c $m $size $psnr_db"
    done
    figures_ffmpeg709=${figures[ffmpeg709]} figures_flipbook=${figures[flipbook]}
    read -r fbw fbc fbm fbs fbp <<< "${figures[flipbook]}"
    for tool in ffmpeg ffmpeg709; do
        read -r w c m s p <<< "${figures[$tool]}"
        printf "%-4s %-9s | flipbook / %-9s %5.2fx wall %5.2fx cpu %5.2fx RSS %6.3fx size %+6.2f dB\n" "$e" "$preset" \
            "$tool" "$(echo "$fbw / $w" | bc -l)" "$(echo "$fbc / $c" | bc -l)" "$(echo "$fbm / $m" | bc -l)" \
            "$(echo "$fbs / $s" | bc -l)" "$(echo "$fbp - $p" | bc -l)"
    done
}

# One of bench/make-corpora.sh's corpora: Flipbook against ffmpeg told to write Flipbook's colours (the
# same matrix, range, tags and 2x2 chroma means as ffmpeg709 above) and to make the same pictures:
# images larger than 1080p are shrunk to fill 1920x1080 and cropped (Flipbook --fit cover), and
# transparency is composited over black (premultiplied: colour x alpha) as Flipbook does by default.
# PSNR is measured against the sources made the same way by ffmpeg, so each tool is judged against the
# picture it was asked to encode: for png-rgba against the sources premultiplied; for the shrink corpora
# (jpeg24mp, png4k) against the sources decoded to RGB and then scaled and cropped to 1080p by ffmpeg's
# scale filter (bicubic). Scaling in RGB matters for the JPEGs: ffmpeg's encode scales the 4:2:0
# planes, and a reference made that way is 3 dB further from the RGB-scaled one even at -qp 0.
compare_corpus() {  # NAME DIR PRESET
    local name=$1 dir=$2 preset=$3 e tool w c m run size psnr_db prepare="" reference="" flipbook_args=() tools
    local -A best=() figures=()
    e=$(ls "$dir" | grep -m1 -oiE '(png|jpg)$')
    case $name in
        jpeg24mp | png4k)
            prepare="scale=1920:1080:force_original_aspect_ratio=increase,crop=1920:1080,"
            reference="format=rgb24,${prepare%,}"
            flipbook_args=(--size 1920x1080 --fit cover) ;;
        png-rgba) prepare="premultiply=inplace=1," reference="premultiply=inplace=1" ;;
    esac
    tools="ffmpeg709 flipbook"
    if [ "$floor" = 1 ]; then
        tools="$tools x264"
        # One .y4m per corpus, kept for its other presets (the previous corpus's is removed).
        if [ ! -e "$work/pictures-$name.y4m" ]; then
            rm -f "$work"/pictures-*.y4m
            ffmpeg -v error -y -framerate 25 -i "$dir/%04d.$e" \
                -vf "${prepare}scale=out_color_matrix=bt709:out_range=tv:flags=area,format=yuv420p" \
                "$work/pictures-$name.y4m"
        fi
    fi
    for run in $(seq "$runs"); do
        for tool in $tools; do
            if [ "$tool" = flipbook ]; then
                read -r w c m < <(measure "$bin/flipbook" "$dir" -o "$work/flipbook.mp4" --fps 25 --preset "$preset" \
                    --crf "$crf" "${flipbook_args[@]}" --overwrite -q)
            elif [ "$tool" = x264 ]; then
                read -r w c m < <(measure ffmpeg -y -i "$work/pictures-$name.y4m" "${same_colours[@]:2}" -c:v libx264 \
                    -preset "$preset" -crf "$crf" "$work/x264.mp4")
            else
                read -r w c m < <(measure ffmpeg -y -framerate 25 -i "$dir/%04d.$e" \
                    -vf "${prepare}scale=out_color_matrix=bt709:out_range=tv:flags=area,format=yuv420p" \
                    "${same_colours[@]:2}" -c:v libx264 -preset "$preset" -crf "$crf" "$work/ffmpeg709.mp4")
            fi
            if faster "${best[$tool]:-}" "$w"; then best[$tool]="$w $c $m"; fi
        done
    done
    for tool in ffmpeg709 flipbook; do
        read -r w c m <<< "${best[$tool]}"
        size=$(stat -c %s "$work/$tool.mp4")
        psnr_db=$(psnr "$work/$tool.mp4" "$dir/%04d.$e" "$reference")
        printf "%-12s %-9s | %-9s %6.2f s wall %6.2f s cpu %5d MB %9d B %6.2f dB\n" "$name" "$preset" "$tool" "$w" "$c" \
            "$m" "$size" "$psnr_db"
        figures[$tool]="$w $c $m $size $psnr_db"
    done
    read -r fbw fbc fbm fbs fbp <<< "${figures[flipbook]}"
    read -r w c m s p <<< "${figures[ffmpeg709]}"
    printf "%-12s %-9s | flipbook / ffmpeg709 %5.2fx wall %5.2fx cpu %5.2fx RSS %6.3fx size %+6.2f dB\n" "$name" "$preset" \
        "$(echo "$fbw / $w" | bc -l)" "$(echo "$fbc / $c" | bc -l)" "$(echo "$fbm / $m" | bc -l)" \
        "$(echo "$fbs / $s" | bc -l)" "$(echo "$fbp - $p" | bc -l)"
    local alone=""
    if [ "$floor" = 1 ]; then
        local alone_cpu alone_rss
        read -r alone alone_cpu alone_rss <<< "${best[x264]}"
        printf "%-12s %-9s | x264 alone %6.2f s wall %6.2f s cpu %5d MB: flipbook %5.2fx of it, floor ratio %5.2fx\n" \
            "$name" "$preset" "$alone" "$alone_cpu" "$alone_rss" "$(echo "$fbw / $alone" | bc -l)" \
            "$(echo "$alone / $w" | bc -l)"
    fi
    record "$name" "$preset" "${figures[ffmpeg709]}" "${figures[flipbook]}" "$alone"
}

summary_rows=()
record() {  # CORPUS PRESET FFMPEG-FIGURES FLIPBOOK-FIGURES [X264-ALONE-WALL] -> a row of the --summary table
    local fw fm fs fp bw bm bs bp floor_cells=""
    read -r fw _ fm fs fp <<< "$3"
    read -r bw _ bm bs bp <<< "$4"
    if [ "$floor" = 1 ]; then
        floor_cells=" -- | -- |"
        [ -n "${5:-}" ] && floor_cells=$(printf " %.2f | %.2fx |" "$5" "$(echo "$5 / $fw" | bc -l)")
    fi
    summary_rows+=("$(printf "| %s | %s | %.2f | %.2f | %.2fx | %.2fx | %.3fx | %+.2f dB |%s" "$1" "$2" "$fw" "$bw" \
        "$(echo "$bw / $fw" | bc -l)" "$(echo "$bm / $fm" | bc -l)" "$(echo "$bs / $fs" | bc -l)" "$(echo "$bp - $fp" | bc -l)" \
        "$floor_cells")")
}

if [ -z "$corpora" ] || [ -n "$corpus" ]; then
    echo "best of $runs alternating runs, CRF $crf, $size"
    for preset in $presets; do
        compare "$corpus" "$ext" "$preset" "$corpus/%04d.$ext"
        record "ffmpeg-made $ext" "$preset" "${figures_ffmpeg709}" "${figures_flipbook}"
    done
fi

if [ "$jpeg" = 1 ]; then
    # JPEGs made from the PNGs; PSNR is measured against the PNGs, so neither JPEG decoder is the judge.
    jcorpus=$corpus-jpg
    if [ ! -e "$jcorpus/.done" ]; then
        mkdir -p "$jcorpus"
        ffmpeg -v error -i "$corpus/%04d.$ext" -q:v 2 "$jcorpus/%04d.jpg"
        touch "$jcorpus/.done"
    fi
    compare "$jcorpus" jpg veryfast "$corpus/%04d.$ext"
    record "ffmpeg-made jpg" veryfast "${figures_ffmpeg709}" "${figures_flipbook}"
fi

if [ "$memory" = 1 ]; then
    # The same images listed again and again: 3000 frames without 3000 files.
    files=("$corpus"/*."$ext")
    for count in 240 3000; do
        list=()
        for i in $(seq 0 $((count - 1))); do list+=("${files[$((i % ${#files[@]}))]}"); done
        read -r w c m < <(measure "$bin/flipbook" "${list[@]}" --keep-order -o "$work/memory.mp4" --fps 25 \
            --preset ultrafast --overwrite -q)
        echo "memory: $count frames: peak RSS $m MB ($w s)"
    done
fi

if [ "$library" = 1 ]; then
    for preset in $presets; do
        fb_best="" x_best=""
        for run in $(seq "$runs"); do
            out=$("$bin/FlipbookBench" memory "$size" "$frames" "$preset" "$crf" "$work/memory.mp4" "$work/frames.y4m")
            w=$(echo "$out" | grep -oE 'in [0-9.]+ s' | grep -oE '[0-9.]+')
            fb_cpu=$(echo "$out" | grep -oE '[0-9.]+ s cpu' | grep -oE '^[0-9.]+')
            if faster "$fb_best" "$w"; then fb_best="$w $fb_cpu"; fi
            read -r w c m < <(measure x264 --preset "$preset" --crf "$crf" --quiet -o "$work/x264.264" "$work/frames.y4m")
            if faster "$x_best" "$w"; then x_best="$w $c"; fi
        done
        read -r fbw fbc <<< "$fb_best"
        read -r xw xc <<< "$x_best"
        printf "library %-9s | flipbook in-memory %6.2f s %6.2f s cpu (%5.1f fps) | x264 .y4m %6.2f s %6.2f s cpu (%5.1f fps) | throughput %.2fx\n" \
            "$preset" "$fbw" "$fbc" "$(echo "$frames / $fbw" | bc -l)" "$xw" "$xc" "$(echo "$frames / $xw" | bc -l)" \
            "$(echo "$xw / $fbw" | bc -l)"
    done
fi

if [ -n "$corpora" ]; then
    bench/make-corpora.sh --frames "$frames" --large-frames "$large_frames" --corpora "$corpora" "$corpora_dir"
    echo "best of $runs alternating runs, CRF $crf, flipbook against ffmpeg709 (ffmpeg writing Flipbook's colours)"
    for name in $corpora; do
        corpus_presets=$presets
        if [ "$presets_given" = 0 ]; then
            corpus_presets=veryfast
            if [ "$name" = png-adaptive ]; then corpus_presets="ultrafast veryfast medium"; fi
        fi
        for preset in $corpus_presets; do
            compare_corpus "$name" "$corpora_dir/$name" "$preset"
        done
    done
fi

if [ "$summary" = 1 ]; then
    echo
    floor_head="" floor_rule=""
    if [ "$floor" = 1 ]; then floor_head=" x264 alone s | floor ratio |" floor_rule=" --- | --- |"; fi
    echo "| corpus | preset | ffmpeg s | flipbook s | wall ratio | RSS ratio | size ratio | PSNR delta |$floor_head"
    echo "| --- | --- | --- | --- | --- | --- | --- | --- |$floor_rule"
    printf "%s\n" "${summary_rows[@]}"
fi
