// crypt(3) through the system's libcrypt.so.1 (libxcrypt on Debian, Fedora and Arch, an essential package),
// loaded at run time so that building needs no libcrypt headers or link-time library. crypt_rn is libxcrypt's
// reentrant form that never returns a "failure token" string; crypt_r is the fallback of older libcrypts.
#include "VigilCrypt.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

typedef char *(*crypt_rn_function)(const char *, const char *, void *, int);
typedef char *(*crypt_r_function)(const char *, const char *, void *);

static crypt_rn_function crypt_rn;
static crypt_r_function crypt_r;
static pthread_once_t crypt_once = PTHREAD_ONCE_INIT;

// Larger than libxcrypt's struct crypt_data (32,768 bytes) and glibc's older one (131,232 bytes).
enum { crypt_data_size = 262144 };

static void load_crypt(void) {
    void *library = dlopen("libcrypt.so.1", RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) return;
    crypt_rn = (crypt_rn_function)dlsym(library, "crypt_rn");
    crypt_r = (crypt_r_function)dlsym(library, "crypt_r");
}

int vigil_crypt_matches(const char *password, const char *hash) {
    pthread_once(&crypt_once, load_crypt);
    if (crypt_rn == NULL && crypt_r == NULL) return -1;
    void *data = calloc(1, crypt_data_size);
    if (data == NULL) return 0;
    const char *computed = crypt_rn != NULL ? crypt_rn(password, hash, data, crypt_data_size)
                                            : crypt_r(password, hash, data);
    int matches = 0;
    size_t length = strlen(hash);
    if (computed != NULL && computed[0] != '*' && strlen(computed) == length) {
        // Compared in constant time, so the time taken tells nothing of how much matched.
        unsigned char difference = 0;
        for (size_t index = 0; index < length; index++) difference |= (unsigned char)(computed[index] ^ hash[index]);
        matches = difference == 0;
    }
    free(data);
    return matches;
}
