; Each data wavelet on color RX carries one f32 x[i]. Every N wavelets the PE computes
; dot = x . w (fdot), adds it to a running total (fadd), and sends [dot, total] on color TX
; with an asynchronous fabout; the data task is blocked until they have left.
; docs/isa.md 8.7. RX and TX are params: give them with `tessera asm -D RX=.. -D TX=..` or at
; link time.
        .param  RX              ; per-PE colors, from the layout
        .param  TX
        .equ    N, 16

        .data
        .align  16
xbuf:   .space  4*N
        .space  4               ; skew w against xbuf (banks)
w:      .space  4*N             ; weights: host memcpy
res:    .space  8               ; [dot of the last batch, running total]
        .dsd    dx,   mem1d,  f32, base=xbuf, len=N, stride=1
        .dsd    dw,   mem1d,  f32, base=w,    len=N, stride=1
        .dsd    dres, mem1d,  f32, base=res,  len=2, stride=1
        .dsd    dout, fabout, f32, color=TX,  len=2
        .export w, f32, N
        .export res, f32, 2

        .text
        .task   init, local, 24     ; IDs 24..30 can never be data tasks: no clash with RX
        .task   rx,   data,  RX
        .export init
        .reg    count, r8
        .reg    ptr, r9
        .reg    total, r10

init:   ldd     d0, dx
        ldd     d1, dw
        ldd     d2, dres
        ldd     d3, dout
        li      count, 0
        la      ptr, xbuf
        li      total, 0        ; +0.0
        tend

rx:     sw      wv, 0(ptr)      ; wv = r0 = this wavelet's payload
        addi    ptr, ptr, 4
        addi    count, count, 1
        li      r1, N
        bne     count, r1, 1f
        li      r2, 0           ; dot = +0.0
        fdots   r2, d0, d1      ; r2 += sum xbuf[i]*w[i], synchronous, defined order
        fadd.s  total, total, r2
        sw      r2, res
        sw      total, res+4
        block   rx              ; hold further x (back pressure) until results have left
        fmovs   d3, d2, ut1 unblock rx    ; 2 wavelets on TX in the background
        li      count, 0
        la      ptr, xbuf
1:      tend
