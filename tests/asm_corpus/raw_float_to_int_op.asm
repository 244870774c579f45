.kernel k
    and.b32 %r1, %r2, 0f3F800000
    exit
