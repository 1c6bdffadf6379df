/*
 * A small JSON reader for the packer: enough for the section JSON that
 * `xclbinutil --dump-section KIND:JSON:file` writes (and hand-written
 * JSON of the same shape). Host-only; it allocates.
 */
#ifndef AXL_XCLBIN_JSON_H
#define AXL_XCLBIN_JSON_H

#include <stddef.h>
#include <stdint.h>

typedef enum json_type {
    JSON_NULL,
    JSON_BOOL,
    JSON_NUMBER,  /* kept as text, like a string */
    JSON_STRING,
    JSON_ARRAY,
    JSON_OBJECT
} json_type;

typedef struct json {
    json_type type;
    char *key;           /* member name inside an object, else NULL */
    char *text;          /* STRING (decoded), NUMBER (as written), BOOL */
    struct json *child;  /* first element or member */
    struct json *next;   /* next sibling */
    unsigned line;       /* where the value starts, for messages */
} json;

/** Parses text[0..len); NULL on error, with the line in *err_line and the
 *  reason in err. */
json *json_parse(const char *text, size_t len, unsigned *err_line, char *err,
                 size_t err_size);
void json_free(json *j);

/** The member called key of an object, or NULL. */
const json *json_get(const json *obj, const char *key);

/** Number of elements of an array or members of an object. */
size_t json_count(const json *j);

/**
 * A string or number holding an unsigned integer: decimal or 0x-hex, as
 * xclbinutil writes them ("0x10", "3"). 0 on success, -1 if not one.
 */
int json_u64(const json *j, uint64_t *out);

#endif
