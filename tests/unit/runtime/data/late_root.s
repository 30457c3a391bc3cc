; Waits D iterations of a loop (every other PE is idle meanwhile), then sends N words on color C.
        .param  C
        .param  D
        .equ    N, 4

        .text
        .task   main, local, 0
        .export main
main:   li      r2, D
1:      addi    r2, r2, -1
        bnez    r2, 1b
        li      r2, N
2:      send    r2, C
        addi    r2, r2, -1
        bnez    r2, 2b
        tend
