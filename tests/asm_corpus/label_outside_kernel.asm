L:
.kernel k
    exit
