; Test data (switches that wait): N data wavelets of color C from x, then, if CTRL is 1, a
; control wavelet that names no task (31). Both senders of gather.tlayout start together.
        .param  C
        .param  CTRL
        .equ    N, 8

        .data
        .align  4
x:      .space  4*N
        .dsd    xs,  mem1d,  i32, base=x, len=N, stride=1
        .dsd    out, fabout, i32, color=C, len=N
        .export x, i32, N

        .text
        .task   main, local, 0
        .export main
main:   ldd     d0, xs
        ldd     d1, out
        mov32   d1, d0          ; synchronous: every wavelet has left when it ends
        li      r2, CTRL
        beqz    r2, 1f
        li      r1, 31 << 16    ; control wavelet: no task
        sendc   r1, C
1:      tend
