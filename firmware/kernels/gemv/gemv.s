; GEMV on a P x Q grid of PEs (docs/kernels.md, "gemv"): y = A x + b.
;
; PE(px, py) holds the block of A at block row py and block column px (MB x NB, column-major),
; the NB elements of x of block column px, and computes the partial sums of its MB rows. The
; partial sums then flow west along the row, each PE adding its own as they pass (one fadds
; from a fabin to a fabout, element by element), and the west end adds b: y arrives in y0 of
; PE(0, py). The columns alternate between two accumulators on two microthreads so that the
; engine always has a step to take while a result is in flight.
;
; f16 (F16 = 1): A and x are f16; fmachs multiplies them exactly and accumulates in f32.
        .param  MB              ; rows of the block: a multiple of 4 (the host pads)
        .param  NB              ; columns of the block
        .param  ROLE            ; 0: alone in its row, 1: west end, 2: middle, 3: east end
        .param  CIN = 0         ; color of the partial sums arriving from the east (1, 2)
        .param  COUT = 0        ; color of the partial sums leaving to the west (2, 3)
        .param  F16 = 0

        .if     F16
        .equ    EB, 2           ; bytes per element of A and x
        .else
        .equ    EB, 4
        .endif

        .data
        .align  16
y0:     .space  4*MB            ; accumulator of the even columns; the result on the west end
        .export y0, f32, MB
y1:     .space  4*MB            ; accumulator of the odd columns
        .space  8               ; a = y0 + 8 (mod 16): accumulators and columns of A never
a:      .space  EB*MB*NB        ; read the same bank pair in one step (docs/isa.md 6.7)
x:      .space  EB*NB
        .align  4
b:      .space  4*MB
        .export b, f32, MB
        .if     F16
        .export a, f16, MB*NB
        .export x, f16, NB
        .dsd    ad, mem1d, f16, base=a, len=MB
        .else
        .export a, f32, MB*NB
        .export x, f32, NB
        .dsd    ad, mem1d, f32, base=a, len=MB
        .endif
        .dsd    y0d, mem1d, f32, base=y0, len=MB
        .dsd    y1d, mem1d, f32, base=y1, len=MB
        .dsd    bd, mem1d, f32, base=b, len=MB
        .dsd    ind, fabin, f32, color=CIN, len=MB
        .dsd    outd, fabout, f32, color=COUT, len=MB

        .text
        .task   main, local, 0
        .export main
main:   ldd     d0, y0d
        ldd     d1, y1d
        ldd     d2, ad          ; column 0
        ldd     d3, ad
        dincb   d3, MB          ; column 1
        li      r1, 0
        mov32   d0, r1          ; y0 = y1 = 0
        mov32   d1, r1
        la      r2, x           ; &x[j]
        li      r3, NB/2        ; pairs of columns
        beqz    r3, tail
loop:
        .if     F16
        lhu     r4, 0(r2)
        lhu     r5, 2(r2)
        fmachs  d0, d0, d2, r4, ut1 async   ; y0 += A[:, j] * x[j]
        fmachs  d1, d1, d3, r5, ut2 async   ; y1 += A[:, j+1] * x[j+1]
        .else
        lw      r4, 0(r2)
        lw      r5, 4(r2)
        fmacs   d0, d0, d2, r4, ut1 async
        fmacs   d1, d1, d3, r5, ut2 async
        .endif
        dincb   d2, 2*MB        ; the descriptors were copied at issue: move on at once
        dincb   d3, 2*MB
        addi    r2, r2, 2*EB
        addi    r3, r3, -1
        bnez    r3, loop
tail:
        .if     NB % 2
        .if     F16
        lhu     r4, 0(r2)
        fmachs  d0, d0, d2, r4, ut1 async
        .else
        lw      r4, 0(r2)
        fmacs   d0, d0, d2, r4, ut1 async
        .endif
        .endif
        utwait  0x06            ; both accumulators done
        fadds   d0, d0, d1      ; the block's partial sums
        .if     ROLE == 0
        ldd     d4, bd
        fadds   d0, d0, d4      ; y = A x + b
        .elif   ROLE == 1
        ldd     d5, ind
        fadds   d0, d0, d5      ; + the partial sums of the rest of the row, as they arrive
        ldd     d4, bd
        fadds   d0, d0, d4
        .elif   ROLE == 2
        ldd     d5, ind
        ldd     d6, outd
        fadds   d6, d0, d5      ; mine + those from the east, on to the west
        .else
        ldd     d6, outd
        mov32   d6, d0          ; the east end starts the row's sum
        .endif
        tend
