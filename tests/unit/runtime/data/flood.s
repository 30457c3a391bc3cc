; Test data of the performance counters (docs/profiling.md): PE(0,0) streams N = 200 wavelets
; east on color C with an asynchronous fabout; PE(1,0) has no program, so its CE never takes them:
; once the queues on the way are full, the microthread waits for output credits (ut_fabout).
        .param  C
        .equ    N, 200

        .data
        .align  4
x:      .space  4*N
        .dsd    dx,   mem1d,  f32, base=x, len=N, stride=1
        .dsd    dout, fabout, f32, color=C, len=N

        .text
        .task   main, local, 0
        .export main
main:   ldd     d0, dout
        ldd     d1, dx
        fmovs   d0, d1, ut0
        tend
