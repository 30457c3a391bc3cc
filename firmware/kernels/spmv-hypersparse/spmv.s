; Hypersparse SpMV, y = A x with a handful of nonzeros per PE (docs/kernels.md,
; "spmv-hypersparse"). PE(px, py) holds the nonzeros of A's block (row block py, column block
; px) as (i, j, a) triples (local row, local column, f32 bits) and the x block px. It adds each
; product a x_j into its own partial y block, in f32. The partial blocks then flow west along
; the row, each PE adding its own as they pass (one fadds from a fabin to a fabout, element by
; element), as GEMV's do: PE(0, py) ends with the y block py. Everything stays f32, and the
; sums of a row are made in the same order whatever the fabric's timing.
        .param  MB              ; rows of a block
        .param  NB              ; columns of a block
        .param  CAP             ; room for nonzeros on each PE
        .param  ROLE            ; 0: alone in its row, 1: west end, 2: middle, 3: east end
        .param  CIN = 0         ; color of the partial sums arriving from the east
        .param  COUT = 0        ; color of the partial sums leaving to the west

        .data
        .align  4
y:      .space  4*MB            ; this PE's partial sums; y on the west end
        .export y, f32, MB
x:      .space  4*NB
        .export x, f32, NB
nz:     .space  12*CAP
        .export nz, u32, 3*CAP
count:  .word   0               ; nonzeros on this PE
        .export count, u32, 1
        .dsd    yd, mem1d, f32, base=y, len=MB
        .dsd    ind, fabin, f32, color=CIN, len=MB
        .dsd    outd, fabout, f32, color=COUT, len=MB

        .text
        .task   main, local, 0
        .export main
main:   ldd     d0, yd
        li      r1, 0
        mov32   d0, r1          ; y = 0
        lw      r8, count
        la      r9, nz
1:      beqz    r8, 2f
        lw      r1, 0(r9)       ; i
        lw      r2, 4(r9)       ; j
        lw      r3, 8(r9)       ; a
        shli    r2, r2, 2
        lw      r4, x(r2)
        fmul.s  r5, r3, r4      ; a x_j
        shli    r1, r1, 2
        lw      r6, y(r1)
        fadd.s  r6, r6, r5
        sw      r6, y(r1)
        addi    r9, r9, 12
        addi    r8, r8, -1
        j       1b
2:
        .if     ROLE == 1
        ldd     d5, ind
        fadds   d0, d0, d5      ; + the partial sums of the rest of the row, as they arrive
        .elif   ROLE == 2
        ldd     d5, ind
        ldd     d6, outd
        fadds   d6, d0, d5      ; mine + those from the east, on to the west
        .elif   ROLE == 3
        ldd     d6, outd
        mov32   d6, d0          ; the east end starts the row's sum
        .endif
        tend
