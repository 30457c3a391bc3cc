; Per-region assembly: ROLE and N are assembly-time constants in a layout's regions, so they size
; buffers, repeat code and choose code at assembly time (docs/layout.md).
        .param  ROLE
        .param  N

        .data
buf:    .space  4*N
        .export buf, u32, N

        .text
        .task   main, local, 0
        .export main
main:
        .if ROLE == 0
        li      r1, 0x5A        ; the root's code only
        .else
        .rept   N
        nop
        .endr
        .endif
        tend
