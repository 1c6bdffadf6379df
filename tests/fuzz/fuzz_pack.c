/*
 * Fuzz target for the packer's readers (tools/axl-xclbin): the JSON reader
 * with the section encoders behind it, and the manifest reader. The first
 * byte picks what the rest is:
 *   0..6  JSON of a section kind (MEM_TOPOLOGY, ASK_GROUP_TOPOLOGY,
 *         IP_LAYOUT, CONNECTIVITY, ASK_GROUP_CONNECTIVITY,
 *         CLOCK_FREQ_TOPOLOGY, DEBUG_IP_LAYOUT), as `section KIND json`
 *         gives it to the packer;
 *   7..   a manifest (pack.h), read from a folder that does not exist, so
 *         a `section` line names no file that can be opened.
 * The packer's own promises, checked beyond the sanitizers': a refusal
 * leaves a NUL-terminated one-line reason that names the file; JSON the
 * packer accepts, packed as the only section of an image, is something the
 * reader either opens or refuses with a reason; the JSON tree walks
 * (json_get, json_count, json_u64) stay inside it.
 *
 * The packer's helpers are static: the target includes pack.c, so it
 * tests them as the tool builds them. (The packer reads no XML: the XML of
 * an image is read by the xclbin reader, fuzz_xclbin_xml.)
 */
#define _POSIX_C_SOURCE 200809L
#include "pack.c"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static volatile unsigned long sink;

static void need(int ok)
{
    if (!ok)
        abort();
}

static void check_reason(const char *err, size_t cap, const char *file)
{
    size_t n = strnlen(err, cap);
    need(n < cap && n > 0);
    need(strchr(err, '\n') == NULL);
    need(strncmp(err, file, strlen(file)) == 0);
}

/* Every node of the tree, through the reader's own accessors. */
static void walk(const json *j, unsigned depth)
{
    need(depth < 100000);
    uint64_t v;
    if (json_u64(j, &v) == 0)
        sink += v;
    size_t n = json_count(j);
    size_t seen = 0;
    for (const json *c = j->child; c; c = c->next) {
        seen++;
        if (j->type == JSON_OBJECT) {
            need(c->key != NULL);
            need(json_get(j, c->key) != NULL);
        }
        if (c->text)
            sink += strlen(c->text);
        walk(c, depth + 1);
    }
    need(seen == n || (j->type != JSON_ARRAY && j->type != JSON_OBJECT));
}

static const uint32_t kinds[] = {6, 26, 8, 7, 27, 11, 9};

static void fuzz_json(uint32_t kind, const uint8_t *text, size_t len)
{
    char jerr[256];
    unsigned line = 0;
    json *root = json_parse((const char *)text, len, &line, jerr, sizeof jerr);
    if (root) {
        walk(root, 0);
        json_free(root);
    } else {
        need(strnlen(jerr, sizeof jerr) < sizeof jerr);
    }

    char err[300];
    err[0] = '\0';
    ctx c = {"fuzz.json", err, sizeof err};
    buf b = {0};
    if (encode_json(&c, kind, text, len, &b)) {
        check_reason(err, sizeof err, "fuzz.json");
        free(b.p);
        return;
    }
    /* Accepted: the section in an image the reader opens or refuses. */
    manifest *m = calloc(1, sizeof *m);
    need(m != NULL);
    m->have_uuid = 1;
    m->major = 2;
    m->minor = 13;
    m->nsec = 1;
    m->sections[0].kind = kind;
    memcpy(m->sections[0].name, "fuzz", 5);
    m->sections[0].data = b;
    buf img = {0};
    need(assemble(&c, m, &img) == 0);
    axl_xclbin x;
    char why[200];
    why[0] = '\0';
    if (axl_xclbin_open(&x, img.p, img.len, why, sizeof why) != AXL_SUCCESS)
        need(why[0] != '\0' && strnlen(why, sizeof why) < sizeof why);
    free(img.p);
    free(b.p);
    free(m);
}

static void fuzz_manifest(const uint8_t *data, size_t size)
{
    /* No absolute paths: a section line must not name /dev/stdin. */
    if (memchr(data, '/', size))
        return;
    char *text = malloc(size + 1);
    need(text != NULL);
    memcpy(text, data, size);
    text[size] = '\0';
    static const char path[] = "/nonexistent-axl-fuzz/manifest";
    char err[300];
    err[0] = '\0';
    ctx c = {path, err, sizeof err};
    manifest *m = calloc(1, sizeof *m);
    need(m != NULL);
    int r = parse_manifest(&c, m, text, path);
    buf img = {0};
    if (r == 0)
        r = assemble(&c, m, &img);
    if (r)
        check_reason(err, sizeof err, path);
    for (unsigned i = 0; i < m->nsec; i++)
        free(m->sections[i].data.p);
    free(img.p);
    free(m);
    free(text);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    if (data[0] < sizeof kinds / sizeof kinds[0])
        fuzz_json(kinds[data[0]], data + 1, size - 1);
    else
        fuzz_manifest(data + 1, size - 1);
    return 0;
}
