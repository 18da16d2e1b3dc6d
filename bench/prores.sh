#!/usr/bin/env bash
# Flipbook's ProRes against ffmpeg's prores_ks on the same frames, runs alternating.
#
#   bench/prores.sh [--frames 240] [--runs 2] [--corpora "png-adaptive jpeg420 png16 png-rgba"]
#                   [--profiles "hq 4444"] [--corpora-dir bench/.corpora] [--large-frames 60]
#                   [--floor-frames N] [--no-floor]
#                   [--memory] [--memory-frames "300 3000"] [--summary]
#
# For each of bench/make-corpora.sh's corpora (--frames images each, --large-frames for jpeg24mp and png4k,
# which both tools encode at their own size; all eight with --corpora all) and each profile,
# `flipbook DIR -o out.mov --codec prores --profile P` against ffmpeg told to write the same thing:
#   ffmpeg -framerate 30 -i DIR/%04d.EXT -vf scale=out_color_matrix=bt709:out_range=tv:flags=accurate_rnd,setparams=...
#          -c:v prores_ks -profile:v N -vendor apl0 -pix_fmt yuv422p10le | yuv444p10le | yuva444p10le out.mov
# (profile numbers: proxy 0, lt 1, standard 2, hq 3, 4444 4, 4444xq 5). ffmpeg 5.1 leaves the frames
# untagged whatever -colorspace says (prores_ks writes each frame header from the frame's tags), so setparams
# tags them BT.709, limited range, as Flipbook does. An RGBA corpus is composited over black as Flipbook does
# by default (ffmpeg: premultiply=inplace=1 first) and, for 4444 and 4444xq, also run as "P+alpha": Flipbook
# --alpha against ffmpeg writing yuva444p10le, straight colour and the sources' alpha.
#
# Prints for each tool the best (by wall time) of --runs alternating runs: wall and CPU time and peak RSS
# (GNU time), the bytes of its video packets (the sum of ffprobe's packet sizes: Flipbook pads its faststart
# header, so file sizes would not compare), and the PSNR of the decoded movie against the source images as
# rgb24 (the movie through scale=in_color_matrix=bt709:in_range=tv:flags=accurate_rnd+full_chroma_int, the
# sources through the same flags); then Flipbook / ffmpeg ratios of wall, CPU, RSS and bytes and the PSNR
# difference. A "+alpha" row adds the largest difference, in 8-bit codes, between each movie's decoded alpha
# (alphaextract, gray) and the sources' alpha. 16-bit sources and composited RGBA are judged against
# references made exactly (see exact_rgb24 below), not through swscale. A JPEG's reference is swscale's
# decode of it (bicubic chroma upsampling), which ffmpeg's 4:2:2 movie follows closely (it keeps the JPEG's
# chroma samples where Flipbook decodes to RGB with libjpeg-turbo); against libjpeg-turbo's decode of the
# same JPEGs the order can reverse.
#
# The floor (unless --no-floor): in the same alternation, ffmpeg encoding prores_ks alone from a raw file of
# the very pictures its whole run hands the encoder (made beforehand with the same filters, -f rawvideo), so
# no decoding or conversion: the time below which neither tool can go. Flipbook's and ffmpeg's wall are
# given as multiples of it. A 1080p frame is 8.3 MB raw at 4:2:2, 12.4 MB at 4:4:4 and 16.6 MB with alpha;
# the raw file takes at most half of the free space (or --floor-frames frames), and a floor timed on fewer
# frames than the corpus has is scaled up to the corpus's count (said in its row).
#
# --memory: Flipbook's peak RSS for each --memory-frames count of 1080p RGBA frames on standard input
# (`flipbook - --raw-size 1920x1080 --raw-format rgba --codec prores --alpha`: ProRes 4444 with alpha),
# made by ffmpeg (testsrc2 with its own luma as alpha) and piped in; ffmpeg's peak RSS encoding the same
# pipe beside it; and whether Flipbook's is flat (the last count within 10% of the first). Each movie is
# deleted as soon as it is measured (3000 such frames are about 4 GB).
#
# --summary ends with a Markdown table of the rows. Needs a release build (built here) and ffmpeg, ffprobe,
# GNU time and bc; the corpora need Debian's python3 with Pillow and NumPy (make bench-deps).
set -euo pipefail
cd "$(dirname "$0")/.."

