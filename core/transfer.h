/*
 * transfer.h - moving bytes (transfer.c), outside the lock: a buffer
 * between its locations, a command's transfers before its action, the
 * actions of copy, fill, update_host and prefetch groups, and the write
 * back of a buffer's last release.
 */
#ifndef AXL_TRANSFER_H
#define AXL_TRANSFER_H

#include "rt.h"

struct axl__access; /* access.h */
union axl__action;  /* sched_priv.h */

/* Moving bytes, outside the lock (transfer.c). axl__move: base buffer
 * b's whole contents from location src to location to, through its host
 * storage when neither is the host (which it must have). */
axl_status axl__move(struct axl__buffer *b, uint8_t src, uint8_t to,
                     char *why, size_t cap);
axl_status axl__run_transfers(struct axl__command *c, char *why, size_t cap);
/* The action of a copy, fill, update_host, prefetch or empty group (kind)
 * whose accessors are acc (where each touches its buffer: loc), a0 and a1
 * the ones it names (1-based), u its action's part: a command's, or a
 * graph's node's (replay.c). */
axl_status axl__data_action(uint8_t kind, const struct axl__access *acc,
                            uint8_t a0, uint8_t a1,
                            const union axl__action *u, char *why,
                            size_t cap);

/* Write-back on a base buffer's last release (4.7.2.3): its newest
 * contents to final_dst (lock held, the buffer idle; dropped while bytes
 * move); an error, nothing written, when they were lost. */
axl_status axl__write_back(const char *fn, struct axl__buffer *base);

#endif /* AXL_TRANSFER_H */
