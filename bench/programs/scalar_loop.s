; Scalar-heavy benchmark kernel (bench/ce_bench.cpp): an endless loop of loads, ALU operations
; and a store; r1 counts iterations. 6 instructions per iteration: 7 cycles (the taken jump
; costs 2).
        .data
        .align  4
buf:    .space  16

        .text
        .task   main, local, 0
        .export main
main:   li      r1, 0
        la      r2, buf
loop:   lw      r3, 0(r2)
        add     r3, r3, r1
        sw      r3, 4(r2)
        xor     r4, r3, r1
        addi    r1, r1, 1
        j       loop
