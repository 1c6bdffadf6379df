# Makes the folder XRT's noop shim needs: ROOT/lib/libxrt_noop.so.2 (a link
# to SHIM), which XRT 2.13 loads as $XILINX_XRT/lib/libxrt_noop.so.2 when
# XCL_EMULATION_MODE=noop; ROOT/delay.ini, an xrt.ini (XRT_INI_PATH) that
# makes the noop shim complete each run 20 ms after it starts (and
# delay100us.ini, 100 us); and SCRATCH
# for the environment tests. Idempotent: tests that use an earlier copy may
# still be running when it runs again (ctest --repeat).
file(MAKE_DIRECTORY ${ROOT}/lib ${SCRATCH})
if(NOT EXISTS ${ROOT}/lib/libxrt_noop.so.2)
  file(CREATE_LINK ${SHIM} ${ROOT}/lib/libxrt_noop.so.2 SYMBOLIC)
endif()
file(WRITE ${ROOT}/delay.ini "[Runtime]\nnoop_completion_delay_us=20000\n")
# And 100 us, for loops that must find runs still in flight (test_room).
file(WRITE ${ROOT}/delay100us.ini "[Runtime]\nnoop_completion_delay_us=100\n")
