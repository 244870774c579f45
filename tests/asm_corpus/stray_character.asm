.kernel k
    exit
    }
