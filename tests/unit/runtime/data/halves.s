; Test data for memcpy: 16- and 32-bit exported arrays, with guard words around them.
        .data
        .align  4
g0:     .word   0xdeadbeef
h:      .space  10              ; 5 u16 elements
        .align  4
g1:     .word   0xfeedface
w:      .space  12              ; 3 u32 elements
        .export g0, u32, 1
        .export h, u16, 5
        .export g1, u32, 1
        .export w, u32, 3

        .text
        .task   main, local, 0
        .export main
main:   tend
