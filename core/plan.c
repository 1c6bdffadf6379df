/*
 * plan.c - an executable graph written down as a plan (axl/plan.h): C
 * source of const tables that the executor (xrt/mmio/fw_exec.c) replays on a
 * board, written here, on the host, from a graph finalize laid out.
 *
 * Everything is read under the runtime lock from what finalize checked
 * and laid out (graph_priv.h): the nodes in recording order (which
 * respects the edges), each one's laid-out predecessors, its checked
 * kernel arguments (in the kernel id's order, as a launch gives them) and
 * the banks its buffers are in. Only the units are chosen here
 * (choose_units), once, by the rule plan.h states. Every check comes
 * before the first character (gather), so a refused graph leaves dst as
 * it was; the text then goes straight into dst through axl_vformat:
 * nothing is allocated, and a call with cap 0 only measures.
 */
#include <stdarg.h>
#include <string.h>

#include "axl/plan.h"
#include "rt.h"
#include "image.h"
#include "devops.h"

#if AXL_FEATURE_GRAPHS

/* ---- What the tables are made of ------------------------------------------ */

struct plan_buffer {
    const struct axl__buffer *base; /* the base buffer: one plan buffer */
    uint32_t dev_bank;          /* the device's bank it is in */
    uint32_t bank;              /* the same as a MEM_TOPOLOGY index */
    uint32_t flags;             /* axl_plan_buffer_flags */
};

/* One argument register of a node, checked (gather). */
struct plan_arg {
    axl_xclbin_arg x;           /* the kernel XML's argument */
    const struct axl__karg *a;  /* the node's (its kernel id's order) */
};

struct plan_model {
    const struct axl__device *d;
    const struct axl__image *img; /* the design every node's kernel is of */
    uint16_t nnodes;
    struct axl__graph_node *node[AXL__LAID_NODES];
    uint8_t cu[AXL__LAID_NODES];  /* each node's unit: a d->cus index */
    uint8_t buf[AXL__LAID_NODES][AXL_MAX_ACCESSORS]; /* plan buffer of
                                   each node's accessor */
    uint16_t unit_of[AXL_MAX_DEVICE_CUS]; /* plan unit + 1 of a d->cus
                                   index, 0: not in the plan */
    uint16_t nunits;
    struct plan_buffer buffers[AXL_MAX_ACCESSORS];
    uint16_t nbuffers;
    uint32_t nargs, npreds, scalar_bytes;
    uint32_t align;             /* every buffer's, bytes */
    const char *buf_name[AXL_MAX_ACCESSORS]; /* given names, or NULL */
    const char *node_name[AXL__LAID_NODES];
};

static inline struct axl__graph_node *node_of(axl__graph_node_ref r)
{
    return AXL__IS_REF(r) ? axl__graph_node_deref(r) : NULL;
}

static const struct axl__kernel_id *kid_of(const struct axl__graph_node *n)
{
    return axl__kernel_id_at(n->h.u.kernel.kid);
}

/* The kernel XML's argument `id` of kernel `index` of img; false when it
 * has none. */
static bool xml_arg(const struct axl__image *img, uint16_t index,
                    uint32_t id, axl_xclbin_arg *out)
{
    axl_xclbin_kernel ki;
    if (axl_xclbin_get_kernel(&img->x, index, &ki) != AXL_SUCCESS)
        return false;
    for (uint32_t i = 0; i < ki.arg_count; i++)
        if (axl_xclbin_get_kernel_arg(&img->x, &ki, i, out) == AXL_SUCCESS &&
            out->index == id)
            return true;
    return false;
}

/* Whether argument x is a register of the unit's control space: streams
 * and local memory are not (the mmio port skips them too). */
static bool is_register(const axl_xclbin_arg *x)
{
    return x->address_qualifier != AXL_XCLBIN_ARG_STREAM &&
           x->address_qualifier != AXL_XCLBIN_ARG_LOCAL;
}

/* Argument m (in the kernel id's order) of node n, checked for a plan:
 * a register the plan's fields can say, a scalar no larger than it. */