frames=240 large_frames=60 runs=2 corpora="png-adaptive jpeg420 png16 png-rgba" profiles="hq 4444" corpora_dir=bench/.corpora
floor=1 floor_frames="" memory=0 memory_frames="300 3000" summary=0
all_corpora="png-adaptive png-pillow png-rgba png16 jpeg420 jpeg422 jpeg24mp png4k"
while [ $# -gt 0 ]; do
    case "$1" in
        --frames) frames=$2; shift 2 ;;
        --large-frames) large_frames=$2; shift 2 ;;
        --runs) runs=$2; shift 2 ;;
        --corpora) corpora=$2; shift 2 ;;
        --profiles) profiles=$2; shift 2 ;;
        --corpora-dir) corpora_dir=$2; shift 2 ;;
        --floor-frames) floor_frames=$2; shift 2 ;;
        --no-floor) floor=0; shift ;;
        --memory) memory=1; shift ;;
        --memory-frames) memory_frames=$2; shift 2 ;;
        --summary) summary=1; shift ;;
        -h | --help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
        *) echo "unknown option $1" >&2; exit 2 ;;
    esac
done

if [ "$corpora" = all ]; then corpora=$all_corpora; fi
profile_number() {  # NAME -> prores_ks's -profile:v
    case $1 in proxy) echo 0 ;; lt) echo 1 ;; standard) echo 2 ;; hq) echo 3 ;; 4444) echo 4 ;; 4444xq) echo 5 ;;
        *) echo "unknown profile $1; known: proxy lt standard hq 4444 4444xq" >&2; return 2 ;; esac
}
for profile in $profiles; do profile_number "$profile" > /dev/null || exit 2; done
for tool in ffmpeg ffprobe /usr/bin/time bc; do
    command -v "$tool" > /dev/null || { echo "bench needs $tool (make bench-deps)" >&2; exit 1; }
done
swift build -c release --product flipbook > /dev/null
bin=$(swift build -c release --show-bin-path)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

measure() {  # COMMAND... -> prints "wall cpu rss-MB"
    /usr/bin/time -f "%e %U %S %M" -o "$work/time" "$@" > /dev/null 2> "$work/err" || { cat "$work/err" >&2; exit 1; }
    awk '{ printf "%.2f %.2f %d\n", $1, $2 + $3, $4 / 1024 }' "$work/time"
}

faster() {  # BEST-SO-FAR WALL -> whether WALL beats the first figure of BEST-SO-FAR (or there is none)
    [ -z "$1" ] || [ "$(echo "$2 < ${1%% *}" | bc)" = 1 ]
}

ratio() { echo "$1 / $2" | bc -l; }

free_bytes() { df --output=avail -B1 "$work" | tail -1 | tr -d ' '; }

packet_bytes() {  # MOVIE -> the sum of its video packets' sizes
    ffprobe -v error -select_streams v:0 -show_entries packet=size -of csv=p=0 "$1" | awk '{ s += $1 } END { print s }'
}

psnr() {  # MOVIE REFERENCE-INPUT... -> average PSNR of the decoded RGB against the reference (ffmpeg input
          # options and -i), both turned into RGB with exact rounding and chroma interpolated at every pixel, the
          # movie as BT.709 limited range whatever it is tagged.
    local movie=$1 flags="flags=accurate_rnd+full_chroma_int"
    shift
    ffmpeg -nostats -i "$movie" "$@" -lavfi \
        "[0:v]scale=in_color_matrix=bt709:in_range=tv:$flags,format=rgb24[a];[1:v]scale=$flags,format=rgb24[b];[a][b]psnr" \
        -f null - 2>&1 | grep -oE 'average:[0-9.inf]+' | tail -1 | cut -d: -f2
}

