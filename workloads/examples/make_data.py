#!/usr/bin/env python3
"""workloads/examples/make_data.py -- writes the example workloads' .npy
files: the inputs (data/) and the expected results (expected/), computed
here with NumPy, independently of the simulator and of any C reference.
Run from anywhere with a python3 that has NumPy; the files are committed,
so the examples need neither to run."""
import os

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))


def save(rel, a):
    np.save(os.path.join(HERE, rel), a)


def main():
    rng = np.random.default_rng(20261201)
    # stencil: n floats in [-1, 1); out[i] = 0.25 in[i-1] + 0.5 in[i] + 0.25 in[i+1]
    n = 16384
    x = rng.uniform(-1, 1, n).astype('<f4')
    out = np.zeros(n, dtype='<f4')
    d = x.astype(np.float64)
    out[1:-1] = (0.25 * d[:-2] + 0.5 * d[1:-1] + 0.25 * d[2:]).astype('<f4')
    save('data/stencil_in.npy', x)
    save('expected/stencil_out.npy', out)
    # histogram: values 0..255, most of them near 128 (a peaked image-like
    # distribution: many lanes of a warp hit the same bins)
    m = 32768
    v = np.clip(np.rint(rng.normal(128, 24, m)), 0, 255).astype('<u4')
    save('data/hist_in.npy', v)
    save('expected/hist_bins.npy', np.bincount(v, minlength=256).astype('<u4'))


if __name__ == '__main__':
    main()
