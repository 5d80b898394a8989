#include "CFuzzSupport.h"

#include <stdio.h>
#include <stdlib.h>

// Replays every file argument (arguments starting with '-' are libFuzzer options and are skipped).
__attribute__((weak)) int LLVMFuzzerRunDriver(int *argc, char ***argv, vigil_fuzz_callback callback) {
    int replayed = 0;
    for (int index = 1; index < *argc; index++) {
        const char *path = (*argv)[index];
        if (path[0] == '-') continue;
        FILE *file = fopen(path, "rb");
        if (file == NULL) {
            fprintf(stderr, "cannot open %s\n", path);
            return 1;
        }
        fseek(file, 0, SEEK_END);
        long size = ftell(file);
        fseek(file, 0, SEEK_SET);
        uint8_t *data = malloc(size > 0 ? (size_t)size : 1);
        size_t read = fread(data, 1, size > 0 ? (size_t)size : 0, file);
        fclose(file);
        callback(data, read);
        free(data);
        replayed++;
    }
    printf("replayed %d inputs without libFuzzer\n", replayed);
    return 0;
}