# The sources as raw rgb24 frames made exactly, for the sources ffmpeg's own conversions would misjudge: each
# sample round(v / 257) of its 16-bit value (swscale's rgb48 to rgb24 is 0.38 of a code high on average, as is
# its rgb48 to 10-bit Y'CbCr, so a 16-bit corpus judged through it favours ffmpeg's movie by about 1 dB), and
# with PREMULTIPLY each colour first times its alpha, round(c * a / 255) for 8-bit samples (ffmpeg's
# premultiply filter is a code off for 8% of the samples, which favours the movie made with it by 1.5 dB at
# 4444). The files are decoded by ffmpeg to their own layout (rgb24, rgba, rgb48le or rgba64le: only a byte
# swap, where swscale's widening of rgba to rgba64 is not v * 257) and the arithmetic is NumPy's, in integers.
exact_rgb24() {  # DIR EXT PREMULTIPLY(0|1) WIDTH HEIGHT DEEP(0|1) ALPHA(0|1) -> the frames on standard output
    local layout
    case $6$7 in 00) layout=rgb24 ;; 01) layout=rgba ;; 10) layout=rgb48le ;; 11) layout=rgba64le ;; esac
    ffmpeg -v error -framerate 30 -i "$1/%04d.$2" -f rawvideo -pix_fmt "$layout" - | /usr/bin/python3 -c '
