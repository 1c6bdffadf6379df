/*
 * handler_priv.h - command groups (handler.c): the handler a group fills,
 * the accessors it declares, and the handler calls that the other entry
 * points (axl_queue_single_task, parallel_for, the buffer calls) make
 * on a handler of their own.
 */
#ifndef AXL_HANDLER_PRIV_H
#define AXL_HANDLER_PRIV_H

#include "sched_priv.h"

/* One accessor as the group declared it. */
struct axl__required {
    uint16_t view;              /* buffer slot, held by the handler */
    struct axl__buffer *buf;    /* that buffer (set with view) */
    struct axl__buffer *base;   /* and its base buffer */
    uint8_t mode;
    uint8_t flags;              /* axl_access_flags */
    bool on_device;             /* a kernel's buffer argument */
    bool whole;                 /* the whole view: region not made yet */
    uint8_t loc;                /* where the command touches it
                                   (axl__access_prepare, or the memo) */
    uint64_t off, size;         /* the bytes of the view the region spans,
                                   from its first element to the end of
                                   its last */
    struct axl__region region;  /* see axl__required_region */
};

/* The handler a command group fills, on the stack of axl_queue_submit. */
struct axl_handler {
    axl_status error;           /* first error; sticky */
    char why[AXL_MESSAGE_MAX];
    uint8_t kind;               /* the one action; 0 until chosen */
    uint8_t nactions;
    uint8_t nacc;
    bool host_ptrs;             /* host_ptr was asked: host tasks only */
    uint16_t ndeps;
    uint32_t deps[AXL_MAX_HANDLER_DEPS]; /* event handles */
    bool deps_overflow;         /* more than fit: wait for all earlier */
#if AXL_FEATURE_GRAPHS
    bool node_deps;             /* deps holds graph node handles (a
                                   recorded command's "events") */
    uint32_t done_dep;          /* the first dependency left out of deps
                                   as complete, or 0: a recording refuses
                                   it as it refuses a pending one */
#endif
    struct axl__required acc[AXL_MAX_ACCESSORS];
    uint8_t a0, a1;             /* accessors the action names (1-based) */
    size_t fill_size;
    uint32_t bundle;            /* use_kernel_bundle, a handle, or 0 */
    uint32_t kernel;            /* the kernel handle of single_task */
    uint64_t timeout_ns;        /* 0: the queue's */
    uint32_t memo;              /* the kernel's memo seq that filled the
                                   kernel part (axl__launch_recall), or 0 */
    bool args_given;            /* by axl_queue_single_task, to be checked
                                   in full (so remembered): args, nargs */
    const axl_kernel_arg *args;
    uint32_t nargs;
    uint8_t nkargs;
    struct axl__karg kargs[AXL_MAX_KERNEL_ARGS];
    uint16_t kbytes_used;
    uint8_t kbytes[AXL_MAX_ARG_BYTES];
    union axl__action u;
};

/* An empty group (inline: every launch starts one). */
static inline void axl__handler_init(axl_handler *h)
{
    h->error = AXL_SUCCESS;
    h->kind = 0;
    h->nactions = 0;
    h->ndeps = 0;
    h->deps_overflow = false;
#if AXL_FEATURE_GRAPHS
    h->node_deps = false;
    h->done_dep = 0;
#endif
    h->nacc = 0;
    h->host_ptrs = false;
    h->a0 = h->a1 = 0;
    h->bundle = 0;
    h->kernel = 0;
    h->timeout_ns = 0;
    h->memo = 0;
    h->args_given = false;
    h->nkargs = 0;
    h->kbytes_used = 0;
}
/* axl_handler_require and axl_handler_depends_on_list; locked: the caller
 * holds the runtime lock already (axl_queue_single_task fills its handler
 * under the lock it submits with). */
axl_status axl__handler_require(axl_handler *h, axl_buffer buffer,
                                axl_access_mode mode, const axl_region *region,
                                uint32_t flags, axl_accessor *accessor,
                                bool locked);
axl_status axl__handler_depends_on(axl_handler *h, const axl_event *events,
                                   uint32_t count, bool locked);

/* axl_handler_set_args: the handler calls an argument list stands for,
 * in its order (the first error stays in h with its message); locked as
 * above (axl_queue_single_task's general path). */
axl_status axl__handler_set_args(axl_handler *h, const axl_kernel_arg *args,
                                 uint32_t nargs, bool locked);

#endif /* AXL_HANDLER_PRIV_H */
