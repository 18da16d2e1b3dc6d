// OpenColorIO 2.1 behind the C interface of flipbook_ocio.h. Every entry point catches what OpenColorIO
// throws: none escapes into Swift.
#include "flipbook_ocio.h"

#include <OpenColorIO/OpenColorIO.h>

#include <cstring>
#include <exception>
#include <string>

namespace OCIO = OCIO_NAMESPACE;

struct flipbook_ocio_config {
    OCIO::ConstConfigRcPtr config;
};

struct flipbook_ocio_processor {
    OCIO::ConstCPUProcessorRcPtr cpu;
};

static void copy_message(const char *message, char *error, size_t error_size) {
    if (!error || error_size == 0) return;
    std::strncpy(error, message ? message : "unknown error", error_size - 1);
    error[error_size - 1] = '\0';
}

extern "C" flipbook_ocio_config *flipbook_ocio_config_open(const char *path, char *error, size_t error_size) {
    try {
        // OpenColorIO prints its warnings to standard error; Flipbook reports failures in its own words.
        OCIO::SetLoggingLevel(OCIO::LOGGING_LEVEL_NONE);
        auto config = OCIO::Config::CreateFromFile(path);
        config->validate();
        return new flipbook_ocio_config{config};
    } catch (const std::exception &exception) {
        copy_message(exception.what(), error, error_size);
    } catch (...) {
        copy_message("OpenColorIO failed", error, error_size);
    }
    return nullptr;
}

extern "C" void flipbook_ocio_config_close(flipbook_ocio_config *config) { delete config; }

extern "C" int flipbook_ocio_colourspace_count(const flipbook_ocio_config *config) {
    try {
        return config->config->getNumColorSpaces();
    } catch (...) {
        return 0;
    }
}

extern "C" const char *flipbook_ocio_colourspace_name(const flipbook_ocio_config *config, int index) {
    try {
        return config->config->getColorSpaceNameByIndex(index);
    } catch (...) {
        return nullptr;
    }
}

extern "C" int flipbook_ocio_display_count(const flipbook_ocio_config *config) {
    try {
        return config->config->getNumDisplays();
    } catch (...) {
        return 0;
    }
}

extern "C" const char *flipbook_ocio_display_name(const flipbook_ocio_config *config, int index) {
    try {
        return config->config->getDisplay(index);
    } catch (...) {
        return nullptr;
    }
}

extern "C" const char *flipbook_ocio_default_display(const flipbook_ocio_config *config) {
    try {
        return config->config->getDefaultDisplay();
    } catch (...) {
        return nullptr;
    }
}

extern "C" int flipbook_ocio_view_count(const flipbook_ocio_config *config, const char *display) {
    try {
        return config->config->getNumViews(display);
    } catch (...) {
        return 0;
    }
}

extern "C" const char *flipbook_ocio_view_name(const flipbook_ocio_config *config, const char *display, int index) {
    try {
        return config->config->getView(display, index);
    } catch (...) {
        return nullptr;
    }
}

extern "C" const char *flipbook_ocio_default_view(const flipbook_ocio_config *config, const char *display) {
    try {
        return config->config->getDefaultView(display);
    } catch (...) {
        return nullptr;
    }
}

extern "C" const char *flipbook_ocio_role(const flipbook_ocio_config *config, const char *role) {
    try {
        auto space = config->config->getColorSpace(role);
        return space ? space->getName() : nullptr;
    } catch (...) {
        return nullptr;
    }
}

extern "C" flipbook_ocio_processor *flipbook_ocio_processor_make(
    const flipbook_ocio_config *config, const char *input, const char *display, const char *view, char *error,
    size_t error_size) {
    try {
        auto transform = OCIO::DisplayViewTransform::Create();
        transform->setSrc(input);
        transform->setDisplay(display);
        transform->setView(view);
        auto processor = config->config->getProcessor(transform);
        return new flipbook_ocio_processor{processor->getDefaultCPUProcessor()};
    } catch (const std::exception &exception) {
        copy_message(exception.what(), error, error_size);
    } catch (...) {
        copy_message("OpenColorIO failed", error, error_size);
    }
    return nullptr;
}

extern "C" int flipbook_ocio_apply_rgb(const flipbook_ocio_processor *processor, float *rgb, long pixels) {
    try {
        OCIO::PackedImageDesc image(rgb, pixels, 1, 3);
        processor->cpu->apply(image);
        return 0;
    } catch (...) {
        return -1;
    }
}

extern "C" void flipbook_ocio_processor_free(flipbook_ocio_processor *processor) { delete processor; }

extern "C" const char *flipbook_ocio_version(void) {
    try {
        return OCIO::GetVersion();
    } catch (...) {
        return "unknown";
    }
}
