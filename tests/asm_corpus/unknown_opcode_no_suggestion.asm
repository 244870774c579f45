.kernel k
    frobnicate %r1
    exit
