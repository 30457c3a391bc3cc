; The 7-point stencil operator on an nx x ny x nz grid (docs/kernels.md, "stencil-spmv", "cg",
; "power"): PE(x, y) holds the column of NZ points above (x, y), z in memory. The operator is the
; Dirichlet Laplacian A u = 6 u - (the six neighbours' u), zero outside the grid: symmetric and
; positive definite, with eigenvalues in (0, 12).
;
; KIND 0: q = A p once. KIND 1: conjugate gradient for A x = b from x = 0, until the residual's
; norm falls to sqrt(TOL2) of b's or ITERS iterations; dot products through grid allreduces
; (firmware/lib/collectives.s), so every PE takes the same decisions. KIND 2: the power method,
; ITERS steps of v = A v / |A v| from b, and lambda = v . A v.
        .param  NZ
        .param  KIND
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
        .param  ITERS = 100
        .param  TOL2 = 0        ; CG: the squared relative tolerance, as f32 bits

        .data
        .align  16
q:      .space  4*NZ            ; A p
        .space  8               ; p = q + 8 (mod 16): p and q never share a bank pair
p:      .space  4*NZ            ; the search direction (power: v)
        .space  8
x:      .space  4*NZ            ; CG: the solution
        .space  8
r:      .space  4*NZ            ; CG: the residual
b:      .space  4*NZ            ; the right-hand side (power: the start vector)
        .export q, f32, NZ
        .export p, f32, NZ
        .export x, f32, NZ
        .export r, f32, NZ
        .export b, f32, NZ
        .align  4
iters:  .word   0               ; iterations taken
        .export iters, u32, 1
result: .word   0               ; CG: the last |r|^2; power: lambda
        .export result, f32, 1
s1:     .word   0               ; a value on its way through an allreduce
        .align  8
        .dsd    qd, mem1d, f32, base=q, len=NZ
        .dsd    pd, mem1d, f32, base=p, len=NZ
        .dsd    xd, mem1d, f32, base=x, len=NZ
        .dsd    rd, mem1d, f32, base=r, len=NZ
        .dsd    bd, mem1d, f32, base=b, len=NZ
        .dsd    sd, mem1d, f32, base=s1, len=1
        .dsd    q_hi, mem1d, f32, base=q+4, len=NZ-1    ; q[1..], p[..NZ-2]: the z neighbours
        .dsd    p_lo, mem1d, f32, base=p, len=NZ-1
        .dsd    q_lo, mem1d, f32, base=q, len=NZ-1
        .dsd    p_hi, mem1d, f32, base=p+4, len=NZ-1
        .dsd    ow, fabout, f32, color=CWO, len=NZ
        .dsd    oe, fabout, f32, color=CEO, len=NZ
        .dsd    on, fabout, f32, color=CNO, len=NZ
        .dsd    os, fabout, f32, color=CSO, len=NZ
        .dsd    iw, fabin, f32, color=CWI, len=NZ
        .dsd    ie, fabin, f32, color=CEI, len=NZ
        .dsd    in, fabin, f32, color=CNI, len=NZ
        .dsd    is, fabin, f32, color=CSI, len=NZ
lr_save:
        .word   0

        .global grid_allreduce_sum

        .text
        .task   main, local, 0
        .export main

; q = A p: p goes to each neighbour (asynchronously, one microthread each), then q = 6 p, less
; the z neighbours, less each neighbour's column as it arrives (W, E, N, S, in that order).
; Clobbers r1, d8..d15.
spmv:
        ldd     d8, pd
        .if     HW
        ldd     d12, ow
        mov32   d12, d8, ut1 async
        .endif
        .if     HE
        ldd     d13, oe
        mov32   d13, d8, ut2 async
        .endif
        .if     HN
        ldd     d14, on
        mov32   d14, d8, ut3 async
        .endif
        .if     HS
        ldd     d15, os
        mov32   d15, d8, ut4 async
        .endif
        ldd     d9, qd
        li      r1, f32(6.0)
        fmuls   d9, d8, r1
        .if     NZ > 1
        ldd     d10, q_hi
        ldd     d11, p_lo
        fsubs   d10, d10, d11
        ldd     d10, q_lo
        ldd     d11, p_hi
        fsubs   d10, d10, d11
        .endif
        .if     HW
        ldd     d10, iw
        fsubs   d9, d9, d10
        .endif
        .if     HE
        ldd     d10, ie
        fsubs   d9, d9, d10
        .endif
        .if     HN
        ldd     d10, in
        fsubs   d9, d9, d10
        .endif
        .if     HS
        ldd     d10, is
        fsubs   d9, d9, d10
        .endif
        utwait  0x1E            ; p has left for every neighbour: it may change
        ret

; r1 = the sum of r1 over the grid (the same value, the same order, on every PE).
allreduce1:
        sw      r1, s1
        sw      lr, lr_save
        ldd     d1, sd
        call    grid_allreduce_sum
        lw      lr, lr_save
        lw      r1, s1
        ret

main:
        .if     KIND == 0
        call    spmv
        tend
        .elif   KIND == 1
        ldd     d2, xd
        ldd     d3, rd
        ldd     d4, pd
        ldd     d5, bd
        ldd     d0, qd
        li      r1, 0
        mov32   d2, r1          ; x = 0
        mov32   d3, d5          ; r = b
        mov32   d4, d5          ; p = b
        fdots   r1, d3, d3
        call    allreduce1
        mov     r8, r1          ; rr = |r|^2
        li      r2, TOL2
        fmul.s  r9, r8, r2      ; the threshold: TOL2 |b|^2
        li      r10, 0          ; iterations
cg_loop:
        call    spmv            ; q = A p
        ldd     d0, qd
        ldd     d2, xd
        ldd     d3, rd
        ldd     d4, pd
        li      r1, 0
        fdots   r1, d4, d0
        call    allreduce1      ; p . q
        fdiv.s  r11, r8, r1     ; alpha = rr / (p . q)
        fmacs   d2, d2, d4, r11 ; x += alpha p
        fneg.s  r12, r11
        fmacs   d3, d3, d0, r12 ; r -= alpha q
        li      r1, 0
        fdots   r1, d3, d3
        call    allreduce1
        mov     r13, r1         ; |r|^2
        addi    r10, r10, 1
        fle.s   r1, r13, r9
        bnez    r1, cg_done     ; converged
        li      r1, ITERS
        beq     r10, r1, cg_done
        fdiv.s  r12, r13, r8    ; beta = |r_new|^2 / |r|^2
        fmacs   d4, d3, d4, r12 ; p = r + beta p
        mov     r8, r13
        j       cg_loop
cg_done:
        sw      r10, iters
        sw      r13, result
        tend
        .else
        ; the power method: v (in p) = b / |b|, then v = A v / |A v|, lambda = v . A v
        ldd     d4, pd
        ldd     d5, bd
        li      r1, 0
        fdots   r1, d5, d5
        call    allreduce1
        fsqrt.s r2, r1
        fdivs   d4, d5, r2      ; v = b / |b|
        li      r10, 0
pw_loop:
        call    spmv            ; q = A v
        ldd     d0, qd
        ldd     d4, pd
        li      r1, 0
        fdots   r1, d4, d0
        call    allreduce1
        mov     r13, r1         ; lambda = v . A v
        li      r1, 0
        fdots   r1, d0, d0
        call    allreduce1
        fsqrt.s r2, r1
        fdivs   d4, d0, r2      ; v = A v / |A v|
        addi    r10, r10, 1
        li      r1, ITERS
        bne     r10, r1, pw_loop
        sw      r10, iters
        sw      r13, result
        tend
        .endif
