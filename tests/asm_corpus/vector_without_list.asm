.kernel k
    st.global.v2.f32 [%r1], %r2
    exit
