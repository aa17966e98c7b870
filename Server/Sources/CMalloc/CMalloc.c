// The target only exports its header; SwiftPM builds a C target from at least one source.
#include "CMalloc.h"
