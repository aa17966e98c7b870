// glibc's malloc tuning (mallopt), which Swift's Glibc module does not export: the collector
// fixes its mmap threshold at start (see `Serve`).
#pragma once
#if defined(__linux__)
#include <malloc.h>
#endif
