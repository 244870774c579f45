.kernel k
.shared tile 64
.shared tile 64
    exit
