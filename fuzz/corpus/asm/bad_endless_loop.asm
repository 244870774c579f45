// the exit is never reached: every path loops forever
.kernel k
    mov.u32 %r1, 0
LOOP:
    add.u32 %r1, %r1, 1
    bra LOOP
    exit
