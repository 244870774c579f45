.kernel k
    atom.global.min.f32 %r1, [%r2], 1.0
    exit
