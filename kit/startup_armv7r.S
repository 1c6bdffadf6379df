/*
 * startup_armv7r.S - reset and exception entry of a firmware built with
 * the board kit (axl_add_firmware) for ARMv7-R: the Cortex-R5F of the Zynq
 * UltraScale+ RPU. Exceptions are taken in ARM state, so this file is ARM
 * code; the C it calls may be Thumb-2 (the linker turns bl into blx).
 *
 * Reset, in order:
 *  1. IRQ and FIQ masked; whatever the loader left on this core (a
 *     first-stage boot loader or a debugger may have run here with its
 *     caches on) is written back and dropped: the data cache cleaned and
 *     invalidated by set and way when it was on, invalidated when it was
 *     off (its contents are undefined after a power-on reset); the MPU,
 *     both caches and the high vectors off (exceptions through the table
 *     at address 0, the ATCM); the instruction cache invalidated;
 *  2. a stack per mode: a small one shared by the modes that report and
 *     stop (abort, undefined, FIQ), one for IRQ (its entry moves to
 *     supervisor mode at once), the firmware's in supervisor mode;
 *  3. the VFP on (the C code is built with -mfloat-abi=hard);
 *  4. .data copied from its load address when the linker script loads it
 *     elsewhere (a loader that writes every section in place, as the FSBL
 *     and QEMU's loader do, needs no copy), .bss cleared;
 *  5. axl__fw_memory_map() (mpu_armv7r.c): the MPU regions of the board's
 *     memory map, then the caches on;
 *  6. main(), whose result goes to axl_fw_exit().
 *
 * An IRQ calls axl_fw_irq() (axl/firmware.h) in supervisor mode, on the
 * interrupted code's stack, with the caller-saved core and VFP registers
 * saved; IRQs stay masked while it runs. Every other exception is a
 * failure: axl__fw_fault(vector, address) reports it and stops.
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
    /* 1. The data cache: clean and invalidate when SCTLR.C says it is on,
     * else invalidate, every line of level 1 by set and way (DCCISW,
     * DCISW). CCSIDR gives the geometry: log2 of the line's bytes
     * (LineSize + 4), ways - 1, sets - 1; a set/way word is
     * way << clz(ways - 1) | set << log2(line). */
    mrc     p15, 0, r7, c1, c0, 0       /* SCTLR */
    mov     r0, #0
    mcr     p15, 2, r0, c0, c0, 0       /* CSSELR: level 1, data */
    isb
    mrc     p15, 1, r0, c0, c0, 0       /* CCSIDR */
    and     r1, r0, #7
    add     r1, r1, #4                  /* log2(line bytes) */
    ldr     r3, =0x3ff
    and     r2, r3, r0, lsr #3          /* ways - 1 */
    ldr     r3, =0x7fff
    and     r3, r3, r0, lsr #13         /* sets - 1 */
    clz     r4, r2                      /* way shift (32: one way) */
1:  mov     r5, r3
2:  lsl     r6, r2, r4                  /* a shift by 32 gives 0 */
    orr     r6, r6, r5, lsl r1
    tst     r7, #(1 << 2)
    mcrne   p15, 0, r6, c7, c14, 2      /* DCCISW */
    mcreq   p15, 0, r6, c7, c6, 2       /* DCISW */
    subs    r5, r5, #1
    bge     2b
    subs    r2, r2, #1
    bge     1b
    dsb
    /* MPU (M, bit 0), data cache (C, 2), instruction cache (I, 12) and
     * high vectors (V, 13) off. */
    ldr     r1, =((1 << 0) | (1 << 2) | (1 << 12) | (1 << 13))
    bic     r7, r7, r1
    dsb
    mcr     p15, 0, r7, c1, c0, 0
    isb
    mov     r0, #0
    mcr     p15, 0, r0, c7, c5, 0       /* ICIALLU */
    dsb
    isb
    /* 2. Stacks. */
    ldr     r1, =__axl_exc_stack_top
    cps     #0x17                       /* abort */
    mov     sp, r1
    cps     #0x1b                       /* undefined */
    mov     sp, r1
    cps     #0x11                       /* FIQ */
    mov     sp, r1
    cps     #0x12                       /* IRQ */
    ldr     sp, =__axl_irq_stack_top
    cps     #0x13                       /* supervisor: where the firmware runs */
    ldr     sp, =__axl_stack_top
    /* 3. CPACR: full access to cp10 and cp11, then FPEXC.EN. */
    mrc     p15, 0, r0, c1, c0, 2
    orr     r0, r0, #(0xf << 20)
    mcr     p15, 0, r0, c1, c0, 2
    isb
    mov     r0, #0x40000000
    vmsr    fpexc, r0
    /* 4. .data from its load address (both ends are 8-byte aligned). */
    ldr     r0, =__data_start
    ldr     r1, =__data_end
    ldr     r2, =__data_load
    cmp     r0, r2
    beq     4f
3:  cmp     r0, r1
    ldrlo   r3, [r2], #4
    strlo   r3, [r0], #4
    blo     3b
4:  /* .bss (both ends are 8-byte aligned by the linker script). */
    ldr     r0, =__bss_start
    ldr     r1, =__bss_end
    mov     r2, #0
5:  cmp     r0, r1
    strlo   r2, [r0], #4
    blo     5b
    /* 5. and 6. */
    bl      axl__fw_memory_map
    bl      main
    bl      axl_fw_exit
6:  b       6b
    .size _start, . - _start

/* IRQ: LR_irq - 4 (where to return) and SPSR_irq are stored on the
 * supervisor stack (SRS), the handler runs in supervisor mode, and RFE
 * returns to the interrupted code with its CPSR. */
irq_entry:
    sub     lr, lr, #4
    srsdb   sp!, #0x13
    cps     #0x13
    push    {r0-r3, r12}
    and     r1, sp, #4                  /* AAPCS: 8-byte aligned at the call */
    sub     sp, sp, r1
    push    {r1, lr}
    vpush   {d0-d7}
    vmrs    r0, fpscr
    push    {r0, r1}
    bl      axl_fw_irq
    pop     {r0, r1}
    vmsr    fpscr, r0
    vpop    {d0-d7}
    pop     {r1, lr}
    add     sp, sp, r1
    pop     {r0-r3, r12}
    rfeia   sp!

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
fiq_entry:
    mov     r0, #7
fault:
    mov     r1, lr
    bl      axl__fw_fault
7:  b       7b
