.kernel k
    ld.global.f32 {%r1, %r2}, [%r3]
    exit
