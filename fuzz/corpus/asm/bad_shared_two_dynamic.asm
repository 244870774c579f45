.kernel k
.shared a
.shared b
    exit
