/*
 * room.h - room in a full pool or in full device memory (room.c): the
 * slots and memory that released objects keep only because commands in
 * flight still use them are given back, by waiting for those commands.
 */
#ifndef AXL_ROOM_H
#define AXL_ROOM_H

#include "rt.h"

/* Room in a full pool (room.c, issue 26.1). A slot a released object
 * keeps only because a command in flight still uses it is the runtime's
 * to give back: when pool `kind` is full, axl__room frees released
 * buffers nothing uses, then waits for the oldest command in flight that
 * keeps such a slot (as a wait does: dispatching, driving progress,
 * giving up runs past their timeout), and looks again. It never waits for
 * slots the application holds: then it returns AXL_SUCCESS and the
 * allocation that follows fails as it always did, at once, naming the
 * pool. Slots that only a hung unit's given-up run keeps (cu.c) are
 * AXL_ERR_OUT_OF_RESOURCES naming the unit and the way back, and one
 * waiting for a host accessor this thread holds likewise. Lock held,
 * dropped while it waits: call it before looking anything up. */
axl_status axl__room(const char *fn, int kind);
static inline axl_status axl__room_for(const char *fn, int kind)
{
    const axl__pool *p = &axl__pools[kind];
    if (!p->ready || p->free_head)
        return AXL_SUCCESS;
    return axl__room(fn, kind);
}
/* Device memory found full (buffer.c): frees released buffers nothing
 * uses, else waits for the oldest command in flight that keeps a released
 * buffer (with its device memory); whether it did either, so the caller
 * tries again. Not when that wait could never end: false, with *why
 * (left alone otherwise) naming what the command waits for. Lock held,
 * dropped while it waits. */
bool axl__memory_room(char *why, size_t cap);

#endif /* AXL_ROOM_H */
