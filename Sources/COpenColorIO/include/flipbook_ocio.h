#ifndef FLIPBOOK_OCIO_H
#define FLIPBOOK_OCIO_H

// OpenColorIO 2.1 (Debian 12's libopencolorio-dev, a C++ library) behind a C interface: a config read
// from its file, its colour spaces, displays, views and roles, and a CPU processor from a colour space
// to a display's view applied to packed float RGB. Every call catches OpenColorIO's exceptions and
// reports failure through its result (and a message copied into the caller's buffer).
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct flipbook_ocio_config flipbook_ocio_config;
typedef struct flipbook_ocio_processor flipbook_ocio_processor;

// The config at `path`, or NULL with OpenColorIO's reason in `error` (at most `error_size` bytes).
flipbook_ocio_config *flipbook_ocio_config_open(const char *path, char *error, size_t error_size);
void flipbook_ocio_config_close(flipbook_ocio_config *config);

// Names owned by the config, valid until it is closed.
int flipbook_ocio_colourspace_count(const flipbook_ocio_config *config);
const char *flipbook_ocio_colourspace_name(const flipbook_ocio_config *config, int index);
int flipbook_ocio_display_count(const flipbook_ocio_config *config);
const char *flipbook_ocio_display_name(const flipbook_ocio_config *config, int index);
const char *flipbook_ocio_default_display(const flipbook_ocio_config *config);
int flipbook_ocio_view_count(const flipbook_ocio_config *config, const char *display);
const char *flipbook_ocio_view_name(const flipbook_ocio_config *config, const char *display, int index);
const char *flipbook_ocio_default_view(const flipbook_ocio_config *config, const char *display);
// The colour space a role names (`scene_linear`), or NULL when the config has no such role.
const char *flipbook_ocio_role(const flipbook_ocio_config *config, const char *role);

// The processor from colour space `input` to `display`'s `view`, or NULL with the reason in `error`.
flipbook_ocio_processor *flipbook_ocio_processor_make(
    const flipbook_ocio_config *config, const char *input, const char *display, const char *view, char *error,
    size_t error_size);
// Applies the processor to `pixels` packed R, G, B floats, in place; 0 on success.
int flipbook_ocio_apply_rgb(const flipbook_ocio_processor *processor, float *rgb, long pixels);
void flipbook_ocio_processor_free(flipbook_ocio_processor *processor);

// OpenColorIO's version, such as "2.1.2".
const char *flipbook_ocio_version(void);

#ifdef __cplusplus
}
#endif

#endif
