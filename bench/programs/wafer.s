; The whole-wafer benchmark's program (bench/wafer.sh): every PE sums 16..1 into `out` (136) and
; ends; the host reads `out` back from every PE.
        .data
        .align  4
out:    .word   0
        .export out, i32, 1

        .text
        .task   main, local, 0
        .export main
main:   li      r1, 16
        li      r2, 0
loop:   add     r2, r2, r1
        addi    r1, r1, -1
        bnez    r1, loop
        sw      r2, out
        tend
