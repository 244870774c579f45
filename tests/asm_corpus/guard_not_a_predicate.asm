.kernel k
    @%r0 exit
    exit