import sys
import numpy as np
premultiply, width, height, deep, alpha = (int(a) for a in sys.argv[1:])
channels, top = 3 + alpha, 65535 if deep else 255
size = width * height * channels * (1 + deep)
while True:
    frame = sys.stdin.buffer.read(size)
    if len(frame) < size:
        break
    p = np.frombuffer(frame, dtype="<u2" if deep else np.uint8).reshape(height, width, channels).astype(np.int64)
    colour, scale = p[..., :3], top
    if premultiply:
        colour, scale = colour * p[..., 3:], top * top
    # round(colour * 255 / scale), exactly
    sys.stdout.buffer.write(((colour * 510 + scale) // (2 * scale)).astype(np.uint8).tobytes())
' "$3" "$4" "$5" "$6" "$7"
}

alpha_error() {  # MOVIE PATTERN -> the largest difference, in 8-bit codes, of the movie's alpha from the sources'
    ffmpeg -nostats -v error -i "$1" -framerate 30 -i "$2" -lavfi \
        "[0:v]alphaextract,format=gray[a];[1:v]alphaextract,format=gray[b];[a][b]blend=all_mode=difference,signalstats,metadata=print:key=lavfi.signalstats.YMAX:file=-" \
        -f null - | grep -oE 'YMAX=[0-9]+' | cut -d= -f2 | sort -n | tail -1
}

# What ffmpeg's frames are tagged with, as Flipbook tags its own (ffmpeg 5.1 drops -colorspace and friends
# for prores_ks, which writes the frame's tags).
tags="setparams=color_primaries=bt709:color_trc=bt709:colorspace=bt709:range=tv"
same_colours=(-color_primaries bt709 -color_trc bt709 -colorspace bt709)

summary_rows=() summary_memory=()
raw_key="" rgba=0 deep=0
# One corpus, one profile, with alpha kept or not: ffmpeg, Flipbook and (with the floor) prores_ks alone.
compare() {  # NAME DIR PROFILE ALPHA(0|1)
    local name=$1 dir=$2 profile=$3 keep=$4 number e pattern pix_fmt prepare="" label=$3
    local flipbook_args=() tools="ffmpeg flipbook" w c m run tool bytes db count width height frame_bytes fit
    local reference=()
    local -A best=() figures=()
    number=$(profile_number "$profile")
    e=$(ls "$dir" | grep -m1 -oiE '(png|jpg)$')
    pattern="$dir/%04d.$e"
    count=$(ls "$dir" | grep -ciE "\.$e\$")
    IFS=x read -r width height < <(ffprobe -v error -select_streams v:0 -show_entries stream=width,height -of csv=p=0:s=x \
        "$dir/$(ls "$dir" | grep -m1 -iE "\.$e\$")")
    reference=(-framerate 30 -i "$pattern")
    pix_fmt=yuv422p10le
    case $profile in 4444*) pix_fmt=yuv444p10le ;; esac
    if [ "$keep" = 1 ]; then
        pix_fmt=yuva444p10le label="$profile+alpha" flipbook_args=(--alpha)
    elif [ "$rgba" = 1 ]; then
        # Flipbook composites over its black background: colour times alpha (for ffmpeg its premultiply filter).
        prepare="premultiply=inplace=1,"
    fi
    local premultiply=0
    if [ "$keep" = 0 ] && [ "$rgba" = 1 ]; then premultiply=1; fi
    if [ "$premultiply" = 1 ] || [ "$deep" = 1 ]; then
        if [ ! -e "$work/reference-$name-$premultiply.rgb" ]; then
            rm -f "$work"/reference-*.rgb
            exact_rgb24 "$dir" "$e" "$premultiply" "$width" "$height" "$deep" "$rgba" > "$work/reference-$name-$premultiply.rgb"
        fi
        reference=(-f rawvideo -pix_fmt rgb24 -s "${width}x$height" -framerate 30 -i "$work/reference-$name-$premultiply.rgb")
    fi
    local filters="${prepare}scale=out_color_matrix=bt709:out_range=tv:flags=accurate_rnd,$tags"
    local floor_count=$count floor_note=""
    if [ "$floor" = 1 ]; then
        tools="$tools floor"
        case $pix_fmt in yuv422p10le) frame_bytes=$((width * height * 4)) ;; yuv444p10le) frame_bytes=$((width * height * 6)) ;;
            *) frame_bytes=$((width * height * 8)) ;; esac
        # One raw file at a time (kept for the next profile of the same pictures).
        if [ "$raw_key" != "$name-$pix_fmt-$keep" ]; then
            rm -f "$work/pictures.raw"
            fit=$(($(free_bytes) / 2 / frame_bytes))
            if [ -n "$floor_frames" ] && [ "$floor_frames" -lt "$fit" ]; then fit=$floor_frames; fi
            if [ "$fit" -lt "$count" ]; then floor_count=$fit; fi
            [ "$floor_count" -ge 1 ] || { echo "no room in $work for one raw frame of $name" >&2; exit 1; }
            ffmpeg -v error -y -framerate 30 -i "$pattern" -frames:v "$floor_count" -vf "$filters" -pix_fmt "$pix_fmt" \
                -f rawvideo "$work/pictures.raw"
            raw_key="$name-$pix_fmt-$keep"
        fi
        floor_count=$(($(stat -c %s "$work/pictures.raw") / frame_bytes))
        if [ "$floor_count" -lt "$count" ]; then floor_note=" on $floor_count of $count frames, scaled"; fi
    fi
    for run in $(seq "$runs"); do
        for tool in $tools; do
            case $tool in
                ffmpeg) read -r w c m < <(measure ffmpeg -y -framerate 30 -i "$pattern" -vf "$filters" "${same_colours[@]}" \
                    -c:v prores_ks -profile:v "$number" -vendor apl0 -pix_fmt "$pix_fmt" "$work/ffmpeg.mov") ;;
                flipbook) read -r w c m < <(measure "$bin/flipbook" "$dir" -o "$work/flipbook.mov" --codec prores \
                    --profile "$profile" "${flipbook_args[@]}" --fps 30 --overwrite -q) ;;
                floor) read -r w c m < <(measure ffmpeg -y -f rawvideo -pix_fmt "$pix_fmt" -s "${width}x$height" -framerate 30 \
                    -i "$work/pictures.raw" -vf "$tags" "${same_colours[@]}" -c:v prores_ks -profile:v "$number" \
                    -vendor apl0 "$work/floor.mov")
                    # A floor timed on fewer frames stands for the whole corpus.
                    w=$(echo "$w * $count / $floor_count" | bc -l) c=$(echo "$c * $count / $floor_count" | bc -l) ;;
            esac
            if faster "${best[$tool]:-}" "$w"; then best[$tool]="$w $c $m"; fi
        done
    done
    rm -f "$work/floor.mov"
    for tool in ffmpeg flipbook; do
        read -r w c m <<< "${best[$tool]}"
        bytes=$(packet_bytes "$work/$tool.mov")
        db=$(psnr "$work/$tool.mov" "${reference[@]}")
        printf "%-12s %-12s | %-8s %7.2f s wall %7.2f s cpu %5d MB %11d B %6.2f dB\n" "$name" "$label" "$tool" "$w" "$c" \
            "$m" "$bytes" "$db"
        figures[$tool]="$w $c $m $bytes $db"
    done
    local fw fc fm fs fp bw bcpu bm bs bp alone="" alphas=""
    read -r fw fc fm fs fp <<< "${figures[ffmpeg]}"
    read -r bw bcpu bm bs bp <<< "${figures[flipbook]}"
    printf "%-12s %-12s | flipbook / ffmpeg %5.2fx wall %5.2fx cpu %5.2fx RSS %6.3fx bytes %+6.2f dB\n" "$name" "$label" \
        "$(ratio "$bw" "$fw")" "$(ratio "$bcpu" "$fc")" "$(ratio "$bm" "$fm")" "$(ratio "$bs" "$fs")" "$(echo "$bp - $fp" | bc -l)"
    if [ "$floor" = 1 ]; then
        local alone_cpu alone_rss
        read -r alone alone_cpu alone_rss <<< "${best[floor]}"
        printf "%-12s %-12s | prores_ks alone %7.2f s wall %7.2f s cpu %5d MB%s: flipbook %5.2fx of it, ffmpeg %5.2fx\n" \
            "$name" "$label" "$alone" "$alone_cpu" "$alone_rss" "$floor_note" "$(ratio "$bw" "$alone")" "$(ratio "$fw" "$alone")"
    fi
    if [ "$keep" = 1 ]; then
        alphas="$(alpha_error "$work/ffmpeg.mov" "$pattern") $(alpha_error "$work/flipbook.mov" "$pattern")"
        printf "%-12s %-12s | alpha: largest difference from the sources' (8-bit codes): ffmpeg %d, flipbook %d\n" \
            "$name" "$label" $alphas
    fi
    rm -f "$work/ffmpeg.mov" "$work/flipbook.mov"
    local floor_cells="" alpha_cell=" -- |"
    if [ "$floor" = 1 ]; then floor_cells=$(printf " %.2f | %.2fx |" "$alone" "$(ratio "$bw" "$alone")"); fi
    if [ -n "$alphas" ]; then alpha_cell=$(printf " %d / %d |" $alphas); fi
    summary_rows+=("$(printf "| %s | %s | %.2f | %.2f | %.2fx | %d / %d | %.2fx | %.3fx | %.2f / %.2f | %+.2f dB |%s%s" \
        "$name" "$label" "$fw" "$bw" "$(ratio "$bw" "$fw")" "$fm" "$bm" "$(ratio "$bm" "$fm")" "$(ratio "$bs" "$fs")" \
        "$fp" "$bp" "$(echo "$bp - $fp" | bc -l)" "$floor_cells" "$alpha_cell")")
}

