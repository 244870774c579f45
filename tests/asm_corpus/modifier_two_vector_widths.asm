.kernel k
    ld.global.v2.v4.f32 %r1, [%r2]
    exit
