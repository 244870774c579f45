.kernel k
    ld.global.f32 %r1, [64-%r3]
    exit
