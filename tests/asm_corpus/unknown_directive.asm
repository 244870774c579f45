.kernel k
.global x 4
    exit
