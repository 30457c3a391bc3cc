; The firmware math library (firmware/lib/README.md): exp, log, tanh, sigmoid and reciprocal
; square root of f32 values, as scalar routines (argument and result in r1) and as vector
; routines over a DSD (y[i] = f(x[i]), f32 or f16 elements). Link it beside a program:
;
;     region at=0,0 program=app.s,../lib/math.s       (a layout)
;
; and call it: `.global expf` in app.s, then `call expf`. Nothing here is a task, and nothing
; is exported to the host.
;
; Calling conventions (the software conventions of docs/isa.md 2.1):
;   scalar  expf logf tanhf sigmoidf rsqrtf: x in r1, f(x) in r1; return address in lr (call
;           NAME / ret). Clobbers r2..r7. Preserves r0, r8..r14, every DSR and microthread.
;           tanhf and sigmoidf also use the words math_lr and math_sign of this file.
;   vector  vexpf vlogf vtanhf vsigmoidf vrsqrtf (f32) and vexph vlogh vtanhh vsigmoidh
;           vrsqrth (f16): d1 = y (mem1d or fabout), d2 = x (mem1d or fabin); the count is
;           the Length of d2 (0..0x7FFE; an unbounded fabin is not supported). y may be x (in
;           place). Clobbers r1..r7 and d1..d7; preserves r0, r8..r14 and d0, d8..d15 (saved
;           in math_dsave and restored). Runs synchronous DSD operations on ut0, so it first
;           waits for an operation the caller left running there.
;   Every routine may raise any FpFlags bit (the flags after a call carry no meaning).
;
; How the vector routines work: a driver (math_vdrive32, math_vdrive16) cuts x into blocks of
; MATH_BLOCK elements and runs a kernel over each block: some 30 whole-block DSD operations
; (range reduction, a polynomial by Horner's rule, scaling by integer operations on the bit
; patterns), with the block's intermediate vectors in the scratch buffers math_buf. Each
; kernel reads x (d2) before its last operation and writes y (d1) only in its last one, so a
; fabric stream in or out, and y == x, work. No compare or select is needed: special values
; come out of min/max clamps, and a NaN argument is carried to the result by adding
; m * (-0.0), where m = clamp(x) / (|x| + 1) is finite unless x is NaN.
;
; Coefficients: minimax polynomials fitted by a Remez exchange in 50-digit arithmetic (mpmath)
; for the weighted error given at each table, rounded to f32 (firmware/lib/README.md).

        .equ    MATH_BLOCK, 64                  ; elements per block of a vector routine
        .equ    MATH_BUF, 4*MATH_BLOCK+4        ; a buffer and 4 bytes: buffer i sits at 4i (mod 16)

; f32 bit patterns of the constants.
        .equ    ONE, 0x3f800000                 ; 1.0
        .equ    TWO, 0x40000000                 ; 2.0
        .equ    HALF, 0x3f000000                ; 0.5
        .equ    MONE, 0xbf800000                ; -1.0
        .equ    NZERO, 0x80000000               ; -0.0 (also the sign bit)
        .equ    TINY, 0x00000001                ; 2^-149
        .equ    FMAX, 0x7f7fffff                ; largest finite f32
        .equ    PINF, 0x7f800000
        .equ    NINF, 0xff800000
        .equ    LOG2E, 0x3fb8aa3b               ; 1/ln 2
        .equ    NLOG2E, 0xbfb8aa3b
        .equ    LOG2E_X2, 0x4038aa3b            ; 2/ln 2
        .equ    LN2_HI, 0x3f317218              ; ln 2 rounded to f32 (C1)
        .equ    NLN2_HI, 0xbf317218
        .equ    LN2_LO, 0xb102e308              ; ln 2 - C1 (C2 = -1.9e-9)
        .equ    NLN2_LO, 0x3102e308
        .equ    NLN2_HI_H, 0xbeb17218           ; -C1/2
        .equ    NLN2_LO_H, 0x3082e308           ; -C2/2
        .equ    LN2_LO_X2, 0xb182e308           ; 2*C2
        .equ    MAGIC, 0x4b400000               ; 1.5*2^23: adding it rounds to an integer
        .equ    MAGIC127, 0x4b40007f            ; 1.5*2^23 + 127: bits = 0x4b400000 + 127 + k
        .equ    NMAGIC127, 0xcb40007f
        .equ    MAGIC254, 0x4b4000fe            ; 1.5*2^23 + 254: bits = 0x4b400000 + 254 + k
        .equ    NMAGIC254, 0xcb4000fe

; exp(r) = 1 + r + r^2 q(r), |r| <= ln2/2, q of degree 4: relative error of exp 3.1e-9
; (weight r^2/e^r).
        .equ    EXP_Q0, 0x3efffffe              ; 0.499999940
        .equ    EXP_Q1, 0x3e2aaa47              ; 0.166665182
        .equ    EXP_Q2, 0x3d2aac7e              ; 0.0416684076
        .equ    EXP_Q3, 0x3c091dd3              ; 0.00836892705
        .equ    EXP_Q4, 0x3ab510a4              ; 0.00138141634
; The same polynomial in -r (sigmoid reduces -|x|): the odd coefficients negated.
        .equ    EXP_NQ1, 0xbe2aaa47
        .equ    EXP_NQ3, 0xbc091dd3
