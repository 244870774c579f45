.kernel k
    atom.global.cas.u32 %r1, [%r2], 1
    exit
