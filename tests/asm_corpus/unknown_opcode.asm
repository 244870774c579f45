// a typo in a mnemonic gets a suggestion
.kernel k
    ad.s32 %r1, %r2, %r3
    exit
