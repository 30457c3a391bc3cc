; Mistakes `tessera asm` must report with file:line:column and what is allowed.
        .text
main:   fadd    r1, r2, r3
        addi    r1, r2, 70000
        bnez    r1, mian
        .data
        .byte   1
        .word   2
