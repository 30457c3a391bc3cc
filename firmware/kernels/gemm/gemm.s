; GEMM, C = A B, by SUMMA on a P x P grid (docs/kernels.md, "gemm").
;
; PE(x, y) owns the blocks A_yx (MB x KB, column-major), B_yx (KB x NB, row-major) and computes
; C_yx (MB x NB). In step s the PEs of column s send their A block along their rows and the PEs
; of row s their B block down their columns; every PE then adds the product of the two blocks it
; received to its C. A row broadcast from any column is two multicast colors, eastward and
; westward, whose routes take both the neighbour and the PE's own ramp (rx W,RAMP tx RAMP,E): the
; root's own wavelets come back to it, and it drains them.
;
; The product of two blocks is KB x NB column updates C[:, j] += A[:, k] * B[k, j] (fmacs; f16:
; fmachs, f16 products accumulated in f32), eight at a time, one on each microthread (this step's
; sends are done by then), so that the engine always has a step to take while results are in
; flight and the next updates issue. At the end,
; C goes out row-major through a mem4d view.
;
; f16: A's elements sit 4 bytes apart (the odd halfwords unused) so that a column of A advances
; through the SRAM banks as fast as a column of C and the two never meet in one step.
        .param  P               ; the grid is P x P
        .param  MB              ; block rows (a multiple of 4)
        .param  NB              ; block columns (a multiple of 8)
        .param  KB              ; block inner size
        .param  PX              ; this PE's column and row
        .param  PY
        .param  F16 = 0
        .param  XE = 1          ; colors: A eastward, A westward, B southward, B northward
        .param  XW = 2
        .param  YS = 3
        .param  YN = 4

        .if     F16
        .equ    EB, 2
        .else
        .equ    EB, 4
        .endif

        .data
        .align  16
cm:     .space  4*MB*NB         ; C, column-major (the accumulators)
        .space  8               ; A blocks at C + 8 (mod 16): a column of A and one of C
aown:   .space  4*MB*KB         ; never read the same bank pair in one step
        .align  16
        .space  8
abuf:   .space  4*MB*KB         ; A_ys, received in step s
        .align  8               ; B rows are read 8 bytes at a time (ldd)
bown:   .space  EB*KB*NB
        .align  8
bbuf:   .space  EB*KB*NB
        .align  16
c:      .space  4*MB*NB         ; C, row-major, for the host
drain:  .word   0               ; where a root's own wavelets come back to
        .export c, f32, MB*NB
        .if     F16
        .export aown, f16, 2*MB*KB
        .export bown, f16, KB*NB
        .dsd    aownd, mem1d, f16, base=aown, len=MB*KB, stride=2
        .dsd    abufd, mem1d, f16, base=abuf, len=MB*KB, stride=2
        .dsd    bownd, mem1d, f16, base=bown, len=KB*NB
        .dsd    bbufd, mem1d, f16, base=bbuf, len=KB*NB
        .dsd    a_col, mem1d, f16, base=aown, len=MB, stride=2
        .dsd    axe, fabout, f16, color=XE, len=MB*KB
        .dsd    axw, fabout, f16, color=XW, len=MB*KB
        .dsd    bys, fabout, f16, color=YS, len=KB*NB
        .dsd    byn, fabout, f16, color=YN, len=KB*NB
        .dsd    ixe, fabin, f16, color=XE, len=MB*KB
        .dsd    ixw, fabin, f16, color=XW, len=MB*KB
        .dsd    iys, fabin, f16, color=YS, len=KB*NB
        .dsd    iyn, fabin, f16, color=YN, len=KB*NB
        .dsd    dra, mem1d, u16, base=drain, len=MB*KB, stride=0
        .dsd    drb, mem1d, u16, base=drain, len=KB*NB, stride=0
        .else
        .export aown, f32, MB*KB
        .export bown, f32, KB*NB
        .dsd    aownd, mem1d, f32, base=aown, len=MB*KB
        .dsd    abufd, mem1d, f32, base=abuf, len=MB*KB
        .dsd    bownd, mem1d, f32, base=bown, len=KB*NB
        .dsd    bbufd, mem1d, f32, base=bbuf, len=KB*NB
        .dsd    a_col, mem1d, f32, base=aown, len=MB
        .dsd    axe, fabout, f32, color=XE, len=MB*KB
        .dsd    axw, fabout, f32, color=XW, len=MB*KB
        .dsd    bys, fabout, f32, color=YS, len=KB*NB
        .dsd    byn, fabout, f32, color=YN, len=KB*NB
        .dsd    ixe, fabin, f32, color=XE, len=MB*KB
        .dsd    ixw, fabin, f32, color=XW, len=MB*KB
        .dsd    iys, fabin, f32, color=YS, len=KB*NB
        .dsd    iyn, fabin, f32, color=YN, len=KB*NB
        .dsd    dra, mem1d, u32, base=drain, len=MB*KB, stride=0
        .dsd    drb, mem1d, u32, base=drain, len=KB*NB, stride=0
        .endif
        .dsd    cmd, mem1d, f32, base=cm, len=MB*NB
        .dsd    c_col, mem1d, f32, base=cm, len=MB
        ; C read row by row: element (i, j) of the column-major block, i slowest
        .dsd    c_rows, mem4d, f32, base=cm, len=NB, stride=MB, len1=MB, stride1=1
        .dsd    cd, mem1d, f32, base=c, len=MB*NB

