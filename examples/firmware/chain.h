/* chain.h - what record.c records and chain.c replays: copy_kernel
 * (in -> mid) then vadd (mid + b -> out), CHAIN_N words each; the plan
 * names the buffers the firmware fills and reads: "in", "b", "out". */
#ifndef CHAIN_H
#define CHAIN_H
enum { CHAIN_N = 1024 };
#endif
