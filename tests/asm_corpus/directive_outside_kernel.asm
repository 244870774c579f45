.param .u32 n
.kernel k
    exit
