.kernel a
HERE: exit
.kernel b
    bra HERE
    exit
