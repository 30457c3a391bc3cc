; A program for the layout fuzz target (tests/fuzz/fuzz_layout.cpp): a param, a task, a send.
        .param  K = 1
        .param  C = 3
        .data
x:      .word   K
        .export x, u32, 1
        .text
        .task   main, local, 0
        .export main
main:   lw      r1, x
        send    r1, C
        tend
