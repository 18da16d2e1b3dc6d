#include "flipbook_pixels.h"

#include <string.h>

// Each output pixel is copied from the stored pixel an affine map of its position names: moving one
// pixel right or down in the output moves a fixed number of bytes (possibly negative) in the source.
// The output is walked in square tiles so that quarter turns, which read the source down its
// columns, touch few cache lines at a time.

enum { TILE = 32 };

static inline __attribute__((always_inline)) void orient_tiles(
    const uint8_t *origin, ptrdiff_t step_x, ptrdiff_t step_y, int width, int height, const int bpp,
    uint8_t *destination) {
    for (int tile_y = 0; tile_y < height; tile_y += TILE) {
        const int end_y = tile_y + TILE < height ? tile_y + TILE : height;
        for (int tile_x = 0; tile_x < width; tile_x += TILE) {
            const int end_x = tile_x + TILE < width ? tile_x + TILE : width;
            for (int y = tile_y; y < end_y; y++) {
                const uint8_t *from = origin + (ptrdiff_t)y * step_y + (ptrdiff_t)tile_x * step_x;
                uint8_t *to = destination + ((size_t)y * (size_t)width + (size_t)tile_x) * (size_t)bpp;
                for (int x = tile_x; x < end_x; x++) {
                    memcpy(to, from, (size_t)bpp);
                    from += step_x;
                    to += bpp;
                }
            }
        }
    }
}

void flipbook_orient(
    const uint8_t *source, size_t stride, int width, int height, int bpp, int orientation, uint8_t *destination) {
    // The stored pixel shown at output (x, y) is (sx, sy) = (ax x + bx y + cx, ay x + by y + cy).
    int ax = 1, bx = 0, cx = 0, ay = 0, by = 1, cy = 0;
    switch (orientation) {
    case 2: ax = -1; cx = width - 1; break;
    case 3: ax = -1; cx = width - 1; by = -1; cy = height - 1; break;
    case 4: by = -1; cy = height - 1; break;
    case 5: ax = 0; bx = 1; ay = 1; by = 0; break;
    case 6: ax = 0; bx = 1; ay = -1; by = 0; cy = height - 1; break;
    case 7: ax = 0; bx = -1; cx = width - 1; ay = -1; by = 0; cy = height - 1; break;
    case 8: ax = 0; bx = -1; cx = width - 1; ay = 1; by = 0; break;
    default: break;
    }
    const ptrdiff_t row = (ptrdiff_t)stride;
    const uint8_t *origin = source + (ptrdiff_t)cy * row + (ptrdiff_t)cx * bpp;
    const ptrdiff_t step_x = (ptrdiff_t)ay * row + (ptrdiff_t)ax * bpp;
    const ptrdiff_t step_y = (ptrdiff_t)by * row + (ptrdiff_t)bx * bpp;
    const int swaps = orientation >= 5 && orientation <= 8;
    const int out_width = swaps ? height : width;
    const int out_height = swaps ? width : height;
    if (bpp == 1) {
        orient_tiles(origin, step_x, step_y, out_width, out_height, 1, destination);
    } else if (bpp == 3) {
        orient_tiles(origin, step_x, step_y, out_width, out_height, 3, destination);
    } else {
        orient_tiles(origin, step_x, step_y, out_width, out_height, 4, destination);
    }
}
