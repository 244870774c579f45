.kernel k
    ld.global.v2.f32 {%r1, %r2, %r3}, [%r4]
    exit
