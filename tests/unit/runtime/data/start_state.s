; Tasks whose state the image sets at load: `boot` is active, so it runs without a launch; it
; sends three wavelets on color 4 to itself (RAMP to RAMP), whose data task `take` starts blocked
; and holds them until boot unblocks it. take adds each to `sum`; the last prints it.
        .data
        .align  4
sum:    .word   0
        .export sum, u32, 1

        .text
        .task   boot, local, 5, active
        .task   take, data, 4, blocked
boot:   li      r1, 10
        send    r1, 4
        li      r1, 20
        send    r1, 4
        li      r1, 12
        send    r1, 4
        li      r2, 60             ; a while, so the three wait in the queue, task blocked
wait:   addi    r2, r2, -1
        bnez    r2, wait
        lw      r3, sum
        dbg     r3                 ; 0: take has not run
        unblock 4
        tend
take:   lw      r3, sum
        add     r3, r3, r0
        sw      r3, sum
        dbg     r3
        tend
