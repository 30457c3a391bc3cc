; DSD operations the functional model runs in bulk (docs/performance.md, "DSD steps in bulk"), on
; words of random bits (xorshift32, so NaNs, infinities, subnormals and inexact results), forever:
; - fmacs with dst one element past src0: each element reads what the step before it writes,
;   while that result is still in flight (DsdLatency), then after it landed;
; - fadds whose sources share a bank in different rows on some elements only (src1 stride 3):
;   split steps in the middle of a run;
; - faddh with src1 two bytes past dst (one element a step), then fmulh in place on f16 pairs
;   of an odd length (the last step is one element);
; - fmaxs with a scalar (VS form);
; - operations on two and three microthreads at once, in turn, while the task waits to issue on
;   a busy one, for a synchronous one, and in a utwait.
; r1 counts rounds; PARAM D seeds the random words.
        .param  D
        .include "xorshift.inc"
        .equ    LEN, 48
        .data
        .align  16
x:      .space  4*LEN + 8
y:      .space  12*LEN + 16
h:      .space  2*LEN + 4
        .dsd    dx, mem1d, f32, base=x, len=LEN, stride=1
        .dsd    dx1, mem1d, f32, base=x+4, len=LEN, stride=1
        .dsd    dy3, mem1d, f32, base=y, len=LEN, stride=3
        .dsd    dh, mem1d, f16, base=h, len=LEN-1, stride=1
        .dsd    dh2, mem1d, f16, base=h+2, len=LEN-1, stride=1

        .text
        .task   main, local, 0
        .export main
main:   li      r2, D
        FILL_RANDOM x, h + 2*LEN + 4    ; x, y and h
        ldd     d0, dx
        ldd     d1, dx1
        ldd     d2, dy3
        ldd     d4, dh
        ldd     d5, dh2
        li      r6, f32(0.75)
        li      r1, 0
again:  fmacs   d1, d0, d2, r6          ; x[i+1] = x[i] + y[3i] * 0.75
        fadds   d0, d0, d2              ; x[i] = x[i] + y[3i]
        faddh   d4, d4, d5              ; h[i] = h[i] + h[i+1]
        fmulh   d4, d4, d4              ; h[i] = h[i] * h[i]: pair steps
        fmaxs   d2, d2, r6              ; y[3i] = max(y[3i], 0.75)
        fmuls   d0, d0, d2, ut1 async   ; two microthreads at once, in turn: x[i] *= y[3i]
        fmaxs   d2, d2, r6, ut2 async   ; y[3i] = max(y[3i], 0.75)
        fadds   d1, d1, d0, ut1         ; waits for ut1 (busy), then runs synchronously
        fmulh   d4, d4, d4, ut3 async
        utwait  0x0C                    ; waits for ut2 and ut3
        addi    r1, r1, 1
        j       again