; expm1(r) = r + r^2 q(r), |r| <= ln2/2: relative error of expm1 1.35e-8 (weight r^2/|e^r - 1|),
; written for h = r/2 as 2h + h^2 q2(h) with q2(h) = 4 q(2h) (coefficient j scaled by 4*2^j,
; exactly).
        .equ    TANH_Q0, 0x3fffffff             ; 2.0 (1.99999988)
        .equ    TANH_Q1, 0x3faaaa57             ; 1.33332336
        .equ    TANH_Q2, 0x3f2aab3b             ; 0.666675270
        .equ    TANH_Q3, 0x3e89148a             ; 0.267734826
        .equ    TANH_Q4, 0x3db5f5e4             ; 0.0888479054
; log(1+f) = 2s + s R(z), s = f/(2+f), z = s^2 <= 0.0295, R(z) = z P(z): P of degree 2, with
; an error of 1.4e-9 relative to log (weight z/2); stored doubled (R' = 2R).
        .equ    LOG_P0, 0x3faaaabe              ; 2*0.666667817
        .equ    LOG_P1, 0x3f4cacce              ; 2*0.399755910
        .equ    LOG_P2, 0x3f194a43              ; 2*0.299394689
; tanh(x) = x + x^3 P(x^2) on |x| < 0.625 (scalar tanhf): P of degree 5, relative error 2.8e-10.
        .equ    TANHP_0, 0xbeaaaaaa             ; -0.333333315
        .equ    TANHP_1, 0x3e08883d             ; 0.133332207
        .equ    TANHP_2, 0xbd5cf803             ; -0.0539474612
        .equ    TANHP_3, 0x3cb1c4b7             ; 0.0217002461
        .equ    TANHP_4, 0xbc05d6bb             ; -0.00816887183
        .equ    TANHP_5, 0x3b0b9ca7             ; 0.00213030880

        .global expf, logf, tanhf, sigmoidf, rsqrtf
        .global vexpf, vlogf, vtanhf, vsigmoidf, vrsqrtf
        .global vexph, vlogh, vtanhh, vsigmoidh, vrsqrth

; Loads a scratch descriptor and gives it the block's length (r4).
        .macro  VIEW dr, tm
        ldd     \dr, \tm
        dsetl   \dr, r4
        .endm

; dr = an i32 view of the f32 descriptor ds (same elements, Elem = i32).
        .macro  IVIEW dr, ds
        dmov    \dr, \ds
        drd     r1, \ds, 1
        lui     r2, 0x0040              ; Elem field (word 1 bits 23:21) = 2 (i32)
        or      r1, r1, r2
        dwr     \dr, r1, 1
        .endm

        .text

; ---------------------------------------------------------------------------------------------
; Scalar routines. x in r1, result in r1; clobber r2..r7.
; ---------------------------------------------------------------------------------------------

; expf: e^x. exp(x) = 2^k e^r with k = round(x/ln2) and r = x - k ln2 (Cody-Waite with a fused
; multiply-add: x - k*C1 is exact); e^r = 1 + r + r^2 q(r), where the rounding of 1 + r is
; compensated. Special values: NaN -> NaN, x >= 88.7228394 (and +inf) -> +inf,
; x < -104 (and -inf) -> +0; subnormal results are rounded once.
expf:   shli    r2, r1, 1
        lui     r3, 0xff00
        bltu    r3, r2, .Lexp_nan       ; |x| is above +inf: a NaN
        li      r3, 0x42b17218          ; the least f32 whose e^x rounds to +inf
        bltu    r1, r3, math_expcore    ; +0 <= x < 88.7228394
        bltz    r1, .Lexp_neg
        li      r1, PINF
        ret
.Lexp_neg:
        lui     r3, 0xc2d0              ; -104
        bgeu    r3, r1, math_expcore    ; -104 <= x < 0 (a larger pattern is a more negative x)
        li      r1, 0
        ret
.Lexp_nan:
        fadd.s  r1, r1, r1              ; the canonical NaN
        ret

; math_expcore: r1 = e^x for -104 <= x < 88.7228394, subnormal results rounded once. Also
; returns k in r4 and p = e^r in r3 (e^x = p 2^k), with hi in r7 and lo in r2 such that
; e^r = hi + lo more closely than p (p = hi + lo rounded). Clobbers r2..r7; returns with ret.
math_expcore:
        li      r2, LOG2E
        lui     r3, hi(MAGIC)
        fma.s   r4, r1, r2, r3          ; t = x/ln2 + 1.5*2^23: round(x/ln2) in its low bits
        fsub.s  r5, r4, r3              ; k
        li      r2, NLN2_HI
        fma.s   r6, r5, r2, r1          ; r1' = x - k*C1, exact
        li      r2, NLN2_LO
        fma.s   r7, r5, r2, r6          ; r = r1' - k*C2
        li      r2, EXP_Q4
        li      r3, EXP_Q3
        fma.s   r3, r2, r7, r3
        li      r2, EXP_Q2
        fma.s   r3, r3, r7, r2
        li      r2, EXP_Q1
        fma.s   r3, r3, r7, r2
        li      r2, EXP_Q0
        fma.s   r3, r3, r7, r2          ; q(r)
        fmul.s  r2, r7, r7
        fmul.s  r3, r3, r2              ; r^2 q
        li      r2, NLN2_LO
        fma.s   r3, r5, r2, r3          ; w = r^2 q - k*C2: e^r = 1 + r1' + w
        lui     r2, hi(ONE)
        fadd.s  r7, r2, r6              ; hi = 1 + r1'
        fsub.s  r2, r2, r7
        fadd.s  r2, r2, r6              ; (1 - hi) + r1': the rounding error of hi, exactly
        fadd.s  r2, r2, r3              ; lo = that error + w
        fadd.s  r3, r7, r2              ; p = e^r = hi + lo, in [0.7, 1.42]
        lui     r5, hi(MAGIC)
        sub     r4, r4, r5              ; k
        addi    r5, r4, 125
        sltiu   r5, r5, 253
        beqz    r5, .Lexp_wide          ; k outside -125..127: p 2^k may be subnormal (or k = 128)
        shli    r5, r4, 23
        add     r1, r3, r5              ; p 2^k, exactly: k added to the exponent
        ret
.Lexp_wide:
        addi    r5, r4, 254             ; k + 254 in 104..382
        shri    r6, r5, 1
        sub     r5, r5, r6
        shli    r6, r6, 23              ; 2^floor(k/2)
        shli    r5, r5, 23              ; 2^ceil(k/2)
        fmul.s  r1, r3, r6              ; exact
        fmul.s  r1, r1, r5              ; one rounding
        ret

; logf: ln x. x = 2^k m with m in [sqrt(1/2), sqrt(2)) (subnormals scaled by 2^23 first);
; f = m - 1, s = f/(2+f); ln m = f - (f^2/2 - s (f^2/2 + R(s^2))); ln x = k ln2 + ln m with ln 2
; in two parts, and the rounding of k ln2 + f compensated.
; Special values: NaN and x < 0 (and -inf) -> NaN, +-0 -> -inf, +inf -> +inf.
logf:   lui     r2, 0x0080
        bltu    r1, r2, .Llog_small     ; +0 or a subnormal
        lui     r2, hi(PINF)
        bgeu    r1, r2, .Llog_big       ; +inf, NaN or negative
        li      r3, 0
.Llog_core:                             ; r1 normal and positive, r3 = exponent adjustment
        li      r2, 0x004afb0d          ; 1.0 - sqrt(0.5), as bit patterns
        add     r4, r1, r2
        shri    r5, r4, 23
        addi    r5, r5, -127
        add     r5, r5, r3              ; k
        li      r2, 0x007fffff
        and     r4, r4, r2
        li      r2, 0x3f3504f3          ; sqrt(0.5)
        add     r4, r4, r2              ; m
        fcvt.s.w r5, r5
        lui     r2, hi(ONE)
        fsub.s  r6, r4, r2              ; f, exact
        fadd.s  r4, r4, r2
        fdiv.s  r4, r6, r4              ; s
        fmul.s  r7, r4, r4              ; z
        li      r2, LOG_P2
        li      r3, LOG_P1
        fma.s   r3, r7, r2, r3
        li      r2, LOG_P0
        fma.s   r3, r3, r7, r2
        fmul.s  r3, r3, r7              ; R' = 2R(z)
        fmul.s  r7, r6, r6              ; f^2
        fadd.s  r3, r3, r7
        lui     r2, hi(NZERO)
        xor     r7, r7, r2              ; -f^2
        fma.s   r3, r4, r3, r7          ; s (f^2 + R') - f^2
        li      r2, LN2_LO_X2
        fma.s   r3, r5, r2, r3          ; W = s (f^2 + R') - f^2 + 2k C2: ln x = k C1 + f + W/2
        li      r2, LN2_HI
        fma.s   r1, r5, r2, r6          ; hi = k C1 + f, rounded
        lui     r4, hi(NZERO)
        xor     r4, r1, r4
        fma.s   r4, r5, r2, r4          ; k C1 - hi, exact (a multiple of 2^-24 below 0.42)
        fadd.s  r4, r4, r6              ; + f: the rounding error of hi, exactly
        lui     r2, hi(HALF)
        fma.s   r3, r3, r2, r4          ; lo = error + W/2
        fadd.s  r1, r1, r3              ; hi + lo
        ret
.Llog_small:
        beqz    r1, .Llog_zero
        lui     r2, 0x4b00              ; 2^23
        fmul.s  r1, r1, r2
        li      r3, -23
        j       .Llog_core
.Llog_big:
        lui     r2, hi(NZERO)
        beq     r1, r2, .Llog_zero      ; -0
        lui     r2, hi(PINF)
        beq     r1, r2, .Llog_ret       ; +inf
        fsqrt.s r1, r1                  ; NaN, or x < 0: the canonical NaN, invalid
.Llog_ret:
        ret
.Llog_zero:
        li      r1, NINF
        ret

; rsqrtf: 1/sqrt(x). y = 1/s with s = sqrt(x), then one correction y + y (e + d y^2/2), where
; e = 1 - s y and d = s^2 - x are exact (fused multiply-add); x < 2^-64 is scaled by 2^64.
; Special values: +0 -> +inf, -0 -> -inf, x < 0 (and -inf) and NaN -> NaN, +inf -> +0.
rsqrtf: lui     r2, hi(PINF)
        bgeu    r1, r2, .Lrs_big        ; +inf, NaN or negative (-0 too)
        lui     r2, 0x1f80              ; 2^-64
        li      r3, 0
        bgeu    r1, r2, .Lrs_core
        beqz    r1, .Lrs_pzero
        lui     r2, 0x5f80              ; 2^64
        fmul.s  r1, r1, r2
        lui     r3, 0x1000              ; 32 << 23: the result is scaled by 2^32
.Lrs_core:
        fsqrt.s r4, r1                  ; s
        lui     r2, hi(ONE)
        fdiv.s  r5, r2, r4              ; y
        lui     r6, hi(NZERO)
        xor     r7, r1, r6              ; -x
        xor     r6, r4, r6              ; -s
        fma.s   r6, r6, r5, r2          ; e = 1 - s y
        fma.s   r7, r4, r4, r7          ; d = s^2 - x
        fmul.s  r7, r7, r5
        fmul.s  r7, r7, r5              ; d y^2
        lui     r2, hi(HALF)
        fma.s   r6, r7, r2, r6          ; e + d y^2 / 2
        fma.s   r1, r5, r6, r5
        add     r1, r1, r3
        ret
.Lrs_big:
        lui     r2, hi(NZERO)
        beq     r1, r2, .Lrs_mzero
        lui     r2, hi(PINF)
        beq     r1, r2, .Lrs_inf
        fsqrt.s r1, r1                  ; NaN or x < 0: the canonical NaN
        ret
.Lrs_inf:
        li      r1, 0
        ret
.Lrs_pzero:
        li      r1, PINF
        ret
.Lrs_mzero:
        li      r1, NINF
        ret

; tanhf: tanh x = sign(x) tanh|x|. |x| < 0.625: x + x^3 P(x^2). 0.625 <= |x| < 9.1:
; (E - 1)/(E + 1) with E = e^(2|x|) carried in two parts and the roundings of E - 1, E + 1
; and the quotient compensated (math_qdiv). |x| >= 9.1: +-1.
; |x| < 2^-12: x (tanh x rounds to x).
; Special values: NaN -> NaN, +-inf -> +-1, +-0 -> +-0, subnormal x -> x.
tanhf:  li      r2, 0x7fffffff
        and     r3, r1, r2              ; |x|
        xor     r4, r1, r3              ; the sign bit of x
        lui     r2, hi(PINF)
        bltu    r2, r3, .Lexp_nan       ; NaN
        lui     r2, 0x3980              ; 2^-12
        bltu    r3, r2, .Ltanh_ret
        li      r2, 0x4111999a          ; 9.1
        bgeu    r3, r2, .Ltanh_one
        lui     r2, 0x3f20              ; 0.625
        bgeu    r3, r2, .Ltanh_exp
        fmul.s  r5, r1, r1              ; z = x^2
        li      r2, TANHP_5
        li      r6, TANHP_4
        fma.s   r6, r2, r5, r6
        li      r2, TANHP_3
        fma.s   r6, r6, r5, r2
        li      r2, TANHP_2
        fma.s   r6, r6, r5, r2
        li      r2, TANHP_1
        fma.s   r6, r6, r5, r2
        li      r2, TANHP_0
        fma.s   r6, r6, r5, r2          ; P(z)
        fmul.s  r5, r5, r1              ; x^3
        fma.s   r1, r5, r6, r1          ; x + x^3 P
.Ltanh_ret:
        ret
.Ltanh_one:
        lui     r1, hi(ONE)
        or      r1, r1, r4
        ret
.Ltanh_exp:
        sw      r4, math_sign
        sw      lr, math_lr
        fadd.s  r1, r3, r3              ; 2|x| in [1.25, 18.2): k in 2..26
        call    math_expcore            ; r1 = E
        fsub.s  r7, r7, r3
        fadd.s  r7, r7, r2              ; (hi - p) + lo: e^r - p
        addi    r4, r4, 127
        shli    r4, r4, 23              ; 2^k
        fmul.s  r7, r7, r4              ; E_lo: e^(2|x|) = E + E_lo
        lui     r6, hi(ONE)
        fadd.s  r3, r1, r6              ; d = E + 1
        fsub.s  r4, r1, r3
        fadd.s  r4, r4, r6              ; (E - d) + 1, exactly (E >= 1)
        fadd.s  r4, r4, r7              ; d_lo
        fsub.s  r5, r1, r6              ; n = E - 1
        fsub.s  r2, r1, r5
        fsub.s  r2, r2, r6              ; (E - n) - 1, exactly
        fadd.s  r2, r2, r7              ; n_lo
        mov     r1, r5
        call    math_qdiv
        lw      r4, math_sign
        or      r1, r1, r4
        lw      lr, math_lr
        ret

; sigmoidf: 1/(1 + e^-x). With e = e^-|x| in two parts: 1/(1 + e) for x >= 0, e/(1 + e) for
; x < 0, the rounding of 1 + e and of the quotient compensated (math_qdiv).
; Special values: NaN -> NaN, +inf -> 1, -inf -> +0, x < -104 -> +0, +-0 -> 0.5.
sigmoidf:
        li      r2, 0x7fffffff
        and     r3, r1, r2              ; |x|
        lui     r2, hi(PINF)
        bltu    r2, r3, .Lexp_nan       ; NaN
        lui     r2, 0x42d0              ; 104
        bltu    r3, r2, .Lsig_core
        lui     r2, hi(ONE)             ; |x| >= 104: 1 or +0
        slt     r3, r1, r2              ; 1 if x < 0 (any negative pattern is below 1.0's)
        addi    r3, r3, -1              ; 0 if x < 0, else all ones
        and     r1, r2, r3
        ret
.Lsig_core:
        sw      r1, math_sign
        sw      lr, math_lr
        lui     r2, hi(NZERO)
        or      r1, r3, r2              ; -|x|
        call    math_expcore            ; r1 = e = e^-|x|
        fsub.s  r7, r7, r3
        fadd.s  r7, r7, r2              ; (hi - p) + lo
        li      r6, 0                   ; e_lo = 0 when e is tiny
        addi    r4, r4, 126
        bltz    r4, 1f
        addi    r4, r4, 1
        shli    r4, r4, 23              ; 2^k (k >= -126)
        fmul.s  r6, r7, r4              ; e_lo
1:      lui     r7, hi(ONE)
        fadd.s  r3, r7, r1              ; d = 1 + e
        fsub.s  r4, r7, r3
        fadd.s  r4, r4, r1              ; (1 - d) + e, exactly (e <= 1)
        fadd.s  r4, r4, r6              ; d_lo
        lw      r5, math_sign
        li      r2, 0                   ; n_lo
        bgez    r5, 2f
        mov     r7, r1                  ; x < 0: n = e, n_lo = e_lo
        mov     r2, r6
2:      mov     r1, r7                  ; n: 1 or e
        call    math_qdiv
        lw      lr, math_lr
        ret

; math_qdiv: r1 = (n + n_lo)/(d + d_lo) for n = r1, n_lo = r2, d = r3, d_lo = r4, where the
; low parts are small corrections: y = n/d, then y + ((n - y d) + n_lo - y d_lo)/d with the
; residual n - y d exact. Clobbers r5, r6.
math_qdiv:
        fdiv.s  r5, r1, r3              ; y
        lui     r6, hi(NZERO)
        xor     r6, r5, r6              ; -y
        fma.s   r1, r6, r3, r1          ; n - y d, exact
        fadd.s  r1, r1, r2
        fma.s   r1, r6, r4, r1          ; ... - y d_lo
        fdiv.s  r1, r1, r3
        fadd.s  r1, r5, r1
        ret

; ---------------------------------------------------------------------------------------------
; Vector routines: d1 = y, d2 = x. Each entry names its kernel in r7 and goes to a driver.
; ---------------------------------------------------------------------------------------------

vexpf:  la      r7, math_kexp
        j       math_vdrive32
vlogf:  la      r7, math_klog
        j       math_vdrive32
vtanhf: la      r7, math_ktanh
        j       math_vdrive32
vsigmoidf:
        la      r7, math_ksig
        j       math_vdrive32
vrsqrtf:
        la      r7, math_krsqrt
        ldd     d3, math_b0f            ; math_krsqrt divides buffer 0, all ones
        lui     r1, hi(ONE)
        mov32   d3, r1
        j       math_vdrive32
vexph:  la      r7, math_kexp
        j       math_vdrive16
vlogh:  la      r7, math_klog
        j       math_vdrive16
vtanhh: la      r7, math_ktanh
        j       math_vdrive16
vsigmoidh:
        la      r7, math_ksig
        j       math_vdrive16
vrsqrth:
        la      r7, math_krsqrt
        ldd     d3, math_b0f
        lui     r1, hi(ONE)
        mov32   d3, r1
        j       math_vdrive16

; Advances the cursor dr past the block of r4 elements: by r4 * Stride elements if it is a
; mem1d descriptor, else by r4 (the Base of a fabout with Idx). Clobbers r1..r3.
        .macro  ADVANCE dr
        drd     r1, \dr, 1
        shri    r2, r1, 24
        andi    r2, r2, 7               ; Kind
        addi    r2, r2, -1
        mov     r3, r4
        bnez    r2, 1f
        mul     r3, r1, r4              ; Stride (word 1 bits 15:0, signed) times r4
1:      dincb   \dr, r3
        .endm

; Saves d8..d15 and lr, takes the cursors y (d14) and x (d15) and the count (r5).
        .macro  DRIVER_ENTRY
        std     d8, math_dsave
        std     d9, math_dsave+8
        std     d10, math_dsave+16
        std     d11, math_dsave+24
        std     d12, math_dsave+32
        std     d13, math_dsave+40
        std     d14, math_dsave+48
        std     d15, math_dsave+56
        mov     r6, lr
        dmov    d14, d1
        dmov    d15, d2
        drd     r5, d2, 0
        shri    r5, r5, 16              ; Length (Rsvd0, bit 31, is 0 in a valid descriptor)
        .endm

; r4 = min(r5, MATH_BLOCK): the next block's length, also given to the x cursor.
        .macro  NEXT_BLOCK
        li      r4, MATH_BLOCK
        bgeu    r5, r4, 1f
        mov     r4, r5
1:      dsetl   d15, r4
        .endm

; math_vdrive32: f32 elements. Per block: d1 = y, d2 = x (length r4), then the kernel (r7).
; A fabin x is first copied to buffer 7, so that the kernel may read it more than once.
math_vdrive32:
        DRIVER_ENTRY
.Lv32_loop:
        beqz    r5, math_vdone
        NEXT_BLOCK
        dmov    d1, d14
        dmov    d2, d15
        drd     r1, d15, 1
        shri    r1, r1, 24
        andi    r1, r1, 7
        addi    r1, r1, -1
        beqz    r1, 2f                  ; mem1d: read x in place
        ldd     d2, math_b7f
        dsetl   d2, r4
        mov32   d2, d15
2:      jalr    lr, (r7)
        ADVANCE d14
        ADVANCE d15
        sub     r5, r5, r4
        j       .Lv32_loop

; math_vdrive16: f16 elements, widened exactly to f32 in buffer 7; the kernel's f32 result
; (written over buffer 7) is rounded to f16 into y.
math_vdrive16:
        DRIVER_ENTRY
.Lv16_loop:
        beqz    r5, math_vdone
        NEXT_BLOCK
        ldd     d2, math_b7f
        dsetl   d2, r4
        fh2s    d2, d15
        dmov    d1, d2
        jalr    lr, (r7)
        ldd     d2, math_b7f
        dsetl   d2, r4
        fs2h    d14, d2
        ADVANCE d14
        ADVANCE d15
        sub     r5, r5, r4
        j       .Lv16_loop

math_vdone:
        ldd     d8, math_dsave
        ldd     d9, math_dsave+8
        ldd     d10, math_dsave+16
        ldd     d11, math_dsave+24
        ldd     d12, math_dsave+32
        ldd     d13, math_dsave+40
        ldd     d14, math_dsave+48
        ldd     d15, math_dsave+56
        mov     lr, r6
        ret

; ---------------------------------------------------------------------------------------------
; Kernels: one block. d1 = y, d2 = x (f32, length r4). May use r1..r3 and d1..d13; return with
; ret. Each writes d1 only in its last operation, which reads neither d1 nor d2. The buffers
; named in each are chosen so that the two sources of an operation never fall on the same
; bank pair (buffer i lies at 4i mod 16, docs/isa.md 6.7).
; ---------------------------------------------------------------------------------------------

; e^x: as expf, but with x clamped to [-104, 89], e^r = 1 + (r1' + w) rounded twice, and 2^k
; applied as two factors always (p 2^floor(k/2) exact, then 2^ceil(k/2) rounded once), so that
; 89 overflows to +inf and -104 underflows to +0 by themselves. 30 operations.
math_kexp:
        VIEW    d3, math_b2f            ; Z: x clamped
        VIEW    d4, math_b3f            ; T: x/ln2 + magic; later |x|, then m
        VIEW    d5, math_b3i
        VIEW    d6, math_b0f            ; K: k; later 2^ceil(k/2)
        VIEW    d7, math_b0i
        VIEW    d8, math_b6f            ; R1: x - k*C1
        VIEW    d9, math_b4f            ; R: r, then r^2, then 2^floor(k/2)
        VIEW    d10, math_b4i
        VIEW    d11, math_b1f           ; Q: the polynomial, then e^x
        li      r1, 0xc2d00000          ; -104
        fmaxs   d3, d2, r1
        li      r1, 0x42b20000          ; 89
        fmins   d3, d3, r1
        li      r1, LOG2E
        fmuls   d4, d3, r1
        li      r1, MAGIC254
        fadds   d4, d4, r1              ; bits 0x4b400000 + 254 + k, k = round(Z/ln2)
        li      r1, NMAGIC254
        fadds   d6, d4, r1              ; k
        li      r1, NLN2_HI
        fmacs   d8, d3, d6, r1          ; r1' = Z - k*C1, exact
        li      r1, NLN2_LO
        fmacs   d9, d8, d6, r1          ; r
        li      r1, EXP_Q4
        fmuls   d11, d9, r1
        li      r1, EXP_Q3
        fadds   d11, d11, r1
        fmuls   d11, d11, d9
        li      r1, EXP_Q2
        fadds   d11, d11, r1
        fmuls   d11, d11, d9
        li      r1, EXP_Q1
        fadds   d11, d11, r1
        fmuls   d11, d11, d9
        li      r1, EXP_Q0
        fadds   d11, d11, r1            ; q(r)
        fmuls   d9, d9, d9              ; r^2
        fmuls   d11, d11, d9            ; r^2 q
        li      r1, NLN2_LO
        fmacs   d11, d11, d6, r1        ; w = r^2 q - k*C2
        fadds   d11, d11, d8            ; r1' + w = e^r - 1
        lui     r1, hi(ONE)
        fadds   d11, d11, r1            ; p = e^r
        li      r1, 1
        shr32   d7, d5, r1              ; h = T >> 1 (the 0x4b400000 part vanishes below)
        li      r1, 23
        shl32   d10, d7, r1             ; 2^floor(k/2)
        sub32   d7, d5, d7
        shl32   d7, d7, r1              ; 2^ceil(k/2)
        fmuls   d11, d11, d9            ; exact
        fmuls   d11, d11, d6            ; e^x, rounded once
        fabss   d4, d2
        lui     r1, hi(ONE)
        fadds   d4, d4, r1
        fdivs   d4, d3, d4              ; m = Z/(|x| + 1): finite unless x is NaN
        lui     r1, hi(NZERO)
        fmacs   d1, d11, d4, r1         ; y = e^x + m*(-0)
        ret

; ln x: as logf, with subnormals scaled by 2^32 through integer operations (a scale S of 1 or
; 2^32, chosen by the pattern of x), and the special values by a factor F on k:
; F = (sqrt(x) + 2^-149)/min(sqrt(x), FMAX) is 1 for x > 0 finite, +inf for +0 and +inf, -inf
; for -0 and NaN for x < 0 and NaN; k F C1 then makes the result. 33 operations.
math_klog:
        IVIEW   d3, d2                  ; x as integers
        VIEW    d4, math_b2i            ; S, then s, then sqrt(x)
        VIEW    d5, math_b2f
        VIEW    d6, math_b6i            ; U: the scaled x, then m, m + 1, z, f^2
        VIEW    d7, math_b6f
        VIEW    d8, math_b3i            ; E: k
        VIEW    d9, math_b3f
        VIEW    d10, math_b1f           ; FM: f = m - 1; later F
        VIEW    d11, math_b0f           ; W: the sum
        li      r1, 0xff800000          ; -0x00800000
        add32   d4, d3, r1
        li      r1, 31
        shr32   d4, d4, r1              ; 1 for +0, subnormals (and negative tiny x)
        li      r1, 28
        shl32   d4, d4, r1
        li      r1, ONE
        add32   d4, d4, r1              ; S: 1.0 or 2^32
        fmuls   d7, d2, d5              ; x S
        li      r1, 0x004afb0d          ; 1.0 - sqrt(0.5), as bit patterns
        add32   d6, d6, r1
        li      r1, 23
        shr32   d8, d6, r1
        shr32   d4, d4, r1              ; the exponent of S: 127 or 159
        sub32   d8, d8, d4              ; k
        fi2s    d9, d8
        li      r1, 0x007fffff
        and32   d6, d6, r1
        li      r1, 0x3f3504f3          ; sqrt(0.5)
        add32   d6, d6, r1              ; m in [sqrt(1/2), sqrt(2))
        lui     r1, hi(MONE)
        fadds   d10, d7, r1             ; f = m - 1, exact
        lui     r1, hi(ONE)
        fadds   d7, d7, r1              ; m + 1
        fdivs   d5, d10, d7             ; s = f/(m + 1)
        fmuls   d7, d5, d5              ; z
        li      r1, LOG_P2
        fmuls   d11, d7, r1
        li      r1, LOG_P1
        fadds   d11, d11, r1
        fmuls   d11, d11, d7
        li      r1, LOG_P0
        fadds   d11, d11, r1
        fmuls   d11, d11, d7            ; R' = 2R(z)
        fmuls   d7, d10, d10            ; f^2
        fadds   d11, d11, d7
        fmuls   d11, d11, d5
        fsubs   d11, d11, d7            ; s (f^2 + R') - f^2
        li      r1, LN2_LO_X2
        fmacs   d11, d11, d9, r1        ; + 2k C2
        lui     r1, hi(HALF)
        fmacs   d11, d10, d11, r1       ; f + W/2 = ln m + k C2
        fsqrts  d5, d2
        li      r1, TINY
        fadds   d10, d5, r1
        li      r1, FMAX
        fmins   d5, d5, r1
        fdivs   d10, d10, d5            ; F
        fmuls   d9, d9, d10             ; k F
        li      r1, LN2_HI
        fmacs   d1, d11, d9, r1         ; y = ln m + k C2 + k F C1
        ret

; tanh x = sign(x) (E/(E + 2)), E = expm1(2|x|) = 2^k (2h + h^2 q2(h)) + 2^k - 1 with
; 2|x| = k ln2 + 2h, |x| clamped to 9.1. 30 operations.
math_ktanh:
        IVIEW   d3, d2                  ; x as integers
        VIEW    d4, math_b6f            ; A: |x|, then m
        VIEW    d5, math_b3f            ; Z: |x| clamped
        VIEW    d6, math_b4f            ; T
        VIEW    d7, math_b4i
        VIEW    d8, math_b1f            ; K: k, then 2^k, then the sign of x
        VIEW    d9, math_b1i
        VIEW    d10, math_b2f           ; R1: h1 = Z - k*C1/2; later E + 2
        VIEW    d11, math_b5f           ; R: h, then h^2, then 2^k - 1
        VIEW    d12, math_b0f           ; Q: the polynomial, then tanh
        VIEW    d13, math_b0i
        fabss   d4, d2
        li      r1, 0x4111999a          ; 9.1
        fmins   d5, d4, r1
        lui     r1, hi(ONE)
        fadds   d4, d4, r1
        fdivs   d4, d5, d4              ; m = Z/(|x| + 1)
        li      r1, LOG2E_X2
        fmuls   d6, d5, r1
        li      r1, MAGIC127
        fadds   d6, d6, r1              ; bits 0x4b400000 + 127 + k, k = round(2Z/ln2)
        li      r1, NMAGIC127
        fadds   d8, d6, r1              ; k
        li      r1, NLN2_HI_H
        fmacs   d10, d5, d8, r1         ; h1 = Z - k*C1/2, exact
        li      r1, NLN2_LO_H
        fmacs   d11, d10, d8, r1        ; h
        li      r1, TANH_Q4
        fmuls   d12, d11, r1
        li      r1, TANH_Q3
        fadds   d12, d12, r1
        fmuls   d12, d12, d11
        li      r1, TANH_Q2
        fadds   d12, d12, r1
        fmuls   d12, d12, d11
        li      r1, TANH_Q1
        fadds   d12, d12, r1
        fmuls   d12, d12, d11
        li      r1, TANH_Q0
        fadds   d12, d12, r1            ; q2(h)
        fmuls   d11, d11, d11           ; h^2
        fmuls   d12, d12, d11
        li      r1, NLN2_LO
        fmacs   d12, d12, d8, r1        ; h^2 q2 - k*C2
        lui     r1, hi(TWO)
        fmacs   d12, d12, d10, r1       ; + 2 h1: expm1(2h)
        li      r1, 23
        shl32   d9, d7, r1              ; 2^k
        lui     r1, hi(MONE)
        fadds   d11, d8, r1             ; 2^k - 1
        fmuls   d12, d12, d8
        fadds   d12, d12, d11           ; E = expm1(2Z)
        lui     r1, hi(TWO)
        fadds   d10, d12, r1
        fdivs   d12, d12, d10           ; E/(E + 2) = tanh Z
        lui     r1, hi(NZERO)
        and32   d9, d3, r1
        or32    d13, d13, d9            ; with the sign of x
        fmacs   d1, d12, d4, r1         ; y = tanh + m*(-0)
        ret

; sigmoid x = n/(1 + e), e = e^-|x| as in math_kexp (|x| clamped to 104), n = min(max(x 2^100,
; e), 1): 1 for x >= 2^-100, e for x < 0 (and e = 1 between). 34 operations.
math_ksig:
        VIEW    d3, math_b5f            ; A: |x|, then m
        VIEW    d4, math_b4f            ; Z: |x| clamped
        VIEW    d5, math_b0f            ; T; later n
        VIEW    d6, math_b0i
        VIEW    d7, math_b2f            ; K: k, then 2^ceil(k/2)
        VIEW    d8, math_b2i
        VIEW    d9, math_b3f            ; R1: -r1' = Z + k*C1; later 1 + e
        VIEW    d10, math_b6f           ; R: -r, then r^2, then 2^floor(k/2)
        VIEW    d11, math_b6i
        VIEW    d12, math_b1f           ; Q: the polynomial, then e
        fabss   d3, d2
        lui     r1, 0x42d0              ; 104
        fmins   d4, d3, r1
        lui     r1, hi(ONE)
        fadds   d3, d3, r1
        fdivs   d3, d4, d3              ; m = Z/(|x| + 1)
        li      r1, NLOG2E
        fmuls   d5, d4, r1
        li      r1, MAGIC254
        fadds   d5, d5, r1              ; bits 0x4b400000 + 254 + k, k = round(-Z/ln2)
        li      r1, NMAGIC254
        fadds   d7, d5, r1              ; k
        li      r1, LN2_HI
        fmacs   d9, d4, d7, r1          ; Z + k*C1 = -r1', exact
        li      r1, LN2_LO
        fmacs   d10, d9, d7, r1         ; -r
        li      r1, EXP_Q4
        fmuls   d12, d10, r1            ; q(r) in -r: the odd coefficients negated
        li      r1, EXP_NQ3
        fadds   d12, d12, r1
        fmuls   d12, d12, d10
        li      r1, EXP_Q2
        fadds   d12, d12, r1
        fmuls   d12, d12, d10
        li      r1, EXP_NQ1
        fadds   d12, d12, r1
        fmuls   d12, d12, d10
        li      r1, EXP_Q0
        fadds   d12, d12, r1
        fmuls   d10, d10, d10           ; r^2
        fmuls   d12, d12, d10
        li      r1, NLN2_LO
        fmacs   d12, d12, d7, r1        ; w = r^2 q - k*C2
        fsubs   d12, d12, d9            ; r1' + w
        lui     r1, hi(ONE)
        fadds   d12, d12, r1            ; e^r
        li      r1, 1
        shr32   d8, d6, r1
        li      r1, 23
        shl32   d11, d8, r1             ; 2^floor(k/2)
        sub32   d8, d6, d8
        shl32   d8, d8, r1              ; 2^ceil(k/2)
        fmuls   d12, d12, d10
        fmuls   d12, d12, d7            ; e
        lui     r1, 0x7180              ; 2^100
        fmuls   d5, d2, r1
        fmaxs   d5, d5, d12
        lui     r1, hi(ONE)
        fmins   d5, d5, r1              ; n
        fadds   d9, d12, r1             ; 1 + e
        fdivs   d5, d5, d9
        lui     r1, hi(NZERO)
        fmacs   d1, d5, d3, r1          ; y = n/(1 + e) + m*(-0)
        ret

; 1/sqrt(x): buffer 0 holds ones (filled by vrsqrtf, vrsqrth). 2 operations.
math_krsqrt:
        VIEW    d3, math_b0f
        VIEW    d4, math_b1f
        fsqrts  d4, d2
        fdivs   d1, d3, d4
        ret

; ---------------------------------------------------------------------------------------------
        .data
; Descriptors of the scratch buffers, f32 and i32 views, MATH_BLOCK elements each.
        .dsd    math_b0f, mem1d, f32, base=math_buf+0*MATH_BUF, len=MATH_BLOCK
        .dsd    math_b0i, mem1d, i32, base=math_buf+0*MATH_BUF, len=MATH_BLOCK
        .dsd    math_b1f, mem1d, f32, base=math_buf+1*MATH_BUF, len=MATH_BLOCK
        .dsd    math_b1i, mem1d, i32, base=math_buf+1*MATH_BUF, len=MATH_BLOCK
        .dsd    math_b2f, mem1d, f32, base=math_buf+2*MATH_BUF, len=MATH_BLOCK
        .dsd    math_b2i, mem1d, i32, base=math_buf+2*MATH_BUF, len=MATH_BLOCK
        .dsd    math_b3f, mem1d, f32, base=math_buf+3*MATH_BUF, len=MATH_BLOCK
        .dsd    math_b3i, mem1d, i32, base=math_buf+3*MATH_BUF, len=MATH_BLOCK
        .dsd    math_b4f, mem1d, f32, base=math_buf+4*MATH_BUF, len=MATH_BLOCK
        .dsd    math_b4i, mem1d, i32, base=math_buf+4*MATH_BUF, len=MATH_BLOCK
        .dsd    math_b5f, mem1d, f32, base=math_buf+5*MATH_BUF, len=MATH_BLOCK
        .dsd    math_b6f, mem1d, f32, base=math_buf+6*MATH_BUF, len=MATH_BLOCK
        .dsd    math_b6i, mem1d, i32, base=math_buf+6*MATH_BUF, len=MATH_BLOCK
        .dsd    math_b7f, mem1d, f32, base=math_buf+7*MATH_BUF, len=MATH_BLOCK

        .bss
        .align  16
math_buf:
        .space  8*MATH_BUF              ; 8 buffers; buffer 7 holds x when it must be copied
        .align  8
math_dsave:
        .space  64                      ; d8..d15 during a vector routine
math_lr:
        .space  4                       ; lr during tanhf, sigmoidf
math_sign:
        .space  4                       ; x's sign (tanhf) or x (sigmoidf)
