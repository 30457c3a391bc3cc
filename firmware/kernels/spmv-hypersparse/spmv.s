; Hypersparse SpMV, y = A x with a handful of nonzeros per PE (docs/kernels.md,
; "spmv-hypersparse"). PE(px, py) holds the nonzeros of A's block (row block py, column block
; px) as (i, j, a) triples (local row, local column, f32 bits) and the x block px. It multiplies
; each nonzero by its x, and sends the product west along its row as an (index, value) wavelet:
; the local row in bits 31:16, the product rounded to f16 in bits 15:0. The routes merge the
; row's streams into one; PE(0, py), which owns the y block py, runs a data task per wavelet
; that adds the value into y (in f32) and adds its own products directly.
        .param  MB              ; rows of a block
        .param  NB              ; columns of a block
        .param  CAP             ; room for nonzeros on each PE
        .param  WEST            ; 1 on column 0: owns y
        .param  C = 1           ; the row's color

        .data
        .align  4
y:      .space  4*MB
        .export y, f32, MB
x:      .space  4*NB
        .export x, f32, NB
nz:     .space  12*CAP
        .export nz, u32, 3*CAP
count:  .word   0               ; nonzeros on this PE
        .export count, u32, 1

        .text
        .task   main, local, 0
        .export main
        .if     WEST
        .task   rx, data, C
        .endif
main:   lw      r8, count
        la      r9, nz
1:      beqz    r8, 2f
        lw      r1, 0(r9)       ; i
        lw      r2, 4(r9)       ; j
        lw      r3, 8(r9)       ; a
        shli    r2, r2, 2
        lw      r4, x(r2)
        fmul.s  r5, r3, r4      ; a x_j
        .if     WEST
        shli    r1, r1, 2
        lw      r6, y(r1)
        fadd.s  r6, r6, r5
        sw      r6, y(r1)
        .else
        fcvt.h.s r5, r5
        andi    r5, r5, 0xFFFF
        shli    r1, r1, 16
        or      r1, r1, r5
        send    r1, C           ; (index, value) west
        .endif
        addi    r9, r9, 12
        addi    r8, r8, -1
        j       1b
2:      tend

        .if     WEST
rx:     shri    r1, wv, 16      ; the row
        andi    r2, wv, 0xFFFF
        fcvt.s.h r2, r2
        shli    r1, r1, 2
        lw      r3, y(r1)
        fadd.s  r3, r3, r2
        sw      r3, y(r1)
        tend
        .endif
