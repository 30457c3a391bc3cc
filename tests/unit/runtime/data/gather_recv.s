; Test data (switches that wait): a data task on color C adds up every wavelet it receives and
; counts them.
        .param  C

        .data
        .align  4
sum:    .word   0
count:  .word   0
        .export sum, i32, 1
        .export count, i32, 1

        .text
        .task   rx, data, C
rx:     lw      r1, sum
        add     r1, r1, r0
        sw      r1, sum
        lw      r2, count
        addi    r2, r2, 1
        sw      r2, count
        tend
