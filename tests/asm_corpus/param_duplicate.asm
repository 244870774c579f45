.kernel k
.param .u32 n
.param .ptr n
    exit