static axl_status node_arg(const char *fn, const struct plan_model *pm,
                           unsigned pos, const struct axl__graph_node *n,
                           uint8_t m, struct plan_arg *out)
{
    const struct axl__kernel_id *kid = kid_of(n);
    out->a = &n->h.u.kernel.args[m];
    if (!xml_arg(pm->img, kid->index, out->a->id, &out->x))
        return axl__fail(fn, AXL_ERR_INVALID,
                         "node %u: kernel %s has no argument %u in its "
                         "metadata",
                         pos, kid->name, (unsigned)out->a->id);
    if (!is_register(&out->x))
        return AXL_SUCCESS;
    if (out->x.offset > UINT16_MAX || out->x.size == 0 ||
        out->x.size > UINT8_MAX)
        return axl__fail(fn, AXL_ERR_INVALID,
                         "node %u: argument %.*s of %s is at offset 0x%llx, "
                         "%llu bytes: not a register a plan can name",
                         pos, (int)out->x.name.len, out->x.name.ptr,
                         kid->name, (unsigned long long)out->x.offset,
                         (unsigned long long)out->x.size);
    if (!out->a->acc && out->a->size > out->x.size)
        return axl__fail(fn, AXL_ERR_INVALID,
                         "node %u: scalar %.*s of %s has %u bytes and its "
                         "register %llu: a plan writes a scalar whole",
                         pos, (int)out->x.name.len, out->x.name.ptr,
                         kid->name, (unsigned)out->a->size,
                         (unsigned long long)out->x.size);
    return AXL_SUCCESS;
}

/* Does unit cu reach the bank of every buffer argument of node n? (As a
 * launch asks, cu.c: cu->banks is in the kernel id's argument order.) */
static bool unit_reaches(const struct axl__cu *cu,
                         const struct axl__graph_node *n)
{
    for (uint8_t m = 0; m < n->h.u.kernel.nargs; m++) {
        const struct axl__karg *a = &n->h.u.kernel.args[m];
        if (!a->acc)
            continue;
        uint32_t bank = n->span[a->acc - 1].bank;
        if (bank >= 64 || !(cu->banks[m] >> bank & 1))
            return false;
    }
    return true;
}

/*
 * Each node's unit, by plan.h's rule: of its kernel's units (those its
 * kernel object may use) that reach its buffers' banks, the first that no
 * node it could run beside was given, else the one such nodes were given
 * least. Nodes are taken in order, so "beside" means the earlier nodes
 * that are not its ancestors (a later node is not given a unit yet).
 */
static axl_status choose_units(const char *fn, struct plan_model *pm)
{
    uint64_t anc[AXL__LAID_NODES];
    const struct axl__device *d = pm->d;
    for (unsigned i = 0; i < pm->nnodes; i++) {
        const struct axl__graph_node *n = pm->node[i];
        anc[i] = 0;
        for (uint8_t k = 0; k < n->npreds; k++)
            anc[i] |= anc[n->preds[k]] | (uint64_t)1 << n->preds[k];
        uint16_t given[AXL_MAX_DEVICE_CUS];
        memset(given, 0, sizeof given);
        for (unsigned j = 0; j < i; j++)
            if (!(anc[i] >> j & 1))
                given[pm->cu[j]]++;
        const struct axl__kernel_id *kid = kid_of(n);
        const struct axl__kernel *kn = axl__kernel_at(n->h.u.kernel.kernel);
        int best = -1;
        for (uint8_t c = 0; c < d->ncus; c++) {
            const struct axl__cu *cu = &d->cus[c];
            if (cu->kernel_index != kid->index ||
                !axl__kernel_may_use(kn, cu) || !unit_reaches(cu, n))
                continue;
            if (best < 0 || given[c] < given[best])
                best = c;
        }
        if (best < 0)
            return axl__fail(fn, AXL_ERR_INVALID,
                             "node %u: no unit of %s on %s reaches its "
                             "buffers' banks",
                             i, kid->name, d->info.name);
        pm->cu[i] = (uint8_t)best;
    }
    return AXL_SUCCESS;
}

/* The plan buffer of node n's accessor k (its base buffer's), added on
 * first use with what the node does to it. */
