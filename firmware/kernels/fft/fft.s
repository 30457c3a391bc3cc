; 1-D FFT, radix 2, decimation in frequency, complex f32, across a row of Q PEs (docs/kernels.md,
; "fft"). Each row of the fabric transforms its own N = Q * NB points; PE x of the row holds
; points x*NB .. x*NB + NB - 1, real and imaginary parts in separate arrays. The output is in
; bit-reversed order of the row's N points.
;
; Stage s pairs point i with point i + h, h = N / 2^(s+1): lower a = x_i + x_(i+h), upper
; b = (x_i - x_(i+h)) * w. While h >= NB the partner is another PE (LOGQ cross stages): the two
; exchange their blocks (sending on microthreads, receiving into a buffer) and each computes its
; half. Then the LOGNB local stages work on views of the block: a mem4d view walks the lower
; halves of every span of 2h points (h points, then the next span), the same view shifted by h
; the upper halves, and a twiddle table of h values repeats for every span (stride 0).
;
; A complex product is four fmuls and an fsubs and an fadds (there is no vector-by-vector fused
; multiply-add): b_re = d_re w_re - d_im w_im, b_im = d_re w_im + d_im w_re.
        .param  NB              ; points per PE, a power of 2
        .param  LOGNB
        .param  LOGQ            ; cross stages (Q = 2^LOGQ <= 8)
        .param  LOW0 = 0        ; per cross stage: 1 if this PE holds the lower half,
        .param  LOW1 = 0        ; the color it sends on and the color it receives on
        .param  LOW2 = 0
        .param  SND0 = 0
        .param  SND1 = 0
        .param  SND2 = 0
        .param  RCV0 = 0
        .param  RCV1 = 0
        .param  RCV2 = 0

        .data
        .align  16
xr:     .space  4*NB            ; the points: real parts
        .space  8               ; each array 8 bytes off the previous modulo 16
xi:     .space  4*NB
        .space  8
yr:     .space  4*NB            ; the partner's block (cross stages)
        .space  8
yi:     .space  4*NB
        .space  8
dr:     .space  4*NB            ; temporaries
        .space  8
di:     .space  4*NB
        .space  8
t1:     .space  4*NB
        .space  8
t2:     .space  4*NB
        .space  8
twc_r:  .space  4*NB*3          ; cross stage s: NB twiddles from 4*NB*s
        .space  8
twc_i:  .space  4*NB*3
        .space  8
twl_r:  .space  4*NB            ; local stage with half h: h twiddles from NB - 2h
        .space  8
twl_i:  .space  4*NB
        .export xr, f32, NB
        .export xi, f32, NB
        .export twc_r, f32, 3*NB
        .export twc_i, f32, 3*NB
        .export twl_r, f32, NB
        .export twl_i, f32, NB
        .align  8
        .dsd    xrd, mem1d, f32, base=xr, len=NB
        .dsd    xid, mem1d, f32, base=xi, len=NB
        .dsd    yrd, mem1d, f32, base=yr, len=NB
        .dsd    yid, mem1d, f32, base=yi, len=NB
        .dsd    t1d, mem1d, f32, base=t1, len=NB
        .dsd    t2d, mem1d, f32, base=t2, len=NB
        .dsd    drd_, mem1d, f32, base=dr, len=NB
        .dsd    did_, mem1d, f32, base=di, len=NB
        ; (re, im) pairs: dimension 0 alternates between the arrays, dimension 1 walks the points
        .dsd    xpairs, mem4d, f32, base=xr, len=2, stride=(xi-xr)/4, len1=NB, stride1=1
        .dsd    ypairs, mem4d, f32, base=yr, len=2, stride=(yi-yr)/4, len1=NB, stride1=1

