// a kernel file with a typo, for kernel_syntax_error.json
.kernel k
    mov.u32 %r0, %tid.x
    addd.u32 %r1, %r0, 1
    exit
