.kernel k
    exit

.kernel k
    exit
