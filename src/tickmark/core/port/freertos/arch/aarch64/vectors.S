/* The exception vector table of the FreeRTOS AArch64 port (_freertos_vector_table, installed
 * by the kernel when the scheduler starts). Tasks run at EL1 on SP_EL0: a system call from a
 * task (SVC, the kernel's yield) goes to FreeRTOS_SWI_Handler, an interrupt from anywhere to
 * FreeRTOS_IRQ_Handler, and any other exception to tm_rtos_fault (tick.c), which reports it.
 * vApplicationIRQHandler, which the kernel's interrupt entry calls, keeps the floating-point
 * and SIMD registers (the kernel's entry saves only the general ones) and calls tm_rtos_irq. */

    .text
    .balign 2048
    .global _freertos_vector_table
_freertos_vector_table:
    b       sync_from_task          /* current EL, SP_EL0: synchronous */
    .balign 0x80
    b       FreeRTOS_IRQ_Handler    /* IRQ */
    .balign 0x80
    b       fault                   /* FIQ */
    .balign 0x80
    b       fault                   /* SError */
    .balign 0x80
    b       fault                   /* current EL, SP_ELx: synchronous */
    .balign 0x80
    b       FreeRTOS_IRQ_Handler    /* IRQ (nested, in a handler) */
    .balign 0x80
    b       fault
    .balign 0x80
    b       fault
    .balign 0x80
    .rept   8                       /* lower ELs: nothing runs there */
    b       fault
    .balign 0x80
    .endr

sync_from_task:
    stp     x0, x1, [sp, #-16]!
    mrs     x0, esr_el1
    lsr     x0, x0, #26
    cmp     x0, #0x15               /* SVC from AArch64 */
    ldp     x0, x1, [sp], #16
    b.eq    FreeRTOS_SWI_Handler
fault:
    mrs     x0, esr_el1
    mrs     x1, elr_el1
    mrs     x2, far_el1
    bl      tm_rtos_fault
1:  b       1b

    .global vApplicationIRQHandler
    .type   vApplicationIRQHandler, %function
vApplicationIRQHandler:
    stp     x29, x30, [sp, #-16]!
    sub     sp, sp, #528
    stp     q0, q1, [sp, #16]
    stp     q2, q3, [sp, #48]
    stp     q4, q5, [sp, #80]
    stp     q6, q7, [sp, #112]
    stp     q8, q9, [sp, #144]
    stp     q10, q11, [sp, #176]
    stp     q12, q13, [sp, #208]
    stp     q14, q15, [sp, #240]
    stp     q16, q17, [sp, #272]
    stp     q18, q19, [sp, #304]
    stp     q20, q21, [sp, #336]
    stp     q22, q23, [sp, #368]
    stp     q24, q25, [sp, #400]
    stp     q26, q27, [sp, #432]
    stp     q28, q29, [sp, #464]
    stp     q30, q31, [sp, #496]
    mrs     x1, fpsr
    mrs     x2, fpcr
    stp     x1, x2, [sp, #0]
    bl      tm_rtos_irq
    ldp     x1, x2, [sp, #0]
    msr     fpsr, x1
    msr     fpcr, x2
    ldp     q0, q1, [sp, #16]
    ldp     q2, q3, [sp, #48]
    ldp     q4, q5, [sp, #80]
    ldp     q6, q7, [sp, #112]
    ldp     q8, q9, [sp, #144]
    ldp     q10, q11, [sp, #176]
    ldp     q12, q13, [sp, #208]
    ldp     q14, q15, [sp, #240]
    ldp     q16, q17, [sp, #272]
    ldp     q18, q19, [sp, #304]
    ldp     q20, q21, [sp, #336]
    ldp     q22, q23, [sp, #368]
    ldp     q24, q25, [sp, #400]
    ldp     q26, q27, [sp, #432]
    ldp     q28, q29, [sp, #464]
    ldp     q30, q31, [sp, #496]
    add     sp, sp, #528
    ldp     x29, x30, [sp], #16
    ret
