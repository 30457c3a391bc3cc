; A multi-layer perceptron on a row of P PEs (docs/ml.md): dense or sparse layers, forward,
; softmax with cross-entropy, backward and SGD with momentum, with the weights resident in PE
; memory or streamed in from the host through each PE's north edge port.
;
; Mapping (input-partitioned): layer l has N_l inputs and M_l outputs. PE px owns the input slice
; of NB_l features (px*NB_l .. px*NB_l + NB_l - 1; the host pads N_l to P*NB_l with zero
; features) and the columns of W_l for those features, so its partial product is a full-length
; M_l vector per sample. An allreduce along the row (collectives.s) gives every PE the whole
; pre-activation z_l = W_l a + b_l of the batch; each PE then applies the activation to its own
; slice, which is the next layer's input slice. Backward, every PE holds the whole dz_l: the
; weight gradient of its columns and the input gradient of its slice are local, and an allgather
; (the slices placed in a zeroed vector, then an allreduce) gives every PE dz_(l-1).
;
; Arrays (row-major, sample b slowest): x_l [B][NB_l] (f32, or f16 with F16), z_l and dz_l
; [B][MP_l] f32 (MP_l = P*NB_(l+1) for hidden layers, M_l for the last), W_l column-major
; [NB_l][M_l] (column j = the weights from input feature j), biases [MP_l] f32 on every PE.
;
; Dense forward: for each column j and sample b, z[b][:] += W[:, j] * x[b][j] (one AXPY of M_l on
; microthread 1). Streaming: the columns arrive from the north edge on color WS, M_l wavelets
; each, in order; column j+1 is received (microthread 2) while column j's AXPYs run.
; Sparse forward (SP_l = 1): each nonzero W[i][j] is a pair (packed byte offsets 4i << 16 |
; EB*j, value) and one AXPY over the batch, z[:][i] += W[i][j] * x[:][j] (strided). Resident:
; the pairs are in nz_l, their count in nnz_l. Streaming: a count wavelet, then two wavelets per
; pair, on color WS.
; Backward (train): per column j, g[:, j] = sum_b dz[b][:] * x[b][j] (AXPYs) and, for l > 0,
; dx[b][j] = W[:, j] . dz[b][:] (fdots); streaming receives W's columns again (f32, or f16
; widened) and sends each gradient column north on color GS; the host updates those weights.
; f16 (F16 = 1): W and x are f16 for the forward (fmachs: f16 products, f32 sums); activations are
; rounded to f16 and widened again (xf) for the gradients; resident weights keep an f32 master
; copy (wm) that the update writes and rounds into w.
        .param  P                       ; PEs in the row
        .param  PX                      ; this PE's column
        .param  B                       ; samples in a batch
        .param  NL                      ; layers, 1..4
        .param  F16 = 0
        .param  STREAM = 0              ; 1: weights stream in from the north edge
        .param  TRAIN = 0               ; 1: the train task (loss, backward, update) is present
        .param  MMAX = 1                ; the largest M_l (streaming buffers)
        .param  TMP = 1                 ; elements of each scratch vector: max B*NB_l
        .param  WS = 12                 ; color of the weight stream (north edge to the CE)
        .param  GS = 13                 ; color of the gradient stream (CE to the north edge)
        .param  NB0 = 0                 ; per layer: input features per PE, outputs, padded
        .param  M0 = 0                  ; outputs (z row length), activation of the outputs
        .param  MP0 = 0                 ; (0 ReLU, 1 GELU; the last layer has none: softmax
        .param  ACT0 = 0                ; with cross-entropy in training), sparse (1) and room
        .param  SP0 = 0                 ; for nonzeros (resident sparse)
        .param  CAP0 = 0
        .param  NB1 = 0
        .param  M1 = 0
        .param  MP1 = 0
        .param  ACT1 = 0
        .param  SP1 = 0
        .param  CAP1 = 0
        .param  NB2 = 0
        .param  M2 = 0
        .param  MP2 = 0
        .param  ACT2 = 0
        .param  SP2 = 0
        .param  CAP2 = 0
        .param  NB3 = 0
        .param  M3 = 0
        .param  MP3 = 0
        .param  ACT3 = 0
        .param  SP3 = 0
        .param  CAP3 = 0

        .global row_allreduce_sum, vexpf, vtanhf, logf

        .if     F16
        .equ    EB, 2                   ; bytes of a forward weight or input element
        .else
        .equ    EB, 4
        .endif
        .equ    PROF_FWD, 0             ; prof[]: cycles of the last task's phases
        .equ    PROF_COLL, 4            ; allreduces (forward and backward)
        .equ    PROF_LOSS, 8
        .equ    PROF_BWD, 12            ; backward, updates and their allreduces included
        .equ    PROF_UPD, 16