static axl_status take_buffer(const char *fn, struct plan_model *pm,
                              unsigned pos, const struct axl__graph_node *n,
                              uint8_t k)
{
    const struct axl__buffer *view =
        axl__pool_get(AXL__POOL(BUFFER), n->bufs[k]);
    if (!view)
        return axl__fail(fn, AXL_ERR_INVALID_OBJECT,
                         "node %u: buffer 0x%08x (accessor %u) was released",
                         pos, (unsigned)n->bufs[k], (unsigned)k + 1);
    const struct axl__buffer *base = axl__buffer_base(view);
    const uint32_t dev_bank = n->span[k].bank;
    uint16_t b = 0;
    while (b < pm->nbuffers && pm->buffers[b].base != base)
        b++;
    if (b == pm->nbuffers) {
        axl_hal_bank hb;
        if (dev_bank == UINT32_MAX ||
            axl__dev_bank(pm->d, dev_bank, &hb) != AXL_SUCCESS)
            return axl__fail(fn, AXL_ERR_INVALID,
                             "node %u: buffer 0x%08x is in no bank of %s",
                             pos, (unsigned)n->bufs[k], pm->d->info.name);
        if (b == AXL_MAX_ACCESSORS) /* a laid-out graph has no more */
            return axl__fail(fn, AXL_ERR_INVALID,
                             "the graph uses more than %u buffers",
                             (unsigned)AXL_MAX_ACCESSORS);
        pm->buffers[b].base = base;
        pm->buffers[b].dev_bank = dev_bank;
        pm->buffers[b].bank = hb.image_index;
        pm->buffers[b].flags = AXL_PLAN_UPDATABLE;
        pm->nbuffers++;
    } else if (pm->buffers[b].dev_bank != dev_bank) {
        return axl__fail(fn, AXL_ERR_INVALID,
                         "node %u: buffer 0x%08x is in another bank than "
                         "where an earlier node has it: a plan places a "
                         "buffer once",
                         pos, (unsigned)n->bufs[k]);
    }
    const uint8_t mode = n->h.acc[k].mode;
    if (mode & AXL_ACCESS_READ)
        pm->buffers[b].flags |= AXL_PLAN_READ;
    if (mode & AXL_ACCESS_WRITE)
        pm->buffers[b].flags |= AXL_PLAN_WRITE;
    pm->buf[pos][k] = (uint8_t)b;
    return AXL_SUCCESS;
}

/* Everything the text says, checked (lock held). */
static axl_status gather(const char *fn, const struct axl__graph_exec *x,
                         struct plan_model *pm)
{
    if (!x->laid)
        return axl__fail(fn, AXL_ERR_INVALID,
                         "the graph was not laid out "
                         "(axl_graph_exec_laid_out): a plan holds 2 to %u "
                         "kernel nodes, no host task, copy or fill, over at "
                         "most AXL_MAX_ACCESSORS (%u) buffers",
                         (unsigned)AXL__LAID_NODES,
                         (unsigned)AXL_MAX_ACCESSORS);
    memset(pm, 0, sizeof *pm);
    pm->d = axl__device_at(x->device);
    uint16_t image = 0;
    for (struct axl__graph_node *n = node_of(x->head); n;
         n = node_of(n->next)) {
        const unsigned pos = pm->nnodes;
        if (!axl__pool_get(AXL__POOL(KERNEL), n->kernel))
            return axl__fail(fn, AXL_ERR_INVALID_OBJECT,
                             "node %u: its kernel 0x%08x was released", pos,
                             (unsigned)n->kernel);
        const struct axl__kernel_id *kid = kid_of(n);
        if (pos == 0)
            image = kid->image;
        else if (kid->image != image)
            return axl__fail(fn, AXL_ERR_INVALID,
                             "node %u: kernel %s is of another design than "
                             "node 0's: a plan is made for one design",
                             pos, kid->name);
        pm->node[pm->nnodes++] = n;
        for (uint8_t k = 0; k < n->nacc; k++) {
            axl_status st = take_buffer(fn, pm, pos, n, k);
            if (st != AXL_SUCCESS)
                return st;
        }
    }
    if (!axl__device_carries(pm->d, image))
        return axl__fail(fn, AXL_ERR_INVALID,
                         "%s carries another design now than the one the "
                         "graph was finalized with: a plan is written "
                         "against the design its kernels run on",
                         pm->d->info.name);
    pm->img = axl__image_at(image);
    for (unsigned i = 0; i < pm->nnodes; i++) {
        const struct axl__graph_node *n = pm->node[i];
        for (uint8_t m = 0; m < n->h.u.kernel.nargs; m++) {
            struct plan_arg pa;
            axl_status st = node_arg(fn, pm, i, n, m, &pa);
            if (st != AXL_SUCCESS)
                return st;
            if (!is_register(&pa.x))
                continue;
            pm->nargs++;
            if (!pa.a->acc)
                pm->scalar_bytes += pa.a->size;
        }
        pm->npreds += n->npreds;
    }
    if (pm->scalar_bytes > UINT16_MAX || pm->nargs > UINT16_MAX)
        return axl__fail(fn, AXL_ERR_INVALID,
                         "the graph's %u arguments and %u scalar bytes do "
                         "not fit a plan's 16-bit counts",
                         (unsigned)pm->nargs, (unsigned)pm->scalar_bytes);
    axl_status st = choose_units(fn, pm);
    if (st != AXL_SUCCESS)
        return st;
    for (uint8_t c = 0; c < pm->d->ncus; c++) {
        bool used = false;
        for (unsigned i = 0; i < pm->nnodes; i++)
            used |= pm->cu[i] == c;
        if (!used)
            continue;
        axl_xclbin_ip ip;
        axl_xclbin_get_ip(&pm->img->x, pm->d->cus[c].ip, &ip);
        if (ip.control != AXL_XCLBIN_AP_CTRL_HS &&
            ip.control != AXL_XCLBIN_AP_CTRL_CHAIN)
            return axl__fail(fn, AXL_ERR_INVALID,
                             "unit %.*s is not ap_ctrl_hs or ap_ctrl_chain "
                             "(IP_LAYOUT control %u): a plan starts its units "
                             "through ap_start",
                             (int)ip.name.len, ip.name.ptr,
                             (unsigned)ip.control);
        pm->unit_of[c] = ++pm->nunits;
    }
    /* Every buffer at the device's alignment for a buffer's start
     * (mem_base_addr_align, the one its sub-buffers' offsets kept) and at
     * least a cache line, so cache maintenance on one never touches
     * another's bytes. */
    uint32_t align = pm->d->info.mem_base_addr_align / 8;
    pm->align = 64;
    while (pm->align < align)
        pm->align <<= 1;
    return AXL_SUCCESS;
}

