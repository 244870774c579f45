.kernel k
    shfl.up.down.b32 %r1, %r2, 1
    exit
