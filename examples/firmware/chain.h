/* chain.h - what record.c records and chain.c replays: copy_kernel (node
 * 0: in -> mid) then vadd (node 1: mid + b -> out), CHAIN_N words each. */
#ifndef CHAIN_H
#define CHAIN_H
enum { CHAIN_N = 1024, CHAIN_COPY = 0, CHAIN_VADD = 1 };
#endif
