; A task that counts down from 2^30, keeping the count in `left`: a run that lasts without being
; a deadlock, for the tests of the progress line, Ctrl-C and cycle limits (a deadlock ends early:
; StallProbe).
        .data
        .align  4
left:   .word   0
        .export left, u32, 1
        .text
        .task   main, local, 0
        .export main
main:   li      r1, 0x40000000
1:      addi    r1, r1, -1
        sw      r1, left
        bnez    r1, 1b
        tend
