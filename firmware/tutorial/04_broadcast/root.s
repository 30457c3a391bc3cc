; Tutorial 4, the root (PE(0,0)): sends its N values one by one with `send` on color C; the
; routes copy every wavelet to the three other PEs of the 2x2 fabric (multicast).
        .param  C
        .equ    N, 8

        .data
        .align  4
v:      .space  4*N
        .export v, i32, N

        .text
        .task   main, local, 0
        .export main
main:   la      r1, v
        li      r2, N
1:      lw      r3, 0(r1)
        send    r3, C           ; stalls while the color has no credit: back pressure
        addi    r1, r1, 4
        addi    r2, r2, -1
        bnez    r2, 1b
        tend