; A bit copy of 16- or 32-bit elements (F16), synchronous or on microthread U.
        .macro  MOVE dst, src
        .if     F16
        mov16   \dst, \src
        .else
        mov32   \dst, \src
        .endif
        .endm
        .macro  MOVEA dst, src, u
        .if     F16
        mov16   \dst, \src, \u async
        .else
        mov32   \dst, \src, \u async
        .endif
        .endm

        .text
        .task   main, local, 0
        .export main
main:   ldd     d0, cmd
        li      r1, 0
        mov32   d0, r1          ; C = 0
        li      r8, 0           ; s
step:
        ; 1. the roots send (asynchronously): column s its A block, row s its B block
        .if     PX < P - 1
        li      r1, PX
        bne     r8, r1, no_axe
        ldd     d1, aownd
        ldd     d2, axe
        MOVEA   d2, d1, ut3
no_axe:
        .endif
        .if     PX > 0
        li      r1, PX
        bne     r8, r1, no_axw
        ldd     d1, aownd
        ldd     d2, axw
        MOVEA   d2, d1, ut4
no_axw:
        .endif
        .if     PY < P - 1
        li      r1, PY
        bne     r8, r1, no_bys
        ldd     d1, bownd
        ldd     d2, bys
        MOVEA   d2, d1, ut5
no_bys:
        .endif
        .if     PY > 0
        li      r1, PY
        bne     r8, r1, no_byn
        ldd     d1, bownd
        ldd     d2, byn
        MOVEA   d2, d1, ut6
no_byn:
        .endif
        ; 2. A of this step: this PE's own (its wavelets drained), or from the west or the east
        li      r1, PX
        beq     r8, r1, a_root
        blt     r8, r1, a_west  ; the root is west of this PE: it comes eastward
        ldd     d3, abufd
        ldd     d4, ixw
        MOVE    d3, d4
        j       a_got
a_west: ldd     d3, abufd
        ldd     d4, ixe
        MOVE    d3, d4
a_got:  la      r9, abuf        ; A of this step
        j       b_phase
a_root:
        .if     PX < P - 1
        ldd     d3, dra
        ldd     d4, ixe
        MOVEA   d3, d4, ut1
        .endif
        .if     PX > 0
        ldd     d5, dra
        ldd     d6, ixw
        MOVEA   d5, d6, ut2
        .endif
        utwait  0x06
        la      r9, aown
b_phase:
        li      r1, PY
        beq     r8, r1, b_root
        blt     r8, r1, b_north
        ldd     d3, bbufd
        ldd     d4, iyn
        MOVE    d3, d4
        j       b_got
b_north:
        ldd     d3, bbufd
        ldd     d4, iys
        MOVE    d3, d4
b_got:  la      r10, bbuf
        j       compute
b_root:
        .if     PY < P - 1
        ldd     d3, drb
        ldd     d4, iys
        MOVEA   d3, d4, ut1
        .endif
        .if     PY > 0
        ldd     d5, drb
        ldd     d6, iyn
        MOVEA   d5, d6, ut2
        .endif
        utwait  0x06
        la      r10, bown
