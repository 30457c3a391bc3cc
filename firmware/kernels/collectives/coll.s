; The collectives as a kernel (docs/kernels.md, "broadcast", "reduce", "allreduce"): every PE
; holds N f32 values in v and calls one routine of firmware/lib/collectives.s on them; the host
; checks v on every PE bit for bit against the library's documented order.
        .param  N               ; values per PE
        .param  KIND            ; 0 broadcast, 1 reduce, 2 allreduce
        .param  ALONG           ; 0 rows, 1 columns, 2 the grid
        .param  MAX = 0         ; reduce with max instead of sum

        .data
        .align  16
v:      .space  4*N
        .export v, f32, N
        .dsd    vd, mem1d, f32, base=v, len=N

        .text
        .task   main, local, 0
        .export main
main:   ldd     d1, vd
        .if     KIND == 0
        .if     ALONG == 0
        call    row_bcast
        .elif   ALONG == 1
        call    col_bcast
        .else
        call    grid_bcast
        .endif
        .elif   KIND == 1
        .if     ALONG == 0 && MAX
        call    row_reduce_max
        .elif   ALONG == 0
        call    row_reduce_sum
        .elif   ALONG == 1 && MAX
        call    col_reduce_max
        .elif   ALONG == 1
        call    col_reduce_sum
        .elif   MAX
        call    grid_reduce_max
        .else
        call    grid_reduce_sum
        .endif
        .else
        .if     ALONG == 0 && MAX
        call    row_allreduce_max
        .elif   ALONG == 0
        call    row_allreduce_sum
        .elif   ALONG == 1 && MAX
        call    col_allreduce_max
        .elif   ALONG == 1
        call    col_allreduce_sum
        .elif   MAX
        call    grid_allreduce_max
        .else
        call    grid_allreduce_sum
        .endif
        .endif
        tend

        .global row_bcast, col_bcast, grid_bcast, row_reduce_max, row_reduce_sum
        .global col_reduce_max, col_reduce_sum, grid_reduce_max, grid_reduce_sum
        .global row_allreduce_max, row_allreduce_sum, col_allreduce_max, col_allreduce_sum
        .global grid_allreduce_max, grid_allreduce_sum
