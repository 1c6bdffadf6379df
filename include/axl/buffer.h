/*
 * axl/buffer.h - buffers, host accessors and host allocators
 * (spec 4.7.1, 4.7.2, and the host-allocation rules of seed 002).
 *
 * A buffer is an array of 1, 2 or 3 dimensions of fixed-size elements. The
 * runtime owns where its contents live (host storage, or memory in a
 * device's bank) and moves them only when a command needs them elsewhere.
 * Commands reach a buffer through accessors declared in a command group
 * (handler.h); the host reaches it through a host accessor.
 *
 * Write-back and blocking on the last release follow 4.7.2.3:
 *  - from a size alone: no write-back unless set_final_data gives a
 *    destination; the release does not block;
 *  - from host memory: the initial contents are copied from it at creation;
 *    the last release waits for every command on the buffer, then writes the
 *    contents back to that memory if the buffer was written (rule 2);
 *  - from const host memory: read-only on the host side and no write-back
 *    (rule 2.1); the release still waits for commands that use it;
 *  - set_final_data / set_write_back change the destination and switch
 *    write-back, and the release then blocks if a write accessor was created.
 */
#ifndef AXL_BUFFER_H
#define AXL_BUFFER_H

#include <stddef.h>
#include <stdint.h>

#include "axl/types.h"

