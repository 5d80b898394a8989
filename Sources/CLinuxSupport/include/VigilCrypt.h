#ifndef VIGIL_CRYPT_H
#define VIGIL_CRYPT_H

// Password hashes through the system's crypt(3) (libxcrypt's libcrypt.so.1, loaded at run time; see VigilCrypt.c).

// 1 when `password` hashes to `hash` with the hash's own method and salt (bcrypt's $2b$ and the others libxcrypt
// knows), 0 when it does not or the hash is malformed, -1 when libcrypt cannot be loaded.
int vigil_crypt_matches(const char *password, const char *hash);

#endif