/* ---- The text ----------------------------------------------------------- */

typedef struct text {
    char *dst;
    size_t cap;
    size_t len;                 /* what the whole takes so far, past cap */
} text;

static void put(text *t, const char *fmt, ...) AXL__PRINTF(2, 3);
static void put(text *t, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    const size_t room = t->len < t->cap ? t->cap - t->len : 0;
    /* Into the caller's buffer: what does not fit is measured (the
     * length says how much it takes), as its contract says. */
    t->len += axl_vformat_part(room ? t->dst + t->len : NULL, room, fmt, ap);
    va_end(ap);
}

/* s[0, n) (a name from the design's metadata: "vadd:vadd_1", "in1") in a
 * string literal or a comment, any character that could end either, or
 * make a trigraph, written as '_'. */
static void put_name(text *t, const char *s, size_t n)
{
    for (size_t i = 0; i < n && s[i]; i++) {
        const char c = s[i];
        const bool plain = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
                           (c >= '0' && c <= '9') || c == '_' || c == ':' ||
                           c == '.' || c == '-' || c == '[' || c == ']';
        put(t, "%c", plain ? c : '_');
    }
}

static void put_unit_name(text *t, const struct plan_model *pm, uint8_t c)
{
    axl_xclbin_ip ip;
    axl_xclbin_get_ip(&pm->img->x, pm->d->cus[c].ip, &ip);
    put_name(t, ip.name.ptr, ip.name.len);
}

/* Node i's register arguments, in order (gather checked them). */
static unsigned node_args(const struct plan_model *pm, unsigned i,
                          struct plan_arg *out)
{
    const struct axl__graph_node *n = pm->node[i];
    unsigned k = 0;
    for (uint8_t m = 0; m < n->h.u.kernel.nargs; m++) {
        (void)node_arg("", pm, i, n, m, &out[k]);
        if (is_register(&out[k].x))
            k++;
    }
    return k;
}

static void put_units(text *t, const struct plan_model *pm, const char *name)
{
    put(t, "static const axl_plan_unit %s_units[%u] = {\n", name,
        (unsigned)pm->nunits);
    for (uint8_t c = 0; c < pm->d->ncus; c++) {
        if (!pm->unit_of[c])
            continue;
        axl_xclbin_ip ip;
        axl_xclbin_get_ip(&pm->img->x, pm->d->cus[c].ip, &ip);
        put(t,
            "    {.ip_index = %u, .chain = %u, .base = 0x%llx, .name = \"",
            (unsigned)pm->d->cus[c].ip,
            ip.control == AXL_XCLBIN_AP_CTRL_CHAIN ? 1u : 0u,
            (unsigned long long)ip.base_address);
        put_name(t, ip.name.ptr, ip.name.len);
        put(t, "\"}, /* unit %u: ap_ctrl_%s */\n",
            (unsigned)pm->unit_of[c] - 1u,
            ip.control == AXL_XCLBIN_AP_CTRL_CHAIN ? "chain" : "hs");
    }
    put(t, "};\n\n");
}

