#include "CFuzzSupport.h"

#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>

#ifndef VIGIL_LIBFUZZER

static int replay_file(const char *path, vigil_fuzz_callback callback) {
    FILE *file = fopen(path, "rb");
    if (file == NULL) {
        fprintf(stderr, "cannot open %s\n", path);
        return 0;
    }
    uint8_t buffer[1 << 16];
    size_t size = fread(buffer, 1, sizeof buffer, file);
    fclose(file);
    callback(buffer, size);
    return 1;
}

// Without libFuzzer (an ordinary build): replays every file argument, and every file in a directory argument;
// arguments starting with '-' are libFuzzer options and are skipped. Inputs are cut at 64 KiB.
__attribute__((weak)) int LLVMFuzzerRunDriver(int *argc, char ***argv, vigil_fuzz_callback callback) {
    int replayed = 0;
    for (int index = 1; index < *argc; index++) {
        const char *path = (*argv)[index];
        struct stat info;
        if (path[0] == '-' || stat(path, &info) != 0) continue;
        if (!S_ISDIR(info.st_mode)) {
            replayed += replay_file(path, callback);
            continue;
        }
        DIR *directory = opendir(path);
        if (directory == NULL) continue;
        struct dirent *entry;
        while ((entry = readdir(directory)) != NULL) {
            if (entry->d_name[0] == '.') continue;
            char child[PATH_MAX];
            snprintf(child, sizeof child, "%s/%s", path, entry->d_name);
            replayed += replay_file(child, callback);
        }
        closedir(directory);
    }
    printf("replayed %d inputs without libFuzzer\n", replayed);
    return 0;
}

#endif
