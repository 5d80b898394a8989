// gzip through the system's zlib, loaded at run time with dlopen so that no zlib headers or link-time library are
// needed: only compress2, compressBound and crc32, whose prototypes (zlib's stable ABI since 1.x) are declared here.
#include "VigilGzip.h"

#include <dlfcn.h>
#include <pthread.h>
#include <string.h>

typedef int (*compress2_function)(unsigned char *, unsigned long *, const unsigned char *, unsigned long, int);
typedef unsigned long (*compress_bound_function)(unsigned long);
typedef unsigned long (*crc32_function)(unsigned long, const unsigned char *, unsigned int);

static compress2_function zlib_compress2;
static compress_bound_function zlib_compress_bound;
static crc32_function zlib_crc32;
static pthread_once_t zlib_once = PTHREAD_ONCE_INIT;

static void load_zlib(void) {
    void *library = dlopen("libz.so.1", RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) return;
    compress2_function compress = (compress2_function)dlsym(library, "compress2");
    compress_bound_function bound = (compress_bound_function)dlsym(library, "compressBound");
    crc32_function crc = (crc32_function)dlsym(library, "crc32");
    if (compress == NULL || bound == NULL || crc == NULL) return;
    zlib_compress2 = compress;
    zlib_compress_bound = bound;
    zlib_crc32 = crc;
}

// The gzip header (no name, no time, OS 3 = Unix) and trailer around the raw deflate data.
enum { gzip_header_length = 10, gzip_trailer_length = 8, zlib_header_length = 2, zlib_trailer_length = 4 };

size_t vigil_gzip_bound(size_t length) {
    pthread_once(&zlib_once, load_zlib);
    if (zlib_compress_bound == NULL || length > 0xFFFFFFFFu) return 0;
    return zlib_compress_bound(length) + gzip_header_length + gzip_trailer_length;
}

size_t vigil_gzip(const unsigned char *source, size_t length, unsigned char *destination, size_t capacity) {
    size_t bound = vigil_gzip_bound(length);
    if (bound == 0 || capacity < bound) return 0;
    // compress2 writes a zlib stream (a 2-byte header, raw deflate, an Adler-32): written so that its deflate data
    // lands where the gzip member wants it, then the zlib header and trailer are overwritten.
    unsigned char *zlib_start = destination + gzip_header_length - zlib_header_length;
    unsigned long written = (unsigned long)(capacity - gzip_header_length + zlib_header_length - gzip_trailer_length);
    if (zlib_compress2(zlib_start, &written, source, (unsigned long)length, 6) != 0) return 0;
    if (written < zlib_header_length + zlib_trailer_length) return 0;
    size_t deflated = written - zlib_header_length - zlib_trailer_length;
    static const unsigned char header[gzip_header_length] = {0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3};
    memcpy(destination, header, gzip_header_length);
    unsigned long crc = zlib_crc32(0, source, (unsigned int)length);
    unsigned char *trailer = destination + gzip_header_length + deflated;
    for (int index = 0; index < 4; index++) trailer[index] = (unsigned char)(crc >> (8 * index));
    for (int index = 0; index < 4; index++) trailer[4 + index] = (unsigned char)(length >> (8 * index));
    return gzip_header_length + deflated + gzip_trailer_length;
}
