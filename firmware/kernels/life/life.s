; Conway's Game of Life on an M x N board without wrap-around (cells outside are dead)
; (docs/kernels.md, "life"): PE(x, y) holds an NR x MR block of cells (f32 1.0 alive, 0.0 dead)
; in an array of MBX + 2 rows of S elements, row-major, with a halo ring: row 0 and row MR + 1,
; column 0 and column NR + 1 hold the neighbours' edges (zero at the board's edges).
;
; Each generation:
;  1. halo exchange in two phases: the edge columns go west and east (MR cells) into the
;     neighbours' halo columns; then the edge rows go north and south with their two halo
;     cells (NR + 2 cells), so the corners arrive in the same pass (a cell diagonally across is
;     the east or west neighbour's, forwarded by the north or south one);
;  2. the counts, separably, through mem4d views of the array: V = rows above + own + below
;     (2 fadds over MR x (NR + 2)), T = V left + V + V right (2 fadds over MR x NR): T is the
;     3 x 3 sum, the cell included;
;  3. the rule: alive next if T == 3, or T == 4 and alive now:
;       m4 = T == 4;  m4 = m4 & cell (the cell's bits: 1.0 or 0);  m = T != 3
;       cell = m ? m4 : 1.0      (fceqs, and32, fcnes, sel32)
        .param  MR              ; this PE's block: MR rows, NR columns
        .param  NR
        .param  MBX             ; the largest block's rows (every PE's array has MBX + 2 rows)
        .param  S               ; elements per row of the array (>= NR + 2, S mod 4 = 2)
        .param  ITERS           ; generations
        .param  HW = 0          ; 1 where the neighbour on that side exists
        .param  HE = 0
        .param  HN = 0
        .param  HS = 0
        .param  CWO = 0         ; colors: out to W, E, N, S; in from W, E, N, S
        .param  CEO = 0
        .param  CNO = 0
        .param  CSO = 0
        .param  CWI = 0
        .param  CEI = 0
        .param  CNI = 0
        .param  CSI = 0

        .equ    RB, 4*S         ; bytes per row of the array

; Banks (docs/isa.md 6.7): S = 2 (mod 4), so rows r and r + 1 of one array are 8 bytes apart
; modulo 16; g at 0, V at 4 and T at 8 modulo 16 keep the two sources of every operation on
; different bank pairs.
        .data
        .align  16
g:      .space  4*S*(MBX + 2)
        .export g, f32, S*(MBX + 2)
        .align  16
        .space  4
v:      .space  4*S*MR
        .align  16
        .space  8
t:      .space  4*S*MR

        ; the counts: rows 0..MR-1, 1..MR and 2..MR+1 of g, NR + 2 wide; V; V shifted
        .dsd    g_up, mem4d, f32, base=g, len=NR+2, len1=MR, stride1=S
        .dsd    g_mid, mem4d, f32, base=g+RB, len=NR+2, len1=MR, stride1=S
        .dsd    g_dn, mem4d, f32, base=g+2*RB, len=NR+2, len1=MR, stride1=S
        .dsd    v_all, mem4d, f32, base=v, len=NR+2, len1=MR, stride1=S
        .dsd    v_w, mem4d, f32, base=v, len=NR, len1=MR, stride1=S
        .dsd    v_c, mem4d, f32, base=v+4, len=NR, len1=MR, stride1=S
        .dsd    v_e, mem4d, f32, base=v+8, len=NR, len1=MR, stride1=S
        .dsd    v_wi, mem4d, u32, base=v, len=NR, len1=MR, stride1=S
        .dsd    t_c, mem4d, f32, base=t, len=NR, len1=MR, stride1=S
        .dsd    cell, mem4d, f32, base=g+RB+4, len=NR, len1=MR, stride1=S
        .dsd    cell_i, mem4d, u32, base=g+RB+4, len=NR, len1=MR, stride1=S
        ; edges to send, halos to fill
        .dsd    e_w, mem1d, f32, base=g+RB+4, len=MR, stride=S
        .dsd    e_e, mem1d, f32, base=g+RB+4*NR, len=MR, stride=S
        .dsd    e_n, mem1d, f32, base=g+RB, len=NR+2
        .dsd    e_s, mem1d, f32, base=g+RB*MR, len=NR+2
        .dsd    h_w, mem1d, f32, base=g+RB, len=MR, stride=S
        .dsd    h_e, mem1d, f32, base=g+RB+4*(NR+1), len=MR, stride=S
        .dsd    h_n, mem1d, f32, base=g, len=NR+2
        .dsd    h_s, mem1d, f32, base=g+RB*(MR+1), len=NR+2
        .dsd    ow, fabout, f32, color=CWO, len=MR
        .dsd    oe, fabout, f32, color=CEO, len=MR
        .dsd    on, fabout, f32, color=CNO, len=NR+2
        .dsd    os, fabout, f32, color=CSO, len=NR+2
        .dsd    iw, fabin, f32, color=CWI, len=MR
        .dsd    ie, fabin, f32, color=CEI, len=MR
        .dsd    in, fabin, f32, color=CNI, len=NR+2
        .dsd    is, fabin, f32, color=CSI, len=NR+2

; One exchange on a side that has a neighbour: the edge out on microthread UO, the neighbour's
; edge into the halo on microthread UI, both in the background.
        .macro  XCHG edge, out, halo, inp, uo, ui
        ldd     d8, \edge
        ldd     d9, \out
        mov32   d9, d8, \uo async
        ldd     d10, \halo
        ldd     d11, \inp
        mov32   d10, d11, \ui async
        .endm

        .text
        .task   main, local, 0
        .export main
main:   li      r8, ITERS
        li      r9, f32(4.0)
        li      r10, f32(3.0)
        li      r11, f32(1.0)
gen:
        ; 1. the halo: columns west and east, then rows (with their corners) north and south
        .if     HW
        XCHG    e_w, ow, h_w, iw, ut1, ut3
        .endif
        .if     HE
        XCHG    e_e, oe, h_e, ie, ut2, ut4
        .endif
        utwait  0x1E
        .if     HN
        XCHG    e_n, on, h_n, in, ut1, ut3
        .endif
        .if     HS
        XCHG    e_s, os, h_s, is, ut2, ut4
        .endif
        utwait  0x1E
        ; 2. T = the 3 x 3 sums
        ldd     d0, v_all
        ldd     d1, v_all+8
        ldd     d2, g_up
        ldd     d3, g_up+8
        ldd     d4, g_mid
        ldd     d5, g_mid+8
        fadds   d0, d2, d4      ; V = above + own
        ldd     d2, g_dn
        ldd     d3, g_dn+8
        fadds   d0, d0, d2      ; V += below
        ldd     d0, t_c
        ldd     d1, t_c+8
        ldd     d2, v_w
        ldd     d3, v_w+8
        ldd     d4, v_c
        ldd     d5, v_c+8
        fadds   d0, d2, d4      ; T = V left + V
        ldd     d4, v_e
        ldd     d5, v_e+8
        fadds   d0, d0, d4      ; T += V right
        ; 3. the rule (V is free now: m4 goes there)
        fceqs   d2, d0, r9      ; m4 = T == 4
        fcnes   d0, d0, r10     ; m = T != 3
        ldd     d2, v_wi
        ldd     d3, v_wi+8
        ldd     d4, cell_i
        ldd     d5, cell_i+8
        and32   d2, d2, d4      ; m4 = T == 4 and alive: 1.0 or 0
        ldd     d4, cell
        ldd     d5, cell+8
        sel32   d4, d0, d2, r11 ; cell = m ? m4 : 1.0
        addi    r8, r8, -1
        bnez    r8, gen
        tend
