/*
 * startup_armv7r.S - reset and exception entry for the Cortex-R5F test firmware
 * (ARMv7-R). Exceptions are taken in ARM state, so this file is ARM code;
 * the C it calls may be Thumb-2 (the linker turns bl into blx).
 *
 * Reset: mask interrupts, take exceptions through the table at 0 (the RPU
 * may come out of reset with high vectors), give every exception mode a
 * stack, enable the VFP (the C code is built with -mfloat-abi=hard), clear
 * .bss, run main() and pass its result to fw_exit(). .data is loaded in
 * place by the loader (see boards/zcu102-r5/zcu102-r5.ld).
 *
 * Every other exception is a failure: fw_fault(vector, address) reports it
 * and stops.
 */
    .syntax unified
    .arm

    .section .vectors, "ax", %progbits
    .global _vectors
_vectors:
    b   _start
    b   undef_entry
    b   svc_entry
    b   pabort_entry
    b   dabort_entry
    b   .
    b   irq_entry
    b   fiq_entry

    .section .text.startup, "ax", %progbits
    .global _start
    .type _start, %function
_start:
    cpsid   if
    /* SCTLR.V = 0: exceptions use the table at address 0. */
    mrc     p15, 0, r0, c1, c0, 0
    bic     r0, r0, #(1 << 13)
    mcr     p15, 0, r0, c1, c0, 0
    isb
    /* One small stack for the exception modes (they report and stop). */
    ldr     r1, =__axl_exc_stack_top
    cps     #0x17           /* abort */
    mov     sp, r1
    cps     #0x1b           /* undefined */
    mov     sp, r1
    cps     #0x12           /* IRQ */
    mov     sp, r1
    cps     #0x11           /* FIQ */
    mov     sp, r1
    cps     #0x13           /* supervisor: where the firmware runs */
    ldr     sp, =__axl_stack_top
    /* CPACR: full access to cp10 and cp11, then FPEXC.EN. */
    mrc     p15, 0, r0, c1, c0, 2
    orr     r0, r0, #(0xf << 20)
    mcr     p15, 0, r0, c1, c0, 2
    isb
    mov     r0, #0x40000000
    vmsr    fpexc, r0
    /* Clear .bss (both ends are 8-byte aligned by the linker script). */
    ldr     r0, =__bss_start
    ldr     r1, =__bss_end
    mov     r2, #0
1:  cmp     r0, r1
    strlo   r2, [r0], #4
    blo     1b
    bl      main
    bl      fw_exit
2:  b       2b
    .size _start, . - _start

undef_entry:
    mov     r0, #1
    b       fault
svc_entry:
    mov     r0, #2
    b       fault
pabort_entry:
    mov     r0, #3
    b       fault
dabort_entry:
    mov     r0, #4
    b       fault
irq_entry:
    mov     r0, #6
    b       fault
fiq_entry:
    mov     r0, #7
fault:
    mov     r1, lr
    bl      fw_fault
3:  b       3b
