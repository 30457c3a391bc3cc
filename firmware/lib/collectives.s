; Collectives over rows, columns and the whole grid of PEs (firmware/lib/README.md,
; "Collectives"): broadcast, reduce and allreduce of an f32 vector, sum or max, in a fixed order
; so that results are bit-reproducible. Link beside a program (program=app.s,../lib/collectives.s)
; and include collectives.tlayout in the layout for the routes.
;
; Every routine works on the vector d1 describes (mem1d f32, its Length the count, any stride),
; in place. Every PE of the row, the column or the grid calls the same routine; each finds its
; role from PeCoord and FabricDim. Roots: x = 0 for rows, y = 0 for columns, (0, 0) for the grid.
;   row_reduce_sum  S_x = v_x + S_(x+1), S_(W-1) = v_(W-1): PE(0, y) gets S_0 (max: the same with
;                   max); the other PEs' vectors are left as they were
;   row_bcast       PE(0, y)'s vector to every PE of the row
;   row_allreduce_* reduce, then broadcast: every PE of the row ends with S_0
;   col_*           the same down columns, root y = 0
;   grid_reduce_*   row reduce, then column reduce over column 0: the root (0, 0) gets
;                   T_0 = R_0 + T_1, T_(H-1) = R_(H-1), R_y the row y's result
;   grid_bcast      column broadcast over column 0, then row broadcasts
;   grid_allreduce_* grid reduce, then grid broadcast
; Calling: `call NAME` with d1 loaded; clobbers r1..r7, d6 and d7; uses microthread 0,
; synchronously. No task; one word of .data per composite routine (its return address).
;
; Colors (params, so a layout can move them; collectives.tlayout routes the defaults):
        .param  COLL_RW0 = 16   ; row reduce: partial results west from even x
        .param  COLL_RW1 = 17   ; ... from odd x
        .param  COLL_RB = 18    ; row broadcast, eastward from x = 0
        .param  COLL_CN0 = 19   ; column reduce: partial results north from even y
        .param  COLL_CN1 = 20   ; ... from odd y
        .param  COLL_CB = 21    ; column broadcast, southward from y = 0

        .global row_reduce_sum, row_reduce_max, row_bcast, row_allreduce_sum, row_allreduce_max
        .global col_reduce_sum, col_reduce_max, col_bcast, col_allreduce_sum, col_allreduce_max
        .global grid_reduce_sum, grid_reduce_max, grid_bcast, grid_allreduce_sum
        .global grid_allreduce_max

        .text

; r2 = this PE's index along the line, r3 = the line's last index. COL: 0 row, 1 column.
        .macro  WHERE col
        lw      r2, PeCoord
        lw      r3, FabricDim
        .if     \col
        shri    r2, r2, 16
        shri    r3, r3, 16
        .else
        andi    r2, r2, 0xFFFF
        andi    r3, r3, 0xFFFF
        .endif
        addi    r3, r3, -1
        .endm

; d6 = fabin and d7 = fabout f32 descriptors of d1's length on colors CIN and COUT (registers).
        .macro  FABRIC cin, cout
        drd     r4, d1, 0
        shri    r4, r4, 16
        andi    r4, r4, 0x7FFF          ; Length
        shli    r4, r4, 16              ; word 0 of a fabric descriptor: Length, Base 0
        dwr     d6, r4, 0
        dwr     d7, r4, 0
        shli    r4, \cin, 16
        lui     r5, 0x0200              ; Kind fabin, Elem f32
        or      r4, r4, r5
        dwr     d6, r4, 1
        shli    r4, \cout, 16
        lui     r5, 0x0300              ; Kind fabout, Elem f32
        or      r4, r4, r5
        dwr     d7, r4, 1
        .endm

; A reduce along a line: the last PE sends its vector, each PE before it combines its own with
; what arrives and passes it on, the root combines into its vector. Colors alternate with the
; index's parity, so a PE's incoming and outgoing streams differ.
        .macro  REDUCE name, col, c0, c1, op
\name:  WHERE   \col
        beqz    r3, L_done\@            ; a line of one PE
        li      r6, \c0
        li      r7, \c1
        andi    r1, r2, 1
        beqz    r1, L_even\@
        FABRIC  r6, r7                  ; odd: from the even next one, out on the odd color
        j       L_go\@
L_even\@:
        FABRIC  r7, r6
L_go\@: beqz    r2, L_root\@
        beq     r2, r3, L_last\@
        \op     d7, d1, d6              ; mine and what comes, on to the previous PE
        ret
L_root\@:
        \op     d1, d1, d6
        ret
L_last\@:
        mov32   d7, d1
L_done\@:
        ret
        .endm

; A broadcast along a line from index 0; the routes copy each wavelet to the next PE as it
; reaches this one's compute engine.
        .macro  BCAST name, col, c
\name:  WHERE   \col
        beqz    r3, L_done\@
        li      r6, \c
        FABRIC  r6, r6
        beqz    r2, L_root\@
        mov32   d1, d6
        ret
L_root\@:
        mov32   d7, d1
L_done\@:
        ret
        .endm

        REDUCE  row_reduce_sum, 0, COLL_RW0, COLL_RW1, fadds
        REDUCE  row_reduce_max, 0, COLL_RW0, COLL_RW1, fmaxs
        REDUCE  col_reduce_sum, 1, COLL_CN0, COLL_CN1, fadds
        REDUCE  col_reduce_max, 1, COLL_CN0, COLL_CN1, fmaxs
        BCAST   row_bcast, 0, COLL_RB
        BCAST   col_bcast, 1, COLL_CB

; Composites keep their return address in a word of their own (no stack needed; none of them
; calls itself).
        .macro  TWO name, first, second
        .data
        .align  4
L_lr\@: .word   0
        .text
\name:  sw      lr, L_lr\@
        call    \first
        call    \second
        lw      lr, L_lr\@
        ret
        .endm
; On column 0 only: a column step of a grid routine.
        .macro  COL0 name, step
\name:  lw      r2, PeCoord
        andi    r2, r2, 0xFFFF
        bnez    r2, L_no\@
        j       \step
L_no\@: ret
        .endm

        TWO     row_allreduce_sum, row_reduce_sum, row_bcast
        TWO     row_allreduce_max, row_reduce_max, row_bcast
        TWO     col_allreduce_sum, col_reduce_sum, col_bcast
        TWO     col_allreduce_max, col_reduce_max, col_bcast
        COL0    col0_reduce_sum, col_reduce_sum
        COL0    col0_reduce_max, col_reduce_max
        COL0    col0_bcast, col_bcast
        TWO     grid_reduce_sum, row_reduce_sum, col0_reduce_sum
        TWO     grid_reduce_max, row_reduce_max, col0_reduce_max
        TWO     grid_bcast, col0_bcast, row_bcast
        TWO     grid_allreduce_sum, grid_reduce_sum, grid_bcast
        TWO     grid_allreduce_max, grid_reduce_max, grid_bcast
