// a finite-looking literal beyond binary32: an error, not a silent inf
.kernel k
    mov.f32 %r0, 1e39
    exit
