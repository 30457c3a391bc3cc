; Tutorial 2: memory DSDs. y = y + a*x over N f32 elements with one asynchronous fmacs on a
; microthread; the CE is free while it runs, and the completion task `done` prints y[0].
; The host fills x and y, launches `main`, and reads y back.
        .equ    N, 64

        .data
        .align  16
y:      .space  4*N
        .space  4               ; x = y + 4 (mod 16): src0 and src1 never share a bank pair
x:      .space  4*N
a:      .f32    2.5
        .dsd    yd, mem1d, f32, base=y, len=N, stride=1
        .dsd    xd, mem1d, f32, base=x, len=N, stride=1
        .export y, f32, N
        .export x, f32, N

        .text
        .task   main, local, 0
        .task   done, local, 1
        .export main
main:   ldd     d0, yd
        ldd     d1, xd
        lw      r5, a
        fmacs   d0, d0, d1, r5, ut1 activate done   ; y[i] += x[i]*a, one element per cycle
        tend
done:   lw      r1, y
        dbg.f32 r1              ; y[0]
        tend