; Places the next array at 16k + off bytes, so that the arrays one operation reads together sit on
; different bank pairs (docs/isa.md 6.7).
        .macro  AT16 off
        .align  16
        .if     \off
        .space  \off
        .endif
        .endm

; ---------------------------------------------------------------------------------------------
; Data of layer l (lp = l - 1; for l = 0 lp is unused).
        .macro  LAYER_DATA l, lp
        AT16    0
x\l:
        .if     !F16
xf\l:
        .endif
        .space  EB*B*NB\l
        .if     !F16
        .export x\l, f32, B*NB\l
        .endif
        .if     F16
        .export x\l, f16, B*NB\l
        AT16    0
xf\l:   .space  4*B*NB\l
        .endif
        .export xf\l, f32, B*NB\l
        AT16    0
z\l:    .space  4*B*MP\l
        .export z\l, f32, B*MP\l
        AT16    4
bias\l: .space  4*MP\l
        .export bias\l, f32, MP\l
        .if     !STREAM
        .if     SP\l
nz\l:   .space  8*CAP\l
        .export nz\l, u32, 2*CAP\l
nnz\l:  .word   0
        .export nnz\l, u32, 1
        .else
        AT16    4
w\l:
        .if     !F16
wm\l:
        .endif
        .space  EB*NB\l*M\l
        .if     F16
        .export w\l, f16, NB\l*M\l
        .endif
        .if     F16 && TRAIN
        AT16    4
wm\l:   .space  4*NB\l*M\l
        .endif
        .if     TRAIN || !F16
        .export wm\l, f32, NB\l*M\l
        .endif
        .endif
        .endif
        .if     TRAIN
        AT16    0
dz\l:   .space  4*B*MP\l
        .export dz\l, f32, B*MP\l
        AT16    4
gb\l:   .space  4*MP\l
        .export gb\l, f32, MP\l
        AT16    8
vb\l:   .space  4*MP\l
        .export vb\l, f32, MP\l
        .if     !STREAM
        AT16    8
g\l:    .space  4*NB\l*M\l
        .export g\l, f32, NB\l*M\l
        AT16    12
v\l:    .space  4*NB\l*M\l
        .export v\l, f32, NB\l*M\l
        .endif
        .if     \l > 0
        AT16    4
dx\l:   .space  4*B*NB\l
        .export dx\l, f32, B*NB\l
        .if     ACT\lp == 1
        AT16    8
