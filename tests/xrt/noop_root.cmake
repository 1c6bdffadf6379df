# Makes the folder XRT's noop shim needs: ROOT/lib/libxrt_noop.so.2 (a link
# to SHIM), which XRT 2.13 loads as $XILINX_XRT/lib/libxrt_noop.so.2 when
# XCL_EMULATION_MODE=noop; and ROOT/delay.ini, an xrt.ini (XRT_INI_PATH)
# that makes the noop shim complete each run 20 ms after it starts.
file(REMOVE_RECURSE ${ROOT} ${SCRATCH})
file(MAKE_DIRECTORY ${ROOT}/lib ${SCRATCH})
file(CREATE_LINK ${SHIM} ${ROOT}/lib/libxrt_noop.so.2 SYMBOLIC)
file(WRITE ${ROOT}/delay.ini "[Runtime]\nnoop_completion_delay_us=20000\n")
