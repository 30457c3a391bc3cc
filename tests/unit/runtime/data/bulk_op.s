; A synchronous DSD operation on memory of D f32 elements (run in bulk by the functional model),
; then N words sent on color C (none by default). While the operation runs, the fabric may let
; the other engines run ahead up to the cycle its first wavelet could reach them, and no further.
        .param  C
        .param  D
        .param  N = 0
        .data
        .align  16
a:      .space  4*D
b:      .space  4*D + 4
        .dsd    da, mem1d, f32, base=a, len=D, stride=1
        .dsd    db, mem1d, f32, base=b+4, len=D, stride=1

        .text
        .task   main, local, 0
        .export main
main:   ldd     d0, da
        ldd     d1, db
        li      r1, f32(0.5)
        fmacs   d0, d0, d1, r1
        .if     N
        li      r2, N
2:      send    r2, C
        addi    r2, r2, -1
        bnez    r2, 2b
        .endif
        tend
