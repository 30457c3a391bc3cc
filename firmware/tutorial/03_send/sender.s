; Tutorial 3, the sender (PE(0,0)): streams its N f32 values east on color C with an
; asynchronous fabout fmovs; the route of C on this PE takes them from the ramp to the east.
        .param  C
        .equ    N, 32

        .data
        .align  4
x:      .space  4*N
        .dsd    dx,   mem1d,  f32, base=x, len=N, stride=1
        .dsd    dout, fabout, f32, color=C, len=N
        .export x, f32, N

        .text
        .task   main, local, 0
        .task   sent, local, 1
        .export main
main:   ldd     d0, dout
        ldd     d1, dx
        fmovs   d0, d1, ut0 activate sent   ; N wavelets leave, one per cycle, in the background
        tend
sent:   li      r1, N
        dbg.u32 r1              ; "sent 32"
        tend
