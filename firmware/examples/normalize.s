; docs/isa.md 8.8, example (d): scale a vector to unit length, y = x / |x|, with a dot product,
; a square root and a division by a scalar (all correctly rounded, docs/fmac.md).
        .equ    N, 16

        .data
        .align  16
x:      .space  4*N
        .dsd    xd, mem1d, f32, base=x, len=N, stride=1
        .export x, f32, N
norm:   .word   0
        .export norm, f32, 1

        .text
        .task   main, local, 0
        .export main
main:   ldd     d0, xd
        li      r1, 0           ; +0.0
        fdots   r1, d0, d0      ; r1 = sum x[i]^2, synchronous
        fsqrt.s r2, r1          ; |x|
        sw      r2, norm
        fdivs   d0, d0, r2      ; x[i] = x[i] / |x|, in place
        dbg.f32 r2
        tend
