; An assembly error for the layout tests.
        .text
        fadd    r1, r2, r3
