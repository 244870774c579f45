.kernel k
.regs 256
    exit
