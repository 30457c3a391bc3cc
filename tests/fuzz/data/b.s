; A second program for the layout fuzz target: a data task on a param color.
        .param  RX = 3
        .text
        .task   rx, data, RX
rx:     addi    r2, wv, 1
        tend