#ifdef __cplusplus
extern "C" {
#endif

/**
 * A host allocator (4.7.1, seed 002). allocate returns memory aligned to
 * `align` or NULL; NULL makes the operation that needed host memory fail
 * with AXL_ERR_MEMORY_ALLOCATION and change nothing. The runtime may call
 * deallocate after the buffer's last release, while commands finish (seed
 * 002: "the application must be prepared for calls to the allocator even
 * after the buffer is destroyed"). Called without runtime locks held, from
 * whichever thread needs or frees the memory.
 */
typedef struct axl_allocator {
    void *(*allocate)(size_t size, size_t align, void *user);
    void (*deallocate)(void *ptr, size_t size, void *user);
    void *user;
} axl_allocator;

/** use_mutex (4.7.2.2): C has no std::mutex, so two callbacks. */
typedef struct axl_buffer_mutex {
    void (*lock)(void *user);
    void (*unlock)(void *user);
    void *user;
} axl_buffer_mutex;

/** Buffer properties (4.7.2.2). */
enum axl_buffer_flags {
    /** Use the host memory given at creation as the buffer's host storage:
     *  no host allocation, and host accessors return addresses inside it. */
    AXL_BUFFER_USE_HOST_PTR = 1u << 0,
    /** Only the context in `context` may use the buffer. */
    AXL_BUFFER_CONTEXT_BOUND = 1u << 1,
    /** Hold `mutex` while the runtime reads or writes the host memory it
     *  was given (the buffer then works directly in that memory, as with
     *  USE_HOST_PTR). */
    AXL_BUFFER_USE_MUTEX = 1u << 2
};

typedef struct axl_buffer_props {
    uint32_t flags;                 /**< axl_buffer_flags */
    axl_context context;            /**< for AXL_BUFFER_CONTEXT_BOUND */
    const axl_buffer_mutex *mutex;  /**< for AXL_BUFFER_USE_MUTEX (copied) */
    const axl_allocator *allocator; /**< NULL: the runtime's static arena
                                         (copied) */
} axl_buffer_props;

/**
 * buffer(range): contents unspecified; host storage is allocated only if
 * the host ever needs it. props may be NULL.
 */
axl_status axl_buffer_create(size_t elem_size, axl_range range,
                             const axl_buffer_props *props,
                             axl_buffer *buffer);

/**
 * buffer(hostData, range): initial contents copied from host at creation
 * (or host used in place with AXL_BUFFER_USE_HOST_PTR); written back there
 * on the last release if the buffer was written.
 */
axl_status axl_buffer_create_from(void *host, size_t elem_size,
                                  axl_range range,
                                  const axl_buffer_props *props,
                                  axl_buffer *buffer);

/** buffer(const hostData, range): read-only from the host side, never
 *  written back unless set_final_data says where. */
axl_status axl_buffer_create_from_const(const void *host, size_t elem_size,
                                        axl_range range,
                                        const axl_buffer_props *props,
                                        axl_buffer *buffer);

/**
 * buffer(b, baseIndex, subRange): a view of a contiguous region of a base
 * buffer (not of a sub-buffer), in the base's dimensions. Out of bounds,
 * not contiguous, or from a sub-buffer is AXL_ERR_INVALID. Its origin must
 * be a multiple of each device's mem_base_addr_align; that is checked when
 * a command on a device's queue uses it (AXL_ERR_INVALID), wherever the
 * data is and whether the runtime does the command there or on the host.
 * Host accessors take any origin.
 */
axl_status axl_buffer_create_sub(axl_buffer base, const size_t offset[3],
                                 axl_range range, axl_buffer *sub);

axl_status axl_buffer_retain(axl_buffer buffer);

/**
 * The last release applies 4.7.2.3: it may block until the commands on the
 * buffer finish and then write the contents back (see the top of this
 * file). When a command that wrote the buffer failed, its newest contents
 * are lost (a failed kernel may have written part of its output): nothing
 * is written back, the host memory keeps what it had, and the release
 * returns AXL_ERR_RUNTIME ("nothing written back", with the failed
 * command's status), whichever copy of older contents the runtime still
 * has. A failed write-back is returned here, and is also an unconsumed
 * async error ("reported via the associated queue's asynchronous error
 * handling mechanism"): of the queue whose failed command lost the
 * contents, or of that queue's context once the queue is gone (a port
 * that cannot read the device copy back: of the buffer's bound context).
 * Its handler gets it at the next throw.
 *
 * A buffer given to a kernel run that was given up at its timeout (the
 * accelerator may still write it) keeps its device memory until that
 * run's unit is back (reset, or the run seen to end): the release
 * succeeds all the same and does not wait for it; a warning in the log
 * says the memory stays reserved (the thread's message is left alone, as
 * on every success), and axl_stats_get's reserved_memory row counts it.
 * The memory is never handed to another buffer meanwhile. A buffer the
 * application still holds, which the run was to write, holds unknown
 * contents: commands that read it fail with the timeout's error until a
 * write of the whole buffer, and while the run is on a unit that hung
 * (its port says it may never end: a hung HLS IP, a run XRT never sees
 * end) not even then, until the unit is back (axl_mmio_reset_unit).
 */
axl_status axl_buffer_release(axl_buffer buffer);

/** set_final_data(dst): where the contents go on the last release if the
 *  buffer was written; NULL turns write-back off. */
axl_status axl_buffer_set_final_data(axl_buffer buffer, void *dst);

/** set_write_back(flag): turns write-back on or off (no effect when there is
 *  no destination). */
axl_status axl_buffer_set_write_back(axl_buffer buffer, bool write_back);

/**
 * Gives the buffer storage on a device now, in one of its memory banks (an
 * axl extension: XRT calls banks memory groups). Kernels then reach it there,
 * and a kernel whose compute unit cannot reach that bank is an
 * AXL_ERR_KERNEL_ARGUMENT error at submit. Without it, a buffer gets device
 * storage when a kernel first needs it, in a bank that kernel reaches. No
 * data moves here. Out of device memory is AXL_ERR_MEMORY_ALLOCATION, and
 * the buffer is left as it was.
 */
axl_status axl_buffer_place(axl_buffer buffer, axl_device device,
                            uint32_t bank);

axl_status axl_buffer_get_range(axl_buffer buffer, axl_range *range);
axl_status axl_buffer_get_byte_size(axl_buffer buffer, size_t *bytes);
axl_status axl_buffer_is_sub_buffer(axl_buffer buffer, bool *is_sub);

/* ---- Access ---------------------------------------------------------------- */

/** access_mode. */
typedef enum axl_access_mode {
    AXL_ACCESS_READ = 1,
    AXL_ACCESS_WRITE = 2,
    AXL_ACCESS_READ_WRITE = 3,
    /** write with property::no_init (SYCL 1.2.1's discard_write, which
     *  4.7.6.9.4.2 defines as exactly that): for axl_kernel_arg, which has
     *  no flags field. Every call that takes a mode accepts it. */
    AXL_ACCESS_WRITE_NO_INIT = 6,
    /** read_write with property::no_init (discard_read_write). */
    AXL_ACCESS_READ_WRITE_NO_INIT = 7
} axl_access_mode;

/** Accessor properties. */
enum axl_access_flags {
    /** property::no_init (4.7.6.4): the previous contents of the range are
     *  not needed, so none are copied in; elements the command does not
     *  write are unspecified afterwards. Only with a mode that writes
     *  (with AXL_ACCESS_READ it is AXL_ERR_INVALID). Without it, a write
     *  accessor keeps every element it does not overwrite. */
    AXL_ACCESS_NO_INIT = 1u << 0
};

/** A region of a buffer in elements: offset and range per dimension (use
 *  the buffer's dimensions; unused ones are offset 0, range 1). NULL where
 *  a region is taken means the whole buffer. */
typedef struct axl_region {
    size_t offset[3];
    size_t range[3];
} axl_region;

/**
 * host_accessor(buffer, region, mode): blocks until every command that
 * writes the region (or, for a write, uses it) has finished, makes the host
 * copy current and returns its address in *ptr (the region's first
 * element). With AXL_BUFFER_USE_HOST_PTR the address is inside the host
 * memory given at creation (4.7.2.2). Commands submitted later that
 * conflict with it wait until it is released.
 */
axl_status axl_host_accessor_create(axl_buffer buffer, axl_access_mode mode,
                                    const axl_region *region, uint32_t flags,
                                    axl_host_accessor *accessor, void **ptr);

/** Ends a host accessor; releasing one twice is AXL_ERR_INVALID_OBJECT. */
axl_status axl_host_accessor_release(axl_host_accessor accessor);

#ifdef __cplusplus
}
#endif

#endif /* AXL_BUFFER_H */
