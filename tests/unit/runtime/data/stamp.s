; Each wavelet of color C adds to `total` and stamps the cycle it arrived in (CycleLo, CycleHi).
        .param  C
        .equ    CYCLE_LO, 0xC010
        .equ    CYCLE_HI, 0xC014

        .data
        .align  4
total:  .word   0
lo:     .word   0
hi:     .word   0
        .export total, i32, 1
        .export lo, u32, 1

        .text
        .task   rx, data, C
rx:     lw      r1, total
        add     r1, r1, wv
        sw      r1, total
        li      r3, CYCLE_LO
        lw      r2, 0(r3)
        sw      r2, lo
        lw      r2, 4(r3)
        sw      r2, hi
        tend
