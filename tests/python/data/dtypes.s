; Test data of the Python module (tests/python): an exported array of each element type for
; memcpy round trips in every dtype, and a task `bump` that adds its argument (TaskArg, in r0)
; to every element of the i32 array and prints it.
        .equ    N, 6

        .data
        .align  4
af32:   .space  4*N
ai32:   .space  4*N
au32:   .space  4*N
af16:   .space  2*N
ai16:   .space  2*N
au16:   .space  2*N
        .export af32, f32, N
        .export ai32, i32, N
        .export au32, u32, N
        .export af16, f16, N
        .export ai16, i16, N
        .export au16, u16, N

        .text
        .task   bump, local, 0
        .export bump
bump:   la      r1, ai32
        li      r2, N
1:      lw      r3, 0(r1)
        add     r3, r3, r0
        sw      r3, 0(r1)
        addi    r1, r1, 4
        addi    r2, r2, -1
        bnez    r2, 1b
        dbg.i32 r0
        tend
