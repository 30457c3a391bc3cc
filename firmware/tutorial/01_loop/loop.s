; Tutorial 1: a scalar loop on one PE. The host copies n f32 values into `x`, launches `main`,
; and reads back `sum` = x[0] + ... + x[N-1]. docs/tutorial.md walks through it.
        .equ    N, 16

        .data
        .align  4
x:      .space  4 * N           ; filled by the host (memcpy_h2d)
sum:    .word   0
        .export x, f32, N
        .export sum, f32, 1

        .text
        .task   main, local, 0
        .export main
main:   la      r1, x           ; r1 = pointer
        li      r2, N           ; r2 = elements left
        li      r3, 0           ; r3 = acc = +0.0
loop:   lw      r4, 0(r1)
        fadd.s  r3, r3, r4
        addi    r1, r1, 4
        addi    r2, r2, -1
        bnez    r2, loop
        sw      r3, sum
        dbg.f32 r3              ; "@<cycle> PE(0,0): <sum>"
        tend
