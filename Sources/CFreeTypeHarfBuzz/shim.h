#ifndef FLIPBOOK_CFREETYPEHARFBUZZ_SHIM_H
#define FLIPBOOK_CFREETYPEHARFBUZZ_SHIM_H

// The text of burn-ins and slates: FreeType 2.12 (Debian 12) loads the font and renders each glyph
// anti-aliased (FT_Load_Glyph with FT_LOAD_RENDER); HarfBuzz 6.0 shapes each line on that face
// (hb_ft_font_create_referenced, hb_shape), so scripts that join or reorder come out right. One module
// for both: HarfBuzz's FreeType interface names FreeType's types, which two modules would declare twice.
#include <ft2build.h>
#include FT_FREETYPE_H
#include <hb.h>
#include <hb-ft.h>


#endif
