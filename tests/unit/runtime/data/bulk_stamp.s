; A synchronous DSD operation on memory of D f32 elements (run in bulk by the functional model)
; while wavelets of color C arrive; then each wavelet adds to `total` and stamps the cycle the
; task took it (CycleLo, CycleHi).
        .param  C
        .param  D
        .equ    CYCLE_LO, 0xC010

        .data
        .align  16
a:      .space  4*D
b:      .space  4*D + 4
total:  .word   0
lo:     .word   0
hi:     .word   0
        .export total, i32, 1
        .export lo, u32, 1
        .dsd    da, mem1d, f32, base=a, len=D, stride=1
        .dsd    db, mem1d, f32, base=b+4, len=D, stride=1

        .text
        .task   main, local, 0
        .export main
main:   ldd     d0, da
        ldd     d1, db
        li      r1, f32(0.5)
        fmacs   d0, d0, d1, r1
        tend

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