th\l:   .space  4*B*NB\l                ; tanh of GELU's argument, for its derivative
        .endif
        .endif
        .endif
        ; descriptors
        .dsd    zall\l, mem1d, f32, base=z\l, len=B*MP\l
        .dsd    zr\l, mem1d, f32, base=z\l, len=M\l
        .dsd    z2\l, mem4d, f32, base=z\l, len=MP\l, len1=B, stride1=MP\l
        .dsd    bb\l, mem4d, f32, base=bias\l, len=MP\l, len1=B, stride1=0
        .if     F16
        .dsd    wsin\l, fabin, f16, color=WS, len=M\l
        .dsd    xc\l, mem1d, f16, base=x\l, len=B, stride=NB\l
        .dsd    x16d\l, mem1d, f16, base=x\l, len=B*NB\l
        .else
        .dsd    wsin\l, fabin, f32, color=WS, len=M\l
        .dsd    xc\l, mem1d, f32, base=x\l, len=B, stride=NB\l
        .endif
        .dsd    xfd\l, mem1d, f32, base=xf\l, len=B*NB\l
        .dsd    zc\l, mem1d, f32, base=z\l, len=B, stride=MP\l
        .dsd    wbA\l, mem1d, f32, base=wbuf0, len=M\l
        .dsd    wbB\l, mem1d, f32, base=wbuf1, len=M\l
        .dsd    hbA\l, mem1d, f16, base=wbuf0, len=M\l
        .dsd    hbB\l, mem1d, f16, base=wbuf1, len=M\l
        .dsd    wfc\l, mem1d, f32, base=wf, len=M\l
        .dsd    gbc\l, mem1d, f32, base=gbuf, len=M\l
        .dsd    gsout\l, fabout, f32, color=GS, len=M\l
        .dsd    s1d\l, mem1d, f32, base=s1, len=B*NB\l
        .dsd    s2d\l, mem1d, f32, base=s2, len=B*NB\l
        .if     !STREAM && !SP\l
        .if     F16
        .dsd    wc\l, mem1d, f16, base=w\l, len=M\l
        .dsd    w16all\l, mem1d, f16, base=w\l, len=NB\l*M\l
        .else
        .dsd    wc\l, mem1d, f32, base=w\l, len=M\l
        .endif
        .endif
        .if     TRAIN
        .dsd    dzall\l, mem1d, f32, base=dz\l, len=B*MP\l
        .dsd    dzr\l, mem1d, f32, base=dz\l, len=M\l
        .dsd    gbd\l, mem1d, f32, base=gb\l, len=M\l
        .dsd    vbd\l, mem1d, f32, base=vb\l, len=M\l
        .dsd    biasd\l, mem1d, f32, base=bias\l, len=M\l
        .if     !STREAM
        .dsd    gc\l, mem1d, f32, base=g\l, len=M\l
        .dsd    gall\l, mem1d, f32, base=g\l, len=NB\l*M\l
        .dsd    vall\l, mem1d, f32, base=v\l, len=NB\l*M\l
        .dsd    wall\l, mem1d, f32, base=wm\l, len=NB\l*M\l
        .endif
        .endif
        .if     \l > 0
        .dsd    zin\l, mem4d, f32, base=z\lp+4*PX*NB\l, len=NB\l, len1=B, stride1=MP\lp
        .if     TRAIN
        .dsd    dzin\l, mem4d, f32, base=dz\lp+4*PX*NB\l, len=NB\l, len1=B, stride1=MP\lp
        .dsd    dxd\l, mem1d, f32, base=dx\l, len=B*NB\l
        .if     ACT\lp == 1
        .dsd    thd\l, mem1d, f32, base=th\l, len=B*NB\l
        .endif
        .endif
        .endif
        .endm

        .data
        .align  16
lab:    .space  4*B                     ; train: the class of each sample
        .export lab, i32, B
hyp:    .word   0, 0, 0                 ; learning rate, momentum, 1/B (f32)
        .export hyp, f32, 3
loss:   .word   0                       ; train: the batch's mean cross-entropy
        .export loss, f32, 1
prof:   .space  20                      ; cycles per phase of the last task (PROF_*)
        .export prof, u32, 5
t_phase: .word  0
t_coll: .word   0
ret_fwd: .word  0
cnt:    .word   0
        .align  8
pair:   .word   0, 0
        AT16    0
s1:     .space  4*TMP                   ; scratch vectors
        AT16    12
s2:     .space  4*TMP
        .if     STREAM
        AT16    4
wbuf0:  .space  4*MMAX                  ; two streamed columns (f32 or f16)
        AT16    4
wbuf1:  .space  4*MMAX
        AT16    12
wf:     .space  4*MMAX                  ; backward: a streamed column as f32
gbuf:   .space  4*MMAX                  ; backward: a gradient column on its way out
        .else
        .equ    wbuf0, 0
        .equ    wbuf1, 0
        .equ    wf, s2
        .equ    gbuf, 0
        .endif
        .dsd    cntd, mem1d, u32, base=cnt, len=1
        .dsd    paird, mem1d, u32, base=pair, len=2
        .dsd    sin1, fabin, u32, color=WS, len=1
        .dsd    sin2, fabin, u32, color=WS, len=2

        LAYER_DATA 0, 0
        .if     NL > 1
        LAYER_DATA 1, 0
        .endif
        .if     NL > 2
        LAYER_DATA 2, 1
        .endif
        .if     NL > 3
        LAYER_DATA 3, 2
        .endif

; ---------------------------------------------------------------------------------------------
        .text

