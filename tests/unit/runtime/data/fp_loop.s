; Scalar FP instructions on changing values, with loads and stores between them, forever: with
; no microthread busy the engine runs them ahead in its plain loop (docs/performance.md, "Plain
; runs"), each FP instruction ending a run until its result is due.
        .param  D
        .include "xorshift.inc"
        .data
        .align  4
acc:    .space  16

        .text
        .task   main, local, 0
        .export main
main:   li      r2, D
        la      r3, acc
        li      r4, f32(1.5)
        li      r5, f32(0.25)
loop:   XORSHIFT r2, r6                 ; the next random word
        fadd.s  r7, r2, r4              ; as an f32, plus 1.5
        fmul.s  r8, r7, r5
        fma.s   r9, r7, r8, r4
        fdiv.s  r10, r9, r7
        fmax.h  r11, r10, r2
        sw      r9, 0(r3)
        sw      r10, 4(r3)
        sh      r11, 12(r3)
        lw      r12, 8(r3)
        fadd.s  r12, r12, r9
        sw      r12, 8(r3)
        j       loop
