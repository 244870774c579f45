.kernel k
    bar.sync 1
    exit
