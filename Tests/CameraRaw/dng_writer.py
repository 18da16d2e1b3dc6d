"""Writes DNGs as a camera's firmware stores its sensor data: a 12-bit RGGB mosaic (black 64, white 4095),
a colour matrix for D65, the white balance as shot and the camera's make and model, through pidng (PyPI).
Used by the tests (Tests/FlipbookCLITests/CameraRawFiles.swift), fuzz/make-seeds.sh and bench/raw.sh."""
from fractions import Fraction

from pidng.core import RAW2DNG, DNGTags, Tag
from pidng.defs import CFAPattern, CalibrationIlluminant, DNGVersion, PhotometricInterpretation

# XYZ to camera, as a camera's ColorMatrix1 states it (tenths of thousandths).
COLOR_MATRIX = [10000, -3000, -1000, -4000, 12000, 2000, -500, 1500, 6000]


def write(path, mosaic, orientation=1, exposure=None, model="Test DNG", matrix=COLOR_MATRIX):
    """Writes `mosaic` (rows of 12-bit samples, RGGB) to `path` (ending .dng), turned by `orientation`
    (EXIF's), stamped with `exposure` (seconds, f-number, ISO) when given."""
    height, width = mosaic.shape
    tags = DNGTags()
    for tag, value in [
            (Tag.ImageWidth, width), (Tag.ImageLength, height), (Tag.TileWidth, width), (Tag.TileLength, height),
            (Tag.Orientation, orientation), (Tag.PhotometricInterpretation, PhotometricInterpretation.Color_Filter_Array),
            (Tag.SamplesPerPixel, 1), (Tag.BitsPerSample, 12), (Tag.CFARepeatPatternDim, [2, 2]),
            (Tag.CFAPattern, CFAPattern.RGGB), (Tag.BlackLevel, 64), (Tag.WhiteLevel, 4095),
            (Tag.ColorMatrix1, [[value, 10000] for value in matrix]),
            (Tag.CalibrationIlluminant1, CalibrationIlluminant.D65), (Tag.AsShotNeutral, [[1, 2], [1, 1], [7, 10]]),
            (Tag.Make, "Flipbook"), (Tag.Model, model), (Tag.DNGVersion, DNGVersion.V1_4),
            (Tag.DNGBackwardVersion, DNGVersion.V1_2)]:
        tags.set(tag, value)
    if exposure:
        seconds, f_number, iso = exposure
        s = Fraction(seconds).limit_denominator(1000000)
        f = Fraction(f_number).limit_denominator(1000)
        tags.set(Tag.ExposureTime, [[s.numerator, s.denominator]])
        tags.set(Tag.FNumber, [[f.numerator, f.denominator]])
        tags.set(Tag.PhotographicSensitivity, [int(iso)])
    writer = RAW2DNG()
    writer.options(tags, path="", compress=False)
    writer.convert(mosaic, filename=path[:-4])
