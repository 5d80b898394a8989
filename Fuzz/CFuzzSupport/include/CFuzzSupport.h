// libFuzzer's driver entry point. Fuzz/run.sh links libFuzzer (without its main), whose definition wins; in an
// ordinary build the weak fallback in CFuzzSupport.c replays the files named on the command line instead, so
// `VigilFuzz TARGET FILE…` re-runs a corpus or a crash input without libFuzzer.
#ifndef VIGIL_CFUZZSUPPORT_H
#define VIGIL_CFUZZSUPPORT_H

#include <stddef.h>
#include <stdint.h>

typedef int (*vigil_fuzz_callback)(const uint8_t *data, size_t size);

int LLVMFuzzerRunDriver(int *argc, char ***argv, vigil_fuzz_callback callback);

#endif
