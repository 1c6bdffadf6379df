/* An application's settings header (-DAXL_USER_CONFIG=...), as lwIP's
 * lwipopts.h: it is included before the board's header. */
#ifndef MY_AXL_CONFIG_H
#define MY_AXL_CONFIG_H
#define AXL_MAX_QUEUES 3
#endif
