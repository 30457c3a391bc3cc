; Tutorial 3, the receiver (PE(1,0)): an asynchronous fabin fmovs copies N wavelets of color C
; into `buf`; its completion task adds them up and prints the sum.
        .param  C
        .equ    N, 32

        .data
        .align  4
buf:    .space  4*N
sum:    .word   0
        .dsd    din,  fabin, f32, color=C, len=N
        .dsd    dbuf, mem1d, f32, base=buf, len=N, stride=1
        .export buf, f32, N
        .export sum, f32, 1

        .text
        .task   main, local, 0
        .task   got, local, 1
        .export main
main:   ldd     d0, dbuf
        ldd     d1, din
        fmovs   d0, d1, ut0 activate got    ; waits for each wavelet: dataflow, not an error
        tend
got:    la      r1, buf
        li      r2, N
        li      r3, 0
1:      lw      r4, 0(r1)
        fadd.s  r3, r3, r4
        addi    r1, r1, 4
        addi    r2, r2, -1
        bnez    r2, 1b
        sw      r3, sum
        dbg.f32 r3
        tend
