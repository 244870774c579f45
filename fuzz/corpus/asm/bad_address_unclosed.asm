.kernel k
    st.global.f32 [%r1+4, %r2
    exit
