; 2-D heat equation, explicit finite differences (docs/kernels.md, "heat2d"):
;   u <- u + R (u_W + u_E + u_N + u_S - 4 u)
; on an NX x NY grid with u = 0 outside it, STEPS steps. PE(x, y) holds a BX x BY block of the
; grid in a (BXM + 2) x (BYM + 2) array, row-major, with a halo ring: each step it sends its edge
; columns and rows to its neighbours (asynchronously), receives theirs into its halo, and updates
; the block through mem4d views of the array: the block itself and the block shifted one point
; west, east, north and south.
        .param  BX              ; this PE's block: BX columns, BY rows
        .param  BY
        .param  BXM             ; the largest block (every PE's array has its size)
        .param  BYM
        .param  STEPS
        .param  R               ; the coefficient, as f32 bits
        .param  HW = 0          ; 1 where the neighbour on that side exists
        .param  HE = 0
        .param  HN = 0
        .param  HS = 0
        .param  CWO = 0         ; colors: out to W, E, N, S; in from W, E, N, S
        .param  CEO = 0
        .param  CNO = 0
        .param  CSO = 0
        .param  CWI = 0
        .param  CEI = 0
        .param  CNI = 0
        .param  CSI = 0

        .equ    PITCH, BXM + 2          ; elements per row of the array
        .equ    IN0, 4*(PITCH + 1)      ; byte offset of the block's first point

        .data
        .align  16
u:      .space  4*PITCH*(BYM + 2)
        .export u, f32, PITCH*(BYM + 2)
        .align  16
        .space  8               ; t at u + 8 (mod 16)
t:      .space  4*BX*BY
        .dsd    td, mem1d, f32, base=t, len=BX*BY
        ; the block, and the block shifted by one point each way
        .dsd    uc, mem4d, f32, base=u+IN0, len=BX, len1=BY, stride1=PITCH
        .dsd    uw, mem4d, f32, base=u+IN0-4, len=BX, len1=BY, stride1=PITCH
        .dsd    ue, mem4d, f32, base=u+IN0+4, len=BX, len1=BY, stride1=PITCH
        .dsd    un, mem4d, f32, base=u+IN0-4*PITCH, len=BX, len1=BY, stride1=PITCH
        .dsd    us, mem4d, f32, base=u+IN0+4*PITCH, len=BX, len1=BY, stride1=PITCH
        ; edges to send, halos to fill
        .dsd    e_w, mem1d, f32, base=u+IN0, len=BY, stride=PITCH            ; west column
        .dsd    e_e, mem1d, f32, base=u+IN0+4*(BX-1), len=BY, stride=PITCH   ; east column
        .dsd    e_n, mem1d, f32, base=u+IN0, len=BX                          ; north row
        .dsd    e_s, mem1d, f32, base=u+IN0+4*PITCH*(BY-1), len=BX           ; south row
        .dsd    h_w, mem1d, f32, base=u+IN0-4, len=BY, stride=PITCH
        .dsd    h_e, mem1d, f32, base=u+IN0+4*BX, len=BY, stride=PITCH
        .dsd    h_n, mem1d, f32, base=u+IN0-4*PITCH, len=BX
        .dsd    h_s, mem1d, f32, base=u+IN0+4*PITCH*BY, len=BX
        .dsd    ow, fabout, f32, color=CWO, len=BY
        .dsd    oe, fabout, f32, color=CEO, len=BY
        .dsd    on, fabout, f32, color=CNO, len=BX
        .dsd    os, fabout, f32, color=CSO, len=BX
        .dsd    iw, fabin, f32, color=CWI, len=BY
        .dsd    ie, fabin, f32, color=CEI, len=BY
        .dsd    in, fabin, f32, color=CNI, len=BX
        .dsd    is, fabin, f32, color=CSI, len=BX

        .text
        .task   main, local, 0
        .export main
main:   li      r8, STEPS
        beqz    r8, done
        li      r9, R
        li      r10, f32(-4.0)
step:
        ; the edges out, one microthread each
        .if     HW
        ldd     d8, e_w
        ldd     d9, ow
        mov32   d9, d8, ut1 async
        .endif
        .if     HE
        ldd     d8, e_e
        ldd     d9, oe
        mov32   d9, d8, ut2 async
        .endif
        .if     HN
        ldd     d8, e_n
        ldd     d9, on
        mov32   d9, d8, ut3 async
        .endif
        .if     HS
        ldd     d8, e_s
        ldd     d9, os
        mov32   d9, d8, ut4 async
        .endif
        ; the neighbours' edges into the halo
        .if     HW
        ldd     d8, h_w
        ldd     d9, iw
        mov32   d8, d9
        .endif
        .if     HE
        ldd     d8, h_e
        ldd     d9, ie
        mov32   d8, d9
        .endif
        .if     HN
        ldd     d8, h_n
        ldd     d9, in
        mov32   d8, d9
        .endif
        .if     HS
        ldd     d8, h_s
        ldd     d9, is
        mov32   d8, d9
        .endif
        utwait  0x1E            ; the edges have left: the block may change
        ; t = ((u_W + u_E) + u_N) + u_S - 4 u; u = u + R t
        ldd     d0, td
        ldd     d2, uw
        ldd     d3, uw+8
        ldd     d4, ue
        ldd     d5, ue+8
        fadds   d0, d2, d4
        ldd     d2, un
        ldd     d3, un+8
        fadds   d0, d0, d2
        ldd     d2, us
        ldd     d3, us+8
        fadds   d0, d0, d2
        ldd     d2, uc
        ldd     d3, uc+8
        fmacs   d0, d0, d2, r10 ; t + u * -4 (one rounding)
        fmacs   d2, d2, d0, r9  ; u + t * R
        addi    r8, r8, -1
        bnez    r8, step
done:   tend
