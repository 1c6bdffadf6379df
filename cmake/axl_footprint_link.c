/*
 * axl_footprint_link.c - the entry of the footprint report's link probe
 * (cmake/axl_footprint.cmake, bare-metal boards): a program that links the
 * whole of libaxl.a and keeps every exported function, to measure what a
 * firmware that calls all of the API links. Nothing runs it.
 */
void axl_fp_entry(void);

void axl_fp_entry(void)
{
    for (;;) {
    }
}
