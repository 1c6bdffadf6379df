/*
 * Fuzz target for axl-xclbin kernel-xml (tools/axl-xclbin/kernel_xml.c),
 * the reader of HLS sources: the input is the source text of a kernel
 * whose top function is `k`, given from memory (an #include "..." in it
 * opens files relative to a folder that does not exist).
 * Its promises, checked beyond the sanitizers: a refusal leaves a
 * NUL-terminated one-line reason naming the file; an accepted source gives
 * a whole XML document.
 */
#define _POSIX_C_SOURCE 200809L
#include "kernel_xml.c"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void need(int ok)
{
    if (!ok)
        abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *name = "/nonexistent-axl-fuzz/k.cpp";
    axl_kernel_xml_options o = {name, "k", NULL, 0, NULL, 0,
                                (const char *)data, size, NULL};
    char *xml = NULL;
    size_t n = 0;
    char err[512];
    memset(err, 0, sizeof err);
    if (axl_kernel_xml(&o, &xml, &n, err, sizeof err)) {
        size_t len = strnlen(err, sizeof err);
        need(len > 0 && len < sizeof err);
        need(strchr(err, '\n') == NULL);
        need(strncmp(err, name, strlen(name)) == 0);
        need(xml == NULL);
        return 0;
    }
    need(n > 0 && xml[n] == '\0' && strlen(xml) == n);
    need(n >= 8 && strcmp(xml + n - 8, "</root>\n") == 0);
    free(xml);
    return 0;
}
