.kernel k
.shared tile -4
    exit
