#ifndef EDUGO_CCMARK_SHIM_H
#define EDUGO_CCMARK_SHIM_H

// The CommonMark reference parser (libcmark-dev); only the Markdown module imports it.
#include <cmark.h>

#endif
