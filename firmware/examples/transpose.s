; docs/isa.md 8.9, example (e): mem4d descriptors. One mov32 writes the transpose of a
; row-major M x K matrix, and one fsums adds up a P x Q tile of it, each walking memory in two
; dimensions instead of a loop of dincb.
        .equ    M, 4            ; rows of a
        .equ    K, 6            ; columns of a
        .equ    P, 2            ; the tile: P rows, Q columns, from row R, column C
        .equ    Q, 3
        .equ    R, 1
        .equ    C, 2

        .data
        .align  16
a:      .space  4*M*K
        .export a, f32, M*K
t:      .space  4*M*K           ; t = transpose(a), K x M, row-major
        .export t, f32, M*K
        .dsd    td, mem1d, f32, base=t, len=M*K
        ; a read column by column: dimension 0 runs down a column (M elements, K apart),
        ; dimension 1 steps to the next column
        .dsd    at, mem4d, f32, base=a, len=M, stride=K, len1=K, stride1=1
        ; the tile: Q elements of a row, then P rows K apart
        .dsd    tile, mem4d, f32, base=a+4*(R*K+C), len=Q, len1=P, stride1=K

        .text
        .task   main, local, 0
        .export main
main:   ldd     d0, td
        ldd     d2, at          ; a mem4d: an even register and its extension in the next
        ldd     d3, at+8
        mov32   d0, d2          ; t[j][i] = a[i][j], M*K elements
        ldd     d4, tile
        ldd     d5, tile+8
        li      r1, 0
        fsums   r1, d4          ; the tile's sum, in fdot's order
        dbg.f32 r1
        tend
