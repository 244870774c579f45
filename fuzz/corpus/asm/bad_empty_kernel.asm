.kernel k
.param .u32 n
.kernel j
    exit
