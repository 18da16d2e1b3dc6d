// OpenEXR's C++ library behind flipbook_exr_imf.h: a file in memory read through a stream of Flipbook's,
// one part's channels into the caller's float planes. Nothing the library throws escapes.
#include "flipbook_exr_imf.h"

#include <ImfChannelList.h>
#include <ImfFrameBuffer.h>
#include <ImfHeader.h>
#include <ImfIO.h>
#include <ImfInputPart.h>
#include <ImfMultiPartInputFile.h>

#include <cstring>
#include <exception>
#include <stdexcept>

namespace {

// The file's bytes as an Imf input stream.
class MemoryStream : public Imf::IStream {
  public:
    MemoryStream(const uint8_t *bytes, uint64_t size) : Imf::IStream("memory"), bytes_(bytes), size_(size) {}

    bool read(char c[], int n) override {
        if (n < 0 || position_ + static_cast<uint64_t>(n) > size_) throw std::runtime_error("the file ends early");
        std::memcpy(c, bytes_ + position_, static_cast<size_t>(n));
        position_ += static_cast<uint64_t>(n);
        return position_ < size_;
    }

    uint64_t tellg() override { return position_; }

    void seekg(uint64_t position) override {
        if (position > size_) throw std::runtime_error("a position past the file's end");
        position_ = position;
    }

  private:
    const uint8_t *bytes_;
    uint64_t size_;
    uint64_t position_ = 0;
};

void copy_message(const char *message, char *error, size_t error_size) {
    if (!error || error_size == 0) return;
    std::strncpy(error, message ? message : "unknown error", error_size - 1);
    error[error_size - 1] = '\0';
}

}  // namespace

extern "C" int flipbook_exr_imf_read(
    const uint8_t *bytes, uint64_t size, int part, const char *const *names, int count, float *const *planes,
    const int *widths, const int *x_sampling, const int *y_sampling, int max_side, char *error, size_t error_size) {
    try {
        // Sizes past the limits are refused while the headers are read, before anything is allocated for them.
        Imf::Header::setMaxImageSize(max_side, max_side);
        Imf::Header::setMaxTileSize(max_side, max_side);
        MemoryStream stream(bytes, size);
        Imf::MultiPartInputFile file(stream, 1);
        if (part < 0 || part >= file.parts()) throw std::runtime_error("no such part");
        Imf::InputPart input(file, part);
        const Imath::Box2i window = input.header().dataWindow();
        Imf::FrameBuffer buffer;
        for (int index = 0; index < count; ++index) {
            const int xs = x_sampling[index], ys = y_sampling[index];
            if (xs < 1 || ys < 1) throw std::runtime_error("a sampling below 1");
            const size_t row = static_cast<size_t>(widths[index]) * sizeof(float);
            // The slice's origin is where pixel (0, 0) would be: the window's first sample sits at its start.
            char *origin = reinterpret_cast<char *>(planes[index]) -
                           static_cast<ptrdiff_t>(window.min.x / xs) * static_cast<ptrdiff_t>(sizeof(float)) -
                           static_cast<ptrdiff_t>(window.min.y / ys) * static_cast<ptrdiff_t>(row);
            buffer.insert(names[index], Imf::Slice(Imf::FLOAT, origin, sizeof(float), row, xs, ys, 0.0));
        }
        input.setFrameBuffer(buffer);
        input.readPixels(window.min.y, window.max.y);
        return 0;
    } catch (const std::exception &exception) {
        copy_message(exception.what(), error, error_size);
    } catch (...) {
        copy_message("OpenEXR failed", error, error_size);
    }
    return -1;
}
