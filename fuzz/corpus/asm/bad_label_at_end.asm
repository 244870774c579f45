.kernel k
    @%p0 bra END
    exit
END:
