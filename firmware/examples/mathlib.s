; The math library (firmware/lib/math.s, firmware/lib/README.md) called from a program: every
; routine over the same N values. y receives the five vector routines (f32) and then the five
; scalar routines, N results each, in the order exp, log, tanh, sigmoid, rsqrt; y16 receives
; the five f16 vector routines over x16. The cycles each routine took over the N values (call
; and return included) go to the debug port, in the same order. Linked with the library by
; mathlib.tlayout; the integration tests run it on every backend (tests/integration/runtime,
; run_mathlib_*).
        .equ    N, 64

        .global vexpf, vlogf, vtanhf, vsigmoidf, vrsqrtf
        .global vexph, vlogh, vtanhh, vsigmoidh, vrsqrth
        .global expf, logf, tanhf, sigmoidf, rsqrtf

        .data
        .align  16
x:      .space  4*N
y:      .space  4*10*N
x16:    .space  2*N
y16:    .space  2*5*N
        .dsd    xd, mem1d, f32, base=x, len=N
        .dsd    yd, mem1d, f32, base=y, len=N
        .dsd    xhd, mem1d, f16, base=x16, len=N
        .dsd    yhd, mem1d, f16, base=y16, len=N
        .export x, f32, N
        .export y, f32, 10*N
        .export x16, f16, N
        .export y16, f16, 5*N

; y[k*N + i] = f(x[i]) by a vector routine: d2 = x, d1 = the next N elements of y (d8, which
; the library preserves).
        .macro  VECTOR fn, xdesc
        ldd     d2, \xdesc
        dmov    d1, d8
        rdcyc   r11
        call    \fn
        rdcyc   r12
        sub     r12, r12, r11
        dbg.u32 r12
        dincb   d8, N
        .endm

; The same, one call of a scalar routine per element (r8: where y goes; r9..r13 survive calls).
        .macro  SCALAR fn
        la      r9, x
        li      r10, N
        li      r13, 0
1:      lw      r1, 0(r9)
        rdcyc   r11
        call    \fn
        rdcyc   r12
        sub     r12, r12, r11
        add     r13, r13, r12
        sw      r1, 0(r8)
        addi    r8, r8, 4
        addi    r9, r9, 4
        addi    r10, r10, -1
        bnez    r10, 1b
        dbg.u32 r13
        .endm

        .text
        .task   main, local, 0
        .export main
main:   ldd     d8, yd
        VECTOR  vexpf, xd
        VECTOR  vlogf, xd
        VECTOR  vtanhf, xd
        VECTOR  vsigmoidf, xd
        VECTOR  vrsqrtf, xd
        la      r8, y+4*5*N
        SCALAR  expf
        SCALAR  logf
        SCALAR  tanhf
        SCALAR  sigmoidf
        SCALAR  rsqrtf
        ldd     d8, yhd
        VECTOR  vexph, xhd
        VECTOR  vlogh, xhd
        VECTOR  vtanhh, xhd
        VECTOR  vsigmoidh, xhd
        VECTOR  vrsqrth, xhd
        tend
