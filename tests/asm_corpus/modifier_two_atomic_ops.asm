.kernel k
    atom.global.add.min.u32 %r1, [%r2], %r3
    exit
