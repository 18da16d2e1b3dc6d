#!/usr/bin/python3
"""Images with real colour statements, and what Pillow's ImageCms (Little CMS) makes of them.

    colour_sources.py DIR [TARGET] [INTENT]

Writes into DIR, for each kind of source, NAME.<ext> (the image, 64x48, saturated gradients) and
NAME.rgb (the reference: the same pixels converted by ImageCms into TARGET, `srgb` (default) or
`p3` or `bt2020` (those primaries with sRGB's curve, as Flipbook's movies hold them), with INTENT `relative` (default) or `perceptual`, black-point compensation on, as raw
8-bit RGB), and prints one NAME line per source it made. Profiles that Debian's icc-profiles-free and
colord-data do not ship (Display P3, and those PNG's gAMA/cHRM/cICP chunks describe) are built with
Little CMS itself through ctypes (cmsCreateRGBProfile), as Pillow has no call for that; the SWOP press
profile by ArgyllCMS's colprof from the characterization data icc-profiles-free ships.
"""
import ctypes
import fcntl
import hashlib
import io
import os
import struct
import subprocess
import sys
import tempfile
import zlib

from PIL import Image, ImageCms

ICC = "/usr/share/color/icc"
LCMS = ctypes.CDLL("liblcms2.so.2")


class XyY(ctypes.Structure):
    _fields_ = [("x", ctypes.c_double), ("y", ctypes.c_double), ("Y", ctypes.c_double)]


class XyYTriple(ctypes.Structure):
    _fields_ = [("r", XyY), ("g", XyY), ("b", XyY)]


LCMS.cmsBuildParametricToneCurve.restype = ctypes.c_void_p
LCMS.cmsBuildParametricToneCurve.argtypes = [ctypes.c_void_p, ctypes.c_int, ctypes.POINTER(ctypes.c_double)]
LCMS.cmsCreateRGBProfile.restype = ctypes.c_void_p
LCMS.cmsCreateRGBProfile.argtypes = [ctypes.POINTER(XyY), ctypes.POINTER(XyYTriple), ctypes.c_void_p * 3]
LCMS.cmsSaveProfileToMem.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.POINTER(ctypes.c_uint32)]
LCMS.cmsCloseProfile.argtypes = [ctypes.c_void_p]

SRGB_CURVE = (4, [2.4, 1 / 1.055, 0.055 / 1.055, 1 / 12.92, 0.04045])
D65 = (0.3127, 0.3290)
P3 = [(0.680, 0.320), (0.265, 0.690), (0.150, 0.060)]
SRGB = [(0.64, 0.33), (0.30, 0.60), (0.15, 0.06)]
BT2020 = [(0.708, 0.292), (0.170, 0.797), (0.131, 0.046)]


def built_profile(white, primaries, curve):
    """ICC bytes of an RGB matrix/curve profile built by Little CMS."""
    kind, params = curve
    values = (ctypes.c_double * len(params))(*params)
    tone = LCMS.cmsBuildParametricToneCurve(None, kind, values)
    triple = XyYTriple(*(XyY(x, y, 1.0) for x, y in primaries))
    profile = LCMS.cmsCreateRGBProfile(ctypes.byref(XyY(white[0], white[1], 1.0)), ctypes.byref(triple),
                                       (ctypes.c_void_p * 3)(tone, tone, tone))
    size = ctypes.c_uint32(0)
    LCMS.cmsSaveProfileToMem(profile, None, ctypes.byref(size))
    buffer = ctypes.create_string_buffer(size.value)
    LCMS.cmsSaveProfileToMem(profile, buffer, ctypes.byref(size))
    LCMS.cmsCloseProfile(profile)
    return buffer.raw[:size.value]


