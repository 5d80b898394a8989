// gzip (RFC 1952) through the system's zlib, loaded at run time: a machine without libz.so.1 still builds and runs,
// and simply answers without compression. Defined in VigilGzip.c.
#ifndef VIGIL_GZIP_H
#define VIGIL_GZIP_H

#include <stddef.h>

/// The most bytes vigil_gzip may write for `length` input bytes; 0 when zlib cannot be loaded.
size_t vigil_gzip_bound(size_t length);

/// Compresses `source` into one gzip member in `destination` (at least vigil_gzip_bound(length) bytes); returns its
/// length, or 0 when zlib cannot be loaded or fails.
size_t vigil_gzip(const unsigned char *source, size_t length, unsigned char *destination, size_t capacity);

#endif
