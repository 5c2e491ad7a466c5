"""Synthetic table renderer: frames with exact ground truth for tests, benchmarks and the demo.

`vision.synthetic.dice` draws dice; `vision.synthetic.table` draws the board, markers, figurines,
hands and the camera effects (perspective, lens distortion, light, glare, blur, noise).
"""