if [ -n "$corpora" ]; then
    bench/make-corpora.sh --frames "$frames" --large-frames "$large_frames" --corpora "$corpora" "$corpora_dir"
    echo "best of $runs alternating runs, $(nproc) cores, 30 fps; flipbook against ffmpeg writing the same pictures"
    for name in $corpora; do
        dir=$corpora_dir/$name
        first=$(ls "$dir" | grep -m1 -iE '\.(png|jpg)$')
        source_format=$(ffprobe -v error -select_streams v:0 -show_entries stream=pix_fmt -of csv=p=0 "$dir/$first")
        rgba=0 deep=0
        if echo "$source_format" | grep -qE '^(rgba|bgra|argb|abgr|ya)'; then rgba=1; fi
        if echo "$source_format" | grep -qE '(48|64|16)(be|le)$'; then deep=1; fi
        for profile in $profiles; do
            compare "$name" "$dir" "$profile" 0
            if [ "$rgba" = 1 ] && [ "${profile#4444}" != "$profile" ]; then compare "$name" "$dir" "$profile" 1; fi
        done
    done
    rm -f "$work/pictures.raw" "$work"/reference-*.rgb
fi

if [ "$memory" = 1 ]; then
    # 1080p RGBA frames from ffmpeg's test pattern, its own luma as alpha (so the alpha plane is not constant).
    generate() {  # COUNT -> raw RGBA frames on standard output
        ffmpeg -v error -f lavfi -i "testsrc2=size=1920x1080:rate=30,split[c][a];[a]format=gray[g];[c][g]alphamerge" \
            -frames:v "$1" -pix_fmt rgba -f rawvideo -
    }
    first_rss=""
    for count in $memory_frames; do
        need=$((count * 2 * 1024 * 1024))  # ProRes 4444 with alpha: about 1.4 MB a 1080p frame
        if [ "$(free_bytes)" -lt "$need" ]; then
            echo "memory: $count frames need about $((need >> 30)) GB in $work; $(($(free_bytes) >> 30)) GB free" >&2
            exit 1
        fi
        read -r w c m < <(generate "$count" | measure "$bin/flipbook" - --raw-size 1920x1080 --raw-format rgba \
            --codec prores --alpha --fps 30 -o "$work/memory.mov" --overwrite -q)
        bytes=$(stat -c %s "$work/memory.mov")
        rm -f "$work/memory.mov"
        read -r fw fc fm < <(generate "$count" | measure ffmpeg -y -f rawvideo -pix_fmt rgba -s 1920x1080 -framerate 30 -i - \
            -vf "scale=out_color_matrix=bt709:out_range=tv:flags=accurate_rnd,$tags" "${same_colours[@]}" -c:v prores_ks \
            -profile:v 4 -vendor apl0 -pix_fmt yuva444p10le "$work/memory.mov")
        rm -f "$work/memory.mov"
        first_rss=${first_rss:-$m}
        growth=$(echo "($m - $first_rss) / $first_rss * 100" | bc -l)
        flat=$( [ "$(echo "$growth < 10" | bc)" = 1 ] && echo flat || echo grows)
        printf "memory: %5d frames 1080p 4444+alpha from stdin | flipbook %5d MB (%.2f s, %d B) | ffmpeg %5d MB (%.2f s) | flipbook vs its first count %+.1f%%: %s\n" \
            "$count" "$m" "$w" "$bytes" "$fm" "$fw" "$growth" "$flat"
        summary_memory+=("$(printf "| %d | %d | %d | %+.1f%% (%s) |" "$count" "$fm" "$m" "$growth" "$flat")")
    done
fi

if [ "$summary" = 1 ]; then
    if [ "${#summary_rows[@]}" -gt 0 ]; then
        echo
        floor_head="" floor_rule=""
        if [ "$floor" = 1 ]; then floor_head=" prores_ks alone s | flipbook / floor |" floor_rule=" --- | --- |"; fi
        echo "| corpus | profile | ffmpeg s | flipbook s | wall ratio | peak RSS ffmpeg / flipbook MB | RSS ratio | bytes ratio | PSNR ffmpeg / flipbook dB | PSNR delta |$floor_head alpha error ffmpeg / flipbook |"
        echo "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |$floor_rule --- |"
        printf "%s\n" "${summary_rows[@]}"
    fi
    if [ "$memory" = 1 ]; then
        echo
        echo "| 1080p 4444+alpha frames from stdin | ffmpeg peak RSS MB | flipbook peak RSS MB | flipbook against its first count |"
        echo "| --- | --- | --- | --- |"
        printf "%s\n" "${summary_memory[@]}"
    fi
fi