static void put_buffers(text *t, const struct plan_model *pm,
                        const char *name)
{
    put(t,
        "/* Each placed at load in its bank's region (bank: MEM_TOPOLOGY "
        "index). */\n"
        "static const axl_plan_buffer_desc %s_buffers[%u] = {\n",
        name, (unsigned)pm->nbuffers);
    for (uint16_t b = 0; b < pm->nbuffers; b++) {
        const struct plan_buffer *pb = &pm->buffers[b];
        put(t,
            "    {.size = %llu, .bank = %u, .align = %u,\n"
            "     .flags = %s%sAXL_PLAN_UPDATABLE}, /* buffer %u:",
            (unsigned long long)pb->base->size, (unsigned)pb->bank,
            (unsigned)pm->align,
            pb->flags & AXL_PLAN_READ ? "AXL_PLAN_READ | " : "",
            pb->flags & AXL_PLAN_WRITE ? "AXL_PLAN_WRITE | " : "",
            (unsigned)b);
        if (pm->buf_name[b])
            put(t, " \"%s\":", pm->buf_name[b]);
        /* Who uses it: node and argument. */
        const char *sep = " ";
        for (unsigned i = 0; i < pm->nnodes; i++) {
            struct plan_arg pa[AXL_MAX_KERNEL_ARGS];
            unsigned na = node_args(pm, i, pa);
            for (unsigned k = 0; k < na; k++)
                if (pa[k].a->acc && pm->buf[i][pa[k].a->acc - 1] == b) {
                    put(t, "%snode %u ", sep, i);
                    put_name(t, pa[k].x.name.ptr, pa[k].x.name.len);
                    sep = ", ";
                }
        }
        put(t, " */\n");
    }
    put(t, "};\n\n");
}

static void put_args(text *t, const struct plan_model *pm, const char *name)
{
    put(t, "static const axl_plan_arg %s_args[%u] = {\n", name,
        (unsigned)pm->nargs);
    uint32_t scalar = 0;
    for (unsigned i = 0; i < pm->nnodes; i++) {
        const struct axl__graph_node *n = pm->node[i];
        const char *kernel = kid_of(n)->name;
        put(t, "    /* node %u: ", i);
        put_name(t, kernel, strlen(kernel));
        put(t, " on ");
        put_unit_name(t, pm, pm->cu[i]);
        put(t, " */\n");
        struct plan_arg pa[AXL_MAX_KERNEL_ARGS];
        unsigned na = node_args(pm, i, pa);
        for (unsigned k = 0; k < na; k++) {
            const struct axl__karg *a = pa[k].a;
            put(t, "    {.id = %u, .offset = 0x%x, .size = %u, ",
                (unsigned)a->id, (unsigned)pa[k].x.offset,
                (unsigned)pa[k].x.size);
            if (a->acc) {
                /* Where the launch points the unit (cu.c, fill_args: the
                 * laid-out accessor's offset, the view's in its base). */
                const uint8_t acc = a->acc - 1;
                const unsigned b = pm->buf[i][acc];
                put(t,
                    ".kind = AXL_PLAN_ARG_BUFFER, .ref = %u, .at = %llu}, "
                    "/* ",
                    b, (unsigned long long)n->acc[acc].offset);
                put_name(t, pa[k].x.name.ptr, pa[k].x.name.len);
                put(t, ": buffer %u */\n", b);
            } else {
                put(t,
                    ".kind = AXL_PLAN_ARG_SCALAR, .ref = %u, .bytes = %u}, "
                    "/* ",
                    (unsigned)scalar, (unsigned)a->size);
                put_name(t, pa[k].x.name.ptr, pa[k].x.name.len);
                put(t, ": scalars[%u, %u) */\n", (unsigned)scalar,
                    (unsigned)(scalar + a->size));
                scalar += a->size;
            }
        }
    }
    put(t, "};\n\n");
}

static void put_preds(text *t, const struct plan_model *pm, const char *name)
{
    put(t, "static const uint16_t %s_preds[%u] = {\n", name,
        (unsigned)pm->npreds);
    for (unsigned i = 0; i < pm->nnodes; i++) {
        const struct axl__graph_node *n = pm->node[i];
        if (!n->npreds)
            continue;
        put(t, "   ");
        for (uint8_t k = 0; k < n->npreds; k++)
            put(t, " %u,", (unsigned)n->preds[k]);
        put(t, " /* node %u waits for them */\n", i);
    }
    put(t, "};\n\n");
}