compute:
        ; 3. C += A B: for each k, the NB columns of C, two at a time on ut1 and ut2
        ldd     d7, a_col       ; A[:, 0] of this step's A
        dsetb   d7, 0(r9)
        li      r11, KB
        ldd     d8, c_col       ; C[:, 0..7], one per microthread (the sends are done)
        ldd     d9, c_col
        dincb   d9, MB
        ldd     d10, c_col
        dincb   d10, 2*MB
        ldd     d11, c_col
        dincb   d11, 3*MB
        ldd     d12, c_col
        dincb   d12, 4*MB
        ldd     d13, c_col
        dincb   d13, 5*MB
        ldd     d14, c_col
        dincb   d14, 6*MB
        ldd     d15, c_col
        dincb   d15, 7*MB
kloop:  li      r12, NB/8
; B[k, j..j+7] come in through ldd (two words, one blocked step) and drd rather than one load
; each: every SRAM load takes a read port that the engine's step of that cycle needed.
jloop:
        .if     F16
        ldd     d2, 0(r10)      ; B[k, j..j+3] in two words, two halves each
        ldd     d3, 8(r10)      ; B[k, j+4..j+7]
        drd     r2, d2, 0
        shri    r3, r2, 16
        fmachs  d8, d8, d7, r2, ut0 async       ; the scalar is bits 15:0
        fmachs  d9, d9, d7, r3, ut1 async
        drd     r4, d2, 1
        shri    r5, r4, 16
        fmachs  d10, d10, d7, r4, ut2 async
        fmachs  d11, d11, d7, r5, ut3 async
        drd     r2, d3, 0
        shri    r3, r2, 16
        fmachs  d12, d12, d7, r2, ut4 async
        fmachs  d13, d13, d7, r3, ut5 async
        drd     r4, d3, 1
        shri    r5, r4, 16
        fmachs  d14, d14, d7, r4, ut6 async
        fmachs  d15, d15, d7, r5, ut7 async
        addi    r10, r10, 16
        .else
        ldd     d2, 0(r10)      ; B[k, j..j+1]
        ldd     d3, 8(r10)
        drd     r2, d2, 0
        drd     r3, d2, 1
        fmacs   d8, d8, d7, r2, ut0 async
        fmacs   d9, d9, d7, r3, ut1 async
        drd     r4, d3, 0
        drd     r5, d3, 1
        fmacs   d10, d10, d7, r4, ut2 async
        fmacs   d11, d11, d7, r5, ut3 async
        ldd     d2, 16(r10)
        ldd     d3, 24(r10)
        drd     r2, d2, 0
        drd     r3, d2, 1
        fmacs   d12, d12, d7, r2, ut4 async
        fmacs   d13, d13, d7, r3, ut5 async
        drd     r4, d3, 0
        drd     r5, d3, 1
        fmacs   d14, d14, d7, r4, ut6 async
        fmacs   d15, d15, d7, r5, ut7 async
        addi    r10, r10, 32
        .endif
        dincb   d8, 8*MB
        dincb   d9, 8*MB
        dincb   d10, 8*MB
        dincb   d11, 8*MB
        dincb   d12, 8*MB
        dincb   d13, 8*MB
        dincb   d14, 8*MB
        dincb   d15, 8*MB
        addi    r12, r12, -1
        bnez    r12, jloop
        dincb   d8, -NB*MB    ; back to C[:, 0] for the next k
        dincb   d9, -NB*MB    ; back to C[:, 1] for the next k
        dincb   d10, -NB*MB    ; back to C[:, 2] for the next k
        dincb   d11, -NB*MB    ; back to C[:, 3] for the next k
        dincb   d12, -NB*MB    ; back to C[:, 4] for the next k
        dincb   d13, -NB*MB    ; back to C[:, 5] for the next k
        dincb   d14, -NB*MB    ; back to C[:, 6] for the next k
        dincb   d15, -NB*MB    ; back to C[:, 7] for the next k
        .if     F16
        dincb   d7, 2*MB        ; A[:, k+1] (its elements 4 bytes apart)
        .else
        dincb   d7, MB          ; A[:, k+1]
        .endif
        addi    r11, r11, -1
        bnez    r11, kloop
        utwait  0xFF            ; the updates and this step's sends are done
        addi    r8, r8, 1
        li      r1, P
        bne     r8, r1, step
        ; C row-major for the host
        ldd     d0, cd
        ldd     d2, c_rows
        ldd     d3, c_rows+8
        mov32   d0, d2
        tend
