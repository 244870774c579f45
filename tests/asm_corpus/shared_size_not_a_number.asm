.kernel k
.shared tile 4k
    exit
