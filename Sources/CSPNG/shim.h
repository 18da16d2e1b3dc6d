#ifndef FLIPBOOK_CSPNG_SHIM_H
#define FLIPBOOK_CSPNG_SHIM_H

// libspng's header, included through a shim so the module map has one place to point at.
#include <spng.h>

#endif
