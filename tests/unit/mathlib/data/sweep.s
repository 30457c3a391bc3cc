; The math library's test harness (tests/unit/mathlib/mathlib_test.cpp), linked with
; firmware/lib/math.s: the routine numbered `fn` (the order of `table`) over `count` elements
; of x into y, and the cycles that took in `cycles`. Scalar routines are called once per
; element in a loop; vector routines once, on mem1d descriptors of x and y (f32 or f16).
        .equ    N, 4096

        .global expf, logf, tanhf, sigmoidf, rsqrtf
        .global vexpf, vlogf, vtanhf, vsigmoidf, vrsqrtf
        .global vexph, vlogh, vtanhh, vsigmoidh, vrsqrth

        .data
        .align  16
x:
x16:    .space  4*N
y:
y16:    .space  4*N
fn:     .word   0
count:  .word   0
cycles: .word   0
table:  .word   expf, logf, tanhf, sigmoidf, rsqrtf         ; 0..4: scalar
        .word   vexpf, vlogf, vtanhf, vsigmoidf, vrsqrtf    ; 5..9: vector f32
        .word   vexph, vlogh, vtanhh, vsigmoidh, vrsqrth    ; 10..14: vector f16
        .word   none                                        ; 15: the scalar loop alone
        .dsd    xd, mem1d, f32, base=x, len=N
        .dsd    yd, mem1d, f32, base=y, len=N
        .dsd    xhd, mem1d, f16, base=x16, len=2*N
        .dsd    yhd, mem1d, f16, base=y16, len=2*N
        .export x, f32, N
        .export y, f32, N
        .export x16, f16, 2*N
        .export y16, f16, 2*N
        .export fn, u32, 1
        .export count, u32, 1
        .export cycles, u32, 1

        .text
        .task   main, local, 0
        .export main
main:   lw      r8, fn
        shli    r9, r8, 2
        la      r2, table
        add     r9, r9, r2
        lw      r9, 0(r9)
        lw      r10, count
        rdcyc   r11
        slti    r2, r8, 5
        bnez    r2, 1f
        li      r3, 15
        bne     r8, r3, vector
1:      la      r12, x
        la      r13, y
scalar: beqz    r10, done
        lw      r1, 0(r12)
        jalr    lr, (r9)
        sw      r1, 0(r13)
        addi    r12, r12, 4
        addi    r13, r13, 4
        addi    r10, r10, -1
        j       scalar
vector: slti    r2, r8, 10
        beqz    r2, half
        ldd     d1, yd
        ldd     d2, xd
        dsetl   d2, r10
        jalr    lr, (r9)
        j       done
half:   ldd     d1, yhd
        ldd     d2, xhd
        dsetl   d2, r10
        jalr    lr, (r9)
done:   rdcyc   r12
        sub     r12, r12, r11
        sw      r12, cycles
        tend
none:   ret
