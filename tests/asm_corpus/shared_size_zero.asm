.kernel k
.shared tile 0
    exit
