.kernel k
.regs 32;
    exit