def press_profile():
    """ICC bytes of a CMYK output profile built by Little CMS (version 2, CMYK to Lab through a 9-step
    table): inks with a little gain, as no press profile ships in Debian's free profile packages."""
    lcms = LCMS
    lcms.cmsCreateProfilePlaceholder.restype = ctypes.c_void_p
    lcms.cmsCreateProfilePlaceholder.argtypes = [ctypes.c_void_p]
    lcms.cmsSetProfileVersion.argtypes = [ctypes.c_void_p, ctypes.c_double]
    for name in ("cmsSetDeviceClass", "cmsSetColorSpace", "cmsSetPCS"):
        getattr(lcms, name).argtypes = [ctypes.c_void_p, ctypes.c_uint32]
    lcms.cmsPipelineAlloc.restype = ctypes.c_void_p
    lcms.cmsPipelineAlloc.argtypes = [ctypes.c_void_p, ctypes.c_uint32, ctypes.c_uint32]
    lcms.cmsStageAllocCLut16bit.restype = ctypes.c_void_p
    lcms.cmsStageAllocCLut16bit.argtypes = [ctypes.c_void_p] + [ctypes.c_uint32] * 3 + [ctypes.c_void_p]
    sampler_type = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.POINTER(ctypes.c_uint16), ctypes.POINTER(ctypes.c_uint16),
                                    ctypes.c_void_p)
    lcms.cmsStageSampleCLut16bit.argtypes = [ctypes.c_void_p, sampler_type, ctypes.c_void_p, ctypes.c_uint32]
    lcms.cmsPipelineInsertStage.argtypes = [ctypes.c_void_p, ctypes.c_int, ctypes.c_void_p]
    lcms.cmsWriteTag.argtypes = [ctypes.c_void_p, ctypes.c_uint32, ctypes.c_void_p]
    lcms.cmsD50_XYZ.restype = ctypes.c_void_p

    def lab(c, m, y, k):
        rgb = [1 - min(1, v * 0.95 + k * 0.9) for v in (c, m, y)]
        linear = [((v + 0.055) / 1.055) ** 2.4 if v > 0.04045 else v / 12.92 for v in rgb]
        d50 = [[0.4360747, 0.3850649, 0.1430804], [0.2225045, 0.7168786, 0.0606169], [0.0139322, 0.0971045, 0.7141733]]
        x, y_, z = (sum(d50[i][j] * linear[j] for j in range(3)) for i in range(3))

        def f(t):
            return t ** (1 / 3) if t > 216 / 24389 else (24389 / 27 * t + 16) / 116
        fx, fy, fz = f(x / 0.9642), f(y_), f(z / 0.8249)
        return 116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz)

    @sampler_type
    def sampler(given, out, cargo):
        lightness, a, b = lab(*(given[i] / 65535 for i in range(4)))
        for index, value in enumerate((lightness / 100 * 65535, (a + 128) * 257, (b + 128) * 257)):
            out[index] = max(0, min(65535, round(value)))
        return 1

    def signature(text):
        return int.from_bytes(text.encode(), "big")
    profile = lcms.cmsCreateProfilePlaceholder(None)
    lcms.cmsSetProfileVersion(profile, 2.1)
    lcms.cmsSetDeviceClass(profile, signature("prtr"))
    lcms.cmsSetColorSpace(profile, signature("CMYK"))
    lcms.cmsSetPCS(profile, signature("Lab "))
    pipeline = lcms.cmsPipelineAlloc(None, 4, 3)
    table = lcms.cmsStageAllocCLut16bit(None, 9, 4, 3, None)
    lcms.cmsStageSampleCLut16bit(table, sampler, None, 0)
    lcms.cmsPipelineInsertStage(pipeline, 1, table)
    lcms.cmsWriteTag(profile, signature("A2B0"), pipeline)
    lcms.cmsWriteTag(profile, signature("wtpt"), lcms.cmsD50_XYZ())
    size = ctypes.c_uint32(0)
    lcms.cmsSaveProfileToMem(profile, None, ctypes.byref(size))
    buffer = ctypes.create_string_buffer(size.value)
    lcms.cmsSaveProfileToMem(profile, buffer, ctypes.byref(size))
    lcms.cmsCloseProfile(profile)
    return buffer.raw[:size.value]


