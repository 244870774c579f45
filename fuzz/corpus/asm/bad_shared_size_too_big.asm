.kernel k
.shared tile 16777217
    exit
