.kernel k
    mov.b32.f32 %r1, %r2
    exit
