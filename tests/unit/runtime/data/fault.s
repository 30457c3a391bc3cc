; Test data: a misaligned 32-bit load faults.
        .text
        .task   main, local, 0
        .export main
main:   li      r1, 0x103
        lw      r2, 0(r1)
        tend

; Memory that a run's outputs read after the fault.
        .data
        .align  4
kept:   .word   0x1234
        .export kept, i32, 1
