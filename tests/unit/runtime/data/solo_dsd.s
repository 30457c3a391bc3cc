; Long f32 DSD operations on random words, one microthread at a time (the engine steps them in
; its tightest bulk loop, docs/performance.md "DSD steps in bulk"): in place, with a scalar
; source, unary, and sources that read what is in flight or written in the same cycle.
        .param  D
        .include "xorshift.inc"
        .equ    LEN, 200
        .data
        .align  16
x:      .space  4*LEN + 4
y:      .space  4*LEN + 12
        .dsd    dx, mem1d, f32, base=x, len=LEN, stride=1
        .dsd    dx1, mem1d, f32, base=x+4, len=LEN, stride=1
        .dsd    dy, mem1d, f32, base=y+4, len=LEN, stride=1
        .dsd    dyr, mem1d, f32, base=y+4*LEN, len=LEN, stride=-1
        .dsd    dxs, mem1d, f32, base=x, len=LEN-5, stride=1
        .dsd    dx5, mem1d, f32, base=x+20, len=LEN-5, stride=1

        .text
        .task   main, local, 0
        .export main
main:   li      r2, D
        FILL_RANDOM x, y + 4*LEN + 12   ; x and y
        ldd     d0, dx
        ldd     d1, dx1
        ldd     d2, dy
        ldd     d3, dyr
        ldd     d4, dxs
        ldd     d5, dx5
        li      r6, f32(0.75)
        li      r1, 0
again:  fmacs   d0, d0, d2, r6          ; x[i] = x[i] + y[i] * 0.75, in place
        fmuls   d3, d3, r6              ; y, backwards, times 0.75 (a scalar source)
        fabss   d2, d2                  ; |y[i]|
        fadds   d1, d0, d2              ; x[i+1] = x[i] + |y[i]|: reads what is in flight
        fmuls   d5, d4, r6              ; x[i+5] = x[i] * 0.75: reads x[i] as it is written
        addi    r1, r1, 1
        j       again
