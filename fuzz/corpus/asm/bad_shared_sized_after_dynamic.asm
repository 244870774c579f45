.kernel k
.shared a
.shared b 16
    exit
