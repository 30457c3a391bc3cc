; DSD-heavy benchmark kernel (bench/ce_bench.cpp): acc = acc + 0.5*b over 256 f32 elements,
; repeated forever, synchronous on ut0; r1 counts operations. Each fmacs streams one element per
; cycle through the FMAC (docs/isa.md 6.7): b sits 4 bytes past a 16-byte boundary from acc, so
; the two reads of a step never fall in one bank.
        .equ    LEN, 256
        .data
        .align  16
acc:    .space  4*LEN
b:      .space  4*LEN + 4
        .dsd    dacc, mem1d, f32, base=acc, len=LEN, stride=1
        .dsd    db, mem1d, f32, base=b+4, len=LEN, stride=1

        .text
        .task   main, local, 0
        .export main
main:   li      r1, 0
        ldd     d2, dacc
        ldd     d3, db
        li      r6, f32(0.5)
again:  fmacs   d2, d2, d3, r6
        addi    r1, r1, 1
        j       again