; prof[k] += cycles since the word at `from`
        .macro  PROF_ADD from, k
        rdcyc   r1
        lw      r2, \from
        sub     r1, r1, r2
        lw      r2, prof+\k
        add     r2, r2, r1
        sw      r2, prof+\k
        .endm
        .macro  PROF_MARK at
        rdcyc   r1
        sw      r1, \at
        .endm

; Allreduce (sum) of the vector descriptor `dsd` over the row; every PE ends with the same sums.
        .macro  ALLREDUCE dsd
        .if     P > 1
        PROF_MARK t_coll
        ldd     d1, \dsd
        call    row_allreduce_sum
        PROF_ADD t_coll, PROF_COLL
        .endif
        .endm

; x_l (f32 in xf_l; f16 in x_l) = act_lp(z_lp), this PE's slice.
        .macro  ACTFN l, lp
        ldd     d0, xfd\l
        ldd     d2, zin\l
        ldd     d3, zin\l+8
        .if     ACT\lp == 0
        li      r1, 0
        fmaxs   d0, d2, r1              ; ReLU
        .else
        mov32   d0, d2                  ; GELU, tanh form: a = z
        ldd     d8, s1d\l
        fmuls   d8, d0, d0              ; u = sqrt(2/pi) (z + 0.044715 z^3)
        li      r1, f32(0.044715)
        fmuls   d8, d8, r1
        li      r1, f32(1.0)
        fadds   d8, d8, r1
        fmuls   d8, d8, d0
        li      r1, f32(0.7978845608)
        fmuls   d8, d8, r1
        .if     TRAIN
        ldd     d1, thd\l
        .else
        ldd     d1, s1d\l
        .endif
        ldd     d2, s1d\l
        call    vtanhf                  ; t = tanh u
        .if     TRAIN
        ldd     d9, thd\l
        .else
        ldd     d9, s1d\l
        .endif
        ldd     d8, s2d\l
        fmuls   d8, d9, d0              ; z t
        fadds   d0, d0, d8              ; a = (z + z t) / 2
        li      r1, f32(0.5)
        fmuls   d0, d0, r1
        .endif
        .if     F16
        ldd     d1, x16d\l
        fs2h    d1, d0                  ; rounded to f16 for the forward ...
        fh2s    d0, d1                  ; ... and the gradients see the same value
        .endif
        .endm

; dx_l *= act_lp'(z_lp), this PE's slice (train).
        .macro  DERIV l, lp
        ldd     d2, zin\l
        ldd     d3, zin\l+8
        ldd     d9, dxd\l
        .if     ACT\lp == 0
        ldd     d8, s1d\l
        li      r1, 0
        fcgts   d8, d2, r1              ; z > 0
        sel32   d9, d8, d9, r1          ; dx = z > 0 ? dx : 0
        .else
        ; GELU': (1 + t)/2 + z (1 - t^2) sqrt(2/pi) (1 + 3 0.044715 z^2) / 2
        ldd     d0, s2d\l
        mov32   d0, d2                  ; z
        ldd     d8, s1d\l
        fmuls   d8, d0, d0
        li      r1, f32(0.134145)
        fmuls   d8, d8, r1
        li      r1, f32(1.0)
        fadds   d8, d8, r1
        li      r1, f32(0.7978845608)
        fmuls   d8, d8, r1
        fmuls   d8, d8, d0              ; d8 = z sqrt(2/pi) (1 + 3k z^2)
        ldd     d10, thd\l
        fmuls   d0, d10, d10            ; t^2
        li      r1, f32(-1.0)
        fmuls   d0, d0, r1
        li      r1, f32(1.0)
        fadds   d0, d0, r1              ; 1 - t^2
        fmuls   d8, d8, d0
        fadds   d8, d8, d10
        fadds   d8, d8, r1
        li      r1, f32(0.5)
        fmuls   d8, d8, r1              ; GELU'(z)
        fmuls   d9, d9, d8
        .endif
        .endm

; One AXPY per (column j, sample b) of the dense forward: `wreg` holds W[:, j].
        .macro  FMAC d, s0, s1, sc, done
        .if     F16
        fmachs  \d, \s0, \s1, \sc, \done
        .else
        fmacs   \d, \s0, \s1, \sc, \done
        .endif
        .endm
        .macro  LDX r, m
        .if     F16
        lhu     \r, \m
        .else
        lw      \r, \m
        .endif
        .endm
        .macro  MOVX d, s, done=ut0
        .if     F16
        mov16   \d, \s, \done
        .else
        mov32   \d, \s, \done
        .endif
        .endm

