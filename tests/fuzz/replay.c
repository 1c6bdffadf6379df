/*
 * Feeds files to LLVMFuzzerTestOneInput without libFuzzer, so the corpus
 * (and any crash the fuzzer found) is replayed by every build's CTest.
 *
 * Usage: replay_<target> PATH...   (a PATH may be a folder: its files)
 * Exit status: 0 when every input ran (a broken promise aborts), 1 when a
 * path cannot be read or no input was found.
 */
#define _POSIX_C_SOURCE 200809L

#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int run_file(const char *path, unsigned *count)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "replay: cannot open %s\n", path);
        return -1;
    }
    size_t cap = 4096, len = 0;
    uint8_t *buf = malloc(cap);
    for (;;) {
        if (!buf) {
            fclose(f);
            return -1;
        }
        len += fread(buf + len, 1, cap - len, f);
        if (len < cap)
            break;
        uint8_t *g = realloc(buf, cap *= 2);
        if (!g)
            free(buf);
        buf = g;
    }
    fclose(f);
    /* An exactly-sized copy, so a read one past the end is caught. */
    uint8_t *exact = malloc(len ? len : 1);
    if (!exact) {
        free(buf);
        return -1;
    }
    memcpy(exact, buf, len);
    free(buf);
    LLVMFuzzerTestOneInput(exact, len);
    free(exact);
    (*count)++;
    return 0;
}

/* Files of a folder in name order, so runs are repeatable. */
static int name_cmp(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static int run_dir(const char *dir, unsigned *count)
{
    DIR *d = opendir(dir);
    if (!d) {
        fprintf(stderr, "replay: cannot open %s\n", dir);
        return -1;
    }
    char **names = NULL;
    size_t n = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.')
            continue;
        char **g = realloc(names, (n + 1) * sizeof *names);
        if (!g)
            break;
        names = g;
        size_t len = strlen(dir) + strlen(e->d_name) + 2;
        names[n] = malloc(len);
        if (!names[n])
            break;
        snprintf(names[n], len, "%s/%s", dir, e->d_name);
        n++;
    }
    closedir(d);
    qsort(names, n, sizeof *names, name_cmp);
    int r = 0;
    for (size_t i = 0; i < n; i++) {
        struct stat st;
        if (stat(names[i], &st) == 0 && S_ISREG(st.st_mode) &&
            run_file(names[i], count))
            r = -1;
        free(names[i]);
    }
    free(names);
    return r;
}

int main(int argc, char **argv)
{
    unsigned count = 0;
    int r = 0;
    for (int i = 1; i < argc; i++) {
        struct stat st;
        if (stat(argv[i], &st) != 0) {
            fprintf(stderr, "replay: cannot stat %s\n", argv[i]);
            r = -1;
        } else if (S_ISDIR(st.st_mode) ? run_dir(argv[i], &count)
                                       : run_file(argv[i], &count)) {
            r = -1;
        }
    }
    printf("replayed %u input(s)\n", count);
    return r || count == 0 ? 1 : 0;
}
