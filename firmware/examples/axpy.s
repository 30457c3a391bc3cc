; y = y + a*x with memory DSDs, asynchronous, with a completion task (docs/isa.md 8.6).
        .equ    N, 32

        .data
        .align  16
y:      .space  4*N
        .space  4               ; x = y + 4 (mod 16): src0 and src1 never share a bank pair
x:      .space  4*N
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
        li      r5, f32(2.5)    ; a (one lui)
        fmacs   d0, d0, d1, r5, ut1 activate done   ; y[i] = y[i] + x[i]*a, in the background
        tend                    ; the CE is free; `done` starts when the 32 results are written
done:   lw      r1, y
        dbg.f32 r1              ; y[0]
        tend
