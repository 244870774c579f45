.kernel k extra
    exit