; The next nonzero of a sparse layer: r5 its value, r6 and r7 the byte offsets of its output
; in a z row and its input in an x row; d8 and d10 the batch's column of each.
        .macro  SPNEXT l
        .if     STREAM
        mov32   d12, d13                ; the next pair, from the stream
        lw      r4, pair
        lw      r5, pair+4
        .else
        lw      r4, 0(r8)
        lw      r5, 4(r8)
        addi    r8, r8, 8
        .endif
        shri    r6, r4, 16
        andi    r7, r4, 0xFFFF
        dsetb   d8, z\l(r6)             ; z[:][i]
        dsetb   d10, x\l(r7)            ; x[:][j]
        .endm

; Forward of layer l: x_l from the previous layer, z_l = W_l x_l (allreduced) + b_l.
        .macro  FWD l, lp
        .if     \l > 0
        ACTFN \l, \lp
        .elif F16 && TRAIN
        ldd     d0, xfd0
        ldd     d1, x16d0
        fh2s    d0, d1
        .endif
        li      r1, 0
        ldd     d8, zall\l
        mov32   d8, r1                  ; z = 0
        .if     SP\l
        ; sparse: one AXPY over the batch per nonzero
        ldd     d8, zc\l
        ldd     d10, xc\l
        .if     STREAM
        ldd     d12, cntd
        ldd     d13, sin1
        mov32   d12, d13                ; the count
        lw      r9, cnt
        ldd     d12, paird
        ldd     d13, sin2
        .else
        lw      r9, nnz\l
        la      r8, nz\l
        .endif
        li      r12, -1                 ; the output offset of the last AXPY (none yet)
        beqz    r9, 9f
        ; Two microthreads take turns, so that one AXPY's pipeline drains while the next runs.
        ; An AXPY into the same output as the one before stays on its microthread (in order);
        ; then at each issue only the previous AXPY can still run, and it writes elsewhere.
4:      SPNEXT  \l                      ; the last AXPY ran on ut1
        addi    r9, r9, -1
        bne     r6, r12, 1f
        FMAC    d8, d8, d10, r5, ut1 async
        bnez    r9, 4b
        j       9f
1:      mov     r12, r6
        FMAC    d8, d8, d10, r5, ut2 async
        beqz    r9, 9f
5:      SPNEXT  \l                      ; the last AXPY ran on ut2
        addi    r9, r9, -1
        bne     r6, r12, 1f
        FMAC    d8, d8, d10, r5, ut2 async
        bnez    r9, 5b
        j       9f
1:      mov     r12, r6
        FMAC    d8, d8, d10, r5, ut1 async
        bnez    r9, 4b
9:      utwait  0x06
        .else
        ; dense: per column j, per sample b: z[b][:] += W[:, j] * x[b][j]
        .if     STREAM
        ldd     d13, wsin\l
        .if     F16
        ldd     d10, hbA\l
        ldd     d11, hbB\l
        .else
        ldd     d10, wbA\l
        ldd     d11, wbB\l
        .endif
        MOVX    d10, d13                ; column 0
        .else
        ldd     d10, wc\l
        .endif
        la      r8, x\l                 ; &x[0][j]
        li      r9, NB\l                ; columns left
1:      ldd     d8, zr\l
        mov     r10, r8
        LDX     r4, 0(r10)
        FMAC    d8, d8, d10, r4, ut1 async
        .if     STREAM
        addi    r5, r9, -1
        beqz    r5, 3f
        MOVX    d11, d13, ut2 async     ; column j+1 arrives while j is used
3:
        .endif
        .if     B > 1
        li      r11, B-1
2:      dincb   d8, MP\l
        addi    r10, r10, EB*NB\l
        LDX     r4, 0(r10)
        FMAC    d8, d8, d10, r4, ut1 async
        addi    r11, r11, -1
        bnez    r11, 2b
        .endif
        .if     STREAM
        utwait  0x04
        dmov    d12, d10
        dmov    d10, d11
        dmov    d11, d12
        .else
        dincb   d10, M\l
        .endif
        addi    r8, r8, EB
        addi    r9, r9, -1
        bnez    r9, 1b
        utwait  0x02
        .endif
        ALLREDUCE zall\l
        ldd     d0, z2\l
        ldd     d1, z2\l+8
        ldd     d2, bb\l
        ldd     d3, bb\l+8
        fadds   d0, d0, d2              ; + b
        .endm

