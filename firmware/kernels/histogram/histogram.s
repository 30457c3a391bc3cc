; Histogram with every value routed to the PE that owns its bin (docs/kernels.md, "histogram").
; PE(X, Y) holds N values in [0, 1) and owns BP of the B bins. Its values' bins are computed
; with DSD operations, bin = i32(min(v * B, B - 1)) in f32; then each value goes, as one wavelet,
; to its bin's owner (OX, OY): first along its row to column OX, on color OX (one color per PE
; column, routed toward that column and to the compute engine there), then down or up column OX
; to row OY, on color W + OY (one color per PE row). The wavelet is the word own[bin], from a
; table the host writes for each PE: the color of the first hop from this PE (OX, or W + OY if
; OX = X; 31 if this PE owns the bin) in bits 31:24, the column color W + OY in bits 23:16 and
; the address of the bin's counter at the owner in bits 15:0.
;
; Tasks (a data task's ID is its color):
;   turn (data, color X): a wavelet that reached its owner's column on this row. If this PE
;       owns it, count it; else send it on along the column.
;   count (data, color W + Y): a wavelet for this PE: count it.
;   drain (local 28): sends a wavelet that `turn` could not send at once.
;   sender (local 29): the loop over this PE's values: count its own, send the others.
;   main (local 30): the bins, then the loop.
; No task ever waits for a credit: a send is made only when CeColor's OutCredits says it will go
; at once. The sender otherwise ends and activates itself again (data tasks, with lower IDs,
; run first); `turn` keeps the wavelet, blocks itself (its wavelets wait in the queues and
; routers behind it) and activates `drain`, which retries until the wavelet has gone and then
; unblocks `turn`. The picker starts the lowest runnable ID, so the counting tasks always run
; and `drain` runs before the sender: wavelets always drain.
;
; Registers: r8, r9 the sender's place, r10 the wavelet `turn` holds, r11 = CeColor, r12 = 31,
; r13 = own (kept across tasks; main sets them before any wavelet can arrive); every task uses
; r1..r5 only within its run.
        .param  N               ; values per PE
        .param  B               ; bins
        .param  BP              ; bins per PE (the counters)
        .param  X               ; this PE's column: its turn color
        .param  MYC             ; W + Y: the color of wavelets for this PE
        .param  BF              ; f32 bits of B and of B - 1
        .param  BM1F

        .data
        .align  16
v:      .space  4*N             ; the values; then their bins (u32, in place)
        .export v, f32, N
own:    .space  4*B             ; own[bin]: the first hop's color, the column color, the counter
        .export own, u32, B
hist:   .space  4*BP            ; the counters of the bins this PE owns
        .export hist, u32, BP
        .dsd    vd, mem1d, f32, base=v, len=N
        .dsd    vi, mem1d, u32, base=v, len=N
        .dsd    hd, mem1d, u32, base=hist, len=BP

        .text
        .task   main, local, 30
        .task   drain, local, 28
        .task   sender, local, 29
        .task   turn, data, X
        .task   count, data, MYC
        .export main

; r1 = CeColor[color] & OutCredits (nonzero: a send on the color goes at once).
        .macro  CREDITS color
        shli    r5, \color, 2
        add     r5, r5, r11
        lw      r1, 0(r5)
        andi    r1, r1, 0xF00
        .endm

; The counter at the address in bits 15:0 of WORD += 1.
        .macro  COUNT word
        andi    r1, \word, 0xFFFF
        lw      r2, 0(r1)
        addi    r2, r2, 1
        sw      r2, 0(r1)
        .endm

main:   la      r11, CeColor
        li      r12, 31
        la      r13, own
        ldd     d0, vd
        ldd     d1, vi
        li      r1, BF
        fmuls   d0, d0, r1      ; v * B
        li      r1, BM1F
        fmins   d0, d0, r1      ; at most B - 1 (v * B may round up to B)
        fs2i    d1, d0          ; the bin: toward zero
        ldd     d2, hd
        li      r1, 0
        mov32   d2, r1          ; counters 0
        la      r8, v
        li      r9, N
sender: beqz    r9, s_done
s_loop: lw      r1, 0(r8)       ; the bin
        shli    r1, r1, 2
        add     r1, r1, r13
        lw      r3, 0(r1)       ; its word
        shri    r4, r3, 24      ; the first hop's color
        beq     r4, r12, s_mine
        CREDITS r4
        beqz    r1, s_yield
        send    r3, r4
s_next: addi    r8, r8, 4
        addi    r9, r9, -1
        bnez    r9, s_loop
s_done: tend
s_mine: COUNT   r3
        j       s_next
s_yield:
        activate sender         ; run again after the data tasks that are waiting
        tend

turn:   shri    r4, r0, 16
        andi    r4, r4, 0xFF
        li      r2, MYC
        beq     r4, r2, count   ; for this row: mine
        CREDITS r4
        beqz    r1, t_hold
        send    r0, r4          ; on along the column
        tend
t_hold: mov     r10, r0
        block   turn
        activate drain
        tend

count:  COUNT   r0
        tend

drain:  shri    r4, r10, 16
        andi    r4, r4, 0xFF
        CREDITS r4
        beqz    r1, d_again
        send    r10, r4
        unblock turn
        tend
d_again:
        activate drain
        tend
