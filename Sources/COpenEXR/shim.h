#ifndef FLIPBOOK_COPENEXR_SHIM_H
#define FLIPBOOK_COPENEXR_SHIM_H

// OpenEXR 3.1's C API, OpenEXRCore (Debian 12's libopenexr-dev): a read context over a stream Flipbook
// supplies, the parts, channels, windows and chromaticities of each header, and chunk decoding of
// scanline blocks and tiles under every compression the format has. The C++ libraries are not linked.
#include <OpenEXR/openexr.h>
#include <stdint.h>
#include <string.h>

// A file's bytes in memory, read through the stream functions below.
typedef struct {
    const uint8_t *bytes;
    uint64_t count;
} flipbook_exr_memory;

// The read callback takes a variadic error function, whose type Swift cannot name: the stream
// functions are C.
static inline int64_t flipbook_exr_read_memory(
    exr_const_context_t context, void *user, void *buffer, uint64_t size, uint64_t offset,
    exr_stream_error_func_ptr_t error) {
    (void)context;
    (void)error;
    const flipbook_exr_memory *memory = (const flipbook_exr_memory *)user;
    if (!memory || !buffer || offset > memory->count) return -1;
    uint64_t count = memory->count - offset < size ? memory->count - offset : size;
    if (count > 0) memcpy(buffer, memory->bytes + offset, (size_t)count);
    return (int64_t)count;
}

static inline int64_t flipbook_exr_memory_size(exr_const_context_t context, void *user) {
    (void)context;
    const flipbook_exr_memory *memory = (const flipbook_exr_memory *)user;
    return memory ? (int64_t)memory->count : -1;
}

// OpenEXRCore prints every problem to standard error unless given a handler; the status says what failed.
static inline void flipbook_exr_quiet(exr_const_context_t context, exr_result_t code, const char *message) {
    (void)context;
    (void)code;
    (void)message;
}

// Starts reading `memory` (which must outlive the context): no messages of the library's own, a
// damaged chunk table an error rather than searched for chunks, images and tiles no wider or taller
// than `max_side`.
// `strict` checks every attribute of the header as OpenEXR's C++ library reads it (a file handed to it
// next must pass).
static inline exr_result_t flipbook_exr_start_read_memory(
    exr_context_t *context, flipbook_exr_memory *memory, int max_side, int strict) {
    exr_context_initializer_t initializer = EXR_DEFAULT_CONTEXT_INITIALIZER;
    initializer.user_data = memory;
    initializer.read_fn = flipbook_exr_read_memory;
    initializer.size_fn = flipbook_exr_memory_size;
    initializer.error_handler_fn = flipbook_exr_quiet;
    initializer.max_image_width = max_side;
    initializer.max_image_height = max_side;
    initializer.max_tile_width = max_side;
    initializer.max_tile_height = max_side;
    initializer.flags = EXR_CONTEXT_FLAG_SILENT_HEADER_PARSE | EXR_CONTEXT_FLAG_DISABLE_CHUNK_RECONSTRUCTION |
                        (strict ? EXR_CONTEXT_FLAG_STRICT_HEADER : 0);
    return exr_start_read(context, "image.exr", &initializer);
}

#endif