def swop_profile():
    """ICC bytes of a real press profile: ArgyllCMS's colprof over the characterization data of CGATS/SWOP
    TR 005 (SWOP on grade 5 coated paper, icc-profiles-free's TR005.ti3), at colprof's medium quality, as a
    prepress house builds one: about 200 KB, so a JPEG holds it in four APP2 segments. colprof takes some
    15 s, so the profile is kept in the temporary folder for the next run (under a lock: tests run at once)."""
    data = open(f"{ICC}/TR005.ti3", "rb").read()
    arguments = ["-qm", "-kr", "-D", "SWOP TR005 coated (Argyll)"]
    key = hashlib.sha256(data + repr(arguments).encode()).hexdigest()[:16]
    kept = os.path.join(tempfile.gettempdir(), f"flipbook-swop-{key}.icc")
    with open(kept + ".lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not os.path.exists(kept):
            with tempfile.TemporaryDirectory() as scratch:
                with open(os.path.join(scratch, "TR005.ti3"), "wb") as f:
                    f.write(data)
                subprocess.run(["colprof", *arguments, "TR005"], cwd=scratch, check=True, stdout=subprocess.DEVNULL)
                os.replace(os.path.join(scratch, "TR005.icc"), kept)
    return open(kept, "rb").read()


def ycck_jpeg(cmyk, profile):
    """`cmyk` (a Pillow CMYK image) as Photoshop writes a CMYK JPEG: YCCK with Adobe's inverted samples
    (APP14 transform 2), chroma at 4:2:0, quality 90, by libjpeg-turbo's TurboJPEG; the ICC profile split
    over as many APP2 segments as it needs, in order (ICC.1 annex B.4)."""
    tj = ctypes.CDLL("libturbojpeg.so.0")
    tj.tjInitCompress.restype = ctypes.c_void_p
    tj.tjCompress2.argtypes = [ctypes.c_void_p, ctypes.c_char_p] + [ctypes.c_int] * 4 + [
        ctypes.POINTER(ctypes.c_void_p), ctypes.POINTER(ctypes.c_ulong)] + [ctypes.c_int] * 3
    tj.tjFree.argtypes = [ctypes.c_void_p]
    tj.tjDestroy.argtypes = [ctypes.c_void_p]
    inverted = bytes(255 - v for v in cmyk.tobytes())
    handle, out, size = tj.tjInitCompress(), ctypes.c_void_p(), ctypes.c_ulong()
    tjpf_cmyk, tjsamp_420 = 11, 2
    code = tj.tjCompress2(handle, inverted, cmyk.width, 0, cmyk.height, tjpf_cmyk, ctypes.byref(out),
                          ctypes.byref(size), tjsamp_420, 90, 0)
    assert code == 0, "TurboJPEG could not write the YCCK JPEG"
    data = ctypes.string_at(out, size.value)
    tj.tjFree(out)
    tj.tjDestroy(handle)
    chunks = [profile[at:at + 65519] for at in range(0, len(profile), 65519)]
    app2 = b"".join(b"\xff\xe2" + struct.pack(">H", len(chunk) + 16) + b"ICC_PROFILE\0" + bytes([index + 1, len(chunks)])
                    + chunk for index, chunk in enumerate(chunks))
    return data[:2] + app2 + data[2:]


def picture(mode="RGB"):
    """Saturated ramps over the whole gamut, with greys and near-black, 64x48."""
    width, height = 64, 48
    image = Image.new("RGB", (width, height))
    pixels = image.load()
    for y in range(height):
        for x in range(width):
            band = y // 8
            t = x * 255 // (width - 1)
            pixels[x, y] = [
                (t, 0, 0), (0, t, 0), (0, 0, t), (t, t, t), (255, t, 255 - t), (t // 4, t // 3, t // 5)
            ][band]
    return image


def png_with_chunks(image, chunks):
    """`image` as a PNG with `chunks` (name, payload) placed before its image data."""
    buffer = io.BytesIO()
    image.save(buffer, "PNG")
    data = buffer.getvalue()
    head, rest = data[:33], data[33:]  # signature and IHDR
    extra = b"".join(struct.pack(">I", len(p)) + n + p + struct.pack(">I", zlib.crc32(n + p)) for n, p in chunks)
    return head + extra + rest


def reference(image, profile_bytes, target, intent):
    source = ImageCms.ImageCmsProfile(io.BytesIO(profile_bytes))
    if target == "p3":
        destination = ImageCms.ImageCmsProfile(io.BytesIO(built_profile(D65, P3, SRGB_CURVE)))
    elif target == "bt2020":
        destination = ImageCms.ImageCmsProfile(io.BytesIO(built_profile(D65, BT2020, SRGB_CURVE)))
    else:
        destination = ImageCms.createProfile("sRGB")
    code = {"relative": 1, "perceptual": 0, "saturation": 2, "absolute": 3}[intent]  # ICC.1's intent numbers
    flags = ImageCms.FLAGS["BLACKPOINTCOMPENSATION"]
    return ImageCms.profileToProfile(image, source, destination, renderingIntent=code, outputMode="RGB",
                                     flags=flags)


def main():
    out = sys.argv[1]
    target = sys.argv[2] if len(sys.argv) > 2 else "srgb"
    intent = sys.argv[3] if len(sys.argv) > 3 else "relative"
    os.makedirs(out, exist_ok=True)
    base = picture()
    p3 = built_profile(D65, P3, SRGB_CURVE)
    srgb = open(f"{ICC}/sRGB.icc", "rb").read()
    sources = []

    def add(name, ext, data, profile, image=base):
        with open(os.path.join(out, f"{name}.{ext}"), "wb") as f:
            f.write(data)
        converted = reference(image, profile, target, intent)
        with open(os.path.join(out, f"{name}.rgb"), "wb") as f:
            f.write(converted.tobytes())
        sources.append(name)

    def jpeg(image, profile, **extra):
        buffer = io.BytesIO()
        image.save(buffer, "JPEG", quality=100, subsampling=0, icc_profile=profile, **extra)
        return buffer.getvalue()

    # Decoded pixels, not the picture drawn: the reference converts what a JPEG decoder gives back.
    def decoded(data):
        return Image.open(io.BytesIO(data)).convert("RGB")

    data = jpeg(base, p3)
    add("p3-jpeg", "jpg", data, p3, decoded(data))
    adobe = open(f"{ICC}/colord/AdobeRGB1998.icc", "rb").read()
    data = jpeg(base, adobe)
    add("adobe-jpeg", "jpg", data, adobe, decoded(data))
    prophoto = open(f"{ICC}/colord/ProPhotoRGB.icc", "rb").read()
    buffer = io.BytesIO()
    base.save(buffer, "PNG", icc_profile=prophoto)
    add("prophoto-iccp", "png", buffer.getvalue(), prophoto)
    buffer = io.BytesIO()
    base.save(buffer, "PNG", icc_profile=p3)
    add("p3-iccp", "png", buffer.getvalue(), p3)
    # gAMA 1/1.8 with Adobe RGB's chromaticities, as cHRM states them (white, red, green, blue; x100000).
    chrm = struct.pack(">8I", *[round(v * 100000) for v in (0.3127, 0.3290, 0.64, 0.33, 0.21, 0.71, 0.15, 0.06)])
    gama = struct.pack(">I", round(100000 / 1.8))
    profile = built_profile(D65, [(0.64, 0.33), (0.21, 0.71), (0.15, 0.06)], (1, [1.8]))
    add("gama-chrm", "png", png_with_chunks(base, [(b"gAMA", gama), (b"cHRM", chrm)]), profile)
    # cICP 12/13/0/1: Display P3 with sRGB's curve, full range RGB.
    add("p3-cicp", "png", png_with_chunks(base, [(b"cICP", bytes([12, 13, 0, 1]))]), p3)
    buffer = io.BytesIO()
    base.save(buffer, "TIFF", icc_profile=p3)
    add("p3-tiff", "tif", buffer.getvalue(), p3)
    buffer = io.BytesIO()
    base.save(buffer, "WEBP", lossless=True, icc_profile=p3)
    add("p3-webp", "webp", buffer.getvalue(), p3)
    # 16 bits a sample (each 8-bit value times 257, so the reference is the 8-bit picture's), Display P3 iCCP:
    # decoded deep for a 10-bit movie and converted at 16 bits.
    rows = b"".join(b"\0" + struct.pack(f">{64 * 3}H", *(v * 257 for x in range(64) for v in base.getpixel((x, y))))
                    for y in range(48))
    header = struct.pack(">IIBBBBB", 64, 48, 16, 2, 0, 0, 0)
    chunks = [(b"IHDR", header), (b"iCCP", b"Display P3\0\0" + zlib.compress(p3)), (b"IDAT", zlib.compress(rows)),
              (b"IEND", b"")]
    data = b"\x89PNG\r\n\x1a\n" + b"".join(
        struct.pack(">I", len(p)) + n + p + struct.pack(">I", zlib.crc32(n + p)) for n, p in chunks)
    add("p3-iccp16", "png", data, p3)
    # CMYK (Adobe's inverted samples, as Pillow writes them) with a press-like profile.
    cmyk = Image.new("CMYK", (64, 48))
    samples = cmyk.load()
    for y in range(48):
        for x in range(64):
            t = x * 255 // 63
            samples[x, y] = [(t, 0, 0, 0), (0, t, 0, 0), (0, 0, t, 0), (0, 0, 0, t), (t, 255 - t, 40, 0),
                             (t // 2, t // 3, t // 4, 60)][y // 8]
    press = press_profile()
    data = jpeg(cmyk, press)
    add("cmyk-jpeg", "jpg", data, press, Image.open(io.BytesIO(data)))
    # A real press profile over four APP2 segments, in a YCCK JPEG as Photoshop writes one: the ramps
    # separated into SWOP's CMYK (perceptual, as an editor converts a picture for press).
    swop = swop_profile()
    separated = ImageCms.profileToProfile(base, ImageCms.createProfile("sRGB"), ImageCms.ImageCmsProfile(io.BytesIO(swop)),
                                          renderingIntent=0, outputMode="CMYK")
    data = ycck_jpeg(separated, swop)
    read = Image.open(io.BytesIO(data))
    assert read.mode == "CMYK" and read.info.get("adobe_transform") == 2 and read.info.get("icc_profile") == swop
    add("swop-jpeg", "jpg", data, swop, read)
    # Nothing stated: sRGB, kept as it is in an sRGB movie and converted into a wider one.
    buffer = io.BytesIO()
    base.save(buffer, "PNG")
    add("srgb-plain", "png", buffer.getvalue(), built_profile(D65, SRGB, SRGB_CURVE))
    # HEIC and AVIF by libheif's heif-enc, lossless 4:4:4: a HEIC with the ICC profile, and an AVIF with an
    # nclx box alone. heif-enc 1.15 writes nclx with primaries and transfer unspecified whatever its
    # options say, so those two code points are then set to 12/13 (Display P3, sRGB's curve) in place.
    with tempfile.TemporaryDirectory() as scratch:
        for name, ext, png, options in (
            ("p3-heic", "heic", {"icc_profile": p3}, []),
            ("p3-nclx-avif", "avif", {}, ["-A"]),
        ):
            source, made = os.path.join(scratch, f"{name}.png"), os.path.join(scratch, f"{name}.{ext}")
            base.save(source, "PNG", **png)
            subprocess.run(["heif-enc", *options, "-L", "-p", "chroma=444", "-o", made, source], check=True,
                           stdout=subprocess.DEVNULL)
            data = bytearray(open(made, "rb").read())
            if ext == "avif":
                at = data.index(b"colrnclx") + 8
                data[at:at + 4] = bytes([0, 12, 0, 13])
            add(name, ext, bytes(data), p3)
    for name in sources:
        print(name)


if __name__ == "__main__":
    main()