static void put_scalars(text *t, const struct plan_model *pm,
                        const char *name)
{
    put(t, "/* As recorded. */\nstatic const uint8_t %s_scalars[%u] = {\n",
        name, (unsigned)pm->scalar_bytes);
    for (unsigned i = 0; i < pm->nnodes; i++) {
        const struct axl__graph_node *n = pm->node[i];
        struct plan_arg pa[AXL_MAX_KERNEL_ARGS];
        unsigned na = node_args(pm, i, pa);
        for (unsigned k = 0; k < na; k++) {
            const struct axl__karg *a = pa[k].a;
            if (a->acc)
                continue;
            put(t, "   ");
            /* A node's scalars are in its handler's kbytes (a command's
             * copy, u.kernel.bytes, is made at commit). */
            for (uint16_t j = 0; j < a->size; j++)
                put(t, " 0x%02x,", (unsigned)n->h.kbytes[a->off + j]);
            put(t, " /* node %u ", i);
            put_name(t, pa[k].x.name.ptr, pa[k].x.name.len);
            put(t, " */\n");
        }
    }
    put(t, "};\n\n");
}

static void put_nodes(text *t, const struct plan_model *pm, const char *name)
{
    put(t, "static const axl_plan_node %s_nodes[%u] = {\n", name,
        (unsigned)pm->nnodes);
    unsigned arg0 = 0, pred0 = 0;
    for (unsigned i = 0; i < pm->nnodes; i++) {
        const struct axl__graph_node *n = pm->node[i];
        struct plan_arg pa[AXL_MAX_KERNEL_ARGS];
        unsigned na = node_args(pm, i, pa);
        const char *kernel = kid_of(n)->name;
        put(t,
            "    {.unit = %u, .arg0 = %u, .nargs = %u, .pred0 = %u, "
            ".npreds = %u,\n     .kernel = \"",
            (unsigned)pm->unit_of[pm->cu[i]] - 1u, arg0, na, pred0,
            (unsigned)n->npreds);
        put_name(t, kernel, strlen(kernel));
        put(t, "\"}, /* node %u ", i);
        if (pm->node_name[i])
            put(t, "\"%s\" ", pm->node_name[i]);
        put(t, "on ");
        put_unit_name(t, pm, pm->cu[i]);
        put(t, " */\n");
        arg0 += na;
        pred0 += n->npreds;
    }
    put(t, "};\n\n");
}

/* The names given for the plan's buffers or nodes (names[n], NULL where
 * none), as a table; false (nothing written) when none was given. */
static bool put_names(text *t, const char *name, const char *what,
                      const char *const *names, unsigned n)
{
    bool any = false;
    for (unsigned i = 0; i < n; i++)
        any |= names[i] != NULL;
    if (!any)
        return false;
    put(t, "/* The names given when it was written (axl_plan_find_%s). */\n"
           "static const char *const %s_%s_names[%u] = {",
        what, name, what, n);
    for (unsigned i = 0; i < n; i++) {
        if (names[i])
            put(t, "%s\"%s\"", i ? ", " : "", names[i]);
        else
            put(t, "%sNULL", i ? ", " : "");
    }
    put(t, "};\n\n");
    return true;
}

static void put_plan(text *t, const struct plan_model *pm, const char *name)
{
    const uint8_t *u = pm->img->x.uuid;
    put(t,
        "/* Generated by axl_plan_write (axl/plan.h); do not edit. The plan "
        "%s:\n"
        " * %u kernel nodes on %u units, %u buffers, of the design whose "
        "UUID is\n * ",
        name, (unsigned)pm->nnodes, (unsigned)pm->nunits,
        (unsigned)pm->nbuffers);
    for (unsigned i = 0; i < AXL_XCLBIN_UUID_SIZE; i++)
        put(t, "%02x", (unsigned)u[i]);
    put(t, ". */\n#include <stddef.h>\n#include <stdint.h>\n\n"
           "#include \"axl/plan.h\"\n\n"
           "extern const axl_plan %s;\n\n",
        name);
    put_units(t, pm, name);
    if (pm->nbuffers)
        put_buffers(t, pm, name);
    if (pm->nargs)
        put_args(t, pm, name);
    if (pm->npreds)
        put_preds(t, pm, name);
    if (pm->scalar_bytes)
        put_scalars(t, pm, name);
    put_nodes(t, pm, name);
    const bool buf_names = put_names(t, name, "buffer", pm->buf_name,
                                     pm->nbuffers);
    const bool node_names = put_names(t, name, "node", pm->node_name,
                                      pm->nnodes);
    put(t, "const axl_plan %s = {\n    .format = AXL_PLAN_FORMAT,\n"
           "    .name = \"%s\",\n    .uuid = {",
        name, name);
    for (unsigned i = 0; i < AXL_XCLBIN_UUID_SIZE; i++)
        put(t, "%s0x%02x", i ? ", " : "", (unsigned)u[i]);
    put(t,
        "},\n    .nunits = %u,\n    .nbuffers = %u,\n    .nnodes = %u,\n"
        "    .nargs = %u,\n    .npreds = %u,\n    .scalar_bytes = %u,\n"
        "    .units = %s_units,\n",
        (unsigned)pm->nunits, (unsigned)pm->nbuffers, (unsigned)pm->nnodes,
        (unsigned)pm->nargs, (unsigned)pm->npreds,
        (unsigned)pm->scalar_bytes, name);
    const struct {
        bool has;
        const char *field, *table;
    } tables[] = {{pm->nbuffers != 0, "buffers", "buffers"},
                  {true, "nodes", "nodes"},
                  {pm->nargs != 0, "args", "args"},
                  {pm->npreds != 0, "preds", "preds"},
                  {pm->scalar_bytes != 0, "scalars", "scalars"},
                  {buf_names, "buffer_names", "buffer_names"},
                  {node_names, "node_names", "node_names"}};
    for (unsigned i = 0; i < sizeof tables / sizeof tables[0]; i++) {
        if (tables[i].has)
            put(t, "    .%s = %s_%s,\n", tables[i].field, name,
                tables[i].table);
        else if (i < 5) /* no names: as a plan of format 1 reads */
            put(t, "    .%s = NULL,\n", tables[i].field);
    }
    put(t, "};\n");
}

