.kernel k
    shfl.sync.b32 %r1, %r2, 1
    exit
