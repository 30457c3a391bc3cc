; Test data of the performance counters (docs/profiling.md): y = y + a*x over N f32 elements with
; x at y + 4*N, a multiple of 16 bytes away, so src0 and src1 of every step are in the same bank
; pair of different rows: each step waits for an SRAM port (ut_port), unlike tutorial 2's.
        .equ    N, 64

        .data
        .align  16
y:      .space  4*N
x:      .space  4*N             ; x = y + 256: the same banks as y, another row
a:      .f32    2.5
        .dsd    yd, mem1d, f32, base=y, len=N, stride=1
        .dsd    xd, mem1d, f32, base=x, len=N, stride=1
        .export y, f32, N
        .export x, f32, N

        .text
        .task   main, local, 0
        .export main
main:   ldd     d0, yd
        ldd     d1, xd
        lw      r5, a
        fmacs   d0, d0, d1, r5, ut1     ; asynchronous: the task ends, the microthread runs on
        tend
