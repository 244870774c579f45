.kernel k
    ld.global.v4.f32 {%r1, %r2}, [%r3]
    exit
