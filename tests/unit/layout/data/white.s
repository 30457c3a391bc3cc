; A "white" PE of the checkerboard test layout: adds its ID (a param) to what arrives on RX.
        .param  ID
        .param  RX

        .data
id:     .word   ID
sum:    .word   0
        .export id, u32, 1
        .export sum, u32, 1

        .text
        .task   rx, data, RX
rx:     lw      r1, id
        add     r1, r1, wv
        sw      r1, sum
        tend
