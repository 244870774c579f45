.kernel k
    atom.shared.exch.s32 %r1, [%r2], 1
    exit
