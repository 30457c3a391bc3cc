; Mandelbrot set, escape counts (docs/kernels.md, "mandelbrot"): every PE holds NP pixels (a
; block of the image, padded by the host), their points c = cr + i ci, and iterates
; z <- z^2 + c from z = 0 ITERS times over all of them at once with DSD operations. In each
; iteration, before the update, a pixel whose |z|^2 <= 4 has its count incremented: the count is
; the number of iterations at which z was still in the disc of radius 2, which is the escape
; iteration (or ITERS if z never left: once |z| > 2 it only grows). There is no early exit: a
; pixel that has escaped keeps iterating (to infinity and NaN, which compare false).
;
; One iteration, per pixel, in f32, in this order (the host replays it exactly):
;   zr2 = zr * zr;  zi2 = zi * zi;  t = zr2 + zi2
;   m = t <= 4 ? ~0 : 0;  cnt = cnt - m             (the mask is -1: one more)
;   t = zr * zi;  zi = ci + t * 2 (fused: fmacs);  zr = (zr2 - zi2) + cr
;
; The pixels are split into two halves, A on microthread 1 and B on microthread 2: each
; operation of A is followed by the same operation of B, so the engine always has a step to take
; while the other half's last results are in flight, and the operations of one half run in
; program order on their microthread (each sees the last one's results). The 16 descriptors
; (8 arrays, 2 halves) stay in the 16 descriptor registers; sub32 needs an integer view of t,
; which the loop makes by rewriting the element type in t's registers around it (dwr).
        .param  NP              ; pixels per PE, a multiple of 8
        .param  ITERS           ; iterations, 1 or more

        .equ    H2, NP / 2      ; pixels per half (a multiple of 4: both halves have the same banks)

; The arrays sit at 0, 4, 8 or 12 bytes modulo 16 so that the two sources of every operation
; read different bank pairs (docs/isa.md 6.7): zr 0, zi 4, cr 8, ci 0, t 4, cnt 0, zr2 8, zi2 12.
        .macro  ARRAY name, skew
        .align  16
        .space  \skew
\name:  .space  4*NP
        .endm

        .data
        ARRAY   zr, 0
        ARRAY   zi, 4
        ARRAY   cr, 8
        ARRAY   ci, 0
        ARRAY   t, 4
        ARRAY   cnt, 0
        ARRAY   zr2, 8
        ARRAY   zi2, 12
        .export cr, f32, NP
        .export ci, f32, NP
        .export cnt, u32, NP
        .dsd    zra, mem1d, f32, base=zr, len=H2
        .dsd    zia, mem1d, f32, base=zi, len=H2
        .dsd    cra, mem1d, f32, base=cr, len=H2
        .dsd    cia, mem1d, f32, base=ci, len=H2
        .dsd    ta, mem1d, f32, base=t, len=H2
        .dsd    cnta, mem1d, u32, base=cnt, len=H2
        .dsd    zr2a, mem1d, f32, base=zr2, len=H2
        .dsd    zi2a, mem1d, f32, base=zi2, len=H2
        .dsd    zrb, mem1d, f32, base=zr+4*H2, len=H2
        .dsd    zib, mem1d, f32, base=zi+4*H2, len=H2
        .dsd    crb, mem1d, f32, base=cr+4*H2, len=H2
        .dsd    cib, mem1d, f32, base=ci+4*H2, len=H2
        .dsd    tb, mem1d, f32, base=t+4*H2, len=H2
        .dsd    cntb, mem1d, u32, base=cnt+4*H2, len=H2
        .dsd    zr2b, mem1d, f32, base=zr2+4*H2, len=H2
        .dsd    zi2b, mem1d, f32, base=zi2+4*H2, len=H2
        .dsd    zrall, mem1d, f32, base=zr, len=NP
        .dsd    ziall, mem1d, f32, base=zi, len=NP
        .dsd    cntall, mem1d, u32, base=cnt, len=NP

        .reg    ZRA, d0
        .reg    ZIA, d1
        .reg    CRA, d2
        .reg    CIA, d3
        .reg    TA, d4
        .reg    CNTA, d5
        .reg    ZR2A, d6
        .reg    ZI2A, d7
        .reg    ZRB, d8
        .reg    ZIB, d9
        .reg    CRB, d10
        .reg    CIB, d11
        .reg    TB, d12
        .reg    CNTB, d13
        .reg    ZR2B, d14
        .reg    ZI2B, d15

; One operation on both halves: OP A-operands on ut1, then B-operands on ut2, asynchronously.
        .macro  BOTH op, da, sa, xa, db, sb, xb
        \op     \da, \sa, \xa, ut1 async
        \op     \db, \sb, \xb, ut2 async
        .endm

        .text
        .task   main, local, 0
        .export main
main:   li      r1, 0
        ldd     d0, zrall
        mov32   d0, r1          ; z = 0, counts 0
        ldd     d0, ziall
        mov32   d0, r1
        ldd     d0, cntall
        mov32   d0, r1
        ldd     ZRA, zra
        ldd     ZIA, zia
        ldd     CRA, cra
        ldd     CIA, cia
        ldd     TA, ta
        ldd     CNTA, cnta
        ldd     ZR2A, zr2a
        ldd     ZI2A, zi2a
        ldd     ZRB, zrb
        ldd     ZIB, zib
        ldd     CRB, crb
        ldd     CIB, cib
        ldd     TB, tb
        ldd     CNTB, cntb
        ldd     ZR2B, zr2b
        ldd     ZI2B, zi2b
        li      r2, f32(4.0)
        li      r3, f32(2.0)
        drd     r4, TA, 1       ; word 1 of t's descriptors (both halves): f32 ...
        lui     r5, 0x0080      ; ... and the same with Elem u32 (4, bits 55:53), for sub32
        or      r5, r4, r5
        li      r8, ITERS
iter:
        BOTH    fmuls, ZR2A, ZRA, ZRA, ZR2B, ZRB, ZRB       ; zr2 = zr * zr
        BOTH    fmuls, ZI2A, ZIA, ZIA, ZI2B, ZIB, ZIB       ; zi2 = zi * zi
        BOTH    fadds, TA, ZR2A, ZI2A, TB, ZR2B, ZI2B       ; t = |z|^2
        BOTH    fcles, TA, TA, r2, TB, TB, r2               ; m = t <= 4
        dwr     TA, r5, 1       ; t as u32 (the operations took their copies at issue)
        dwr     TB, r5, 1
        BOTH    sub32, CNTA, CNTA, TA, CNTB, CNTB, TB       ; cnt -= m
        dwr     TA, r4, 1       ; t as f32 again
        dwr     TB, r4, 1
        BOTH    fmuls, TA, ZRA, ZIA, TB, ZRB, ZIB           ; t = zr * zi
        fmacs   ZIA, CIA, TA, r3, ut1 async                 ; zi = ci + t * 2
        fmacs   ZIB, CIB, TB, r3, ut2 async
        BOTH    fsubs, ZRA, ZR2A, ZI2A, ZRB, ZR2B, ZI2B     ; zr = zr2 - zi2
        BOTH    fadds, ZRA, ZRA, CRA, ZRB, ZRB, CRB         ; zr = zr + cr
        addi    r8, r8, -1
        bnez    r8, iter
        utwait  0x06
        tend
