; Tutorial 4, a leaf: a data task bound to color C runs once per arriving wavelet, with its
; payload in wv (r0). It keeps a running sum; after N wavelets it stores the sum and prints it.
        .param  C
        .equ    N, 8

        .data
        .align  4
total:  .word   0
count:  .word   0
        .export total, i32, 1

        .text
        .task   rx, data, C
rx:     lw      r1, total
        add     r1, r1, wv
        sw      r1, total
        lw      r2, count
        addi    r2, r2, 1
        sw      r2, count
        li      r3, N
        bne     r2, r3, 1f
        dbg.i32 r1              ; "@<cycle> PE(x,y): <sum>" once per leaf
1:      tend
