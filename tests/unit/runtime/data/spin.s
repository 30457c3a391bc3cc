; A task that counts down from 2^30: a run that lasts without being a deadlock, for the tests of
; the progress line, Ctrl-C and cycle limits (a deadlock ends early: StallProbe).
        .text
        .task   main, local, 0
        .export main
main:   li      r1, 0x40000000
1:      addi    r1, r1, -1
        bnez    r1, 1b
        tend
