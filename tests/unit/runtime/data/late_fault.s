; Loops D iterations, then faults (a misaligned 32-bit load): the run stops while the other PEs
; of the layout still compute.
        .param  D

        .text
        .task   main, local, 0
        .export main
main:   li      r2, D
1:      addi    r2, r2, -1
        bnez    r2, 1b
        li      r1, 0x103
        lw      r3, 0(r1)
        tend
