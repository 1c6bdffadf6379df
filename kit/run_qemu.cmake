# Runs a firmware built with the board kit on QEMU's Cortex-R5F (what
# axl_add_qemu_test registers), and fails unless it exits 0 (semihosting's
# exit with status 0: main() returned 0) and its output matches every
# PASS expression. Run as:
#   cmake -DQEMU=<qemu-system-arm> -DELF=<firmware.elf>
#         [-DPASS_COUNT=<n> -DPASS_0=<regex> ...] [-DSECONDS=<n>] -P this
#
# The machine is QEMU's bare "none" machine: one cortex-r5f CPU, RAM from
# address 0 (-m 64M covers the ATCM at 0, the BTCM at 0x20000 and the DDR
# from 0x100000 where the QEMU build puts its code, and the C-model
# simulator's banks), the ELF put in place by the generic loader, which
# also sets the PC to its entry. Output and the exit status go through Arm
# semihosting (SYS_WRITE0, SYS_EXIT).
#
# Why not -M xlnx-zcu102: its RPU has the same cortex-r5f, but the R5s are
# created powered off and only the boot CPU starts. With
#   -M xlnx-zcu102 -smp 6 -global xlnx-zynqmp.boot-cpu=rpu-cpu[0]
#   -device loader,file=axl-firmware.elf,cpu-num=4
# QEMU before 10.1 still powers off every CPU but the first one (an APU
# A53) in arm_load_kernel(), so the R5 sits at its entry point and nothing
# runs; QEMU 10.1 fixed that ("hw/arm: make cpu targeted by
# arm_load_kernel the primary CPU"). Debian 12 has QEMU 7.2.
if(NOT QEMU OR NOT ELF)
  message(FATAL_ERROR "run_qemu.cmake: QEMU and ELF are required")
endif()
if(NOT SECONDS)
  set(SECONDS 60)
endif()
set(cmd ${QEMU} -M none -cpu cortex-r5f -m 64M
        -display none -monitor none -serial null -nodefaults
        -semihosting-config enable=on,target=native
        -device loader,file=${ELF},cpu-num=0)
list(JOIN cmd " " shown)
message("${shown}")
execute_process(COMMAND ${cmd} TIMEOUT ${SECONDS} RESULT_VARIABLE rc
                OUTPUT_VARIABLE out ERROR_VARIABLE err)
message("${out}${err}")
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "QEMU exited with ${rc}")
endif()
if(NOT PASS_COUNT)
  set(PASS_COUNT 0)
endif()
set(i 0)
while(i LESS PASS_COUNT)
  if(NOT "${out}${err}" MATCHES "${PASS_${i}}")
    message(FATAL_ERROR "the firmware's output does not match \"${PASS_${i}}\"")
  endif()
  math(EXPR i "${i} + 1")
endwhile()
