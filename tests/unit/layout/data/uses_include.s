; Uses a constant from an include directory that the layout names.
        .include "consts.inc"
        .param  ID
        .data
v:      .word   BASE + ID
        .export v, u32, 1
