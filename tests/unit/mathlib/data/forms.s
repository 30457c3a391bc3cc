; The vector routines over every kind of operand (tests/unit/mathlib/mathlib_test.cpp,
; MathLibForms): N values of x (not a whole number of blocks) through vtanhf
;   - into y, plainly (mem1d, stride 1);
;   - in place, over a copy of x in w;
;   - from x at stride 2 (a copy in xs) into z backwards (stride -1, from its last element);
;   - from a fabric stream (color 1, from the west edge) to one (color 2, to the east edge);
; and through vtanhh in place over x16 (f16). A call with a count of 0 writes nothing (u keeps
; its pattern).
        .equ    N, 150

        .global vtanhf, vtanhh

        .data
        .align  16
x:      .space  4*N
y:      .space  4*N
w:      .space  4*N
xs:     .space  4*2*N
z:      .space  4*N
u:      .word   0x12345678
x16:    .space  2*N
        .dsd    xd, mem1d, f32, base=x, len=N
        .dsd    yd, mem1d, f32, base=y, len=N
        .dsd    wd, mem1d, f32, base=w, len=N
        .dsd    xsd, mem1d, f32, base=xs, len=N, stride=2
        .dsd    zd, mem1d, f32, base=z+4*(N-1), len=N, stride=-1
        .dsd    ud, mem1d, f32, base=u, len=0
        .dsd    x16d, mem1d, f16, base=x16, len=N
        .dsd    ind, fabin, f32, color=1, len=N
        .dsd    outd, fabout, f32, color=2, len=N
        .export x, f32, N
        .export y, f32, N
        .export w, f32, N
        .export z, f32, N
        .export u, u32, 1
        .export x16, f16, N

        .text
        .task   main, local, 0
        .export main
main:   ldd     d1, yd
        ldd     d2, xd
        call    vtanhf
        ldd     d1, wd
        ldd     d2, xd
        mov32   d1, d2
        ldd     d2, wd
        call    vtanhf
        ldd     d1, xsd
        ldd     d2, xd
        mov32   d1, d2
        ldd     d1, zd
        ldd     d2, xsd
        call    vtanhf
        ldd     d1, ud
        ldd     d2, ud
        call    vtanhf
        ldd     d1, x16d
        ldd     d2, x16d
        call    vtanhh
        ldd     d1, outd
        ldd     d2, ind
        call    vtanhf
        tend
