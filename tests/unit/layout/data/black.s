; A "black" PE of the checkerboard test layout: receives on color RX, sends its ID on TX.
; ID, RX and TX are per-PE params from checkerboard.tlayout.
        .param  ID
        .param  RX
        .param  TX
        .param  ROLE = 0

        .data
id:     .word   ID
role:   .word   ROLE
        .export id, u32, 1
        .export role, u32, 1

        .text
        .task   main, local, 0
        .task   rx, data, RX
        .export main
main:   lw      r1, id
        send    r1, TX
        tend

rx:     sw      wv, role
        tend