; A cross stage: S the stage, L its LOWs, SC and RC its colors. The block goes out and comes in
; as one stream of (re, im) pairs: a mem4d view alternates between the two arrays.
        .macro  CROSS s, l, sc, rc
        .data
        .align  8
        .dsd    co\@, fabout, f32, color=\sc, len=2*NB
        .dsd    ci\@, fabin, f32, color=\rc, len=2*NB
        .dsd    wr\@, mem1d, f32, base=twc_r+4*NB*\s, len=NB
        .dsd    wi\@, mem1d, f32, base=twc_i+4*NB*\s, len=NB
        .text
        ldd     d10, co\@
        ldd     d11, ci\@
        ldd     d0, xpairs
        ldd     d1, xpairs+8
        ldd     d2, ypairs
        ldd     d3, ypairs+8
        mov32   d10, d0, ut1 async      ; my block to the partner
        mov32   d2, d11                 ; the partner's block
        utwait  0x02
        ldd     d0, xrd
        ldd     d1, xid
        ldd     d2, yrd
        ldd     d3, yid
        .if     \l
        fadds   d0, d0, d2              ; a = x + y
        fadds   d1, d1, d3
        .else
        fsubs   d0, d2, d0              ; d = x - y (the partner holds x)
        fsubs   d1, d3, d1
        ldd     d4, wr\@
        ldd     d5, wi\@
        ldd     d6, t1d
        ldd     d7, t2d
        ldd     d8, drd_
        ldd     d9, did_
        fmuls   d6, d0, d4              ; d_re w_re
        fmuls   d7, d1, d5              ; d_im w_im
        fmuls   d8, d0, d5              ; d_re w_im
        fmuls   d9, d1, d4              ; d_im w_re
        fsubs   d0, d6, d7
        fadds   d1, d8, d9
        .endif
        .endm

; A local stage with half H: lower halves, upper halves and twiddles as mem4d views.
        .macro  LOCAL h
        .data
        .align  8
        .dsd    lr\@, mem4d, f32, base=xr, len=\h, len1=NB/(2*\h), stride1=2*\h
        .dsd    li\@, mem4d, f32, base=xi, len=\h, len1=NB/(2*\h), stride1=2*\h
        .dsd    ur\@, mem4d, f32, base=xr+4*\h, len=\h, len1=NB/(2*\h), stride1=2*\h
        .dsd    ui\@, mem4d, f32, base=xi+4*\h, len=\h, len1=NB/(2*\h), stride1=2*\h
        .dsd    wr\@, mem4d, f32, base=twl_r+4*(NB-2*\h), len=\h, len1=NB/(2*\h), stride1=0
        .dsd    wi\@, mem4d, f32, base=twl_i+4*(NB-2*\h), len=\h, len1=NB/(2*\h), stride1=0
        .dsd    tr\@, mem1d, f32, base=dr, len=NB/2
        .dsd    ti\@, mem1d, f32, base=di, len=NB/2
        .dsd    p1\@, mem1d, f32, base=t1, len=NB/2
        .dsd    p2\@, mem1d, f32, base=t2, len=NB/2
        .text
        ldd     d0, lr\@
        ldd     d1, lr\@+8
        ldd     d2, ur\@
        ldd     d3, ur\@+8
        ldd     d10, tr\@
        fsubs   d10, d0, d2             ; d_re = lower - upper
        fadds   d0, d0, d2              ; lower = lower + upper
        ldd     d0, li\@
        ldd     d1, li\@+8
        ldd     d2, ui\@
        ldd     d3, ui\@+8
        ldd     d11, ti\@
        fsubs   d11, d0, d2             ; d_im
        fadds   d0, d0, d2
        ldd     d4, wr\@
        ldd     d5, wr\@+8
        ldd     d6, wi\@
        ldd     d7, wi\@+8
        ldd     d12, p1\@
        ldd     d13, p2\@
        fmuls   d12, d10, d4            ; d_re w_re
        fmuls   d13, d11, d6            ; d_im w_im
        ldd     d2, ur\@
        ldd     d3, ur\@+8
        fsubs   d2, d12, d13            ; upper re
        fmuls   d12, d10, d6            ; d_re w_im
        fmuls   d13, d11, d4            ; d_im w_re
        ldd     d2, ui\@
        ldd     d3, ui\@+8
        fadds   d2, d12, d13            ; upper im
        .endm

        .text
        .task   main, local, 0
        .export main
main:
        .if     LOGQ > 0
        CROSS   0, LOW0, SND0, RCV0
        .endif
        .if     LOGQ > 1
        CROSS   1, LOW1, SND1, RCV1
        .endif
        .if     LOGQ > 2
        CROSS   2, LOW2, SND2, RCV2
        .endif
        .if     LOGNB > 0
        LOCAL   NB/2
        .endif
        .if     LOGNB > 1
        LOCAL   NB/4
        .endif
        .if     LOGNB > 2
        LOCAL   NB/8
        .endif
        .if     LOGNB > 3
        LOCAL   NB/16
        .endif
        .if     LOGNB > 4
        LOCAL   NB/32
        .endif
        .if     LOGNB > 5
        LOCAL   NB/64
        .endif
        .if     LOGNB > 6
        LOCAL   NB/128
        .endif
        .if     LOGNB > 7
        LOCAL   NB/256
        .endif
        .if     LOGNB > 8
        LOCAL   NB/512
        .endif
        tend
