; sum = x[0] + ... + x[N-1], f32, one PE. The host launches `main`.
; docs/isa.md 8.5: a scalar loop over an array in .data.
        .equ    N, 8

        .data
        .align  4
x:      .f32    1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0
sum:    .word   0
        .export x, f32, N
        .export sum, f32, 1

        .text
        .task   main, local, 0
        .export main
main:   la      r1, x           ; r1 = pointer
        li      r2, N           ; r2 = elements left
        li      r3, 0           ; r3 = acc = +0.0
loop:   lw      r4, 0(r1)
        fadd.s  r3, r3, r4      ; 6 cycles
        addi    r1, r1, 4
        addi    r2, r2, -1
        bnez    r2, loop
        sw      r3, sum         ; absolute address (Z = 1)
        dbg.f32 r3              ; prints "@<cycle> PE(0,0): 36"
        tend