; Softmax and cross-entropy of the last layer's z (logits), on every PE alike:
; dz = (softmax(z) - onehot(lab)) / B, loss = mean(log sum exp(z - m) + m - z[lab]).
        .macro  SOFTMAX l
        PROF_MARK t_phase
        ; 1. per sample: m = max z[b][:] (kept in s1[b]), e[b][:] = z[b][:] - m (in dz)
        la      r8, z\l
        la      r9, dz\l
        la      r10, s1
        li      r11, B
1:      ldd     d2, zr\l
        dsetb   d2, 0(r8)
        li      r1, 0xff800000          ; -inf
        fmaxrs  r1, d2
        sw      r1, 0(r10)
        fneg.s  r1, r1
        ldd     d1, dzr\l
        dsetb   d1, 0(r9)
        fadds   d1, d2, r1
        addi    r8, r8, 4*MP\l
        addi    r9, r9, 4*MP\l
        addi    r10, r10, 4
        addi    r11, r11, -1
        bnez    r11, 1b
        ; 2. e = exp(e), the whole batch in one call
        ldd     d1, dzall\l
        ldd     d2, dzall\l
        call    vexpf
        ; 3. per sample: s = sum e, p = e / s, loss += log s + m - z[lab], p[lab] -= 1
        la      r8, z\l
        la      r9, dz\l
        la      r10, lab
        la      r13, s1
        li      r11, B
        li      r12, 0                  ; sum of the losses
2:      ldd     d1, dzr\l
        dsetb   d1, 0(r9)
        li      r1, 0
        fsums   r1, d1                  ; s
        li      r2, f32(1.0)
        fdiv.s  r2, r2, r1
        fmuls   d1, d1, r2              ; p = e / s
        call    logf                    ; r1 = log s
        lw      r2, 0(r13)
        fadd.s  r1, r1, r2              ; + m
        lw      r2, 0(r10)
        shli    r2, r2, 2
        add     r3, r2, r8
        lw      r3, 0(r3)
        fsub.s  r1, r1, r3              ; - z[lab]
        fadd.s  r12, r12, r1
        add     r3, r2, r9
        lw      r4, 0(r3)
        li      r5, f32(1.0)
        fsub.s  r4, r4, r5
        sw      r4, 0(r3)               ; p[lab] - 1
        addi    r8, r8, 4*MP\l
        addi    r9, r9, 4*MP\l
        addi    r10, r10, 4
        addi    r13, r13, 4
        addi    r11, r11, -1
        bnez    r11, 2b
        lw      r2, hyp+8               ; 1/B
        fmul.s  r12, r12, r2
        sw      r12, loss
        ldd     d1, dzall\l
        fmuls   d1, d1, r2              ; dz /= B
        PROF_ADD t_phase, PROF_LOSS
        .endm

; Backward of layer l: the gradients of W_l and b_l, the update, and dz_lp for l > 0.
        .macro  BWD l, lp
        la      r8, xf\l                ; &x[0][j]
        li      r9, NB\l
        .if     STREAM
        ldd     d12, gbc\l
        ldd     d14, gsout\l
        .else
        ldd     d12, gc\l
        .endif
        .if     \l > 0
        la      r12, dx\l               ; &dx[0][j]
        .if     STREAM
        ldd     d13, wsin\l
        ldd     d10, wfc\l
        .elif F16
        ldd     d13, wc\l
        ldd     d10, wfc\l
        .else
        ldd     d10, wc\l
        .endif
        .endif
1:      li      r1, 0
        mov32   d12, r1                 ; g[:, j] = 0
        ldd     d8, dzr\l
        mov     r10, r8
        li      r11, B