/* ---- Names ------------------------------------------------------------- */

/* Whether s is a name a plan can carry: a C identifier of 1 to 31
 * characters (a firmware may make constants of it). */
static bool short_identifier(const char *s)
{
    size_t n = 0;
    for (; s[n] && n <= 31; n++) {
        const char c = s[n];
        const bool alpha =
            (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
        if (!alpha && !(n && c >= '0' && c <= '9'))
            return false;
    }
    return n > 0 && n <= 31;
}

/* Entry e's buffer: the plan buffer of its base, or a refusal. */
static axl_status name_buffer(const char *fn, struct plan_model *pm,
                              uint32_t e, const axl_plan_name *nm)
{
    const struct axl__buffer *view =
        axl__pool_get(AXL__POOL(BUFFER), nm->buffer.id);
    if (!view)
        return axl__fail(fn, AXL_ERR_INVALID_OBJECT,
                         "names[%u] (\"%s\"): buffer 0x%08x is not a live "
                         "buffer",
                         (unsigned)e, nm->name, (unsigned)nm->buffer.id);
    const struct axl__buffer *base = axl__buffer_base(view);
    for (uint16_t b = 0; b < pm->nbuffers; b++) {
        if (pm->buffers[b].base != base)
            continue;
        if (pm->buf_name[b])
            return axl__fail(fn, AXL_ERR_INVALID,
                             "names[%u] (\"%s\"): plan buffer %u is named "
                             "\"%s\" already",
                             (unsigned)e, nm->name, (unsigned)b,
                             pm->buf_name[b]);
        pm->buf_name[b] = nm->name;
        return AXL_SUCCESS;
    }
    return axl__fail(fn, AXL_ERR_INVALID,
                     "names[%u] (\"%s\"): buffer 0x%08x is none the "
                     "graph's nodes use",
                     (unsigned)e, nm->name, (unsigned)nm->buffer.id);
}

/* Entry e's node: the plan node it became (graph.c's rule: a node of x,
 * or of the graph x was made from). */
static axl_status name_node(const char *fn, struct plan_model *pm,
                            uint32_t e, const axl_plan_name *nm)
{
    for (unsigned i = 0; i < pm->nnodes; i++) {
        const struct axl__graph_node *n = pm->node[i];
        if (n->from != nm->node.id &&
            AXL__HANDLE(GRAPH_NODE, n) != nm->node.id)
            continue;
        if (pm->node_name[i])
            return axl__fail(fn, AXL_ERR_INVALID,
                             "names[%u] (\"%s\"): node %u is named \"%s\" "
                             "already",
                             (unsigned)e, nm->name, i, pm->node_name[i]);
        pm->node_name[i] = nm->name;
        return AXL_SUCCESS;
    }
    return axl__fail(fn, AXL_ERR_INVALID,
                     "names[%u] (\"%s\"): node 0x%08x is not a kernel node "
                     "of the executable graph (nor of its graph)",
                     (unsigned)e, nm->name, (unsigned)nm->node.id);
}

/* The names given, each checked, into pm (lock held). */
static axl_status take_names(const char *fn, struct plan_model *pm,
                             const axl_plan_name *names, uint32_t count)
{
    for (uint32_t e = 0; e < count; e++) {
        const axl_plan_name *nm = &names[e];
        if (!nm->name || !short_identifier(nm->name))
            return axl__fail(fn, AXL_ERR_INVALID,
                             "names[%u]: \"%.40s\" is not a C identifier of "
                             "1 to 31 characters",
                             (unsigned)e, nm->name ? nm->name : "(null)");
        if (!nm->buffer.id == !nm->node.id)
            return axl__fail(fn, AXL_ERR_INVALID,
                             "names[%u] (\"%s\"): set one of buffer and node",
                             (unsigned)e, nm->name);
        for (uint32_t k = 0; k < e; k++)
            if (!names[k].buffer.id == !nm->buffer.id &&
                !strcmp(names[k].name, nm->name))
                return axl__fail(fn, AXL_ERR_INVALID,
                                 "names[%u]: \"%s\" is given twice",
                                 (unsigned)e, nm->name);
        axl_status st = nm->buffer.id ? name_buffer(fn, pm, e, nm)
                                      : name_node(fn, pm, e, nm);
        if (st != AXL_SUCCESS)
            return st;
    }
    return AXL_SUCCESS;
}

/* ---- The call ------------------------------------------------------------- */

/* Whether s is a C identifier a plan's tables can be named after (its
 * longest table name stays within the 63 characters C11 keeps of one). */
static bool identifier(const char *s)
{
    size_t n = 0;
    for (; s[n]; n++) {
        const char c = s[n];
        const bool alpha =
            (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
        if (!alpha && !(n && c >= '0' && c <= '9'))
            return false;
    }
    return n > 0 && n <= 63 - sizeof "_scalars" + 1;
}

static bool exec_idle(const void *arg)
{
    return !((const struct axl__graph_exec *)arg)->busy;
}

axl_status axl_plan_write(axl_graph_exec exec, const char *name, char *dst,
                          size_t cap, size_t *len)
{
    return axl_plan_write_named(exec, name, NULL, 0, dst, cap, len);
}

axl_status axl_plan_write_named(axl_graph_exec exec, const char *name,
                                const axl_plan_name *names, uint32_t count,
                                char *dst, size_t cap, size_t *len)
{
    static const char fn[] = "axl_plan_write";
    if (count && !names)
        return axl__fail(fn, AXL_ERR_INVALID, "names is NULL with count %u",
                         (unsigned)count);
    if (!name)
        return axl__null(fn, "name");
    if (!identifier(name))
        return axl__fail(fn, AXL_ERR_INVALID,
                         "name \"%.64s\" is not a C identifier of 1 to %u "
                         "characters",
                         name, (unsigned)(63 - sizeof "_scalars" + 1));
    if (cap && !dst)
        return axl__fail(fn, AXL_ERR_INVALID, "dst is NULL with cap %zu",
                         cap);
    if (!cap && !len)
        return axl__fail(fn, AXL_ERR_INVALID,
                         "cap 0 only measures the text, and len is NULL");
    AXL__ENTER(graph_exec, x, exec);
    /* A submission may be using the nodes' handlers in place (graph.c,
     * busy): their arguments are read once it is done with them. */
    while (x->busy) {
        axl__wait_until_pred(exec_idle, x);
        if (!(x = axl__graph_exec_get(fn, exec, &st))) {
            axl__leave();
            return st;
        }
    }
    struct plan_model pm;
    st = gather(fn, x, &pm);
    if (st == AXL_SUCCESS)
        st = take_names(fn, &pm, names, count);
    if (st != AXL_SUCCESS) {
        axl__leave();
        return st;
    }
    text t = {dst, cap, 0};
    put_plan(&t, &pm, name);
    axl__leave();
    if (len)
        *len = t.len;
    if (cap && t.len >= cap) {
        dst[0] = '\0';
        return axl__fail(fn, AXL_ERR_OUT_OF_RESOURCES,
                         "the plan's text takes %zu bytes and its NUL, and "
                         "dst holds %zu (a call with cap 0 measures it)",
                         t.len, cap);
    }
    return AXL_SUCCESS;
}

#else /* !AXL_FEATURE_GRAPHS */

axl_status axl_plan_write(axl_graph_exec exec, const char *name, char *dst,
                          size_t cap, size_t *len)
{
    (void)exec, (void)name, (void)dst, (void)cap, (void)len;
    return axl__switched_off("axl_plan_write", "AXL_FEATURE_GRAPHS");
}

axl_status axl_plan_write_named(axl_graph_exec exec, const char *name,
                                const axl_plan_name *names, uint32_t count,
                                char *dst, size_t cap, size_t *len)
{
    (void)exec, (void)name, (void)names, (void)count, (void)dst, (void)cap,
        (void)len;
    return axl__switched_off("axl_plan_write", "AXL_FEATURE_GRAPHS");
}

#endif /* AXL_FEATURE_GRAPHS */
