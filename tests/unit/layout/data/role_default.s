; A program whose role is a param with a default (layout_test.cpp,
; ParamDefaultsAreAssemblyTimeConstants): `.if` needs it as an assembly-time constant.
        .param  ROLE = 0
        .text
        .task   main, local, 0
        .export main
main:
        .if     ROLE == 0
        li      r1, 7
        .else
        nop
        .endif
        tend