2:      lw      r4, 0(r10)
        fmacs   d12, d12, d8, r4, ut1 async     ; g[:, j] += dz[b][:] x[b][j]
        dincb   d8, MP\l
        addi    r10, r10, 4*NB\l
        addi    r11, r11, -1
        bnez    r11, 2b
        .if     \l > 0
        .if     STREAM
        .if     F16
        fh2s    d10, d13                ; W[:, j], widened
        .else
        mov32   d10, d13                ; W[:, j]
        .endif
        .elif F16
        fh2s    d10, d13
        dincb   d13, M\l
        .endif
        ldd     d8, dzr\l
        mov     r13, r12
        li      r11, B
3:      li      r1, 0
        fdots   r1, d10, d8             ; dx[b][j] = W[:, j] . dz[b][:]
        sw      r1, 0(r13)
        dincb   d8, MP\l
        addi    r13, r13, 4*NB\l
        addi    r11, r11, -1
        bnez    r11, 3b
        addi    r12, r12, 4
        .if     !STREAM && !F16
        dincb   d10, M\l
        .endif
        .endif
        .if     STREAM
        utwait  0x02
        mov32   d14, d12                ; the gradient column goes north
        .else
        dincb   d12, M\l
        .endif
        addi    r8, r8, 4
        addi    r9, r9, -1
        bnez    r9, 1b
        utwait  0x02
        ; the bias gradient: gb = sum_b dz[b][:]
        li      r1, 0
        ldd     d8, gbd\l
        mov32   d8, r1
        ldd     d9, dzr\l
        li      r11, B
4:      fadds   d8, d8, d9
        dincb   d9, MP\l
        addi    r11, r11, -1
        bnez    r11, 4b
        ; SGD with momentum: v = mom v + g; p -= lr v
        PROF_MARK t_phase
        lw      r3, hyp+4               ; momentum
        lw      r4, hyp                 ; learning rate
        fneg.s  r4, r4
        .if     !STREAM
        ldd     d8, vall\l
        ldd     d9, gall\l
        ldd     d10, wall\l
        fmuls   d8, d8, r3
        fadds   d8, d8, d9
        fmacs   d10, d10, d8, r4
        .if     F16
        ldd     d11, w16all\l
        fs2h    d11, d10
        .endif
        .endif
        ldd     d8, vbd\l
        ldd     d9, gbd\l
        ldd     d10, biasd\l
        fmuls   d8, d8, r3
        fadds   d8, d8, d9
        fmacs   d10, d10, d8, r4
        PROF_ADD t_phase, PROF_UPD
        .if     \l > 0
        DERIV   \l, \lp                 ; dz_lp's slice = dx * act'(z_lp)
        li      r1, 0
        ldd     d8, dzall\lp
        mov32   d8, r1
        ldd     d0, dzin\l
        ldd     d1, dzin\l+8
        ldd     d2, dxd\l
        mov32   d0, d2                  ; placed in the zeroed whole ...
        ALLREDUCE dzall\lp              ; ... and gathered
        .endif
        .endm

; The forward of every layer (a subroutine: both tasks run it).
fwd_all:
        sw      lr, ret_fwd
        PROF_MARK t_phase
        FWD     0, 0
        .if     NL > 1
        FWD     1, 0
        .endif
        .if     NL > 2
        FWD     2, 1
        .endif
        .if     NL > 3
        FWD     3, 2
        .endif
        PROF_ADD t_phase, PROF_FWD
        lw      lr, ret_fwd
        ret

        .macro  PROF_CLEAR
        li      r1, 0
        sw      r1, prof
        sw      r1, prof+4
        sw      r1, prof+8
        sw      r1, prof+12
        sw      r1, prof+16
        .endm

        .task   forward, local, 0
        .export forward
forward:
        PROF_CLEAR
        call    fwd_all
        tend

        .if     TRAIN
        .task   train, local, 1
        .export train
train:  PROF_CLEAR
        call    fwd_all
        .if     NL == 1
        SOFTMAX 0
        .elif NL == 2
        SOFTMAX 1
        .elif NL == 3
        SOFTMAX 2
        .else
        SOFTMAX 3
        .endif
        rdcyc   r1
        sw      r1, ret_fwd             ; the backward's start
        .if     NL > 3
        BWD     3, 2
        .endif
        .if     NL > 2
        BWD     2, 1
        .endif
        .if     NL > 1
        BWD     1, 0
        .endif
        BWD     0, 0
        PROF_ADD ret_fwd, PROF_BWD
        tend
        .endif
