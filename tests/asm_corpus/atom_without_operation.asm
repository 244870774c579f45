.kernel k
    atom.global.u32 %r1, [%r2], 1
    exit
